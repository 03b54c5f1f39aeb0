(** * tu-projections Theorem 2: the quadratic for eps_1.

    eps_1 = (sqrt(2k log(2/delta) + 8k eps) - sqrt(2k log(2/delta))) / (4k) is the positive root
    of sqrt(2k log(2/delta)) x + 2k x^2 = eps, and under the theorem's hypotheses
    (0 < eps < 1, 0 < delta < 1/2, k >= 1 columns) it lies in (0, 1), so with
    e^x <= 1 + 2x ([ExpLinear.exp_le_1_plus_2x]) the advanced-composition budget of the proof,
    eps' = sqrt(2k log(2/delta)) eps_1 + k eps_1 (exp(eps_1) - 1), is at most eps.
    (The per-column mechanism and the composition theorem themselves are not formalised here.) *)
From Coq Require Import Reals Lra.
From DPVerify Require Import ExpLinear.
Open Scope R_scope.

Definition eps1 (eps delta k : R) : R :=
  (sqrt (2 * k * ln (2 / delta) + 8 * k * eps) - sqrt (2 * k * ln (2 / delta))) / (4 * k).

Lemma ln_two_over_delta : forall delta, 0 < delta < 1 / 2 -> 1 < ln (2 / delta).
Proof.
  intros delta Hd.
  rewrite <- (ln_exp 1). apply ln_increasing; [apply exp_pos|].
  pose proof exp_le_3.
  apply Rle_lt_trans with 3; [assumption|].
  apply Rmult_lt_reg_r with delta; [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

(** eps_1 is the positive root of the quadratic (for every eps > 0, k > 0, 0 < delta < 2). *)
Theorem tu_theorem2_quadratic : forall eps delta k, 0 < eps -> 0 < delta < 2 -> 0 < k ->
  let e1 := eps1 eps delta k in
  0 < e1 /\ sqrt (2 * k * ln (2 / delta)) * e1 + 2 * k * e1 ^ 2 = eps.
Proof.
  intros eps delta k He Hd Hk e1.
  assert (HA : 0 <= 2 * k * ln (2 / delta)).
  { assert (0 < ln (2 / delta)).
    { rewrite <- ln_1. apply ln_increasing; [lra|].
      apply Rmult_lt_reg_r with delta; [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
    nra. }
  set (A := 2 * k * ln (2 / delta)) in *.
  set (s := sqrt A). set (r := sqrt (A + 8 * k * eps)).
  assert (Hs2 : s * s = A) by (apply sqrt_sqrt; lra).
  assert (Hr2 : r * r = A + 8 * k * eps) by (apply sqrt_sqrt; nra).
  assert (Hs0 : 0 <= s) by apply sqrt_pos.
  assert (Hrs : s < r) by (apply sqrt_lt_1; nra).
  assert (He1 : e1 = (r - s) / (4 * k)) by reflexivity.
  split.
  - rewrite He1. unfold Rdiv. apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat; lra].
  - rewrite He1.
    replace (s * ((r - s) / (4 * k)) + 2 * k * ((r - s) / (4 * k)) ^ 2)
      with ((r * r - s * s) / (8 * k)) by (field; lra).
    rewrite Hr2, Hs2. field. lra.
Qed.

(** Under Theorem 2's hypotheses: 0 < eps_1 < 1 and the composition budget is at most eps. *)
Theorem tu_theorem2_budget : forall eps delta k, 0 < eps < 1 -> 0 < delta < 1 / 2 -> 1 <= k ->
  let e1 := eps1 eps delta k in
  0 < e1 < 1 /\
  sqrt (2 * k * ln (2 / delta)) * e1 + k * e1 * (exp e1 - 1) <= eps.
Proof.
  intros eps delta k He Hd Hk e1.
  destruct (tu_theorem2_quadratic eps delta k) as [Hpos Hq]; try lra.
  fold e1 in Hpos, Hq.
  pose proof (ln_two_over_delta delta Hd) as Hl.
  set (s := sqrt (2 * k * ln (2 / delta))) in *.
  assert (Hs1 : 1 <= s).
  { unfold s. rewrite <- sqrt_1. apply sqrt_le_1_alt. nra. }
  (* s e1 <= s e1 + 2k e1^2 = eps < 1, so e1 < 1 *)
  assert (Hlt : e1 < 1).
  { assert (0 <= 2 * k * e1 ^ 2) by nra. nra. }
  split; [lra|].
  pose proof (exp_le_1_plus_2x e1) as Hexp.
  assert (Hx : exp e1 - 1 <= 2 * e1) by (pose proof (Hexp ltac:(lra)); lra).
  assert (Hke : 0 <= k * e1) by nra.
  assert (Hb : k * e1 * (exp e1 - 1) <= k * e1 * (2 * e1)) by (apply Rmult_le_compat_l; assumption).
  replace (2 * k * e1 ^ 2) with (k * e1 * (2 * e1)) in Hq by field.
  lra.
Qed.
