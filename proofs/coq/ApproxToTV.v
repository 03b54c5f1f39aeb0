(** * showkatbakhsh-regression Proposition 1 (relation between (eps, delta)-DP and (0, delta'')-DP).

    For ANY event space with complements and any two probability assignments P, Q (the output
    distributions on neighbouring datasets) with P(E^c) = 1 - P(E), Q(E^c) = 1 - Q(E):
      - (eps, delta)-DP implies (0, delta'')-DP with delta'' = (e^eps - 1 + 2 delta)/(e^eps + 1);
      - (0, delta)-DP implies (eps, delta)-DP for every eps >= 0 (probabilities are >= 0).
    No finiteness is assumed: only complements are used. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

Section Events.
Variable Event : Type.
Variable compl : Event -> Event.
Variables P Q : Event -> R.
Hypothesis P_compl : forall E, P (compl E) = 1 - P E.
Hypothesis Q_compl : forall E, Q (compl E) = 1 - Q E.

(** (eps, delta)-DP for the pair, in both orders. *)
Definition approx_dp (eps delta : R) : Prop :=
  forall E, P E <= exp eps * Q E + delta /\ Q E <= exp eps * P E + delta.

Definition delta2 (eps delta : R) : R := (exp eps - 1 + 2 * delta) / (exp eps + 1).

Theorem approx_dp_to_zero_eps : forall eps delta,
  approx_dp eps delta -> approx_dp 0 (delta2 eps delta).
Proof.
  intros eps delta H E.
  destruct (H E) as [H1 H2]. destruct (H (compl E)) as [H3 H4].
  rewrite P_compl, Q_compl in H3, H4.
  rewrite exp_0. pose proof (exp_pos eps) as Hpos.
  unfold delta2. set (e := exp eps) in *.
  assert (Ka : (e + 1) * (P E - Q E) <= e - 1 + 2 * delta) by lra.
  assert (Kb : (e + 1) * (Q E - P E) <= e - 1 + 2 * delta) by lra.
  split.
  - apply Rmult_le_reg_r with (e + 1); [lra|].
    replace ((1 * Q E + (e - 1 + 2 * delta) / (e + 1)) * (e + 1)) with (Q E * (e + 1) + (e - 1 + 2 * delta))
      by (field; lra).
    lra.
  - apply Rmult_le_reg_r with (e + 1); [lra|].
    replace ((1 * P E + (e - 1 + 2 * delta) / (e + 1)) * (e + 1)) with (P E * (e + 1) + (e - 1 + 2 * delta))
      by (field; lra).
    lra.
Qed.

Theorem zero_eps_to_approx_dp : forall eps delta, 0 <= eps ->
  (forall E, 0 <= P E /\ 0 <= Q E) -> approx_dp 0 delta -> approx_dp eps delta.
Proof.
  intros eps delta He Hnn H E.
  destruct (H E) as [H1 H2]. destruct (Hnn E) as [HP HQ]. rewrite exp_0 in H1, H2.
  assert (Hge : 1 <= exp eps).
  { destruct (Req_dec eps 0) as [Z|Z]; [rewrite Z, exp_0; lra|].
    left. rewrite <- exp_0. apply exp_increasing. lra. }
  split; nra.
Qed.
End Events.
