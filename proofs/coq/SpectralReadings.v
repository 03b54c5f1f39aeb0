(** The eigenvalue readings of the spectral corollaries agree with the variational definitions the earlier theorems
    used (no spectral theorem needed for this direction): for an orthonormal eigendecomposition [orth_eig p S V l]
    (p >= 1, l nonincreasing),
    - l (p - 1) is lambda_min(S) under its Rayleigh definition ([ZhouRayleigh.is_lmin]: the largest a with
      x^T S x >= a |x|^2 for all x);
    - max(|l 0|, |l (p - 1)|) is ||S||_2 both as the least bound of |x^T S x| / |x|^2 ([ZhouRayleigh.is_opnorm]) and as
      the operator norm ([JiangDavisKahan.is_norm2]: the least b with |S x| <= b |x|);
    - for the Gram matrix X^T X, l (d - 1) is the largest s with s |x|^2 <= |X x|^2 (sigma_min^2) and l 0 the least S
      with |X x|^2 <= S |x|^2 (sigma_max^2). *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan SpectralFacts.
From DPVerify Require ZhouWeyl ZhouRayleigh.
Open Scope R_scope.

Lemma unit_eigvec : forall p S V l j, orth_eig p S V l -> (j < p)%nat -> dot p (V j) (V j) = 1.
Proof.
  intros p S V l j [_ Hc] Hj. rewrite (Hc j j Hj Hj). destruct (Nat.eq_dec j j); [reflexivity | congruence].
Qed.

Lemma lmax_least : forall d A V lam, (0 < d)%nat -> orth_eig d A V lam ->
  forall b, (forall x, quad d A x <= b * dot d x x) -> lam 0%nat <= b.
Proof.
  intros d A V lam Hd HV b H. specialize (H (V 0%nat)).
  rewrite (quad_eigvec d A V lam HV 0%nat), (unit_eigvec d A V lam 0%nat HV) in H by lia. lra.
Qed.

Theorem eig_is_lmin : forall p S V l, (0 < p)%nat -> orth_eig p S V l -> ZhouRayleigh.is_lmin p S (l (p - 1)%nat).
Proof.
  intros p S V l Hp HV. split.
  - intros x. apply Rle_ge. exact (rayleigh_lower p S V l (orth_eig_spectral _ _ _ _ HV) x).
  - intros a Ha. apply (lmin_least p S V l Hp HV). intros x. apply Rge_le. exact (Ha x).
Qed.

Lemma abs_le_max : forall p S V l j, orth_eig p S V l -> (j < p)%nat ->
  Rabs (l j) <= Rmax (Rabs (l 0%nat)) (Rabs (l (p - 1)%nat)).
Proof.
  intros p S V l j HV Hj.
  assert (H1 : l j <= l 0%nat) by (apply (eig_sorted p S V l HV); lia).
  assert (H2 : l (p - 1)%nat <= l j) by (apply (eig_sorted p S V l HV); lia).
  assert (Ha := Rmax_l (Rabs (l 0%nat)) (Rabs (l (p - 1)%nat))).
  assert (Hb := Rmax_r (Rabs (l 0%nat)) (Rabs (l (p - 1)%nat))).
  assert (l 0%nat <= Rabs (l 0%nat)) by apply RRle_abs.
  assert (- l (p - 1)%nat <= Rabs (l (p - 1)%nat)) by (rewrite <- Rabs_Ropp; apply RRle_abs).
  apply Rabs_le. split; lra.
Qed.

Theorem eig_is_opnorm : forall p D V l, (0 < p)%nat -> orth_eig p D V l ->
  ZhouRayleigh.is_opnorm p D (Rmax (Rabs (l 0%nat)) (Rabs (l (p - 1)%nat))).
Proof.
  intros p D V l Hp HV. split.
  - intros x. exact (quad_abs_bound p D V l (orth_eig_spectral _ _ _ _ HV) x).
  - intros c Hc. apply Rmax_lub.
    + specialize (Hc (V 0%nat)). change (ZhouWeyl.quad p D (V 0%nat)) with (quad p D (V 0%nat)) in Hc.
      change (ZhouWeyl.sq p (V 0%nat)) with (dot p (V 0%nat) (V 0%nat)) in Hc.
      rewrite (quad_eigvec p D V l HV 0%nat), (unit_eigvec p D V l 0%nat HV) in Hc by lia. lra.
    + specialize (Hc (V (p - 1)%nat)). change (ZhouWeyl.quad p D (V (p - 1)%nat)) with (quad p D (V (p - 1)%nat)) in Hc.
      change (ZhouWeyl.sq p (V (p - 1)%nat)) with (dot p (V (p - 1)%nat) (V (p - 1)%nat)) in Hc.
      rewrite (quad_eigvec p D V l HV (p - 1)%nat), (unit_eigvec p D V l (p - 1)%nat HV) in Hc by lia. lra.
Qed.

(** the coordinates of D x in the eigenbasis: v_j . (D x) = l_j (v_j . x) *)
Lemma coord_mv : forall p D V l x j, orth_eig p D V l -> (j < p)%nat -> dot p (V j) (mv p D x) = l j * dot p (V j) x.
Proof.
  intros p D V l x j HV Hj. unfold dot. rewrite dot_mv_swap.
  rewrite sumn_mult_l. apply sumn_ext. intros b Hb.
  assert (E : mvT p D (V j) b = l j * V j b).
  { rewrite <- (eigvec p D V l HV j b Hj Hb). unfold mvT, mv. apply sumn_ext. intros a Ha.
    rewrite (sym_of_spectral p D V l (orth_eig_spectral _ _ _ _ HV) a b Ha Hb). ring. }
  rewrite E. ring.
Qed.

Theorem eig_is_norm2 : forall p D V l, (0 < p)%nat -> orth_eig p D V l ->
  is_norm2 p D (Rmax (Rabs (l 0%nat)) (Rabs (l (p - 1)%nat))).
Proof.
  intros p D V l Hp HV. set (m := Rmax (Rabs (l 0%nat)) (Rabs (l (p - 1)%nat))).
  assert (Hm0 : 0 <= m) by (apply (Rle_trans _ (Rabs (l 0%nat))); [apply Rabs_pos | apply Rmax_l]).
  assert (HS := orth_eig_spectral _ _ _ _ HV).
  (* |l_j| |v_j| is |D v_j| *)
  assert (Hvj : forall j, (j < p)%nat -> vnorm p (mv p D (V j)) = Rabs (l j)).
  { intros j Hj. unfold vnorm.
    rewrite (nrm2_ext p _ (fun a => l j * V j a)) by (intros a Ha; apply (eigvec p D V l HV j a Hj Ha)).
    unfold nrm2. rewrite (sumn_ext p _ (fun a => (l j * l j) * (V j a * V j a))) by (intros; ring).
    rewrite sumn_scal. change (sumn p (fun a => V j a * V j a)) with (dot p (V j) (V j)).
    rewrite (unit_eigvec p D V l j HV Hj), Rmult_1_r. rewrite <- sqrt_Rsqr_abs. reflexivity. }
  assert (Hnj : forall j, (j < p)%nat -> vnorm p (V j) = 1).
  { intros j Hj. unfold vnorm. change (nrm2 p (V j)) with (dot p (V j) (V j)).
    rewrite (unit_eigvec p D V l j HV Hj). apply sqrt_1. }
  split.
  - apply norm_of_bound_sq; [exact Hm0|]. intros x.
    rewrite (parseval p D V l (mv p D x) HS), (parseval p D V l x HS), sumn_mult_l.
    apply sumn_le. intros j Hj. rewrite (coord_mv p D V l x j HV Hj).
    assert (Ha := abs_le_max p D V l j HV Hj). fold m in Ha.
    assert (Hl : l j * l j <= m * m).
    { assert (E : Rabs (l j) * Rabs (l j) = l j * l j)
        by (rewrite <- Rabs_mult; apply Rabs_pos_eq; apply Rle_0_sqr).
      assert (0 <= Rabs (l j)) by apply Rabs_pos. nra. }
    assert (0 <= dot p (V j) x * dot p (V j) x) by apply Rle_0_sqr.
    replace (l j * dot p (V j) x * (l j * dot p (V j) x)) with ((l j * l j) * (dot p (V j) x * dot p (V j) x)) by ring.
    nra.
  - intros c Hc. unfold m. apply Rmax_lub.
    + specialize (Hc (V 0%nat)). rewrite (Hvj 0%nat), (Hnj 0%nat) in Hc by lia. lra.
    + specialize (Hc (V (p - 1)%nat)). rewrite (Hvj (p - 1)%nat), (Hnj (p - 1)%nat) in Hc by lia. lra.
Qed.

(** sigma_min(X)^2 = l (d - 1) and sigma_max(X)^2 = l 0 under their Rayleigh definitions (|X x|^2 = x^T X^T X x) *)
Theorem gram_lmin_greatest : forall n d X V l, (0 < d)%nat -> orth_eig d (gram n d X) V l ->
  (forall x, l (d - 1)%nat * dot d x x <= quad d (gram n d X) x) /\
  (forall s, (forall x, s * dot d x x <= quad d (gram n d X) x) -> s <= l (d - 1)%nat).
Proof.
  intros n d X V l Hd HV. split.
  - exact (rayleigh_lower d _ V l (orth_eig_spectral _ _ _ _ HV)).
  - exact (lmin_least d _ V l Hd HV).
Qed.

Theorem gram_lmax_least : forall n d X V l, (0 < d)%nat -> orth_eig d (gram n d X) V l ->
  (forall x, quad d (gram n d X) x <= l 0%nat * dot d x x) /\
  (forall S, (forall x, quad d (gram n d X) x <= S * dot d x x) -> l 0%nat <= S).
Proof.
  intros n d X V l Hd HV. split.
  - exact (rayleigh_upper d _ V l (orth_eig_spectral _ _ _ _ HV)).
  - exact (lmax_least d _ V l Hd HV).
Qed.
