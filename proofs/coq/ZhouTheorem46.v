(* zhou-compression Theorem 4.6 (bound (15)), for every dimension p and every number m of compressed rows,
   under the Rayleigh definitions of lambda_min and ||.||_2, with the paper's o(1)s made explicit.

   Objects. Vectors and p x p matrices are functions on the indices 0 .. p-1, sums are finite
   (FiniteSums.sumn); the compressed database X is m x p (row i: fun j => X i j). Sigma_1 (S1) and Sigma_i
   (Si) have inverses Theta_1 (T1), Theta_i (Ti): T1 S1 = I and Si Ti = I (hypotheses), Sigma_1 symmetric;
   Gamma = Theta_i - Theta_1, Delta = Sigma_1 - Sigma_i, ||Delta||_F = sqrt(sum_jk Delta_jk^2).
   - lambda_min under its Rayleigh definition: l1, li > 0 with x^T S x >= l |x|^2 for all x (any such
     lower bound; the conclusion is weakest, and the paper's, at the largest one, lambda_min);
   - ||Sigma_1||_2 and ||Gamma||_2 under their Rayleigh definitions: s, g with |x^T S1 x| <= s |x|^2 and
     |x^T Gamma x| <= g |x|^2 for all x (any such bounds, in particular the least ones).
   - The log-determinants ln|Sigma_1|, ln|Sigma_i| are ABSTRACT real numbers ld1, ldi: no determinant is
     defined here. They, and the number A of Proposition C.1, enter only through the hypotheses that
     Proposition C.1 and Lemma C.2 deliver (proofs/coq/ZhouLogDet.v, composed by a separate theorem):
       (C.1)  ln|Sigma_i| - ln|Sigma_1| = A - tr(Gamma Sigma_1),
       (C.2)  0 <= A <= ||Gamma||_F^2 ||Sigma_1||_2^2 / (2 (1 - ||Sigma_1||_2 ||Gamma||_2)^2).
   - The Gaussian density of a row, with the determinant through ln|Sigma| (logdens):
       ln f_Sigma(x) = -(p/2) ln(2 pi) - (1/2) ln|Sigma| - (1/2) x^T Sigma^-1 x,
     and of m i.i.d. rows the sum (loglik). Procedure 4.2's renormalised density on the kept set is
     f'_k(X) = f_k(X) / (1 - P_k[E]) (loglik_renorm), P_k[E] the truncated mass, P_k[E] in [0, 1/n^2]
     ("truncating a subset of measure at most 1/n^2"; Lemma 4.4 gives it, certified in Python).
   - The kept set (12): max_jk |(X^T X/m)_jk - Sigma_1(j, k)| <= C sqrt(ln(2np)/m) + Delta_max.

   The explicit reading of the o(1)s:
   - Lemma C.2's "2 - o(1)" comes from its hypothesis ||Sigma_1||_2 ||Gamma||_2 = o(1); here the explicit
     hypothesis ||Sigma_1||_2 ||Gamma||_2 <= 1/2 (s * g <= 1/2), which makes (1 - s g)^2 >= 1/4 and
     (m/2) A <= m ||Gamma||_F^2 ||Sigma_1||_2^2, exactly (15)'s last term after (8).
   - (15)'s "+ o(1)" is the renormalisation of Procedure 4.2 (Remark 4.3, the proof's last sentence): the
     additive term (4/3)/n^2, n >= 2, from |ln((1 - P_i[E])/(1 - P_1[E]))| <= -ln(1 - 1/n^2) <= (4/3)/n^2
     (ln(1 - x) >= -x/(1 - x), proved below).

   zhou_theorem_4_6: for X in the kept set,
     |ln f'_1(X) - ln f'_i(X)| <= m p ||Delta||_F / (2 l_i l_1)
                                    (C sqrt(ln(2np)/m) + Delta_max + 2 ||Delta||_F ||Sigma_1||_2^2 / (p l_i l_1))
                                  + (4/3)/n^2.
   Route (the paper's, Appendix C): ln f_1/f_i = (m/2)(ln|Sigma_i| - ln|Sigma_1|) + (1/2) sum_i x_i^T Gamma x_i
   (loglik_difference), sum_i x_i^T Gamma x_i = m tr(Gamma S), S = X^T X/m (sum_quad_scov), so with (C.1)
   ln f_1/f_i = (m/2) A + (m/2) tr(Gamma (S - Sigma_1)); |tr(Gamma (S - Sigma_1))| <= ||vec Gamma||_1 t on the
   kept set; ||vec Gamma||_1 <= p ||Gamma||_F (Cauchy-Schwarz over the p^2 entries, l1_frobenius);
   ||Gamma||_F <= ||Delta||_F/(l_i l_1) (ZhouRayleigh.zhou_prop_3_1_inverse); (C.2) with s g <= 1/2; and
   the renormalisation (renormalisation_bound). Not in Coq: the determinant (abstract: C.1, C.2 are
   hypotheses here), the probability P_k[E] <= 1/n^2 (Lemma 4.4), and that lambda_min, ||.||_2 are the
   eigenvalue quantities of the spectral theorem (the statement uses the Rayleigh definitions). *)
Require Import Reals Lra Lia.
From DPVerify Require Import ZhouWeyl ZhouRayleigh.
Open Scope R_scope.

(* ------------------------------------------------------------------ definitions *)
Definition logdens (p : nat) (T : nat -> nat -> R) (ld : R) (x : nat -> R) : R :=
  - (INR p / 2) * ln (2 * PI) - ld / 2 - quad p T x / 2.

Definition loglik (m p : nat) (T : nat -> nat -> R) (ld : R) (X : nat -> nat -> R) : R :=
  sumn m (fun i => logdens p T ld (X i)).

Definition loglik_renorm (m p : nat) (T : nat -> nat -> R) (ld P : R) (X : nat -> nat -> R) : R :=
  loglik m p T ld X - ln (1 - P).

Definition scov (m p : nat) (X : nat -> nat -> R) (j k : nat) : R := sumn m (fun i => X i j * X i k) / INR m.

Definition trace_prod (p : nat) (G S : nat -> nat -> R) : R := sumn p (fun j => sumn p (fun k => G j k * S k j)).

Definition alpha15 (m p : nat) (n C Dmax F s l1 li : R) : R :=
  INR m * INR p * F / (2 * li * l1) *
    (C * sqrt (ln (2 * n * INR p) / INR m) + Dmax + 2 * F * (s * s) / (INR p * li * l1)).

(* ------------------------------------------------------------------ the renormalisation (Remark 4.3) *)
Lemma ln_le_minus_1 : forall z, 0 < z -> ln z <= z - 1.
Proof.
  intros z Hz. destruct (Rle_or_lt (ln z) (z - 1)) as [H|H]; [exact H|].
  exfalso. apply exp_increasing in H. rewrite exp_ln in H by exact Hz.
  pose proof (exp_ineq1_le (z - 1)). lra.
Qed.

(* 0 <= -ln(1 - x) <= x/(1 - x) <= (4/3) x on [0, 1/4] *)
Lemma neg_ln_1m_bound : forall x, 0 <= x <= 1 / 4 -> 0 <= - ln (1 - x) <= 4 / 3 * x.
Proof.
  intros x [H0 H1]. split.
  - destruct (Req_dec x 0) as [->|Hne].
    + replace (1 - 0) with 1 by ring. rewrite ln_1. lra.
    + assert (ln (1 - x) < ln 1) by (apply ln_increasing; lra). rewrite ln_1 in H. lra.
  - assert (Hpos : 0 < 1 - x) by lra.
    rewrite <- ln_Rinv by exact Hpos.
    pose proof (ln_le_minus_1 (/ (1 - x)) (Rinv_0_lt_compat _ Hpos)) as Hl.
    assert (Hq : / (1 - x) - 1 = x / (1 - x)) by (field; lra).
    assert (x / (1 - x) <= 4 / 3 * x).
    { apply (Rmult_le_reg_r (1 - x)); [exact Hpos|].
      replace (x / (1 - x) * (1 - x)) with x by (field; lra). nra. }
    lra.
Qed.

(* |ln((1 - P_i[E])/(1 - P_1[E]))| <= (4/3)/n^2 for P_1[E], P_i[E] in [0, 1/n^2], n >= 2 *)
Theorem renormalisation_bound : forall n P1 Pi, 2 <= n ->
  0 <= P1 <= 1 / (n * n) -> 0 <= Pi <= 1 / (n * n) ->
  Rabs (ln (1 - Pi) - ln (1 - P1)) <= 4 / 3 / (n * n).
Proof.
  intros n P1 Pi Hn H1 Hi.
  assert (Hq : 1 / (n * n) <= 1 / 4).
  { apply Rmult_le_reg_r with (n * n); [nra|].
    replace (1 / (n * n) * (n * n)) with 1 by (field; lra). nra. }
  assert (Hc : 4 / 3 * (1 / (n * n)) = 4 / 3 / (n * n)) by (field; lra).
  pose proof (neg_ln_1m_bound P1 (conj (proj1 H1) (Rle_trans _ _ _ (proj2 H1) Hq))) as [A0 A1].
  pose proof (neg_ln_1m_bound Pi (conj (proj1 Hi) (Rle_trans _ _ _ (proj2 Hi) Hq))) as [B0 B1].
  assert (4 / 3 * P1 <= 4 / 3 / (n * n)) by (rewrite <- Hc; apply Rmult_le_compat_l; lra).
  assert (4 / 3 * Pi <= 4 / 3 / (n * n)) by (rewrite <- Hc; apply Rmult_le_compat_l; lra).
  apply Rabs_le. lra.
Qed.

(* ------------------------------------------------------------------ finite sums *)
(* Cauchy-Schwarz over the p^2 entries: sum_jk G_jk^2 <= c^2, c >= 0, gives sum_jk |G_jk| <= p c *)
Lemma l1_amgm : forall p (G : nat -> nat -> R) lam, 0 < lam ->
  2 * sumn p (fun j => sumn p (fun k => Rabs (G j k)))
    <= lam * frob2 p G + INR p * INR p / lam.
Proof.
  intros p G lam Hl.
  assert (Hc : INR p * INR p / lam = sumn p (fun _ => sumn p (fun _ => / lam))).
  { rewrite !sumn_const. field. lra. }
  rewrite Hc. unfold frob2. rewrite <- (sumn_scal p 2), <- (sumn_scal p lam), <- sumn_plus.
  apply sumn_le. intros j _. rewrite <- (sumn_scal p 2), <- (sumn_scal p lam), <- sumn_plus.
  apply sumn_le. intros k _.
  assert (Ha : G j k * G j k = Rabs (G j k) * Rabs (G j k)).
  { rewrite <- Rabs_mult. symmetry. apply Rabs_pos_eq. apply Rle_0_sqr. }
  rewrite Ha.
  assert (H : lam * (Rabs (G j k) * Rabs (G j k)) + / lam - 2 * Rabs (G j k)
              = / lam * ((lam * Rabs (G j k) - 1) * (lam * Rabs (G j k) - 1))) by (field; lra).
  assert (0 <= / lam * ((lam * Rabs (G j k) - 1) * (lam * Rabs (G j k) - 1)))
    by (apply Rmult_le_pos; [left; apply Rinv_0_lt_compat; exact Hl | apply Rle_0_sqr]).
  lra.
Qed.

Lemma l1_frobenius : forall p (G : nat -> nat -> R) c, 0 <= c -> frob2 p G <= c * c ->
  sumn p (fun j => sumn p (fun k => Rabs (G j k))) <= INR p * c.
Proof.
  intros p G c Hc HF.
  destruct p as [|q]; [simpl; lra|].
  set (p := S q) in *.
  set (Ssum := sumn p (fun j => sumn p (fun k => Rabs (G j k)))).
  assert (HS : 0 <= Ssum) by (apply sumn_nonneg; intros; apply sumn_nonneg; intros; apply Rabs_pos).
  assert (Hpp : 0 < INR p) by (apply lt_0_INR; unfold p; lia).
  destruct (Req_dec c 0) as [Hc0|Hc0].
    + (* frob2 G <= 0: the sum is 0, else lam = p^2/S gives 2 S <= S *)
      subst c. destruct (Rle_or_lt Ssum 0) as [|Hpos]; [nra|].
      pose proof (l1_amgm p G (INR p * INR p / Ssum) ltac:(apply Rdiv_lt_0_compat; nra)) as H.
      fold Ssum in H.
      assert (0 <= frob2 p G) by (unfold frob2; apply sumn_nonneg; intros; apply sumn_nonneg; intros; apply Rle_0_sqr).
      assert (Hf : frob2 p G = 0) by nra. rewrite Hf in H.
      replace (INR p * INR p / (INR p * INR p / Ssum)) with Ssum in H by (field; split; lra).
      nra.
    + pose proof (l1_amgm p G (INR p / c) ltac:(apply Rdiv_lt_0_compat; lra)) as H. fold Ssum in H.
      assert (INR p / c * frob2 p G <= INR p / c * (c * c))
        by (apply Rmult_le_compat_l; [left; apply Rdiv_lt_0_compat; lra | exact HF]).
      replace (INR p / c * (c * c)) with (INR p * c) in H0 by (field; lra).
      replace (INR p * INR p / (INR p / c)) with (INR p * c) in H by (field; lra).
      lra.
Qed.

(* Theorem 4.6's trace step on the kept set: |<Gamma, M>| = |sum_jk Gamma_jk M_jk| (= |tr(Gamma M)| for a symmetric
   M) <= ||vec Gamma||_1 max_jk |M_jk| <= p ||Gamma||_F t, for every p (sumn_abs, then l1_frobenius) *)
Lemma trace_l1_bound : forall p (G M : nat -> nat -> R) c t, 0 <= c -> frob2 p G <= c * c ->
  (forall j k, (j < p)%nat -> (k < p)%nat -> Rabs (M j k) <= t) ->
  Rabs (sumn p (fun j => sumn p (fun k => G j k * M j k))) <= INR p * c * t.
Proof.
  intros p G M c t Hc HF HM.
  destruct p as [|q]; [simpl; rewrite Rabs_R0; lra|].
  assert (Ht : 0 <= t) by (pose proof (HM 0%nat 0%nat ltac:(lia) ltac:(lia)); pose proof (Rabs_pos (M 0%nat 0%nat)); lra).
  eapply Rle_trans; [apply sumn_abs|].
  eapply Rle_trans with (sumn (S q) (fun j => sumn (S q) (fun k => Rabs (G j k) * t))).
  - apply sumn_le. intros j Hj. eapply Rle_trans; [apply sumn_abs|]. apply sumn_le. intros k Hk.
    rewrite Rabs_mult. apply Rmult_le_compat_l; [apply Rabs_pos|]. apply HM; assumption.
  - rewrite (sumn_ext (S q) _ (fun j => t * sumn (S q) (fun k => Rabs (G j k)))).
    2: { intros j _. rewrite <- sumn_scal. apply sumn_ext. intros; ring. }
    rewrite sumn_scal. replace (INR (S q) * c * t) with (t * (INR (S q) * c)) by ring.
    apply Rmult_le_compat_l; [exact Ht|]. apply l1_frobenius; assumption.
Qed.

(* ------------------------------------------------------------------ the log-likelihood ratio *)
Lemma loglik_difference : forall m p T1 Ti ld1 ldi (X : nat -> nat -> R),
  loglik m p T1 ld1 X - loglik m p Ti ldi X =
    INR m / 2 * (ldi - ld1) + / 2 * sumn m (fun i => quad p (fun j k => Ti j k - T1 j k) (X i)).
Proof.
  intros. unfold loglik. rewrite <- sumn_minus.
  rewrite (sumn_ext m _ (fun i => (ldi - ld1) / 2 + / 2 * quad p (fun j k => Ti j k - T1 j k) (X i))).
  - rewrite sumn_plus, sumn_const, sumn_scal. field.
  - intros i _. unfold logdens. rewrite quad_minus. field.
Qed.

Lemma sum_quad_scov : forall m p (G X : nat -> nat -> R), (1 <= m)%nat ->
  sumn m (fun i => quad p G (X i)) = INR m * sumn p (fun j => sumn p (fun k => G j k * scov m p X j k)).
Proof.
  intros m p G X Hm.
  assert (Hm0 : INR m <> 0) by (apply not_0_INR; lia).
  unfold quad.
  rewrite (sumn_ext m _ (fun i => sumn p (fun j => sumn p (fun k => G j k * (X i j * X i k))))).
  2: { intros i _. apply sumn_ext. intros j _. rewrite <- sumn_scal. apply sumn_ext. intros k _. ring. }
  rewrite sumn_swap. rewrite <- sumn_scal. apply sumn_ext. intros j _.
  rewrite sumn_swap. rewrite <- sumn_scal. apply sumn_ext. intros k _.
  unfold scov. rewrite sumn_scal. field. exact Hm0.
Qed.

(* ------------------------------------------------------------------ Theorem 4.6 *)
Theorem zhou_theorem_4_6 : forall (p m : nat) (n C Dmax : R) (S1 Si T1 Ti X : nat -> nat -> R)
    (l1 li s g A ld1 ldi P1 Pi : R),
  (1 <= p)%nat -> (1 <= m)%nat -> 2 <= n ->
  0 < l1 -> 0 < li ->
  (forall x, quad p S1 x >= l1 * sq p x) ->
  (forall x, quad p Si x >= li * sq p x) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p Si Ti i k = kron i k) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p T1 S1 i k = kron i k) ->
  0 <= s -> 0 <= g ->
  (forall x, Rabs (quad p S1 x) <= s * sq p x) ->
  (forall x, Rabs (quad p (fun i j => Ti i j - T1 i j) x) <= g * sq p x) ->
  s * g <= 1 / 2 ->
  ldi - ld1 = A - trace_prod p (fun i j => Ti i j - T1 i j) S1 ->
  0 <= A ->
  A <= frob2 p (fun i j => Ti i j - T1 i j) * (s * s) / (2 * ((1 - s * g) * (1 - s * g))) ->
  0 <= P1 <= 1 / (n * n) -> 0 <= Pi <= 1 / (n * n) ->
  (forall j k, (j < p)%nat -> (k < p)%nat ->
     Rabs (scov m p X j k - S1 j k) <= C * sqrt (ln (2 * n * INR p) / INR m) + Dmax) ->
  Rabs (loglik_renorm m p T1 ld1 P1 X - loglik_renorm m p Ti ldi Pi X)
    <= alpha15 m p n C Dmax (sqrt (frob2 p (fun i j => S1 i j - Si i j))) s l1 li + 4 / 3 / (n * n).
Proof.
  intros p m n C Dmax S1 Si T1 Ti X l1 li s g A ld1 ldi P1 Pi
    Hp Hm Hn Hl1 Hli HS1 HSi Hsym HinvI Hinv1 Hs Hg _ _ Hsg HC1 HA0 HA1 HP1 HPi Hkept.
  set (G := fun i j => Ti i j - T1 i j) in *.
  set (t := C * sqrt (ln (2 * n * INR p) / INR m) + Dmax) in *.
  set (F := sqrt (frob2 p (fun i j => S1 i j - Si i j))).
  set (L := l1 * li).
  assert (HL : 0 < L) by (unfold L; nra).
  assert (Hmr : 0 < INR m) by (apply lt_0_INR; lia).
  assert (Hpr : 0 < INR p) by (apply lt_0_INR; lia).
  assert (Ht : 0 <= t) by (pose proof (Hkept 0%nat 0%nat ltac:(lia) ltac:(lia)); pose proof (Rabs_pos (scov m p X 0%nat 0%nat - S1 0%nat 0%nat)); lra).
  (* the difference of the log-likelihoods: (m/2) A + (m/2) tr(Gamma (S - Sigma_1)) *)
  set (M := fun j k => scov m p X j k - S1 j k).
  set (Tr := sumn p (fun j => sumn p (fun k => G j k * M j k))).
  assert (Hdiff : loglik m p T1 ld1 X - loglik m p Ti ldi X = INR m / 2 * A + INR m / 2 * Tr).
  { rewrite loglik_difference. fold G. rewrite sum_quad_scov by exact Hm. rewrite HC1.
    assert (Htr : trace_prod p G S1 = sumn p (fun j => sumn p (fun k => G j k * S1 j k))).
    { unfold trace_prod. apply sumn_ext. intros j Hj. apply sumn_ext. intros k Hk. rewrite Hsym by assumption. reflexivity. }
    rewrite Htr.
    assert (HTr : Tr = sumn p (fun j => sumn p (fun k => G j k * scov m p X j k))
                       - sumn p (fun j => sumn p (fun k => G j k * S1 j k))).
    { unfold Tr, M. rewrite <- sumn_minus. apply sumn_ext. intros j _. rewrite <- sumn_minus.
      apply sumn_ext. intros k _. ring. }
    rewrite HTr. field. }
  (* (8): ||Gamma||_F^2 <= (||Delta||_F / (l_i l_1))^2 *)
  assert (HD0 : 0 <= frob2 p (fun i j => S1 i j - Si i j))
    by (unfold frob2; apply sumn_nonneg; intros; apply sumn_nonneg; intros; apply Rle_0_sqr).
  assert (HF0 : 0 <= F) by (unfold F; apply sqrt_pos).
  assert (HFF : F * F = frob2 p (fun i j => S1 i j - Si i j)) by (unfold F; apply sqrt_sqrt; exact HD0).
  assert (H8 : frob2 p G * (L * L) <= F * F).
  { rewrite HFF. unfold G, L. apply (zhou_prop_3_1_inverse p S1 Si T1 Ti l1 li); assumption. }
  assert (HG : frob2 p G <= (F / L) * (F / L)).
  { replace ((F / L) * (F / L)) with (F * F / (L * L)) by (field; lra).
    apply (Rmult_le_reg_r (L * L)); [nra|]. replace (F * F / (L * L) * (L * L)) with (F * F) by (field; lra). exact H8. }
  assert (HG0 : 0 <= frob2 p G)
    by (unfold frob2; apply sumn_nonneg; intros; apply sumn_nonneg; intros; apply Rle_0_sqr).
  (* the trace term on the kept set, then Cauchy-Schwarz and (8) *)
  assert (HTr : Rabs Tr <= t * (INR p * (F / L))).
  { replace (t * (INR p * (F / L))) with (INR p * (F / L) * t) by ring. unfold Tr.
    apply trace_l1_bound; [unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra] | exact HG | ].
    intros j k Hj Hk. unfold M. apply Hkept; assumption. }
  (* Lemma C.2 with s g <= 1/2: A <= 2 ||Gamma||_F^2 s^2 *)
  assert (HA : A <= 2 * frob2 p G * (s * s)).
  { assert (Hq : 1 / 4 <= (1 - s * g) * (1 - s * g)) by nra.
    eapply Rle_trans; [exact HA1|]. fold G.
    apply (Rmult_le_reg_r (2 * ((1 - s * g) * (1 - s * g)))); [nra|].
    replace (frob2 p G * (s * s) / (2 * ((1 - s * g) * (1 - s * g))) * (2 * ((1 - s * g) * (1 - s * g))))
      with (frob2 p G * (s * s)) by (field; nra).
    assert (0 <= frob2 p G * (s * s)) by (apply Rmult_le_pos; [exact HG0 | apply Rle_0_sqr]).
    nra. }
  (* the deterministic part of the bound *)
  assert (Hdet : Rabs (loglik m p T1 ld1 X - loglik m p Ti ldi X)
                 <= alpha15 m p n C Dmax F s l1 li).
  { rewrite Hdiff.
    assert (Hb : INR m / 2 * A + INR m / 2 * Rabs Tr <= alpha15 m p n C Dmax F s l1 li).
    { unfold alpha15. fold t.
      assert (HA' : INR m / 2 * A <= INR m * (F / L) * (F / L) * (s * s)).
      { assert (2 * frob2 p G * (s * s) <= 2 * ((F / L) * (F / L)) * (s * s))
          by (apply Rmult_le_compat_r; [apply Rle_0_sqr | lra]).
        assert (INR m / 2 * A <= INR m / 2 * (2 * ((F / L) * (F / L)) * (s * s)))
          by (apply Rmult_le_compat_l; lra).
        lra. }
      assert (HT' : INR m / 2 * Rabs Tr <= INR m / 2 * (t * (INR p * (F / L))))
        by (apply Rmult_le_compat_l; lra).
      assert (Heq : INR m * INR p * F / (2 * li * l1) * (t + 2 * F * (s * s) / (INR p * li * l1))
                    = INR m * (F / L) * (F / L) * (s * s) + INR m / 2 * (t * (INR p * (F / L))))
        by (unfold L; field; repeat split; lra).
      rewrite Heq. lra. }
    apply Rabs_le. split.
    - pose proof (Rabs_pos Tr). pose proof (Rle_abs (- Tr)). rewrite Rabs_Ropp in H0.
      assert (0 <= INR m / 2 * A) by (apply Rmult_le_pos; lra).
      assert (INR m / 2 * (- Tr) <= INR m / 2 * Rabs Tr) by (apply Rmult_le_compat_l; lra).
      lra.
    - pose proof (Rle_abs Tr).
      assert (INR m / 2 * Tr <= INR m / 2 * Rabs Tr) by (apply Rmult_le_compat_l; lra).
      lra. }
  (* renormalisation *)
  pose proof (renormalisation_bound n P1 Pi Hn HP1 HPi) as Hren.
  unfold loglik_renorm.
  replace (loglik m p T1 ld1 X - ln (1 - P1) - (loglik m p Ti ldi X - ln (1 - Pi)))
    with ((loglik m p T1 ld1 X - loglik m p Ti ldi X) + (ln (1 - Pi) - ln (1 - P1))) by ring.
  eapply Rle_trans; [apply Rabs_triang|]. fold F. lra.
Qed.
