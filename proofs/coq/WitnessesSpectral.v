(** Non-vacuity witnesses for the spectral corollaries (JiangSpectral.v, ZhouSpectral.v, ShowkatSpectral.v; see
    Witnesses.v for what a witness is and how its statement is checked). Each theorem's outer hypotheses are
    symmetry (and the claim's own); the decompositions are in the conclusion, so the witnesses need none.
    The instances are those of WitnessesJiang.v, WitnessesZhou.v and WitnessesRegression.v. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums ShowkatbakhshRidge ShowkatbakhshWedin ShowkatSpectral.
From DPVerify Require Import JiangWeyl JiangDavisKahan SpectralFacts JiangSpectral.
From DPVerify Require Import ZhouWeyl ZhouRayleigh ZhouSubspace ZhouSpectral.
Open Scope R_scope.

Ltac ws_idx :=
  repeat match goal with
  | H : (?j < 1)%nat |- _ => is_var j; assert (j = 0)%nat by lia; subst j; clear H
  | H : (?j < 2)%nat |- _ => is_var j; destruct j as [|[|?]]; [clear H | clear H | exfalso; lia]
  end.
Ltac ws_dec :=
  repeat match goal with |- context [Nat.eq_dec ?a ?b] => destruct (Nat.eq_dec a b); try (exfalso; lia) end.

(** 2 x 2: diag(x, y); the rotation with cos = 3/5, sin = 4/5, rows (3/5, 4/5), (-4/5, 3/5); 2 v v^T with
    v = (3/5, 4/5); W = 2 w w^T with w = (-4/5, 3/5). *)
Definition ws_diag (x y : R) (a b : nat) : R := match a, b with O, O => x | S O, S O => y | _, _ => 0 end.
Definition ws_vec (x y : R) (j : nat) : R := match j with O => x | _ => y end.
Definition ws_e0 (i : nat) : R := match i with O => 1 | _ => 0 end.
Definition ws_R (j a : nat) : R :=
  match j, a with O, O => 3 / 5 | O, _ => 4 / 5 | _, O => - (4 / 5) | _, _ => 3 / 5 end.
Definition ws_A : nat -> nat -> R := fun a b => sumn 2 (fun j => ws_vec 2 0 j * ws_R j a * ws_R j b).
Definition ws_W (a b : nat) : R := 2 * ws_R 1 a * ws_R 1 b.

(** a 2 x 2 matrix with |M x| = c |x| for every x has ||M||_2 = c *)
Lemma ws_norm2_exact : forall M c, 0 <= c -> (forall x, nrm2 2 (mv 2 M x) = c * c * nrm2 2 x) -> is_norm2 2 M c.
Proof.
  intros M c Hc HM.
  assert (E : forall x, vnorm 2 (mv 2 M x) = c * vnorm 2 x).
  { intros x. unfold vnorm. rewrite HM, sqrt_mult_alt by nra. rewrite sqrt_square by lra. reflexivity. }
  split.
  - intros x. rewrite E. lra.
  - intros c' Hc'. specialize (Hc' ws_e0). rewrite E in Hc'.
    assert (H1 : vnorm 2 ws_e0 = 1) by (unfold vnorm, nrm2, ws_e0; simpl; replace (0 + 1 * 1 + 0 * 0) with 1 by ring;
                                        apply sqrt_1).
    rewrite H1 in Hc'. lra.
Qed.

Lemma ws_norm2_W : is_norm2 2 ws_W 2.
Proof.
  assert (H1 : forall x, nrm2 2 (mv 2 ws_W x) <= 2 * 2 * nrm2 2 x).
  { intros x. unfold nrm2, mv, ws_W, ws_R. simpl.
    assert (0 <= (3 / 5 * x 0%nat + 4 / 5 * x 1%nat) * (3 / 5 * x 0%nat + 4 / 5 * x 1%nat)) by apply Rle_0_sqr.
    nra. }
  split.
  - intros x. unfold vnorm. apply Rle_trans with (sqrt (2 * 2 * nrm2 2 x)).
    + apply sqrt_le_1_alt. apply H1.
    + rewrite sqrt_mult_alt by lra. rewrite sqrt_square by lra. lra.
  - intros c Hc. specialize (Hc (ws_R 1)). unfold vnorm, nrm2, mv, ws_W, ws_R in Hc. simpl in Hc.
    match type of Hc with sqrt ?u <= c * sqrt ?v => replace u with (2 * 2) in Hc by field; replace v with 1 in Hc by field end.
    rewrite sqrt_square, sqrt_1 in Hc by lra. lra.
Qed.

(** jiang_theorem_6_spectral at d = 2, k = 1, A = 2 v v^T (v = (3/5, 4/5), eigenvalues (2, 0)), W = 2 w w^T
    (w = (-4/5, 3/5); PSD, ||W||_2 = 2), A_hat = A + W = 2 I: the conclusion reads, for the decomposition
    V = the rotation, U = I, ||V_1 V_1^T - U_1 U_1^T||_F = sqrt(32/25) <= 2 sqrt(1) 2/(2 - 0) = 2. *)
Lemma jiang_theorem_6_spectral_hyps_satisfiable :
  exists (d k : nat) (A W Ahat : nat -> nat -> R) (w : R),
  (0 < k)%nat /\ (k < d)%nat /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a) /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> W a b = W b a) /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> Ahat a b = A a b + W a b) /\
  (forall x, 0 <= JiangWeyl.quad d W x) /\
  is_norm2 d W w.
Proof.
  exists 2%nat, 1%nat, ws_A, ws_W, (ws_diag 2 2), 2.
  split; [lia|]. split; [lia|].
  split; [intros a b Ha Hb; ws_idx; unfold ws_A, ws_R, ws_vec; simpl; field|].
  split; [intros a b Ha Hb; ws_idx; unfold ws_W, ws_R; simpl; field|].
  split; [intros a b Ha Hb; ws_idx; unfold ws_A, ws_W, ws_R, ws_vec; simpl; field|].
  split; [intros x; unfold JiangWeyl.quad, ws_W, ws_R; simpl;
          assert (0 <= (- (4 / 5) * x 0%nat + 3 / 5 * x 1%nat) * (- (4 / 5) * x 0%nat + 3 / 5 * x 1%nat))
            by apply Rle_0_sqr; nra|].
  exact ws_norm2_W.
Qed.

(** jiang_davis_kahan_spectral at d = 2, k = 1, A = diag(2, 0), A_hat = 2 u u^T with u = (3/5, 4/5):
    ||A - A_hat||_2 = 8/5; for the decompositions V = I, U = the rotation (eigenvalues (2, 0) both), the
    conclusion reads ||P_1 - P_hat_1||_2 = 4/5 <= (8/5)/(2 - 0) (tight). *)
Lemma jiang_davis_kahan_spectral_hyps_satisfiable :
  exists (d k : nat) (A Ahat : nat -> nat -> R) (e : R),
  (0 < k)%nat /\ (k < d)%nat /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a) /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> Ahat a b = Ahat b a) /\
  is_norm2 d (fun a b => A a b - Ahat a b) e.
Proof.
  exists 2%nat, 1%nat, (ws_diag 2 0), ws_A, (8 / 5).
  split; [lia|]. split; [lia|].
  split; [intros a b Ha Hb; ws_idx; reflexivity|].
  split; [intros a b Ha Hb; ws_idx; unfold ws_A, ws_R, ws_vec; simpl; field|].
  apply ws_norm2_exact; [lra|]. intros x. unfold nrm2, mv, ws_A, ws_diag, ws_R, ws_vec; simpl; field.
Qed.

(** jiang_weyl_spectral at d = 1, i = 0, H = (1), P = (1), M = (2): the conclusion reads 1 + 1 <= 2 <= 1 + 1. *)
Lemma jiang_weyl_spectral_hyps_satisfiable :
  exists (d i : nat) (H P M : nat -> nat -> R),
  (i < d)%nat /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> H a b = H b a) /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> P a b = P b a) /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> M a b = H a b + P a b).
Proof.
  exists 1%nat, 0%nat, (fun _ _ => 1), (fun _ _ => 1), (fun _ _ => 2).
  split; [lia|]. split; [reflexivity|]. split; [reflexivity|]. intros; lra.
Qed.

(** zhou_prop_3_4_spectral at p = 2, D = 1, A = diag(2, 0), A + B = 2 v v^T with v = (3/5, 4/5): for the
    decompositions U = I, V = the rotation, the conclusion reads 32/25 <= 128/25. *)
Lemma zhou_prop_3_4_spectral_hyps_satisfiable :
  exists (p D : nat) (A C : nat -> nat -> R),
  (1 <= D)%nat /\ (D < p)%nat /\
  (forall a b, (a < p)%nat -> (b < p)%nat -> A a b = A b a) /\
  (forall a b, (a < p)%nat -> (b < p)%nat -> C a b = C b a).
Proof.
  exists 2%nat, 1%nat, (ws_diag 2 0), ws_A.
  split; [lia|]. split; [lia|].
  split; [intros a b Ha Hb; ws_idx; reflexivity|].
  intros a b Ha Hb; ws_idx; unfold ws_A, ws_R, ws_vec; simpl; field.
Qed.

(** zhou_lemma_3_3_spectral at p = 1, Sigma_1 = (2), Delta = (1): the conclusion reads 1 >= 2 - 1 (tight). *)
Lemma zhou_lemma_3_3_spectral_hyps_satisfiable :
  exists (p : nat) (S1 D : nat -> nat -> R),
  (0 < p)%nat /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> D i j = D j i).
Proof.
  exists 1%nat, (fun _ _ => 2), (fun _ _ => 1).
  split; [lia|]. split; reflexivity.
Qed.

(** zhou_prop_3_1_spectral at p = 1, Sigma_1 = (2), Sigma_j = (1), Theta_1 = (1/2), Theta_j = (1), Delta_max = 1:
    the conclusion reads 1 <= 1 and (1/2)^2 (2 1)^2 = 1 <= 1. *)
Lemma zhou_prop_3_1_spectral_hyps_satisfiable :
  exists (p : nat) (S1 Sj T1 Tj : nat -> nat -> R) (M : R),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> Sj i j = Sj j i) /\
  (forall x, (exists i, (i < p)%nat /\ x i <> 0) -> 0 < ZhouWeyl.quad p S1 x) /\
  (forall x, (exists i, (i < p)%nat /\ x i <> 0) -> 0 < ZhouWeyl.quad p Sj x) /\
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p Sj Tj i k = kron i k) /\
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p T1 S1 i k = kron i k) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> Rabs (S1 i j - Sj i j) <= M).
Proof.
  exists 1%nat, (fun _ _ => 2), (fun _ _ => 1), (fun _ _ => 1 / 2), (fun _ _ => 1), 1.
  split; [reflexivity|]. split; [reflexivity|].
  split; [intros x [i [Hi Hx]]; ws_idx; unfold ZhouWeyl.quad; simpl;
          assert (0 < x 0%nat * x 0%nat) by (apply Rsqr_pos_lt; exact Hx); nra|].
  split; [intros x [i [Hi Hx]]; ws_idx; unfold ZhouWeyl.quad; simpl;
          assert (0 < x 0%nat * x 0%nat) by (apply Rsqr_pos_lt; exact Hx); nra|].
  split; [intros i k Hi Hk; ws_idx; unfold mul, kron; simpl; ws_dec; lra|].
  split; [intros i k Hi Hk; ws_idx; unfold mul, kron; simpl; ws_dec; lra|].
  intros i j _ _. rewrite Rabs_pos_eq by lra. lra.
Qed.

(** n = 2, d = 1: X = (1, 0)^T, E = (1/2, 0)^T, y = (1, 1). *)
Definition ws_X (i j : nat) : R := match i with O => 1 | _ => 0 end.
Definition ws_E (i j : nat) : R := match i with O => 1 / 2 | _ => 0 end.
Definition ws_y (i : nat) : R := 1.

(** ridge_relative_error_spectral at n = 2, d = 1, X = (1, 0)^T (X^T X = (1), sigma_min^2 = 1), y = (1, 1),
    theta* = 1, lambda = 1, theta_RR = 1/2: the conclusion reads sqrt(5/4) <= 1 + (1/2) (1/1). *)
Lemma ridge_relative_error_spectral_hyps_satisfiable :
  exists (n d : nat) (X : nat -> nat -> R) (y th_ls th_rr : nat -> R) (lam : R),
  (1 <= d)%nat /\ 0 < lam /\
  (forall j, (j < d)%nat -> tmv n d X (fun i => ShowkatbakhshRidge.mv n d X th_ls i - y i) j = 0) /\
  (forall j, (j < d)%nat -> tmv n d X (fun i => ShowkatbakhshRidge.mv n d X th_rr i - y i) j + lam * th_rr j = 0) /\
  0 < sqrt (ShowkatbakhshRidge.dot n (fun i => ShowkatbakhshRidge.mv n d X th_ls i - y i)
                                     (fun i => ShowkatbakhshRidge.mv n d X th_ls i - y i)).
Proof.
  exists 2%nat, 1%nat, ws_X, ws_y, (fun _ => 1), (fun _ => 1 / 2), 1.
  split; [lia|]. split; [lra|].
  split; [intros j Hj; ws_idx; unfold tmv, ShowkatbakhshRidge.mv, ws_X, ws_y; simpl; lra|].
  split; [intros j Hj; ws_idx; unfold tmv, ShowkatbakhshRidge.mv, ws_X, ws_y; simpl; lra|].
  apply sqrt_lt_R0. unfold ShowkatbakhshRidge.dot, ShowkatbakhshRidge.mv, ws_X, ws_y; simpl; lra.
Qed.

(** wedin_relative_error_spectral at n = 2, d = 1, X = (1, 0)^T, E = (1/2, 0)^T (X^T X = (1), E^T E = (1/4):
    sigma_min = sigma_max = 1, ||E||_2 = 1/2, kappa Delta = 1/2), y = (1, 1), theta* = 1, theta_AN = 2/3: the
    conclusion reads sqrt(10/9) <= 1 + 1 (1 + 1). *)
Lemma wedin_relative_error_spectral_hyps_satisfiable :
  exists (n d : nat) (X E : nat -> nat -> R) (y th th_an : nat -> R),
  (1 <= d)%nat /\
  (forall j, (j < d)%nat ->
     tmv n d (fun a b => X a b + E a b) (fun i => ShowkatbakhshRidge.mv n d (fun a b => X a b + E a b) th_an i - y i) j = 0) /\
  0 < nrm n (fun i => ShowkatbakhshRidge.mv n d X th i - y i).
Proof.
  exists 2%nat, 1%nat, ws_X, ws_E, ws_y, (fun _ => 1), (fun _ => 2 / 3).
  split; [lia|].
  split; [intros j Hj; ws_idx; unfold tmv, ShowkatbakhshRidge.mv, ws_X, ws_E, ws_y; simpl; lra|].
  unfold nrm. apply sqrt_lt_R0. unfold ShowkatbakhshRidge.dot, ShowkatbakhshRidge.mv, ws_X, ws_y; simpl; lra.
Qed.
