(** Non-vacuity witnesses for the least-squares theorems of showkatbakhsh-regression (issue 14;
    see Witnesses.v for what a witness is and how its statement is checked). *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums ShowkatbakhshRidge ShowkatbakhshWedin.
Open Scope R_scope.

(** n = 2, d = 1: X = (1, 0)^T, y = (1, 1). *)
Definition w_X (i j : nat) : R := match i with O => 1 | _ => 0 end.
Definition w_y (i : nat) : R := 1.

Ltac w_idx1 := match goal with H : (?j < 1)%nat |- _ => assert (j = 0)%nat by lia; subst j end.

(** ridge_relative_error at n = 2, d = 1, X = (1, 0)^T, y = (1, 1), theta* = 1 (residual (0, -1)),
    lambda = 1, theta_RR = 1/2 (X^T (X theta - y) + theta = 0), s = 1 (|X x|^2 = |x|^2): the conclusion
    reads ||X theta_RR - y|| / ||X theta* - y|| = sqrt(5/4) ~ 1.118 <= 1 + (1/2) (1/1) = 1.5. *)
Lemma ridge_relative_error_hyps_satisfiable :
  exists (n d : nat) (X : nat -> nat -> R) (y th_ls th_rr : nat -> R) (s lam : R),
  0 <= s /\ 0 < lam /\
  (forall x, s * dot d x x <= dot n (mv n d X x) (mv n d X x)) /\
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_ls i - y i) j = 0) /\
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_rr i - y i) j + lam * th_rr j = 0) /\
  0 < sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i)).
Proof.
  exists 2%nat, 1%nat, w_X, w_y, (fun _ => 1), (fun _ => 1 / 2), 1, 1.
  split; [lra|]. split; [lra|].
  split; [intros x; unfold dot, mv, w_X; simpl; nra|].
  split; [intros j Hj; w_idx1; unfold tmv, mv, w_X, w_y; simpl; lra|].
  split; [intros j Hj; w_idx1; unfold tmv, mv, w_X, w_y; simpl; lra|].
  apply sqrt_lt_R0. unfold dot, mv, w_X, w_y; simpl; lra.
Qed.

(** E = (1/2, 0)^T: X + E = (3/2, 0)^T, theta_AN = 2/3 its least-squares solution. *)
Definition w_E (i j : nat) : R := match i with O => 1 / 2 | _ => 0 end.

(** wedin_relative_error at n = 2, d = 1, X = (1, 0)^T, E = (1/2, 0)^T, y = (1, 1), theta* = 1,
    theta_AN = 2/3, s = S = 1, e = 1/2 (kappa Delta = 1/2): the conclusion reads
    ||X theta_AN - y|| / ||X theta* - y|| = sqrt(10/9) ~ 1.054 <= 1 + 1 (1 + 1) = 3. *)
Lemma wedin_relative_error_hyps_satisfiable :
  exists (n d : nat) (X E : nat -> nat -> R) (y th th_an : nat -> R) (s S e : R),
  (1 <= d)%nat /\ 0 < s /\ 0 < S /\ 0 <= e /\
  (forall x, s * s * dot d x x <= dot n (mv n d X x) (mv n d X x)) /\
  (forall x, dot n (mv n d X x) (mv n d X x) <= S * S * dot d x x) /\
  (forall x, dot n (mv n d E x) (mv n d E x) <= e * e * dot d x x) /\
  S / s * (e / S) < 1 /\
  (forall j, (j < d)%nat ->
     tmv n d (fun a b => X a b + E a b) (fun i => mv n d (fun a b => X a b + E a b) th_an i - y i) j = 0) /\
  0 < nrm n (fun i => mv n d X th i - y i).
Proof.
  exists 2%nat, 1%nat, w_X, w_E, w_y, (fun _ => 1), (fun _ => 2 / 3), 1, 1, (1 / 2).
  split; [lia|]. split; [lra|]. split; [lra|]. split; [lra|].
  split; [intros x; unfold dot, mv, w_X; simpl; nra|].
  split; [intros x; unfold dot, mv, w_X; simpl; nra|].
  split; [intros x; unfold dot, mv, w_E; simpl; nra|].
  split; [lra|].
  split; [intros j Hj; w_idx1; unfold tmv, mv, w_X, w_E, w_y; simpl; lra|].
  unfold nrm. apply sqrt_lt_R0. unfold dot, mv, w_X, w_y; simpl; lra.
Qed.
