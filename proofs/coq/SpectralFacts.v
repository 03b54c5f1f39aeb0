(** Generic consequences of an orthonormal eigendecomposition ([JiangDavisKahan.orth_eig]), used to discharge
    the Rayleigh premises of the matrix theorems: the extreme eigenvalues bound the quadratic form, an
    eigenvector attains its eigenvalue, and the Gram matrix X^T X of an n x d matrix is symmetric with
    x^T (X^T X) x = |X x|^2 and nonnegative eigenvalues. The standard library only. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan.
Open Scope R_scope.

Lemma dot_self_nonneg : forall d x, 0 <= dot d x x.
Proof. intros. unfold dot. apply sumn_nonneg. intros. apply Rle_0_sqr. Qed.

(** lambda_min |x|^2 <= x^T S x (lambda_min = lam (d - 1), the last of the nonincreasing eigenvalues) *)
Lemma rayleigh_lower : forall d S V lam, spectral d S V lam ->
  forall x, lam (d - 1)%nat * dot d x x <= quad d S x.
Proof.
  intros d S V lam HS x.
  rewrite (quad_of_spectral d S V lam x HS), (norm_of_spectral d S V lam x HS), sumn_mult_l.
  apply sumn_le. intros j Hj. destruct HS as [_ [_ Hsort]].
  assert (lam (d - 1)%nat <= lam j) by (apply Hsort; lia).
  assert (0 <= dot d (V j) x * dot d (V j) x) by apply Rle_0_sqr. nra.
Qed.

(** x^T S x <= lambda_max |x|^2 (lambda_max = lam 0) *)
Lemma rayleigh_upper : forall d S V lam, spectral d S V lam ->
  forall x, quad d S x <= lam 0%nat * dot d x x.
Proof.
  intros d S V lam HS x.
  rewrite (quad_of_spectral d S V lam x HS), (norm_of_spectral d S V lam x HS), sumn_mult_l.
  apply sumn_le. intros j Hj. destruct HS as [_ [_ Hsort]].
  assert (lam j <= lam 0%nat) by (apply Hsort; lia).
  assert (0 <= dot d (V j) x * dot d (V j) x) by apply Rle_0_sqr. nra.
Qed.

(** |x^T D x| <= max(|lam 0|, |lam (d-1)|) |x|^2: the spectral norm of a symmetric matrix bounds its quadratic form *)
Lemma quad_abs_bound : forall d D V lam, spectral d D V lam ->
  forall x, Rabs (quad d D x) <= Rmax (Rabs (lam 0%nat)) (Rabs (lam (d - 1)%nat)) * dot d x x.
Proof.
  intros d D V lam HD x.
  assert (H1 := rayleigh_lower d D V lam HD x). assert (H2 := rayleigh_upper d D V lam HD x).
  assert (Hs := dot_self_nonneg d x).
  assert (Ha : Rabs (lam 0%nat) <= Rmax (Rabs (lam 0%nat)) (Rabs (lam (d - 1)%nat))) by apply Rmax_l.
  assert (Hb : Rabs (lam (d - 1)%nat) <= Rmax (Rabs (lam 0%nat)) (Rabs (lam (d - 1)%nat))) by apply Rmax_r.
  set (m := Rmax (Rabs (lam 0%nat)) (Rabs (lam (d - 1)%nat))) in *.
  assert (lam 0%nat <= Rabs (lam 0%nat)) by apply RRle_abs.
  assert (- lam (d - 1)%nat <= Rabs (lam (d - 1)%nat)) by (rewrite <- Rabs_Ropp; apply RRle_abs).
  apply Rabs_le. split; nra.
Qed.

(** an eigenvector of the decomposition attains its eigenvalue: v_j^T A v_j = lam_j *)
Lemma quad_eigvec : forall d A V lam, orth_eig d A V lam -> forall j, (j < d)%nat -> quad d A (V j) = lam j.
Proof.
  intros d A V lam HV j Hj.
  assert (E : quad d A (V j) = lam j * dot d (V j) (V j)).
  { unfold quad. rewrite (sumn_ext d _ (fun a => lam j * (V j a * V j a))).
    - unfold dot. rewrite sumn_scal. reflexivity.
    - intros a Ha. change (sumn d (fun b => A a b * V j b)) with (mv d A (V j) a).
      rewrite (eigvec d A V lam HV j a Hj Ha). ring. }
  destruct HV as [_ Hc]. rewrite E, (Hc j j Hj Hj). destruct (Nat.eq_dec j j); [ring | congruence].
Qed.

Lemma orth_eig_spectral : forall d A V lam, orth_eig d A V lam -> spectral d A V lam.
Proof. intros d A V lam [H _]. exact H. Qed.

(** the Gram matrix X^T X of an n x d matrix X *)
Definition gram (n d : nat) (X : nat -> nat -> R) : nat -> nat -> R := fun a b => sumn n (fun i => X i a * X i b).

Lemma gram_sym : forall n d X a b, (a < d)%nat -> (b < d)%nat -> gram n d X a b = gram n d X b a.
Proof. intros. unfold gram. apply sumn_ext. intros; ring. Qed.

(** x^T (X^T X) x = |X x|^2 *)
Lemma quad_gram : forall n d X x,
  quad d (gram n d X) x = sumn n (fun i => sumn d (fun a => X i a * x a) * sumn d (fun b => X i b * x b)).
Proof.
  intros n d X x.
  rewrite (sum_prod_swap n d (fun i a => X i a * x a) (fun i b => X i b * x b)).
  unfold quad, gram. apply sumn_ext. intros a _. rewrite sumn_mult_l. apply sumn_ext. intros b _.
  rewrite sumn_mult_r, sumn_mult_l. apply sumn_ext. intros; ring.
Qed.

Lemma quad_gram_nonneg : forall n d X x, 0 <= quad d (gram n d X) x.
Proof. intros. rewrite quad_gram. apply sumn_nonneg. intros. apply Rle_0_sqr. Qed.

(** the eigenvalues of X^T X are >= 0 *)
Lemma gram_eig_nonneg : forall n d X V lam, orth_eig d (gram n d X) V lam -> forall j, (j < d)%nat -> 0 <= lam j.
Proof.
  intros n d X V lam HV j Hj. rewrite <- (quad_eigvec d _ V lam HV j Hj). apply quad_gram_nonneg.
Qed.

(** a vector of the decomposition is nonzero (it has norm 1) *)
Lemma eigvec_nonzero : forall d A V lam, orth_eig d A V lam -> forall j, (j < d)%nat ->
  exists a, (a < d)%nat /\ V j a <> 0.
Proof.
  intros d A V lam [_ Hc] j Hj. specialize (Hc j j Hj Hj). destruct (Nat.eq_dec j j) as [_|C]; [|congruence].
  destruct (all_zero_or_not d (V j)) as [Hz|Hnz]; [|exact Hnz].
  exfalso. unfold dot in Hc. rewrite sumn_zero in Hc; [lra|]. intros a Ha. rewrite (Hz a Ha). ring.
Qed.

(** the extreme eigenvalues are the Rayleigh extremes: the largest lower bound and the least upper bound *)
Lemma lmin_least : forall d A V lam, (0 < d)%nat -> orth_eig d A V lam ->
  forall a, (forall x, a * dot d x x <= quad d A x) -> a <= lam (d - 1)%nat.
Proof.
  intros d A V lam Hd HV a H. specialize (H (V (d - 1)%nat)).
  rewrite (quad_eigvec d A V lam HV (d - 1)%nat) in H by lia.
  destruct HV as [_ Hc]. rewrite (Hc (d - 1)%nat (d - 1)%nat) in H by lia.
  destruct (Nat.eq_dec (d - 1) (d - 1)); [lra | congruence].
Qed.

Lemma eig_sorted : forall d A V lam, orth_eig d A V lam -> forall i j, (i <= j)%nat -> (j < d)%nat -> lam j <= lam i.
Proof. intros d A V lam [[_ [_ Hs]] _]. exact Hs. Qed.
