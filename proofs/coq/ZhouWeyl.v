(* zhou-compression Lemma 3.3 (Weyl-type lower bound), the eigenvector step, for every dimension p.

   Vectors and matrices of dimension p are functions on the indices 0 .. p-1; sums are finite
   (sumn). With Sigma_j = Sigma_1 - Delta: if the quadratic form of Sigma_1 is >= l1 |x|^2 for every x
   (l1 = lambda_min(Sigma_1), the Rayleigh bound) and the quadratic form of Delta is bounded by d |x|^2
   in absolute value (d = ||Delta||_2), then every eigenvalue lam of Sigma_j is >= l1 - d: in particular
   lambda_min(Sigma_j) >= lambda_min(Sigma_1) - ||Delta||_2. Not in Coq: that lambda_min(Sigma_1) bounds
   the quadratic form and that ||Delta||_2 bounds |x^T Delta x| (the spectral theorem, Cauchy-Schwarz),
   and that a symmetric matrix has a real eigenvector for its smallest eigenvalue. *)
Require Import Reals Lra Lia.
From DPVerify Require Export FiniteSums.
Open Scope R_scope.

Definition quad (p : nat) (A : nat -> nat -> R) (x : nat -> R) : R :=
  sumn p (fun i => x i * sumn p (fun j => A i j * x j)).

Definition sq (p : nat) (x : nat -> R) : R := sumn p (fun i => x i * x i).

Lemma quad_minus : forall p A B x,
  quad p (fun i j => A i j - B i j) x = quad p A x - quad p B x.
Proof.
  intros p A B x. unfold quad. rewrite <- sumn_minus. apply sumn_ext. intros i _.
  rewrite (sumn_ext p (fun j => (A i j - B i j) * x j) (fun j => A i j * x j - B i j * x j))
    by (intros; ring).
  rewrite sumn_minus. ring.
Qed.

(* every eigenvalue of Sigma_j = Sigma_1 - Delta is >= l1 - d *)
Theorem zhou_weyl_eigenvalue : forall (p : nat) (S1 D : nat -> nat -> R) (l1 d lam : R) (v : nat -> R),
  (forall x, quad p S1 x >= l1 * sq p x) ->
  (forall x, Rabs (quad p D x) <= d * sq p x) ->
  (forall i, (i < p)%nat -> sumn p (fun j => (S1 i j - D i j) * v j) = lam * v i) ->
  (exists k, (k < p)%nat /\ v k <> 0) ->
  lam >= l1 - d.
Proof.
  intros p S1 D l1 d lam v HS HD Heig [k [Hk Hv]].
  assert (Hq : quad p (fun i j => S1 i j - D i j) v = lam * sq p v).
  { unfold quad, sq. rewrite <- sumn_scal. apply sumn_ext. intros i Hi. rewrite Heig by exact Hi. ring. }
  rewrite quad_minus in Hq.
  assert (Hpos : 0 < sq p v).
  { unfold sq. apply (sumn_pos p _ k); [intros i _; apply Rle_0_sqr | exact Hk |].
    change (0 < Rsqr (v k)). apply Rsqr_pos_lt. exact Hv. }
  specialize (HS v). specialize (HD v).
  assert (Hd : quad p D v <= d * sq p v) by (apply Rle_trans with (Rabs (quad p D v)); [apply RRle_abs | exact HD]).
  assert (H : (lam - (l1 - d)) * sq p v >= 0) by nra.
  destruct (Rtotal_order lam (l1 - d)) as [Hlt|[Heq|Hgt]]; [|lra|lra].
  exfalso. assert (0 < (l1 - d - lam) * sq p v) by (apply Rmult_lt_0_compat; lra). lra.
Qed.

(* Proposition 3.1 (7), for every p: entries |Delta_lk| <= Delta_max give ||Delta||_F^2 <= p^2 Delta_max^2 *)
Lemma sumn_const : forall p c, sumn p (fun _ => c) = INR p * c.
Proof. induction p as [|k IH]; intros c; simpl sumn; [simpl; lra|]. rewrite IH, S_INR. ring. Qed.

Theorem zhou_frobenius_entry_bound : forall (p : nat) (D : nat -> nat -> R) (M : R),
  (forall i j, (i < p)%nat -> (j < p)%nat -> Rabs (D i j) <= M) ->
  sumn p (fun i => sumn p (fun j => D i j * D i j)) <= (INR p * M) * (INR p * M).
Proof.
  intros p D M H.
  apply Rle_trans with (sumn p (fun _ => sumn p (fun _ => M * M))).
  - apply sumn_le. intros i Hi. apply sumn_le. intros j Hj.
    specialize (H i j Hi Hj).
    assert (0 <= Rabs (D i j)) by apply Rabs_pos.
    replace (D i j * D i j) with (Rabs (D i j) * Rabs (D i j))
      by (rewrite <- Rabs_mult; apply Rabs_pos_eq; apply Rle_0_sqr).
    apply Rmult_le_compat; lra.
  - rewrite !sumn_const. right. ring.
Qed.
