(** Non-vacuity witnesses for the zhou-compression log-determinant theorems (issue 14; see Witnesses.v
    for what a witness is and how its statement is checked). One instance serves both: p = 1,
    det = the (0, 0) entry (at p = 1 the determinant; its four properties are proved below),
    Theta_1 = (1), Theta_2 = (3/2), Gamma = (1/2), Sigma_1 = (1), Sigma_2 = (2/3), M = M^-1 = (1),
    d = (1/2), B(v) = (1/(1 + v/2)). *)
From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouLogDet.
Open Scope R_scope.

Ltac w_idx :=
  repeat match goal with
  | H : (?j < 1)%nat |- _ => is_var j; assert (j = 0)%nat by lia; subst j; clear H
  end.
Ltac w_dec :=
  repeat match goal with |- context [Nat.eq_dec ?a ?b] => destruct (Nat.eq_dec a b); try (exfalso; lia) end.

Definition w_det (A : mat) : R := A 0%nat 0%nat.
Definition w_B (v : R) : mat := fun _ _ => / (1 + v * (3 / 2 - 1)).

(** The hypotheses of Proposition C.1 at the instance. *)
Ltac w_c1_hyps :=
  split; [intros A B; unfold w_det, mul; simpl; ring|];
  split; [intros f; unfold w_det, diagm, kron; w_dec; simpl; ring|];
  split; [intros A; reflexivity|];
  split; [intros A B HAB; unfold w_det; apply HAB; lia|];
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|];
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|];
  split; [intros i j Hi Hj; w_idx; unfold spec; simpl; lra|];
  split; [intros i j Hi Hj; w_idx; unfold spec; simpl; lra|];
  split; [intros x [k [Hk Hx]]; w_idx; pose proof (Rsqr_pos_lt (x 0%nat) Hx); unfold Rsqr in *;
          unfold quad; simpl; nra|];
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; ring|];
  split; [intros i j Hi Hj; w_idx; unfold mul, kron; w_dec; simpl; field|].
(** the last one: (Theta_1 + v Gamma) B(v) = I on [0, 1] *)
Ltac w_bf := intros v Hv i j Hi Hj; w_idx; unfold mul, kron, w_B; w_dec; simpl; field; lra.

(** zhou_prop_c_1 at the instance: the conclusion reads det Sigma_1 = 1 > 0, det Sigma_2 = 2/3 > 0 and
    ln(2/3) - ln 1 = A - 1/2 with A = int_0^1 (1 - v) (1/2)^2/(1 + v/2)^2 dv = 1/2 - ln(3/2). *)
Lemma zhou_prop_c_1_hyps_satisfiable :
  exists (p : nat) (det : mat -> R) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat),
  (forall A B, det (mul p A B) = det A * det B) /\
  (forall f, det (diagm f) = prodn p f) /\
  (forall A, det (tp A) = det A) /\
  (forall A B, meq p A B -> det A = det B) /\
  meq p (mul p Mi M) kron /\ meq p (mul p M Mi) kron /\
  meq p T1 (spec p M (fun _ => 1)) /\
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) /\
  meq p (mul p T1 S1) kron /\ meq p (mul p T2 S2) kron /\
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron).
Proof.
  exists 1%nat, w_det, (fun _ _ => 1), (fun _ _ => 3 / 2), (fun _ _ => 1), (fun _ _ => 2 / 3),
    (fun _ _ => 1), (fun _ _ => 1), (fun _ => 1 / 2), w_B.
  w_c1_hyps. w_bf.
Qed.

(** zhou_lemma_c_2 at the instance with l = 1, s = 1 (lambda_min(Sigma_1) = ||Sigma_1||_2 = 1),
    g = 1/2 (||Gamma||_2), s g = 1/2 < 1: the conclusion reads
    ||Gamma||_F^2 l^2/(2 (1 + l g)^2) = 1/18 ~ 0.056 <= A = 1/2 - ln(3/2) ~ 0.095 <= (1/4)/(2 (1/2)^2) = 1/2. *)
Lemma zhou_lemma_c_2_hyps_satisfiable :
  exists (p : nat) (det : mat -> R) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat) (l s g : R),
  (forall A B, det (mul p A B) = det A * det B) /\
  (forall f, det (diagm f) = prodn p f) /\
  (forall A, det (tp A) = det A) /\
  (forall A B, meq p A B -> det A = det B) /\
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
  exists 1%nat, w_det, (fun _ _ => 1), (fun _ _ => 3 / 2), (fun _ _ => 1), (fun _ _ => 2 / 3),
    (fun _ _ => 1), (fun _ _ => 1), (fun _ => 1 / 2), w_B, 1, 1, (1 / 2).
  w_c1_hyps. split; [w_bf|].
  split; [lra|].
  split; [intros x; unfold quad, sq; simpl; nra|].
  split; [intros x; unfold quad, sq; simpl; rewrite Rabs_pos_eq by nra; nra|].
  split; [intros x; unfold quad, sq; simpl; rewrite Rabs_pos_eq by nra; nra|].
  lra.
Qed.
