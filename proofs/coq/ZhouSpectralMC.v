(* zhou-compression Proposition C.1, Lemma C.2 and Theorem 4.6 from the paper's matrix hypotheses only.

   ZhouLogDetMC.v / ZhouTheorem46MC.v prove the three claims with the real determinant (mathcomp's, detR) given a
   congruence diagonalisation of (Theta_1, Gamma), an inverse B(v) of Theta_1 + v Gamma and Rayleigh bounds standing
   for lambda_min and ||.||_2. Here the matrix hypotheses are the paper's: Sigma_1, Sigma_2 (Sigma_i) symmetric
   positive definite (x^T Sigma x > 0 for x != 0) with inverses Theta (Theta Sigma = Sigma Theta = I), and
   Gamma = Theta_2 - Theta_1. The congruence diagonalisation and B(v) are constructed in the proofs from the spectral
   theorem (Spectral.spectral_exists) by SpectralCongruence.congruence_exists and inverse_path_exists.

   Readings:
   - lambda_min(S) and ||S||_2 of a symmetric S are read off an orthonormal eigendecomposition S = sum_j lam_j v_j v_j^T
     (JiangDavisKahan.orth_eig p S V lam: V j the j-th eigenvector, orthonormal, lam nonincreasing):
     lambda_min(S) = lam (p - 1), ||S||_2 = max(|lam 0|, |lam (p - 1)|) (the largest eigenvalue in absolute value).
     Each theorem states that such decompositions exist and that the conclusion holds for every one of them (the
     eigenvalues do not depend on the decomposition, so this is the claim for the eigenvalues).
   - B(v) = (Theta_1 + v Gamma)^-1 (0 <= v <= 1): the theorems state that an inverse exists and that the conclusion
     holds for every Bf with (Theta_1 + v Gamma) Bf(v) = I on [0, 1] (the inverse is unique: ZhouLogDet.spec_inverse).
   - A = int_0^1 (1 - v) vec(Gamma)^T (B(v) (x) B(v)) vec(Gamma) dv (Coquelicot's RInt; ZhouLogDet.kronsum), as in
     ZhouLogDet.v; det = ZhouLogDetMC.detR (mathcomp's determinant of the p x p matrix).
   - Lemma C.2's "2 - o(1)" read as 2 (1 - ||Sigma_1||_2 ||Gamma||_2)^2 under ||Sigma_1||_2 ||Gamma||_2 < 1, and its
     lower bound with lambda_min(Sigma_1) (as zhou_lemma_c_2); Theorem 4.6 with ||Sigma_1||_2 ||Gamma||_2 <= 1/2 and
     (15)'s o(1) the renormalisation term (4/3)/n^2, as zhou_theorem_4_6_composed; dimension p >= 1.
   - Theorem 4.6 keeps Lemma 4.4's P_1[E], P_i[E] <= 1/n^2 as a hypothesis (another claim).
   Needs mathcomp-algebra (through ZhouLogDetMC.v). *)
From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan.
From DPVerify Require Spectral.
From DPVerify Require Import ZhouWeyl ZhouRayleigh ZhouLogDet ZhouTheorem46 ZhouTheorem46C ZhouLogDetMC ZhouTheorem46MC.
From DPVerify Require Import SpectralCongruence.
Open Scope R_scope.

(* the common construction: Theta's symmetric positive definite, a congruence diagonalisation, an inverse path *)
Lemma spectral_setup : forall (p : nat) (S1 S2 T1 T2 : mat),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S2 i j = S2 j i) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S1 x) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S2 x) ->
  meq p (mul p S1 T1) kron -> meq p (mul p S2 T2) kron ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> T1 i j = T1 j i) /\
  (forall i j, (i < p)%nat -> (j < p)%nat -> T2 i j - T1 i j = T2 j i - T1 j i) /\
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) /\
  exists (M Mi : mat) (d : nat -> R),
    meq p (mul p Mi M) kron /\ meq p (mul p M Mi) kron /\
    meq p T1 (spec p M (fun _ => 1)) /\ meq p (fun i j => T2 i j - T1 i j) (spec p M d) /\
    exists Bf : R -> mat, forall v, 0 <= v <= 1 ->
      meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron.
Proof.
  intros p S1 S2 T1 T2 Hs1 Hs2 Hp1 Hp2 H1 H2.
  assert (sT1 : symm p T1) by exact (inv_sym p S1 T1 Hs1 H1).
  assert (sT2 : symm p T2) by exact (inv_sym p S2 T2 Hs2 H2).
  assert (pT1 : pd p T1) by exact (inv_pd p S1 T1 H1 Hp1).
  assert (pT2 : pd p T2) by exact (inv_pd p S2 T2 H2 Hp2).
  assert (sG : symm p (fun i j => T2 i j - T1 i j)).
  { intros i j Hi Hj. rewrite (sT1 i j Hi Hj), (sT2 i j Hi Hj). reflexivity. }
  split; [exact sT1|]. split; [exact sG|]. split; [exact pT2|].
  destruct (congruence_exists p T1 _ sT1 pT1 sG) as [M [Mi [d [HMiM [HMMi [HT1 HG]]]]]].
  exists M, Mi, d. do 4 (split; [assumption|]).
  exact (inverse_path_exists p T1 T2 M Mi d HMiM HMMi HT1 HG pT2).
Qed.

(** Proposition C.1: Sigma_1, Sigma_2 symmetric positive definite, Theta_k = Sigma_k^-1, Gamma = Theta_2 - Theta_1,
    B(v) = (Theta_1 + v Gamma)^-1 (it exists on [0, 1]; the conclusion for every such inverse):
    det Sigma_1, det Sigma_2 > 0, A exists and ln det Sigma_2 - ln det Sigma_1 = A - tr(Gamma Sigma_1). *)
Theorem zhou_prop_c_1_spectral : forall (p : nat) (S1 S2 T1 T2 : mat),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S2 i j = S2 j i) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S1 x) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p S1 T1) kron ->
  meq p (mul p T2 S2) kron -> meq p (mul p S2 T2) kron ->
  (exists Bf : R -> mat, forall v, 0 <= v <= 1 ->
     meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) /\
  (forall Bf : R -> mat,
     (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
     0 < detR p S1 /\ 0 < detR p S2 /\
     ex_RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
     ln (detR p S2) - ln (detR p S1) =
       RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
       - sumn p (fun i => mul p (fun i j => T2 i j - T1 i j) S1 i i)).
Proof.
  intros p S1 S2 T1 T2 Hs1 Hs2 Hp1 Hp2 HT1S1 HS1T1 HT2S2 HS2T2.
  destruct (spectral_setup p S1 S2 T1 T2 Hs1 Hs2 Hp1 Hp2 HS1T1 HS2T2)
    as [_ [_ [pT2 [M [Mi [d [HMiM [HMMi [HT1 [HG [Bf0 HB0]]]]]]]]]]].
  split; [exists Bf0; exact HB0|].
  intros Bf HB.
  exact (@zhou_prop_c_1_det p T1 T2 S1 S2 M Mi d Bf HMiM HMMi HT1 HG pT2 HT1S1 HT2S2 HB).
Qed.

(** Lemma C.2: with the hypotheses of C.1, p >= 1, lambda_min(Sigma_1) = lam (p - 1), ||Sigma_1||_2 =
    max(|lam 0|, |lam (p - 1)|) for every orthonormal eigendecomposition (V1, lam) of Sigma_1, ||Gamma||_2 =
    max(|mu 0|, |mu (p - 1)|) for every one (VG, mu) of Gamma (they exist), and ||Sigma_1||_2 ||Gamma||_2 < 1:
    ||Gamma||_F^2 lambda_min^2 / (2 (1 + lambda_min ||Gamma||_2)^2) <= A
      <= ||Gamma||_F^2 ||Sigma_1||_2^2 / (2 (1 - ||Sigma_1||_2 ||Gamma||_2)^2). *)
Theorem zhou_lemma_c_2_spectral : forall (p : nat) (S1 S2 T1 T2 : mat),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S2 i j = S2 j i) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S1 x) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p S1 T1) kron ->
  meq p (mul p T2 S2) kron -> meq p (mul p S2 T2) kron ->
  (1 <= p)%nat ->
  (exists Bf : R -> mat, forall v, 0 <= v <= 1 ->
     meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) /\
  (exists (V1 VG : mat) (lam mu : nat -> R),
     orth_eig p S1 V1 lam /\ orth_eig p (fun i j => T2 i j - T1 i j) VG mu) /\
  (forall (Bf : R -> mat) (V1 VG : mat) (lam mu : nat -> R),
     (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
     orth_eig p S1 V1 lam -> orth_eig p (fun i j => T2 i j - T1 i j) VG mu ->
     Rmax (Rabs (lam 0%nat)) (Rabs (lam (p - 1)%nat)) * Rmax (Rabs (mu 0%nat)) (Rabs (mu (p - 1)%nat)) < 1 ->
     frob2 p (fun i j => T2 i j - T1 i j) * (lam (p - 1)%nat * lam (p - 1)%nat)
       / (2 * ((1 + lam (p - 1)%nat * Rmax (Rabs (mu 0%nat)) (Rabs (mu (p - 1)%nat)))
               * (1 + lam (p - 1)%nat * Rmax (Rabs (mu 0%nat)) (Rabs (mu (p - 1)%nat)))))
       <= RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
     RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
       <= frob2 p (fun i j => T2 i j - T1 i j)
          * (Rmax (Rabs (lam 0%nat)) (Rabs (lam (p - 1)%nat)) * Rmax (Rabs (lam 0%nat)) (Rabs (lam (p - 1)%nat)))
          / (2 * ((1 - Rmax (Rabs (lam 0%nat)) (Rabs (lam (p - 1)%nat)) * Rmax (Rabs (mu 0%nat)) (Rabs (mu (p - 1)%nat)))
                  * (1 - Rmax (Rabs (lam 0%nat)) (Rabs (lam (p - 1)%nat)) * Rmax (Rabs (mu 0%nat)) (Rabs (mu (p - 1)%nat)))))).
Proof.
  intros p S1 S2 T1 T2 Hs1 Hs2 Hp1 Hp2 HT1S1 HS1T1 HT2S2 HS2T2 Hp.
  destruct (spectral_setup p S1 S2 T1 T2 Hs1 Hs2 Hp1 Hp2 HS1T1 HS2T2)
    as [_ [sG [pT2 [M [Mi [d [HMiM [HMMi [HT1 [HG [Bf0 HB0]]]]]]]]]]].
  split; [exists Bf0; exact HB0|].
  split.
  { destruct (Spectral.spectral_exists p S1 Hs1) as [V1 [lam H1]].
    destruct (Spectral.spectral_exists p _ sG) as [VG [mu H2]].
    exists V1, VG, lam, mu. split; assumption. }
  intros Bf V1 VG lam mu HB HV1 HVG Hsg.
  assert (Hl0 : 0 < lam (p - 1)%nat) by (apply (eig_pos p S1 V1 lam HV1 Hp1); lia).
  assert (Hl : forall x, quad p S1 x >= lam (p - 1)%nat * sq p x).
  { intros x. apply Rle_ge. exact (proj1 (eig_rayleigh p S1 V1 lam HV1 Hp x)). }
  exact (@zhou_lemma_c_2_det p T1 T2 S1 S2 M Mi d Bf (lam (p - 1)%nat) _ _ HMiM HMMi HT1 HG pT2 HT1S1 HT2S2 HB
           Hl0 Hl (eig_opnorm p S1 V1 lam HV1 Hp) (eig_opnorm p _ VG mu HVG Hp) Hsg).
Qed.

(** Theorem 4.6 (15): Sigma_1, Sigma_i symmetric positive definite, Theta = Sigma^-1, Gamma = Theta_i - Theta_1,
    Delta = Sigma_1 - Sigma_i, p, m >= 1, n >= 2, P_1[E], P_i[E] in [0, 1/n^2] (Lemma 4.4, a hypothesis), X with
    max_jk |(X^T X/m)_jk - Sigma_1(j,k)| <= C sqrt(ln(2np)/m) + Delta_max; for every orthonormal eigendecomposition of
    Sigma_1 (lam1), Sigma_i (lami), Gamma (mu) (they exist) with ||Sigma_1||_2 ||Gamma||_2 <= 1/2:
    |ln f'_1(X)/f'_i(X)| <= m p ||Delta||_F/(2 l_i l_1) (C sqrt(ln(2np)/m) + Delta_max + 2 ||Delta||_F s^2/(p l_i l_1))
    + (4/3)/n^2 with l_1 = lambda_min(Sigma_1), l_i = lambda_min(Sigma_i), s = ||Sigma_1||_2. *)
Theorem zhou_theorem_4_6_spectral : forall (p m : nat) (n C Dmax : R) (S1 Si T1 Ti X : mat) (P1 Pi : R),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> Si i j = Si j i) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p S1 x) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p Si x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p S1 T1) kron ->
  meq p (mul p Ti Si) kron -> meq p (mul p Si Ti) kron ->
  (1 <= p)%nat -> (1 <= m)%nat -> 2 <= n ->
  0 <= P1 <= 1 / (n * n) -> 0 <= Pi <= 1 / (n * n) ->
  (forall j k, (j < p)%nat -> (k < p)%nat ->
     Rabs (scov m p X j k - S1 j k) <= C * sqrt (ln (2 * n * INR p) / INR m) + Dmax) ->
  (exists (V1 Vi VG : mat) (lam1 lami mu : nat -> R),
     orth_eig p S1 V1 lam1 /\ orth_eig p Si Vi lami /\ orth_eig p (fun i j => Ti i j - T1 i j) VG mu) /\
  (forall (V1 Vi VG : mat) (lam1 lami mu : nat -> R),
     orth_eig p S1 V1 lam1 -> orth_eig p Si Vi lami -> orth_eig p (fun i j => Ti i j - T1 i j) VG mu ->
     Rmax (Rabs (lam1 0%nat)) (Rabs (lam1 (p - 1)%nat)) * Rmax (Rabs (mu 0%nat)) (Rabs (mu (p - 1)%nat)) <= 1 / 2 ->
     Rabs (loglik_renorm m p T1 (ln (detR p S1)) P1 X - loglik_renorm m p Ti (ln (detR p Si)) Pi X)
       <= alpha15 m p n C Dmax (sqrt (frob2 p (fun i j => S1 i j - Si i j)))
            (Rmax (Rabs (lam1 0%nat)) (Rabs (lam1 (p - 1)%nat))) (lam1 (p - 1)%nat) (lami (p - 1)%nat)
          + 4 / 3 / (n * n)).
Proof.
  intros p m n C Dmax S1 Si T1 Ti X P1 Pi Hs1 Hsi Hp1 Hpi HT1S1 HS1T1 HTiSi HSiTi Hp Hm Hn HP1 HPi HX.
  destruct (spectral_setup p S1 Si T1 Ti Hs1 Hsi Hp1 Hpi HS1T1 HSiTi)
    as [_ [sG [pTi [M [Mi [d [HMiM [HMMi [HT1 [HG [Bf HB]]]]]]]]]]].
  split.
  { destruct (Spectral.spectral_exists p S1 Hs1) as [V1 [lam1 H1]].
    destruct (Spectral.spectral_exists p Si Hsi) as [Vi [lami H2]].
    destruct (Spectral.spectral_exists p _ sG) as [VG [mu H3]].
    exists V1, Vi, VG, lam1, lami, mu. split; [exact H1 | split; [exact H2 | exact H3]]. }
  intros V1 Vi VG lam1 lami mu HV1 HVi HVG Hsg.
  assert (Hl1 : 0 < lam1 (p - 1)%nat) by (apply (eig_pos p S1 V1 lam1 HV1 Hp1); lia).
  assert (Hli : 0 < lami (p - 1)%nat) by (apply (eig_pos p Si Vi lami HVi Hpi); lia).
  assert (Hr1 : forall x, quad p S1 x >= lam1 (p - 1)%nat * sq p x).
  { intros x. apply Rle_ge. exact (proj1 (eig_rayleigh p S1 V1 lam1 HV1 Hp x)). }
  assert (Hri : forall x, quad p Si x >= lami (p - 1)%nat * sq p x).
  { intros x. apply Rle_ge. exact (proj1 (eig_rayleigh p Si Vi lami HVi Hp x)). }
  assert (Hs0 : 0 <= Rmax (Rabs (lam1 0%nat)) (Rabs (lam1 (p - 1)%nat)))
    by (eapply Rle_trans; [apply Rabs_pos | apply Rmax_l]).
  assert (Hg0 : 0 <= Rmax (Rabs (mu 0%nat)) (Rabs (mu (p - 1)%nat)))
    by (eapply Rle_trans; [apply Rabs_pos | apply Rmax_l]).
  exact (zhou_theorem_4_6_det p m n C Dmax S1 Si T1 Ti M Mi X d Bf (lam1 (p - 1)%nat) (lami (p - 1)%nat) _ _ P1 Pi
           HMiM HMMi HT1 HG pTi HT1S1 HTiSi HSiTi HB Hp Hm Hn Hl1 Hli Hr1 Hri Hs1 Hs0 Hg0
           (eig_opnorm p S1 V1 lam1 HV1 Hp) (eig_opnorm p _ VG mu HVG Hp) Hsg HP1 HPi HX).
Qed.
