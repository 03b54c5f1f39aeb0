(** zhou-compression Lemma 3.3, Proposition 3.1 and Proposition 3.4 without the spectral and Rayleigh premises:
    the matrices are only assumed symmetric (and, for Proposition 3.1, positive definite and invertible as in the
    paper); eigenvalues and eigenvectors are those of orthonormal eigendecompositions ([JiangDavisKahan.orth_eig]:
    S = sum_j l_j v_j v_j^T, V orthogonal, l nonincreasing), which exist ([Spectral.spectral_exists]), and each
    conclusion holds for every such decomposition. Readings (indices from 0, p the dimension):
    lambda_min(S) = l (p - 1), the smallest eigenvalue; for symmetric D, ||D||_2 = max(|d_0|, |d_(p-1)|), the
    largest absolute eigenvalue; P_D(A) = sum_(j < D) u_j u_j^T. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Spectral.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan SpectralFacts.
From DPVerify Require Import ZhouWeyl ZhouRayleigh ZhouSubspace.
Open Scope R_scope.

(* ------------------------------------------------------------------ bridges *)
Lemma orth_eig_orthogonal : forall p A U lam, orth_eig p A U lam -> orthogonal p (fun a j => U j a).
Proof.
  intros p A U lam [[Hrows _] Hcols]. split.
  - intros i j Hi Hj. specialize (Hcols i j Hi Hj). unfold JiangWeyl.dot in Hcols. rewrite Hcols. reflexivity.
  - intros k l Hk Hl. rewrite (Hrows k l Hk Hl). reflexivity.
Qed.

Lemma orth_eig_spec : forall p A U lam, orth_eig p A U lam ->
  forall k l, (k < p)%nat -> (l < p)%nat -> A k l = spec p (fun a j => U j a) lam k l.
Proof.
  intros p A U lam [[_ [HA _]] _] k l Hk Hl. rewrite HA by assumption. unfold spec. apply sumn_ext. intros; ring.
Qed.

Lemma orth_eig_sorted : forall p A U lam, orth_eig p A U lam ->
  forall i j, (i <= j)%nat -> (j < p)%nat -> lam j <= lam i.
Proof. intros p A U lam [[_ [_ Hs]] _]. exact Hs. Qed.

(** P_D (ZhouSubspace, on the columns of U^T) is sum_(j < D) u_j u_j^T *)
Lemma proj_bridge : forall p D U k l, (D <= p)%nat ->
  ZhouSubspace.proj p D (fun a j => U j a) k l = JiangDavisKahan.proj p D U k l.
Proof.
  intros p D U k l HD. unfold ZhouSubspace.proj, spec, JiangDavisKahan.proj.
  rewrite (sumn_split_le D p) by exact HD.
  rewrite (sumn_zero (p - D)), Rplus_0_r.
  - apply sumn_ext. intros j Hj. rewrite ind_lt by exact Hj. ring.
  - intros i _. rewrite ind_ge by lia. ring.
Qed.

Lemma fro2_ext : forall p X Y, (forall k l, (k < p)%nat -> (l < p)%nat -> X k l = Y k l) -> fro2 p X = fro2 p Y.
Proof.
  intros p X Y H. unfold fro2, inner. apply sumn_ext. intros k Hk. apply sumn_ext. intros l Hl.
  rewrite H by assumption. reflexivity.
Qed.

(* ------------------------------------------------------------------ Proposition 3.4 *)
(** Proposition 3.4: A and C = A + B symmetric (B = C - A); decompositions A = U diag(lam) U^T, C = V diag(mu) V^T
    exist, and for every pair of them, with delta_D = (lambda_D - lambda_(D+1))/2 = (lam (D-1) - lam D)/2 and
    P_D the projector sum_(j<D) u_j u_j^T on the first D eigenvectors:
    delta_D^2 ||P_D(A) - P_D(A + B)||_F^2 <= ||B||_F^2. *)
Theorem zhou_prop_3_4_spectral : forall (p D : nat) (A C : nat -> nat -> R),
  (1 <= D)%nat -> (D < p)%nat ->
  (forall a b, (a < p)%nat -> (b < p)%nat -> A a b = A b a) ->
  (forall a b, (a < p)%nat -> (b < p)%nat -> C a b = C b a) ->
  (exists (U V : nat -> nat -> R) (lam mu : nat -> R), orth_eig p A U lam /\ orth_eig p C V mu) /\
  (forall (U V : nat -> nat -> R) (lam mu : nat -> R), orth_eig p A U lam -> orth_eig p C V mu ->
     (lam (D - 1)%nat - lam D) / 2 * ((lam (D - 1)%nat - lam D) / 2)
       * fro2 p (fun k l => JiangDavisKahan.proj p D U k l - JiangDavisKahan.proj p D V k l)
     <= fro2 p (fun k l => C k l - A k l)).
Proof.
  intros p D A C HD1 HDp HA HC. split.
  - destruct (Spectral.spectral_exists p A HA) as [U [lam HU]].
    destruct (Spectral.spectral_exists p C HC) as [V [mu HV]].
    exists U, V, lam, mu. split; assumption.
  - intros U V lam mu HU HV.
    rewrite (fro2_ext p (fun k l => JiangDavisKahan.proj p D U k l - JiangDavisKahan.proj p D V k l)
               (fun k l => ZhouSubspace.proj p D (fun a j => U j a) k l - ZhouSubspace.proj p D (fun a j => V j a) k l)).
    + apply (zhou_prop_3_4 p D (fun a j => U j a) (fun a j => V j a) A C lam mu HD1 HDp).
      * exact (orth_eig_orthogonal p A U lam HU).
      * exact (orth_eig_orthogonal p C V mu HV).
      * exact (orth_eig_sorted p A U lam HU).
      * exact (orth_eig_sorted p C V mu HV).
      * exact (orth_eig_spec p A U lam HU).
      * exact (orth_eig_spec p C V mu HV).
    + intros k l _ _. rewrite !proj_bridge by lia. reflexivity.
Qed.

(* ------------------------------------------------------------------ Lemma 3.3 *)
(** Lemma 3.3: Sigma_1 and Delta symmetric, Sigma_j = Sigma_1 - Delta; decompositions of Sigma_1, Delta, Sigma_j
    exist, and for every three of them (eigenvalues l1, dl, lj, nonincreasing):
    lambda_min(Sigma_j) >= lambda_min(Sigma_1) - ||Delta||_2, with lambda_min = the smallest eigenvalue
    (index p - 1) and ||Delta||_2 = max(|dl 0|, |dl (p-1)|) = the largest |eigenvalue| of Delta. *)
Theorem zhou_lemma_3_3_spectral : forall (p : nat) (S1 D : nat -> nat -> R),
  (0 < p)%nat ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> D i j = D j i) ->
  (exists (V1 VD Vj : nat -> nat -> R) (l1 dl lj : nat -> R),
     orth_eig p S1 V1 l1 /\ orth_eig p D VD dl /\ orth_eig p (fun i j => S1 i j - D i j) Vj lj) /\
  (forall (V1 VD Vj : nat -> nat -> R) (l1 dl lj : nat -> R),
     orth_eig p S1 V1 l1 -> orth_eig p D VD dl -> orth_eig p (fun i j => S1 i j - D i j) Vj lj ->
     lj (p - 1)%nat >= l1 (p - 1)%nat - Rmax (Rabs (dl 0%nat)) (Rabs (dl (p - 1)%nat))).
Proof.
  intros p S1 D Hp HS HD. split.
  - destruct (Spectral.spectral_exists p S1 HS) as [V1 [l1 H1]].
    destruct (Spectral.spectral_exists p D HD) as [VD [dl H2]].
    destruct (Spectral.spectral_exists p (fun i j => S1 i j - D i j)) as [Vj [lj H3]].
    { intros i j Hi Hj. rewrite HS, HD by assumption. reflexivity. }
    exists V1, VD, Vj, l1, dl, lj. split; [exact H1 | split; [exact H2 | exact H3]].
  - intros V1 VD Vj l1 dl lj H1 H2 H3. apply Rle_ge.
    apply (lmin_least p _ Vj lj Hp H3). intros x.
    assert (E : JiangWeyl.quad p (fun i j => S1 i j - D i j) x = JiangWeyl.quad p S1 x - JiangWeyl.quad p D x)
      by exact (ZhouWeyl.quad_minus p S1 D x).
    rewrite E.
    assert (L := rayleigh_lower p S1 V1 l1 (orth_eig_spectral _ _ _ _ H1) x).
    assert (B := quad_abs_bound p D VD dl (orth_eig_spectral _ _ _ _ H2) x).
    assert (JiangWeyl.quad p D x <= Rabs (JiangWeyl.quad p D x)) by apply RRle_abs.
    lra.
Qed.

(* ------------------------------------------------------------------ Proposition 3.1 *)
(** Proposition 3.1: Sigma_1, Sigma_j symmetric and positive definite (x^T Sigma x > 0 for x != 0), Theta_j, Theta_1
    their inverses (Sigma_j Theta_j = I, Theta_1 Sigma_1 = I), |Delta_ik| <= Delta_max (Delta = Sigma_1 - Sigma_j);
    decompositions exist, and for every pair of them, with l_1 = lambda_min(Sigma_1), l_j = lambda_min(Sigma_j) the
    smallest eigenvalues: (7) ||Delta||_F^2 <= (p Delta_max)^2 and (8) ||Theta_j - Theta_1||_F^2 (l_1 l_j)^2 <=
    ||Delta||_F^2, i.e. ||Gamma||_F <= ||Delta||_F / (lambda_min(Sigma_1) lambda_min(Sigma_j)). *)
Theorem zhou_prop_3_1_spectral : forall (p : nat) (S1 Sj T1 Tj : nat -> nat -> R) (M : R),
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> Sj i j = Sj j i) ->
  (forall x, (exists i, (i < p)%nat /\ x i <> 0) -> 0 < quad p S1 x) ->
  (forall x, (exists i, (i < p)%nat /\ x i <> 0) -> 0 < quad p Sj x) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p Sj Tj i k = kron i k) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p T1 S1 i k = kron i k) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> Rabs (S1 i j - Sj i j) <= M) ->
  (exists (V1 Vj : nat -> nat -> R) (l1 lj : nat -> R), orth_eig p S1 V1 l1 /\ orth_eig p Sj Vj lj) /\
  (forall (V1 Vj : nat -> nat -> R) (l1 lj : nat -> R), orth_eig p S1 V1 l1 -> orth_eig p Sj Vj lj ->
     frob2 p (fun i j => S1 i j - Sj i j) <= INR p * M * (INR p * M) /\
     frob2 p (fun i j => Tj i j - T1 i j) * (l1 (p - 1)%nat * lj (p - 1)%nat * (l1 (p - 1)%nat * lj (p - 1)%nat))
       <= frob2 p (fun i j => S1 i j - Sj i j)).
Proof.
  intros p S1 Sj T1 Tj M HS1 HSj HP1 HPj HinvJ Hinv1 HM. split.
  - destruct (Spectral.spectral_exists p S1 HS1) as [V1 [l1 H1]].
    destruct (Spectral.spectral_exists p Sj HSj) as [Vj [lj H2]].
    exists V1, Vj, l1, lj. split; assumption.
  - intros V1 Vj l1 lj H1 H2.
    destruct (Nat.eq_dec p 0) as [->|Hp].
    + unfold frob2. simpl. split; lra.
    + assert (Hpos : forall S V l, orth_eig p S V l ->
                (forall x, (exists i, (i < p)%nat /\ x i <> 0) -> 0 < quad p S x) -> 0 < l (p - 1)%nat).
      { intros S V l HV HPD. rewrite <- (quad_eigvec p S V l HV (p - 1)%nat) by lia.
        apply HPD. apply (eigvec_nonzero p S V l HV). lia. }
      apply zhou_prop_3_1.
      * exact (Hpos S1 V1 l1 H1 HP1).
      * exact (Hpos Sj Vj lj H2 HPj).
      * intros x. apply Rle_ge. exact (rayleigh_lower p S1 V1 l1 (orth_eig_spectral _ _ _ _ H1) x).
      * intros x. apply Rle_ge. exact (rayleigh_lower p Sj Vj lj (orth_eig_spectral _ _ _ _ H2) x).
      * exact HS1.
      * exact HinvJ.
      * exact Hinv1.
      * exact HM.
Qed.
