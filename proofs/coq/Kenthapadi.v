(** * The Kenthapadi et al. Gaussian mechanism (tu-projections Lemma 2): the variance step.

    sigma^2 = 2 Delta^2 (L + eps) / eps^2 with L = log(1/(2 delta)), 0 < delta < 1/2.
    With t = eps sigma / Delta - Delta / (2 sigma) (the standardised threshold of the noise
    beyond which the privacy loss exceeds eps):
      - the identity  t^2 - (2L + eps) = eps^2 / (8 (L + eps))  for all L, eps > 0;
      - the loss (Delta^2 + 2 z Delta) / (2 sigma^2) of the output f(D) + z against
        f(D') = f(D) - Delta is <= eps for every noise value z <= sigma t;
      - (1/2) exp(-t^2/2) <= delta.
    The remaining step of the lemma, P(N(0,1) > t) <= (1/2) exp(-t^2/2) for t >= 0 (a
    Gaussian tail bound), is not formalised here. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

Definition kenthapadi_sigma (eps L Delta : R) : R := Delta * sqrt (2 * (L + eps)) / eps.

Definition threshold (eps Delta sigma : R) : R := eps * sigma / Delta - Delta / (2 * sigma).

(** The identity, for all L, eps > 0 (and every sensitivity Delta > 0). *)
Theorem kenthapadi_identity : forall L eps Delta, 0 < L -> 0 < eps -> 0 < Delta ->
  let t := threshold eps Delta (kenthapadi_sigma eps L Delta) in
  t ^ 2 - (2 * L + eps) = eps ^ 2 / (8 * (L + eps)).
Proof.
  intros L eps Delta HL He HD t.
  set (r := sqrt (2 * (L + eps))).
  assert (Hr : 0 < r) by (apply sqrt_lt_R0; lra).
  assert (Hr2 : r * r = 2 * (L + eps)) by (apply sqrt_sqrt; lra).
  assert (Ht : t = r - eps / (2 * r)).
  { unfold t, threshold, kenthapadi_sigma. fold r. field. repeat split; lra. }
  rewrite Ht.
  replace (2 * L + eps) with (r * r - eps) by lra.
  replace (8 * (L + eps)) with (4 * (r * r)) by lra.
  field. lra.
Qed.

Lemma threshold_pos : forall L eps Delta, 0 < L -> 0 < eps -> 0 < Delta ->
  0 < threshold eps Delta (kenthapadi_sigma eps L Delta).
Proof.
  intros L eps Delta HL He HD.
  set (r := sqrt (2 * (L + eps))).
  assert (Hr : 0 < r) by (apply sqrt_lt_R0; lra).
  assert (Hr2 : r * r = 2 * (L + eps)) by (apply sqrt_sqrt; lra).
  replace (threshold eps Delta (kenthapadi_sigma eps L Delta)) with ((2 * (r * r) - eps) / (2 * r)).
  - unfold Rdiv. apply Rmult_lt_0_compat; [nra | apply Rinv_0_lt_compat; lra].
  - unfold threshold, kenthapadi_sigma. fold r. field. repeat split; lra.
Qed.

(** The privacy loss is at most eps whenever the noise stays below sigma * t. *)
Theorem kenthapadi_loss_below_threshold : forall L eps Delta z, 0 < L -> 0 < eps -> 0 < Delta ->
  let sigma := kenthapadi_sigma eps L Delta in
  z <= sigma * threshold eps Delta sigma ->
  (Delta ^ 2 + 2 * z * Delta) / (2 * sigma ^ 2) <= eps.
Proof.
  intros L eps Delta z HL He HD sigma Hz.
  assert (Hs : 0 < sigma).
  { unfold sigma, kenthapadi_sigma. unfold Rdiv.
    apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat; [lra | apply sqrt_lt_R0; lra] | apply Rinv_0_lt_compat; lra]. }
  replace (sigma * threshold eps Delta sigma) with (eps * sigma ^ 2 / Delta - Delta / 2) in Hz
    by (unfold threshold; field; lra).
  assert (Hz' : z * Delta <= eps * sigma ^ 2 - Delta ^ 2 / 2).
  { apply Rmult_le_compat_r with (r := Delta) in Hz; [|lra].
    replace ((eps * sigma ^ 2 / Delta - Delta / 2) * Delta) with (eps * sigma ^ 2 - Delta ^ 2 / 2) in Hz
      by (field; lra). exact Hz. }
  apply Rmult_le_reg_r with (2 * sigma ^ 2); [nra|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by nra. nra.
Qed.

(** With L = log(1/(2 delta)) for 0 < delta < 1/2: (1/2) exp(-t^2/2) <= delta. *)
Theorem kenthapadi_tail_level : forall eps delta Delta, 0 < eps -> 0 < delta < 1 / 2 -> 0 < Delta ->
  let L := ln (1 / (2 * delta)) in
  let t := threshold eps Delta (kenthapadi_sigma eps L Delta) in
  0 < t /\ t ^ 2 >= 2 * L + eps /\ / 2 * exp (- t ^ 2 / 2) <= delta.
Proof.
  intros eps delta Delta He Hd HD L t.
  assert (HL : 0 < L).
  { unfold L. rewrite <- ln_1. apply ln_increasing; [lra|].
    apply Rmult_lt_reg_r with (2 * delta); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  pose proof (kenthapadi_identity L eps Delta HL He HD) as Hid. simpl in Hid. fold t in Hid.
  assert (Hpos : 0 < eps ^ 2 / (8 * (L + eps))).
  { unfold Rdiv. apply Rmult_lt_0_compat; [nra | apply Rinv_0_lt_compat; lra]. }
  split; [apply threshold_pos; assumption|].
  split; [lra|].
  assert (Hexp : exp (- t ^ 2 / 2) <= exp (- L)).
  { destruct (Req_dec (- t ^ 2 / 2) (- L)) as [E|E]; [rewrite E; lra|].
    left. apply exp_increasing. lra. }
  rewrite exp_Ropp in Hexp. unfold L in Hexp. rewrite exp_ln in Hexp.
  - replace (/ (1 / (2 * delta))) with (2 * delta) in Hexp by (field; lra). lra.
  - unfold Rdiv. apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat; lra].
Qed.
