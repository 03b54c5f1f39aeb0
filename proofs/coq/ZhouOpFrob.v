(* zhou-compression Theorem 3.2, one step: ||Gamma||_2 <= ||Gamma||_F, for every dimension p, with ||.||_2 under its
   Rayleigh definition (the least g with |x^T Gamma x| <= g |x|^2 for all x): every c >= 0 with ||Gamma||_F^2 <= c^2
   is such a g (opnorm_le_frobenius). Theorem 3.2 uses it to meet Theorem 4.6's hypothesis ||Sigma_1||_2 ||Gamma||_2
   <= 1/2 once ||Sigma_1||_2 ||Gamma||_F <= 1/2 (||Gamma||_F <= ||Delta||_F/(l_i l_1) -> 0).
   Route: |x^T G x| <= sum_ij |G_ij| |x_i| |x_j| and 2 |G_ij| |x_i x_j| <= lam G_ij^2 + (x_i x_j)^2 / lam, summed:
   2 |x^T G x| <= lam ||G||_F^2 + |x|^4 / lam; lam = |x|^2 / c (and lam -> oo when c = 0). The standard library only. *)
Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh.
Open Scope R_scope.

(* 2 |x^T G x| <= lam ||G||_F^2 + |x|^4 / lam for every lam > 0 *)
Lemma quad_amgm : forall p (G : nat -> nat -> R) (x : nat -> R) lam, 0 < lam ->
  2 * Rabs (quad p G x) <= lam * frob2 p G + sq p x * sq p x / lam.
Proof.
  intros p G x lam Hl.
  assert (Hq : quad p G x = sumn p (fun i => sumn p (fun j => G i j * (x i * x j)))).
  { unfold quad. apply sumn_ext. intros i _. rewrite <- sumn_scal. apply sumn_ext. intros j _. ring. }
  assert (Hx : sq p x * sq p x / lam = sumn p (fun i => sumn p (fun j => (x i * x j) * (x i * x j) / lam))).
  { transitivity (sumn p (fun i => (x i * x i / lam) * sq p x)).
    - rewrite (sumn_ext p (fun i => (x i * x i / lam) * sq p x) (fun i => sq p x * (x i * x i / lam)))
        by (intros; ring).
      rewrite sumn_scal. unfold sq at 2. unfold Rdiv at 2.
      rewrite (sumn_ext p (fun i => x i * x i * / lam) (fun i => / lam * (x i * x i))) by (intros; ring).
      rewrite sumn_scal. unfold Rdiv. ring.
    - apply sumn_ext. intros i _. unfold sq. rewrite <- sumn_scal. apply sumn_ext. intros j _. field. lra. }
  rewrite Hq, Hx. unfold frob2. rewrite <- (sumn_scal p lam), <- sumn_plus.
  eapply Rle_trans; [apply Rmult_le_compat_l; [lra | apply sumn_abs]|].
  rewrite <- sumn_scal. apply sumn_le. intros i _.
  eapply Rle_trans; [apply Rmult_le_compat_l; [lra | apply sumn_abs]|].
  rewrite <- sumn_scal, <- (sumn_scal p lam), <- sumn_plus. apply sumn_le. intros j _.
  set (a := G i j). set (b := x i * x j).
  assert (Hab : 2 * Rabs (a * b) <= lam * (a * a) + b * b / lam).
  { rewrite Rabs_mult.
    assert (Ea : a * a = Rabs a * Rabs a) by (rewrite <- Rabs_mult; symmetry; apply Rabs_pos_eq; apply Rle_0_sqr).
    assert (Eb : b * b = Rabs b * Rabs b) by (rewrite <- Rabs_mult; symmetry; apply Rabs_pos_eq; apply Rle_0_sqr).
    rewrite Ea, Eb.
    assert (E : lam * (Rabs a * Rabs a) + Rabs b * Rabs b / lam - 2 * (Rabs a * Rabs b)
                = / lam * ((lam * Rabs a - Rabs b) * (lam * Rabs a - Rabs b))) by (field; lra).
    assert (0 <= / lam * ((lam * Rabs a - Rabs b) * (lam * Rabs a - Rabs b)))
      by (apply Rmult_le_pos; [left; apply Rinv_0_lt_compat; exact Hl | apply Rle_0_sqr]).
    lra. }
  exact Hab.
Qed.

Lemma sq_nonneg : forall p x, 0 <= sq p x.
Proof. intros. unfold sq. apply sumn_nonneg. intros. apply Rle_0_sqr. Qed.

Lemma frob2_nonneg : forall p G, 0 <= frob2 p G.
Proof. intros. unfold frob2. apply sumn_nonneg. intros. apply sumn_nonneg. intros. apply Rle_0_sqr. Qed.

Theorem opnorm_le_frobenius : forall p (G : nat -> nat -> R) c, 0 <= c -> frob2 p G <= c * c ->
  forall x, Rabs (quad p G x) <= c * sq p x.
Proof.
  intros p G c Hc HF x.
  pose proof (sq_nonneg p x) as Hs. pose proof (frob2_nonneg p G) as Hf.
  destruct (Req_dec (sq p x) 0) as [Hs0|Hs0].
  - (* |x|^2 = 0: 2|q| <= lam ||G||_F^2 for every lam > 0, so q = 0 *)
    rewrite Hs0, Rmult_0_r.
    destruct (Rle_or_lt (Rabs (quad p G x)) 0) as [|Hpos]; [exact H|].
    pose proof (quad_amgm p G x (Rabs (quad p G x) / (frob2 p G + 1)) ltac:(apply Rdiv_lt_0_compat; lra)) as H.
    rewrite Hs0 in H. replace (0 * 0 / (Rabs (quad p G x) / (frob2 p G + 1))) with 0 in H by (field; split; lra).
    rewrite Rplus_0_r in H.
    assert (Rabs (quad p G x) / (frob2 p G + 1) * frob2 p G <= Rabs (quad p G x) / (frob2 p G + 1) * (frob2 p G + 1))
      by (apply Rmult_le_compat_l; [left; apply Rdiv_lt_0_compat; lra | lra]).
    replace (Rabs (quad p G x) / (frob2 p G + 1) * (frob2 p G + 1)) with (Rabs (quad p G x)) in H0 by (field; lra).
    lra.
  - assert (Hsp : 0 < sq p x) by lra.
    destruct (Req_dec c 0) as [Hc0|Hc0].
    + (* ||G||_F = 0: 2|q| <= |x|^4 / lam for every lam, so q = 0 *)
      subst c. assert (Hf0 : frob2 p G = 0) by nra. rewrite Rmult_0_l.
      destruct (Rle_or_lt (Rabs (quad p G x)) 0) as [|Hpos]; [exact H|].
      pose proof (quad_amgm p G x (sq p x * sq p x / Rabs (quad p G x)) ltac:(apply Rdiv_lt_0_compat; nra)) as H.
      rewrite Hf0, Rmult_0_r, Rplus_0_l in H.
      replace (sq p x * sq p x / (sq p x * sq p x / Rabs (quad p G x))) with (Rabs (quad p G x)) in H
        by (field; split; nra).
      lra.
    + pose proof (quad_amgm p G x (sq p x / c) ltac:(apply Rdiv_lt_0_compat; lra)) as H.
      assert (sq p x / c * frob2 p G <= sq p x / c * (c * c))
        by (apply Rmult_le_compat_l; [left; apply Rdiv_lt_0_compat; lra | exact HF]).
      replace (sq p x / c * (c * c)) with (c * sq p x) in H0 by (field; lra).
      replace (sq p x * sq p x / (sq p x / c)) with (c * sq p x) in H by (field; lra).
      lra.
Qed.
