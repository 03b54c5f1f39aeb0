(** Non-vacuity witnesses for the scalar Coq theorems of the manifest (issue 14).

    A Coq theorem whose hypotheses can never hold together is proved by anything. For each
    [Coverage.CLAIM] theorem [thm] of [dpverify.symbolic.coq.MANIFEST], [thm_hyps_satisfiable]
    proves [exists <the theorem's universally quantified objects>, H_1 /\ ... /\ H_n] at a concrete
    instance; [tests/symbolic/test_coq_nonvacuity.py] checks with [WitnessShape.check_witness] that
    this statement is, term for term, the theorem's hypotheses as [WitnessShape.hyps_of] reads them
    from the theorem's type, and that [Print Assumptions] lists only the classical reals.
    Each witness says in a comment what the theorem's conclusion reads at the instance. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import Laplace ApproxToTV ShowkatRemark1 Bernoulli.
Open Scope R_scope.

(** laplace_loss_scalar at eps = 1, M = 1, mu = 0, mu' = 1, x = 0: the conclusion reads
    ln p(0; 0, 1) - ln p(0; 1, 1) = 0 - (-1) = 1 <= 1 (tight). *)
Lemma laplace_loss_scalar_hyps_satisfiable :
  exists eps M mu mu' x : R, 0 < eps /\ 0 < M /\ Rabs (mu - mu') <= M.
Proof.
  exists 1, 1, 0, 1, 0. split; [lra|]. split; [lra|].
  unfold Rabs; destruct (Rcase_abs _); lra.
Qed.

(** laplace_loss_vector at K = 1, eps = 1, B = 1, mu = 0, mu' = 1, x = 0: the one-coordinate case of
    the above, the conclusion reads 1 <= 1 (tight). *)
Lemma laplace_loss_vector_hyps_satisfiable :
  exists (K : nat) (eps B : R) (mu mu' x : nat -> R),
    0 < eps /\ 0 < B /\ Laplace.sumn (fun i => Rabs (mu i - mu' i)) K <= B.
Proof.
  exists 1%nat, 1, 1, (fun _ => 0), (fun _ => 1), (fun _ => 0).
  split; [lra|]. split; [lra|]. simpl.
  unfold Rabs; destruct (Rcase_abs _); lra.
Qed.

(** laplace_loss_jiang at K = 1, eps = 1, s1 = 1, lam = 2, mu = 0, mu' = 1, x = 0: the conclusion reads
    ln p(0; 0, 2) - ln p(0; 1, 2) = 1/2 <= 1. *)
Lemma laplace_loss_jiang_hyps_satisfiable :
  exists (K : nat) (eps s1 lam : R) (mu mu' x : nat -> R),
    0 < eps /\ 0 < s1 /\ lam > s1 / eps /\ Laplace.sumn (fun i => Rabs (mu i - mu' i)) K <= s1.
Proof.
  exists 1%nat, 1, 1, 2, (fun _ => 0), (fun _ => 1), (fun _ => 0).
  split; [lra|]. split; [lra|]. split; [unfold Rdiv; rewrite Rinv_1; lra|]. simpl.
  unfold Rabs; destruct (Rcase_abs _); lra.
Qed.

(** approx_dp_to_zero_eps on the two events of bool (complement: negb), P = (3/4, 1/4), Q = (1/4, 3/4),
    eps = ln 3, delta = 0 (P <= 3 Q and Q <= 3 P on both events, both tight): the conclusion reads
    (0, delta'')-DP with delta'' = (3 - 1 + 0)/(3 + 1) = 1/2, i.e. |P E - Q E| <= 1/2 (tight at E = true). *)
Definition w_P (b : bool) : R := if b then 3 / 4 else 1 / 4.
Definition w_Q (b : bool) : R := if b then 1 / 4 else 3 / 4.

Lemma approx_dp_to_zero_eps_hyps_satisfiable :
  exists (Event : Type) (compl : Event -> Event) (P Q : Event -> R),
    (forall E : Event, P (compl E) = 1 - P E) /\
    (forall E : Event, Q (compl E) = 1 - Q E) /\
    (exists eps delta : R, approx_dp Event P Q eps delta).
Proof.
  exists bool, negb, w_P, w_Q.
  split; [intros []; unfold w_P; simpl; lra|].
  split; [intros []; unfold w_Q; simpl; lra|].
  exists (ln 3), 0. unfold approx_dp. rewrite exp_ln by lra.
  intros []; unfold w_P, w_Q; lra.
Qed.

(** remark1_noncoherent_not_smaller at n' = 2, s = 1: the conclusion reads
    (1/2) log2 3 ~ 0.79 <= (2/2) log2 2 = 1. *)
Lemma remark1_noncoherent_not_smaller_hyps_satisfiable :
  exists (n : nat) (s : R), 0 < s.
Proof. exists 2%nat, 1. lra. Qed.

(** laplace_max_tail at K = 1, delta = 1/2: the conclusion reads
    1 - (1 - e^(-ln 2))^1 = 1/2 <= 1/2 (tight). *)
Lemma laplace_max_tail_hyps_satisfiable :
  exists (K : nat) (delta : R), (1 <= K)%nat /\ 0 < delta <= INR K.
Proof. exists 1%nat, (1 / 2). simpl. split; [lia|lra]. Qed.
