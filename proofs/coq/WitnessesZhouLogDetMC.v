(** Non-vacuity witnesses for ZhouLogDetMC.v (Proposition C.1 and Lemma C.2 with the real determinant; see
    Witnesses.v for what a witness is and how its statement is checked). The instance of WitnessesZhouLogDet.v:
    p = 1, Theta_1 = (1), Theta_2 = (3/2), Gamma = (1/2), Sigma_1 = (1), Sigma_2 = (2/3), M = M^-1 = (1),
    d = (1/2), B(v) = (1/(1 + v/2)); no determinant hypothesis is left to satisfy. This file needs only the standard
    library and ZhouLogDet (not mathcomp): the hypotheses do not mention the determinant. *)
From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouLogDet WitnessesZhouLogDet.
Open Scope R_scope.

(** The hypotheses of Proposition C.1 without the four determinant laws, at the instance. *)
Ltac w_c1_hyps_det :=
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|];
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|];
  split; [intros i j Hi Hj; w_idx; unfold spec; simpl; lra|];
  split; [intros i j Hi Hj; w_idx; unfold spec; simpl; lra|];
  split; [intros x [k [Hk Hx]]; w_idx; pose proof (Rsqr_pos_lt (x 0%nat) Hx); unfold Rsqr in *;
          unfold quad; simpl; nra|];
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|];
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; field|].

(** zhou_prop_c_1_det at the instance: det Sigma_1 = 1 > 0, det Sigma_2 = 2/3 > 0, ln(2/3) - ln 1 = A - 1/2. *)
Lemma zhou_prop_c_1_det_hyps_satisfiable :
  exists (p : nat) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat),
  meq p (mul p Mi M) kron /\ meq p (mul p M Mi) kron /\
  meq p T1 (spec p M (fun _ => 1)) /\
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) /\
  meq p (mul p T1 S1) kron /\ meq p (mul p T2 S2) kron /\
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron).
Proof.
  exists 1%nat, (fun _ _ => 1), (fun _ _ => 3 / 2), (fun _ _ => 1), (fun _ _ => 2 / 3),
    (fun _ _ => 1), (fun _ _ => 1), (fun _ => 1 / 2), w_B.
  w_c1_hyps_det. w_bf.
Qed.

(** zhou_lemma_c_2_det at the instance with l = 1, s = 1, g = 1/2 (s g = 1/2 < 1). *)
Lemma zhou_lemma_c_2_det_hyps_satisfiable :
  exists (p : nat) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat) (l s g : R),
  meq p (mul p Mi M) kron /\ meq p (mul p M Mi) kron /\
  meq p T1 (spec p M (fun _ => 1)) /\
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) /\
  meq p (mul p T1 S1) kron /\ meq p (mul p T2 S2) kron /\
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) /\
  0 < l /\ (forall x, quad p S1 x >= l * sq p x) /\
  (forall x, Rabs (quad p S1 x) <= s * sq p x) /\
  (forall x, Rabs (quad p (fun i j => T2 i j - T1 i j) x) <= g * sq p x) /\
  s * g < 1.
Proof.
  exists 1%nat, (fun _ _ => 1), (fun _ _ => 3 / 2), (fun _ _ => 1), (fun _ _ => 2 / 3),
    (fun _ _ => 1), (fun _ _ => 1), (fun _ => 1 / 2), w_B, 1, 1, (1 / 2).
  w_c1_hyps_det. split; [w_bf|].
  split; [lra|].
  split; [intros x; unfold quad, sq; simpl; nra|].
  split; [intros x; unfold quad, sq; simpl; rewrite Rabs_pos_eq by nra; nra|].
  split; [intros x; unfold quad, sq; simpl; rewrite Rabs_pos_eq by nra; nra|].
  lra.
Qed.
