(** Non-vacuity witnesses for the jiang-wishart matrix theorems (issue 14; see Witnesses.v for what a
    witness is and how its statement is checked). *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan.
Open Scope R_scope.

Ltac w_idx :=
  repeat match goal with
  | H : (?j < 1)%nat |- _ => is_var j; assert (j = 0)%nat by lia; subst j; clear H
  | H : (?j < 2)%nat |- _ => is_var j; destruct j as [|[|?]]; [clear H | clear H | exfalso; lia]
  end.
Ltac w_dec :=
  repeat match goal with |- context [Nat.eq_dec ?a ?b] => destruct (Nat.eq_dec a b); try (exfalso; lia) end.

(** jiang_weyl at d = 1, i = 0, H = 1, P = 1, M = 2, Q = Q' = 1, nu = 1, mu = 2, rho_1 = rho_d = 1: the
    conclusion reads 1 + 1 <= 2 <= 1 + 1 (both tight). *)
Lemma jiang_weyl_hyps_satisfiable :
  exists (d i : nat) (H P M VH VM : nat -> nat -> R) (nu mu : nat -> R) (rho1 rhod : R),
  (i < d)%nat /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> M a b = H a b + P a b) /\
  spectral d H VH nu /\ spectral d M VM mu /\
  (forall x, quad d P x <= rho1 * dot d x x) /\
  (forall x, rhod * dot d x x <= quad d P x).
Proof.
  exists 1%nat, 0%nat, (fun _ _ => 1), (fun _ _ => 1), (fun _ _ => 2), (fun _ _ => 1), (fun _ _ => 1),
    (fun _ => 1), (fun _ => 2), 1, 1.
  split; [lia|]. split; [intros; lra|].
  split; [unfold spectral; split; [|split]; intros; w_idx; w_dec; simpl; lra|].
  split; [unfold spectral; split; [|split]; intros; w_idx; w_dec; simpl; lra|].
  split; intros x; unfold quad, dot; simpl; lra.
Qed.

(** 2 x 2: the identity, diag(x, y), the eigenvalue vector (x, y). *)
Definition w_I2 (a b : nat) : R := match a, b with O, O => 1 | S O, S O => 1 | _, _ => 0 end.
Definition w_diag (x y : R) (a b : nat) : R := match a, b with O, O => x | S O, S O => y | _, _ => 0 end.
Definition w_vec (x y : R) (j : nat) : R := match j with O => x | _ => y end.
Definition w_e0 (i : nat) : R := match i with O => 1 | _ => 0 end.

Lemma w_orth_eig : forall x y, y <= x -> orth_eig 2 (w_diag x y) w_I2 (w_vec x y).
Proof.
  intros x y Hxy. unfold orth_eig, spectral. split; [split; [|split]|].
  - intros a b Ha Hb. w_idx; w_dec; simpl; lra.
  - intros a b Ha Hb. w_idx; simpl; lra.
  - intros j l Hjl Hl. assert (Hj : (j < 2)%nat) by lia. w_idx; try (exfalso; lia); simpl; lra.
  - intros i j Hi Hj. unfold dot. w_idx; w_dec; simpl; lra.
Qed.

(** ||M||_2 = 1 for M = diag(1, 0) (on the 2 x 2 indices) *)
Lemma w_norm2_e00 : forall M, (forall a b, (a < 2)%nat -> (b < 2)%nat -> M a b = w_diag 1 0 a b) -> is_norm2 2 M 1.
Proof.
  intros M HM.
  assert (M00 : M 0%nat 0%nat = 1) by (rewrite HM by lia; reflexivity).
  assert (M01 : M 0%nat 1%nat = 0) by (rewrite HM by lia; reflexivity).
  assert (M10 : M 1%nat 0%nat = 0) by (rewrite HM by lia; reflexivity).
  assert (M11 : M 1%nat 1%nat = 0) by (rewrite HM by lia; reflexivity).
  split.
  - intros x. unfold vnorm, nrm2, mv. simpl. rewrite M00, M01, M10, M11, (Rmult_1_l (sqrt _)).
    apply sqrt_le_1_alt. nra.
  - intros c Hc. specialize (Hc w_e0). unfold vnorm, nrm2, mv, w_e0 in Hc. simpl in Hc.
    rewrite M00, M01, M10, M11 in Hc.
    match type of Hc with sqrt ?u <= c * sqrt ?v => replace u with 1 in Hc by ring; replace v with 1 in Hc by ring end.
    rewrite sqrt_1 in Hc. lra.
Qed.

(** ||0||_2 = 0 (on the 2 x 2 indices) *)
Lemma w_norm2_zero : forall M, (forall a b, (a < 2)%nat -> (b < 2)%nat -> M a b = 0) -> is_norm2 2 M 0.
Proof.
  intros M HM.
  assert (M00 : M 0%nat 0%nat = 0) by (apply HM; lia). assert (M01 : M 0%nat 1%nat = 0) by (apply HM; lia).
  assert (M10 : M 1%nat 0%nat = 0) by (apply HM; lia). assert (M11 : M 1%nat 1%nat = 0) by (apply HM; lia).
  split.
  - intros x. unfold vnorm, nrm2, mv. simpl. rewrite M00, M01, M10, M11.
    match goal with |- sqrt ?u <= _ => replace u with 0 by ring end. rewrite sqrt_0, Rmult_0_l. lra.
  - intros c Hc. specialize (Hc w_e0). unfold vnorm, nrm2, mv, w_e0 in Hc. simpl in Hc.
    rewrite M00, M01, M10, M11 in Hc.
    match type of Hc with sqrt ?u <= c * sqrt ?v => replace u with 0 in Hc by ring; replace v with 1 in Hc by ring end.
    rewrite sqrt_0, sqrt_1 in Hc. lra.
Qed.

(** The rotation with cos = 3/5, sin = 4/5 (rational): rows (3/5, 4/5), (-4/5, 3/5). *)
Definition w_R (j a : nat) : R :=
  match j, a with O, O => 3 / 5 | O, _ => 4 / 5 | _, O => - (4 / 5) | _, _ => 3 / 5 end.
Definition w_Ahat : nat -> nat -> R := fun a b => sumn 2 (fun j => w_vec 2 0 j * w_R j a * w_R j b).

Lemma w_orth_eig_R : orth_eig 2 w_Ahat w_R (w_vec 2 0).
Proof.
  unfold orth_eig, spectral. split; [split; [|split]|].
  - intros a b Ha Hb. w_idx; w_dec; simpl; field.
  - intros a b Ha Hb. reflexivity.
  - intros j l Hjl Hl. assert (Hj : (j < 2)%nat) by lia. w_idx; try (exfalso; lia); simpl; lra.
  - intros i j Hi Hj. unfold dot. w_idx; w_dec; simpl; field.
Qed.

(** a 2 x 2 matrix with |M x| = c |x| for every x has ||M||_2 = c *)
Lemma w_norm2_exact : forall M c, 0 <= c -> (forall x, nrm2 2 (mv 2 M x) = c * c * nrm2 2 x) -> is_norm2 2 M c.
Proof.
  intros M c Hc HM.
  assert (E : forall x, vnorm 2 (mv 2 M x) = c * vnorm 2 x).
  { intros x. unfold vnorm. rewrite HM, sqrt_mult_alt by nra. rewrite sqrt_square by lra. reflexivity. }
  split.
  - intros x. rewrite E. lra.
  - intros c' Hc'. specialize (Hc' w_e0). rewrite E in Hc'.
    assert (H1 : vnorm 2 w_e0 = 1) by (unfold vnorm, nrm2, w_e0; simpl; replace (0 + 1 * 1 + 0 * 0) with 1 by ring;
                                       apply sqrt_1).
    rewrite H1 in Hc'. lra.
Qed.

(** jiang_davis_kahan at d = 2, k = 1, A = diag(2, 0) (V = I, l = (2, 0)), A_hat = 2 u u^T with u = (3/5, 4/5)
    (U the rotation above, m = (2, 0)): ||A - A_hat||_2 = 2 sin(theta) = 8/5 and ||P_1 - P_hat_1||_2 = sin(theta) = 4/5
    (both matrices square to a multiple of I); the conclusion reads 4/5 <= (8/5)/(2 - 0) = 4/5: tight. *)
Lemma jiang_davis_kahan_hyps_satisfiable :
  exists (d k : nat) (A Ahat V U : nat -> nat -> R) (l m : nat -> R) (e pn : R),
  (0 < k)%nat /\ (k < d)%nat /\
  orth_eig d A V l /\ orth_eig d Ahat U m /\
  m k < l (k - 1)%nat /\
  is_norm2 d (fun a b => A a b - Ahat a b) e /\
  is_norm2 d (fun a b => proj d k V a b - proj d k U a b) pn.
Proof.
  exists 2%nat, 1%nat, (w_diag 2 0), w_Ahat, w_I2, w_R, (w_vec 2 0), (w_vec 2 0), (8 / 5), (4 / 5).
  split; [lia|]. split; [lia|].
  split; [apply w_orth_eig; lra|]. split; [exact w_orth_eig_R|].
  split; [simpl; lra|].
  split; apply w_norm2_exact; try lra; intros x; unfold nrm2, mv, w_Ahat, proj, w_diag, w_I2, w_R, w_vec; simpl; field.
Qed.

(** W = 2 w w^T with w = (-4/5, 3/5): positive semidefinite, ||W||_2 = 2 *)
Definition w_W (a b : nat) : R := 2 * w_R 1 a * w_R 1 b.

Lemma w_norm2_W : is_norm2 2 w_W 2.
Proof.
  assert (H1 : forall x, nrm2 2 (mv 2 w_W x) <= 2 * 2 * nrm2 2 x).
  { intros x. unfold nrm2, mv, w_W, w_R. simpl.
    assert (0 <= (3 / 5 * x 0%nat + 4 / 5 * x 1%nat) * (3 / 5 * x 0%nat + 4 / 5 * x 1%nat)) by apply Rle_0_sqr.
    nra. }
  split.
  - intros x. unfold vnorm. apply Rle_trans with (sqrt (2 * 2 * nrm2 2 x)).
    + apply sqrt_le_1_alt. apply H1.
    + rewrite sqrt_mult_alt by lra. rewrite sqrt_square by lra. lra.
  - intros c Hc. specialize (Hc (w_R 1)). unfold vnorm, nrm2, mv, w_W, w_R in Hc. simpl in Hc.
    match type of Hc with sqrt ?u <= c * sqrt ?v => replace u with (2 * 2) in Hc by field; replace v with 1 in Hc by field end.
    rewrite sqrt_square, sqrt_1 in Hc by lra. lra.
Qed.

(** jiang_theorem_6 at d = 2, k = 1, A = 2 v v^T with v = (3/5, 4/5) (V the rotation, l = (2, 0)), W = 2 w w^T with
    w = (-4/5, 3/5) (PSD, ||W||_2 = 2), A_hat = A + W = 2 I (U = I, m = (2, 2)): the conclusion reads
    ||V_1 V_1^T - U_1 U_1^T||_F = sqrt(32/25) ~ 1.131 <= 2 sqrt(1) 2/(2 - 0) = 2. *)
Lemma jiang_theorem_6_hyps_satisfiable :
  exists (d k : nat) (A W Ahat V U : nat -> nat -> R) (l m : nat -> R) (w : R),
  (0 < k)%nat /\ (k < d)%nat /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> Ahat a b = A a b + W a b) /\
  (forall x, 0 <= quad d W x) /\
  is_norm2 d W w /\
  orth_eig d A V l /\ orth_eig d Ahat U m /\
  l k < l (k - 1)%nat.
Proof.
  exists 2%nat, 1%nat, w_Ahat, w_W, (w_diag 2 2), w_R, w_I2, (w_vec 2 0), (w_vec 2 2), 2.
  split; [lia|]. split; [lia|].
  split; [intros a b Ha Hb; w_idx; unfold w_Ahat, w_W, w_R, w_vec; simpl; field|].
  split; [intros x; unfold quad, w_W, w_R; simpl;
          assert (0 <= (- (4 / 5) * x 0%nat + 3 / 5 * x 1%nat) * (- (4 / 5) * x 0%nat + 3 / 5 * x 1%nat))
            by apply Rle_0_sqr; nra|].
  split; [exact w_norm2_W|].
  split; [exact w_orth_eig_R|]. split; [apply w_orth_eig; lra|].
  simpl; lra.
Qed.
