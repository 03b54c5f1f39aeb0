(** Non-vacuity witness for ZhouTheorem46MC.v (Theorem 4.6 composed, with the real determinant; see Witnesses.v).
    The instance of WitnessesZhouTheorem46.v without the determinant: p = 1, Theta_1 = (1), Theta_i = (3/2),
    Gamma = (1/2), Sigma_1 = (1), Sigma_i = (2/3), M = M^-1 = (1), d = (1/2), B(v) = (1/(1 + v/2)); l_1 = 1,
    l_i = 2/3, s = 1, g = 1/2, m = 1, n = 2, P_1 = P_i = 0, C = 1, Delta_max = 0, the one row X = (1). The hypotheses
    do not mention the determinant: this file does not need mathcomp. *)
From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouLogDet ZhouTheorem46 WitnessesZhouLogDet.
Open Scope R_scope.

Lemma zhou_theorem_4_6_det_hyps_satisfiable :
  exists (p m : nat) (n C Dmax : R)
    (S1 Si T1 Ti M Mi X : mat) (d : nat -> R) (Bf : R -> mat) (l1 li s g P1 Pi : R),
  meq p (mul p Mi M) kron /\ meq p (mul p M Mi) kron /\
  meq p T1 (spec p M (fun _ => 1)) /\
  meq p (fun i j => Ti i j - T1 i j) (spec p M d) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p Ti x) /\
  meq p (mul p T1 S1) kron /\ meq p (mul p Ti Si) kron /\ meq p (mul p Si Ti) kron /\
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (Ti i j - T1 i j)) (Bf v)) kron) /\
  (1 <= p)%nat /\ (1 <= m)%nat /\ 2 <= n /\
  0 < l1 /\ 0 < li /\
  (forall x, quad p S1 x >= l1 * sq p x) /\
  (forall x, quad p Si x >= li * sq p x) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) /\
  0 <= s /\ 0 <= g /\
  (forall x, Rabs (quad p S1 x) <= s * sq p x) /\
  (forall x, Rabs (quad p (fun i j => Ti i j - T1 i j) x) <= g * sq p x) /\
  s * g <= 1 / 2 /\
  0 <= P1 <= 1 / (n * n) /\ 0 <= Pi <= 1 / (n * n) /\
  (forall j k, (j < p)%nat -> (k < p)%nat ->
     Rabs (scov m p X j k - S1 j k) <= C * sqrt (ln (2 * n * INR p) / INR m) + Dmax).
Proof.
  exists 1%nat, 1%nat, 2, 1, 0, (fun _ _ => 1), (fun _ _ => 2 / 3), (fun _ _ => 1), (fun _ _ => 3 / 2),
    (fun _ _ => 1), (fun _ _ => 1), (fun _ _ => 1), (fun _ => 1 / 2), w_B, 1, (2 / 3), 1, (1 / 2), 0, 0.
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|].
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|].
  split; [intros i j Hi Hj; w_idx; unfold spec; simpl; lra|].
  split; [intros i j Hi Hj; w_idx; unfold spec; simpl; lra|].
  split; [intros x [k [Hk Hx]]; w_idx; pose proof (Rsqr_pos_lt (x 0%nat) Hx); unfold Rsqr in *;
          unfold quad; simpl; nra|].
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|].
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; field|].
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; field|].
  split; [intros v Hv i j Hi Hj; w_idx; unfold mul, kron, w_B; w_dec; simpl; field; lra|].
  split; [lia|]. split; [lia|]. split; [lra|]. split; [lra|]. split; [lra|].
  split; [intros x; unfold quad, sq; simpl; nra|].
  split; [intros x; unfold quad, sq; simpl; nra|].
  split; [reflexivity|].
  split; [lra|]. split; [lra|].
  split; [intros x; unfold quad, sq; simpl; rewrite Rabs_pos_eq by nra; nra|].
  split; [intros x; unfold quad, sq; simpl; rewrite Rabs_pos_eq by nra; nra|].
  split; [lra|].
  split; [split; [lra | unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]]|].
  split; [split; [lra | unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]]|].
  intros j k Hj Hk. w_idx. unfold scov. simpl.
  replace ((0 + 1 * 1) / 1 - 1) with 0 by field. rewrite Rabs_R0.
  pose proof (sqrt_pos (ln (2 * 2 * 1) / 1)). lra.
Qed.
