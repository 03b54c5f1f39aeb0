(** * The Laurent-Massart scalar step (Chernoff route for the chi-square tail, every k).

    For 0 <= t < 1/2 and every k > 0:
      -(k/2) log(1 - 2t) - k t <= k t^2 / (1 - 2t).
    Proof: with y = 1 - 2t in (0, 1], it is ln y >= (y - 1/y)/2, and
    g(y) = ln y - (y - 1/y)/2 has g(1) = 0 and g'(y) = -(y - 1)^2 / (2 y^2) <= 0
    (mean value theorem of Coquelicot). *)
From Coq Require Import Reals Lra.
From Coquelicot Require Import Coquelicot.
Open Scope R_scope.

Definition g (y : R) : R := ln y - (y - / y) / 2.

Lemma g_derive : forall y, 0 < y -> is_derive g y (- (y - 1) ^ 2 / (2 * y ^ 2)).
Proof.
  intros y Hy. unfold g.
  auto_derive; [lra|]. field. lra.
Qed.

Lemma g_nonneg : forall y, 0 < y <= 1 -> 0 <= g y.
Proof.
  intros y Hy.
  destruct (MVT_gen g y 1 (fun c => - (c - 1) ^ 2 / (2 * c ^ 2))) as [c [Hc Hmvt]].
  - intros x Hx. apply g_derive.
    rewrite Rmin_left in Hx by lra. lra.
  - intros x Hx. rewrite Rmin_left in Hx by lra.
    assert (Hl : derivable_pt_lim g x (- (x - 1) ^ 2 / (2 * x ^ 2))).
    { apply is_derive_Reals. apply g_derive. lra. }
    apply (derivable_continuous_pt g x (exist _ _ Hl)).
  - rewrite Rmin_left in Hc by lra. rewrite Rmax_right in Hc by lra.
    assert (Hg1 : g 1 = 0) by (unfold g; rewrite ln_1, Rinv_1; lra).
    assert (Hd : - (c - 1) ^ 2 / (2 * c ^ 2) <= 0).
    { assert (Hc0 : 0 < 2 * c ^ 2) by nra.
      assert (Hq : 0 <= (c - 1) ^ 2 / (2 * c ^ 2)).
      { unfold Rdiv. apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; exact Hc0]. }
      unfold Rdiv in *. rewrite Ropp_mult_distr_l_reverse. lra. }
    assert (H1y : 0 <= 1 - y) by lra.
    assert (Hprod : - (c - 1) ^ 2 / (2 * c ^ 2) * (1 - y) <= 0) by nra.
    lra.
Qed.

Theorem laurent_massart_scalar : forall k t, 0 < k -> 0 <= t < 1 / 2 ->
  - (k / 2) * ln (1 - 2 * t) - k * t <= k * t ^ 2 / (1 - 2 * t).
Proof.
  intros k t Hk Ht.
  set (y := 1 - 2 * t).
  assert (Hy : 0 < y <= 1) by (unfold y; lra).
  pose proof (g_nonneg y Hy) as H. unfold g in H.
  (* -(1/2) ln y - t <= t^2 / y  follows from ln y >= (y - 1/y)/2 with t = (1 - y)/2 *)
  assert (Ht' : t = (1 - y) / 2) by (unfold y; lra).
  assert (Hkey : - (1 / 2) * ln y - t <= t ^ 2 / y).
  { rewrite Ht'.
    apply Rle_trans with (- (1 / 2) * ((y - / y) / 2) - (1 - y) / 2); [lra|].
    right. field. lra. }
  replace (- (k / 2) * ln y - k * t) with (k * (- (1 / 2) * ln y - t)) by field.
  replace (k * t ^ 2 / y) with (k * (t ^ 2 / y)) by (field; lra).
  apply Rmult_le_compat_l; lra.
Qed.
