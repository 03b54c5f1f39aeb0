(** jiang-wishart Lemma 3, Lemma 4 and Theorem 6 without the spectral premise: the matrices are only assumed
    symmetric; their eigenvalues and eigenvectors are those of orthonormal eigendecompositions
    ([JiangDavisKahan.orth_eig]: A = sum_j l_j v_j v_j^T, V orthogonal, l nonincreasing), which exist
    ([Spectral.spectral_exists], the spectral theorem), and each conclusion holds for every such decomposition.
    Indices from 0: lambda_i(A) = l (i - 1); lambda_1 = l 0 (largest), lambda_d = l (d - 1) (smallest).
    ||M||_2 keeps its operator-norm definition [is_norm2] (the least b with |M x| <= b |x|), PSD its
    quadratic-form definition (x^T W x >= 0). *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Spectral.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan SpectralFacts.
Open Scope R_scope.

(** Theorem 6: A, W symmetric, W PSD, A_hat = A + W, w = ||W||_2 (operator norm); decompositions of A and A_hat
    exist, and for every pair of them with sigma_k > sigma_(k+1) (l (k-1) > l k):
    ||V_k V_k^T - U_k U_k^T||_F <= 2 sqrt(k) ||W||_2 / (sigma_k - sigma_(k+1)). *)
Theorem jiang_theorem_6_spectral : forall (d k : nat) (A W Ahat : nat -> nat -> R) (w : R),
  (0 < k)%nat -> (k < d)%nat ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a) ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> W a b = W b a) ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> Ahat a b = A a b + W a b) ->
  (forall x, 0 <= quad d W x) ->
  is_norm2 d W w ->
  (exists (V U : nat -> nat -> R) (l m : nat -> R), orth_eig d A V l /\ orth_eig d Ahat U m) /\
  (forall (V U : nat -> nat -> R) (l m : nat -> R), orth_eig d A V l -> orth_eig d Ahat U m ->
     l k < l (k - 1)%nat ->
     sqrt (frob2 d (fun a b => proj d k V a b - proj d k U a b)) <= 2 * sqrt (INR k) * w / (l (k - 1)%nat - l k)).
Proof.
  intros d k A W Ahat w Hk0 Hkd HA HW HAW HPSD Hw. split.
  - destruct (Spectral.spectral_exists d A HA) as [V [l HV]].
    destruct (Spectral.spectral_exists d Ahat) as [U [m HU]].
    { intros a b Ha Hb. rewrite !HAW by assumption. rewrite HA, HW by assumption. reflexivity. }
    exists V, U, l, m. split; assumption.
  - intros V U l m HV HU Hgap. exact (jiang_theorem_6 d k A W Ahat V U l m w Hk0 Hkd HAW HPSD Hw HV HU Hgap).
Qed.

(** Lemma 3 (Davis-Kahan): A, A_hat symmetric, e = ||A - A_hat||_2 (operator norm); decompositions exist, and for
    every pair of them with lambda_k(A) > lambda_(k+1)(A_hat) (l (k-1) > m k) and pn = ||P_k - P_hat_k||_2:
    pn <= ||A - A_hat||_2 / (lambda_k(A) - lambda_(k+1)(A_hat)). *)
Theorem jiang_davis_kahan_spectral : forall (d k : nat) (A Ahat : nat -> nat -> R) (e : R),
  (0 < k)%nat -> (k < d)%nat ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a) ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> Ahat a b = Ahat b a) ->
  is_norm2 d (fun a b => A a b - Ahat a b) e ->
  (exists (V U : nat -> nat -> R) (l m : nat -> R), orth_eig d A V l /\ orth_eig d Ahat U m) /\
  (forall (V U : nat -> nat -> R) (l m : nat -> R), orth_eig d A V l -> orth_eig d Ahat U m ->
     m k < l (k - 1)%nat ->
     forall pn : R, is_norm2 d (fun a b => proj d k V a b - proj d k U a b) pn -> pn <= e / (l (k - 1)%nat - m k)).
Proof.
  intros d k A Ahat e Hk0 Hkd HA HAh He. split.
  - destruct (Spectral.spectral_exists d A HA) as [V [l HV]].
    destruct (Spectral.spectral_exists d Ahat HAh) as [U [m HU]].
    exists V, U, l, m. split; assumption.
  - intros V U l m HV HU Hgap pn Hpn. exact (jiang_davis_kahan d k A Ahat V U l m e pn Hk0 Hkd HV HU Hgap He Hpn).
Qed.

(** Lemma 4 (Weyl): H, P symmetric, M = H + P; decompositions of H, M, P exist, and for every three of them
    (eigenvalues nu of H, mu of M, rho of P, nonincreasing; rho_1 = rho 0 the largest, rho_d = rho (d-1) the
    smallest eigenvalue of P): nu_i + rho_d <= mu_i <= nu_i + rho_1. *)
Theorem jiang_weyl_spectral : forall (d i : nat) (H P M : nat -> nat -> R),
  (i < d)%nat ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> H a b = H b a) ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> P a b = P b a) ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> M a b = H a b + P a b) ->
  (exists (VH VM VP : nat -> nat -> R) (nu mu rho : nat -> R),
     orth_eig d H VH nu /\ orth_eig d M VM mu /\ orth_eig d P VP rho) /\
  (forall (VH VM VP : nat -> nat -> R) (nu mu rho : nat -> R),
     orth_eig d H VH nu -> orth_eig d M VM mu -> orth_eig d P VP rho ->
     nu i + rho (d - 1)%nat <= mu i <= nu i + rho 0%nat).
Proof.
  intros d i H P M Hi HH HP HM. split.
  - destruct (Spectral.spectral_exists d H HH) as [VH [nu SH]].
    destruct (Spectral.spectral_exists d P HP) as [VP [rho SP]].
    destruct (Spectral.spectral_exists d M) as [VM [mu SM]].
    { intros a b Ha Hb. rewrite !HM by assumption. rewrite HH, HP by assumption. reflexivity. }
    exists VH, VM, VP, nu, mu, rho. split; [exact SH | split; [exact SM | exact SP]].
  - intros VH VM VP nu mu rho SH SM SP.
    apply (jiang_weyl d i H P M VH VM nu mu (rho 0%nat) (rho (d - 1)%nat) Hi HM).
    + apply (orth_eig_spectral _ _ _ _ SH).
    + apply (orth_eig_spectral _ _ _ _ SM).
    + apply (rayleigh_upper d P VP rho). apply (orth_eig_spectral _ _ _ _ SP).
    + apply (rayleigh_lower d P VP rho). apply (orth_eig_spectral _ _ _ _ SP).
Qed.
