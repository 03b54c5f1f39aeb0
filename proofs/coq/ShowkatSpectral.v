(** showkatbakhsh-regression Lemma 3 and Lemma 4 without the Rayleigh premises: the singular values are those of the
    orthonormal eigendecomposition of the Gram matrix X^T X ([SpectralFacts.gram], symmetric for every X, so a
    decomposition exists by [Spectral.spectral_exists]), and each conclusion holds for every such decomposition.
    Readings (indices from 0, nonincreasing eigenvalues l of X^T X): sigma_min(X)^2 = l (d - 1) (the smallest
    eigenvalue of X^T X), sigma_max(X)^2 = ||X||_2^2 = l 0 (the largest); ||E||_2^2 = the largest eigenvalue of
    E^T E. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Spectral.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan SpectralFacts.
From DPVerify Require Import ShowkatbakhshRidge ShowkatbakhshWedin.
Open Scope R_scope.

(** |X x|^2 = x^T (X^T X) x *)
Lemma gram_norm : forall n d X x, dot n (mv n d X x) (mv n d X x) = JiangWeyl.quad d (gram n d X) x.
Proof. intros. rewrite quad_gram. reflexivity. Qed.

Lemma gram_lower : forall n d X V l, orth_eig d (gram n d X) V l ->
  forall x, l (d - 1)%nat * dot d x x <= dot n (mv n d X x) (mv n d X x).
Proof.
  intros n d X V l HV x. rewrite gram_norm. exact (rayleigh_lower d _ V l (orth_eig_spectral _ _ _ _ HV) x).
Qed.

Lemma gram_upper : forall n d X V l, orth_eig d (gram n d X) V l ->
  forall x, dot n (mv n d X x) (mv n d X x) <= l 0%nat * dot d x x.
Proof.
  intros n d X V l HV x. rewrite gram_norm. exact (rayleigh_upper d _ V l (orth_eig_spectral _ _ _ _ HV) x).
Qed.

Lemma gram_exists : forall n d X, exists (V : nat -> nat -> R) (l : nat -> R), orth_eig d (gram n d X) V l.
Proof. intros n d X. apply Spectral.spectral_exists. intros a b Ha Hb. apply gram_sym; assumption. Qed.

(** Lemma 4 (31): for every n x d matrix X (d >= 1), y, least-squares theta* (X^T (X theta* - y) = 0), ridge
    theta_RR (X^T (X theta_RR - y) + lambda theta_RR = 0), lambda > 0, X theta* != y: a decomposition of X^T X
    exists, and for every one of them, with sigma_min^2 = l (d - 1) its smallest eigenvalue:
    ||X theta_RR - y|| / ||X theta* - y|| <= 1 + lambda/(sigma_min^2 + lambda) ||X theta*|| / ||X theta* - y||. *)
Theorem ridge_relative_error_spectral :
  forall (n d : nat) (X : nat -> nat -> R) (y th_ls th_rr : nat -> R) (lam : R),
  (1 <= d)%nat -> 0 < lam ->
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_ls i - y i) j = 0) ->
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_rr i - y i) j + lam * th_rr j = 0) ->
  0 < sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i)) ->
  (exists (V : nat -> nat -> R) (l : nat -> R), orth_eig d (gram n d X) V l) /\
  (forall (V : nat -> nat -> R) (l : nat -> R), orth_eig d (gram n d X) V l ->
     sqrt (dot n (fun i => mv n d X th_rr i - y i) (fun i => mv n d X th_rr i - y i))
       / sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i))
     <= 1 + lam / (l (d - 1)%nat + lam) * (sqrt (dot n (mv n d X th_ls) (mv n d X th_ls))
                           / sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i)))).
Proof.
  intros n d X y th_ls th_rr lam Hd Hlam Hls Hrr Hpos. split; [apply gram_exists|].
  intros V l HV.
  apply (ridge_relative_error n d X y th_ls th_rr (l (d - 1)%nat) lam); try assumption.
  - apply (gram_eig_nonneg n d X V l HV). lia.
  - exact (gram_lower n d X V l HV).
Qed.

(** Lemma 3 (26): for every n x d matrices X, E (d >= 1), y, theta_AN with (X + E)^T ((X + E) theta_AN - y) = 0,
    theta* with X theta* != y: decompositions of X^T X and E^T E exist, and for every pair of them, with
    sigma_min = sqrt (lx (d-1)) > 0 (X of full column rank), sigma_max = ||X||_2 = sqrt (lx 0),
    ||E||_2 = sqrt (le 0), kappa = sigma_max/sigma_min, Delta = ||E||_2/sigma_max, kappa Delta < 1:
    ||X theta_AN - y|| / ||X theta* - y|| <= 1 + kappa Delta/(1 - kappa Delta) (kappa + r(y)),
    r(y) = ||X theta*|| / ||X theta* - y||. *)
Theorem wedin_relative_error_spectral :
  forall (n d : nat) (X E : nat -> nat -> R) (y th th_an : nat -> R),
  (1 <= d)%nat ->
  (forall j, (j < d)%nat ->
     tmv n d (fun a b => X a b + E a b) (fun i => mv n d (fun a b => X a b + E a b) th_an i - y i) j = 0) ->
  0 < nrm n (fun i => mv n d X th i - y i) ->
  (exists (VX VE : nat -> nat -> R) (lx le : nat -> R), orth_eig d (gram n d X) VX lx /\ orth_eig d (gram n d E) VE le) /\
  (forall (VX VE : nat -> nat -> R) (lx le : nat -> R), orth_eig d (gram n d X) VX lx -> orth_eig d (gram n d E) VE le ->
     0 < lx (d - 1)%nat ->
     sqrt (lx 0%nat) / sqrt (lx (d - 1)%nat) * (sqrt (le 0%nat) / sqrt (lx 0%nat)) < 1 ->
     nrm n (fun i => mv n d X th_an i - y i) / nrm n (fun i => mv n d X th i - y i)
       <= 1 + (sqrt (lx 0%nat) / sqrt (lx (d - 1)%nat) * (sqrt (le 0%nat) / sqrt (lx 0%nat)))
               / (1 - sqrt (lx 0%nat) / sqrt (lx (d - 1)%nat) * (sqrt (le 0%nat) / sqrt (lx 0%nat)))
             * (sqrt (lx 0%nat) / sqrt (lx (d - 1)%nat) + nrm n (mv n d X th) / nrm n (fun i => mv n d X th i - y i))).
Proof.
  intros n d X E y th th_an Hd Hne Hpos. split.
  - destruct (gram_exists n d X) as [VX [lx HX]]. destruct (gram_exists n d E) as [VE [le HE]].
    exists VX, VE, lx, le. split; assumption.
  - intros VX VE lx le HX HE Hmin Hkd.
    assert (Hsort : lx (d - 1)%nat <= lx 0%nat) by (apply (eig_sorted d _ VX lx HX); lia).
    assert (Hle0 : 0 <= le 0%nat) by (apply (gram_eig_nonneg n d E VE le HE); lia).
    apply (wedin_relative_error n d X E y th th_an (sqrt (lx (d - 1)%nat)) (sqrt (lx 0%nat)) (sqrt (le 0%nat)));
      try assumption.
    + apply sqrt_lt_R0. exact Hmin.
    + apply sqrt_lt_R0. lra.
    + apply sqrt_pos.
    + intros x. rewrite sqrt_sqrt by lra. exact (gram_lower n d X VX lx HX x).
    + intros x. rewrite sqrt_sqrt by lra. exact (gram_upper n d X VX lx HX x).
    + intros x. rewrite sqrt_sqrt by lra. exact (gram_upper n d E VE le HE x).
Qed.
