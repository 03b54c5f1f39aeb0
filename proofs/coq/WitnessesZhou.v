(** Non-vacuity witnesses for the zhou-compression Rayleigh and subspace theorems (issue 14; see
    Witnesses.v for what a witness is and how its statement is checked). *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouSubspace.
Open Scope R_scope.

Ltac w_idx :=
  repeat match goal with
  | H : (?j < 1)%nat |- _ => is_var j; assert (j = 0)%nat by lia; subst j; clear H
  | H : (?j < 2)%nat |- _ => is_var j; destruct j as [|[|?]]; [clear H | clear H | exfalso; lia]
  end.
Ltac w_dec :=
  repeat match goal with |- context [Nat.eq_dec ?a ?b] => destruct (Nat.eq_dec a b); try (exfalso; lia) end.

(** at p = 1 the matrix (a) has lambda_min = a *)
Lemma w_lmin1 : forall (S : nat -> nat -> R) a, S 0%nat 0%nat = a -> is_lmin 1 S a.
Proof.
  intros S a HS. split.
  - intros x. unfold quad, sq. simpl. rewrite HS. nra.
  - intros b Hb. specialize (Hb (fun _ => 1)). unfold quad, sq in Hb. simpl in Hb. rewrite HS in Hb. lra.
Qed.

(** zhou_lemma_3_3_lmin at p = 1, Sigma_1 = (2), Delta = (1), lambda_min(Sigma_1) = 2, ||Delta||_2 = 1,
    lambda_min(Sigma_1 - Delta) = 1: the conclusion reads 1 >= 2 - 1 (tight). *)
Lemma zhou_lemma_3_3_lmin_hyps_satisfiable :
  exists (p : nat) (S1 D : nat -> nat -> R) (l1 d lj : R),
  is_lmin p S1 l1 /\ is_opnorm p D d /\ is_lmin p (fun i j => S1 i j - D i j) lj.
Proof.
  exists 1%nat, (fun _ _ => 2), (fun _ _ => 1), 2, 1, 1.
  split; [apply w_lmin1; reflexivity|].
  split; [|apply w_lmin1; lra].
  split.
  - intros x. unfold quad, sq. simpl. rewrite Rabs_pos_eq by nra. nra.
  - intros c Hc. specialize (Hc (fun _ => 1)). unfold quad, sq in Hc. simpl in Hc.
    rewrite Rabs_pos_eq in Hc by lra. lra.
Qed.

(** zhou_prop_3_1 at p = 1, Sigma_1 = (2), Sigma_j = (1), Theta_1 = (1/2), Theta_j = (1), l_1 = 2, l_j = 1,
    Delta_max = 1: the conclusion reads ||Sigma_1 - Sigma_j||_F^2 = 1 <= (1 1)^2 and
    ||Theta_j - Theta_1||_F^2 (2 1)^2 = 1 <= 1 (both tight). *)
Lemma zhou_prop_3_1_hyps_satisfiable :
  exists (p : nat) (S1 Sj T1 Tj : nat -> nat -> R) (l1 lj M : R),
  0 < l1 /\ 0 < lj /\
  (forall x, quad p S1 x >= l1 * sq p x) /\
  (forall x, quad p Sj x >= lj * sq p x) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) /\
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p Sj Tj i k = kron i k) /\
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p T1 S1 i k = kron i k) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> Rabs (S1 i j - Sj i j) <= M).
Proof.
  exists 1%nat, (fun _ _ => 2), (fun _ _ => 1), (fun _ _ => 1 / 2), (fun _ _ => 1), 2, 1, 1.
  split; [lra|]. split; [lra|].
  split; [intros x; unfold quad, sq; simpl; nra|].
  split; [intros x; unfold quad, sq; simpl; nra|].
  split; [reflexivity|].
  split; [intros i k Hi Hk; w_idx; unfold mul, kron; simpl; w_dec; lra|].
  split; [intros i k Hi Hk; w_idx; unfold mul, kron; simpl; w_dec; lra|].
  intros i j _ _. rewrite Rabs_pos_eq by lra. lra.
Qed.

Definition w_I2 (a b : nat) : R := match a, b with O, O => 1 | S O, S O => 1 | _, _ => 0 end.
Definition w_diag (x y : R) (a b : nat) : R := match a, b with O, O => x | S O, S O => y | _, _ => 0 end.
Definition w_vec (x y : R) (j : nat) : R := match j with O => x | _ => y end.

Lemma w_orthogonal_I2 : orthogonal 2 w_I2.
Proof. split; intros a b Ha Hb; w_idx; unfold kd; w_dec; simpl; lra. Qed.

(** the rotation with cos = 3/5, sin = 4/5 (rational), by columns: (3/5, 4/5), (-4/5, 3/5) *)
Definition w_V (k j : nat) : R :=
  match k, j with O, O => 3 / 5 | _, O => 4 / 5 | O, _ => - (4 / 5) | _, _ => 3 / 5 end.

Lemma w_orthogonal_V : orthogonal 2 w_V.
Proof. split; intros a b Ha Hb; w_idx; unfold kd; w_dec; simpl; field. Qed.

(** zhou_prop_3_4 at p = 2, D = 1, A = diag(2, 0) (U = I, lambda = (2, 0)), A + B = 2 v v^T with v = (3/5, 4/5)
    (V the rotation above, mu = (2, 0)): the conclusion reads ((2 - 0)/2)^2 ||P_1(A) - P_1(A + B)||_F^2 =
    2 sin^2(theta) = 32/25 <= ||B||_F^2 = 8 sin^2(theta) = 128/25. *)
Lemma zhou_prop_3_4_hyps_satisfiable :
  exists p D (U V A C : nat -> nat -> R) (lam mu : nat -> R),
  (1 <= D)%nat /\ (D < p)%nat /\
  orthogonal p U /\ orthogonal p V /\
  (forall i j, (i <= j)%nat -> (j < p)%nat -> lam j <= lam i) /\
  (forall i j, (i <= j)%nat -> (j < p)%nat -> mu j <= mu i) /\
  (forall k l, (k < p)%nat -> (l < p)%nat -> A k l = spec p U lam k l) /\
  (forall k l, (k < p)%nat -> (l < p)%nat -> C k l = spec p V mu k l).
Proof.
  exists 2%nat, 1%nat, w_I2, w_V, (w_diag 2 0), (spec 2 w_V (w_vec 2 0)), (w_vec 2 0), (w_vec 2 0).
  split; [lia|]. split; [lia|].
  split; [exact w_orthogonal_I2|]. split; [exact w_orthogonal_V|].
  split; [intros i j Hij Hj; assert (Hi : (i < 2)%nat) by lia; w_idx; try (exfalso; lia); simpl; lra|].
  split; [intros i j Hij Hj; assert (Hi : (i < 2)%nat) by lia; w_idx; try (exfalso; lia); simpl; lra|].
  split; intros k l Hk Hl; [w_idx; unfold spec; simpl; lra | reflexivity].
Qed.
