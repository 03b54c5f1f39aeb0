(** Non-vacuity witnesses for ZhouSpectralMC.v (Proposition C.1, Lemma C.2, Theorem 4.6 from the paper's matrix
    hypotheses; see Witnesses.v). The instance: p = 1, Sigma_1 = Theta_1 = (1), Sigma_2 = Sigma_i = (2/3),
    Theta_2 = Theta_i = (3/2) (both symmetric positive definite, mutually inverse); for Theorem 4.6 also m = 1, n = 2,
    P_1 = P_i = 0, C = 1, Delta_max = 0 and the one row X = (1). The hypotheses mention neither the determinant nor
    the spectral theorem: this file needs neither mathcomp nor Spectral.v. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouLogDet ZhouTheorem46.
Open Scope R_scope.

Ltac ws_idx :=
  repeat match goal with
  | H : (?j < 1)%nat |- _ => is_var j; assert (j = 0)%nat by lia; subst j; clear H
  end.
Ltac ws_dec :=
  repeat match goal with |- context [Nat.eq_dec ?a ?b] => destruct (Nat.eq_dec a b); try (exfalso; lia) end.
Ltac ws_sym := intros i j Hi Hj; reflexivity.
Ltac ws_pd := intros x [k [Hk Hx]]; ws_idx; pose proof (Rsqr_pos_lt (x 0%nat) Hx); unfold Rsqr in *;
              unfold quad; simpl; nra.
Ltac ws_inv := intros i j Hi Hj; ws_idx; unfold mul, kron; ws_dec; simpl; field.
Ltac ws_c1 := split; [ws_sym|]; split; [ws_sym|]; split; [ws_pd|]; split; [ws_pd|];
              split; [ws_inv|]; split; [ws_inv|]; split; [ws_inv|].

Lemma zhou_prop_c_1_spectral_hyps_satisfiable :
  exists (p : nat) (S1 S2 T1 T2 : mat),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> S2 i j = S2 j i) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S1 x) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S2 x) /\
  meq p (mul p T1 S1) kron /\ meq p (mul p S1 T1) kron /\
  meq p (mul p T2 S2) kron /\ meq p (mul p S2 T2) kron.
Proof.
  exists 1%nat, (fun _ _ => 1), (fun _ _ => 2 / 3), (fun _ _ => 1), (fun _ _ => 3 / 2).
  ws_c1. ws_inv.
Qed.

Lemma zhou_lemma_c_2_spectral_hyps_satisfiable :
  exists (p : nat) (S1 S2 T1 T2 : mat),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> S2 i j = S2 j i) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S1 x) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S2 x) /\
  meq p (mul p T1 S1) kron /\ meq p (mul p S1 T1) kron /\
  meq p (mul p T2 S2) kron /\ meq p (mul p S2 T2) kron /\
  (1 <= p)%nat.
Proof.
  exists 1%nat, (fun _ _ => 1), (fun _ _ => 2 / 3), (fun _ _ => 1), (fun _ _ => 3 / 2).
  ws_c1. split; [ws_inv|]. lia.
Qed.

Lemma zhou_theorem_4_6_spectral_hyps_satisfiable :
  exists (p m : nat) (n C Dmax : R) (S1 Si T1 Ti X : mat) (P1 Pi : R),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> Si i j = Si j i) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S1 x) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p Si x) /\
  meq p (mul p T1 S1) kron /\ meq p (mul p S1 T1) kron /\
  meq p (mul p Ti Si) kron /\ meq p (mul p Si Ti) kron /\
  (1 <= p)%nat /\ (1 <= m)%nat /\ 2 <= n /\
  0 <= P1 <= 1 / (n * n) /\ 0 <= Pi <= 1 / (n * n) /\
  (forall j k, (j < p)%nat -> (k < p)%nat ->
     Rabs (scov m p X j k - S1 j k) <= C * sqrt (ln (2 * n * INR p) / INR m) + Dmax).
Proof.
  exists 1%nat, 1%nat, 2, 1, 0, (fun _ _ => 1), (fun _ _ => 2 / 3), (fun _ _ => 1), (fun _ _ => 3 / 2),
    (fun _ _ => 1), 0, 0.
  ws_c1. split; [ws_inv|].
  split; [lia|]. split; [lia|]. split; [lra|].
  split; [split; [lra | unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]]|].
  split; [split; [lra | unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]]|].
  intros j k Hj Hk. ws_idx. unfold scov. simpl.
  replace ((0 + 1 * 1) / 1 - 1) with 0 by field. rewrite Rabs_R0.
  pose proof (sqrt_pos (ln (2 * 2 * 1) / 1)). lra.
Qed.
