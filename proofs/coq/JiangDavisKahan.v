(** * jiang-wishart Lemma 3 (Davis-Kahan sin theta) and Theorem 6 (top-k subspace closeness), every dimension d.

    Vectors of dimension d are functions on the indices 0 .. d-1, matrices functions of two indices, sums finite
    ([sumn], FiniteSums.v). The objects of the statements:
    - eigenvalues and eigenvectors are those of orthonormal eigendecompositions ([orth_eig]):
      A = sum_j l_j v_j v_j^T with Q = [v_0 .. v_(d-1)] orthogonal (Q Q^T = Q^T Q = I) and l nonincreasing; the
      theorems hold for every such decomposition (that every symmetric matrix has one, the spectral theorem,
      is what gives the paper's lambda_i and v_i, and is not in this file);
    - P_k = sum_(j < k) v_j v_j^T ([proj]; the paper prints sum_(i=1)^k v_k v_k^T, read as sum_i v_i v_i^T);
    - ||M||_2 under its variational definition: the least b with |M x| <= b |x| for every x ([is_norm2];
      |x| = sqrt (sum_i x_i^2)); no spectral theorem is used for it.

    Lemma 3 ([jiang_davis_kahan]): for 1 <= k < d, if lambda_k(A) > lambda_(k+1)(A_hat) then
    ||P_k - P_hat_k||_2 <= ||A - A_hat||_2 / (lambda_k(A) - lambda_(k+1)(A_hat)).
    Proof: with Q = U^T V (Q_ij = u_i . v_j; orthogonal), the coordinates of (P_k - P_hat_k) x in the basis u give
    |(P_k - P_hat_k) x|^2 = |Q12 a2|^2 + |Q21 a1|^2 with a = V^T x split at k ([nrm2_D]), Q21 = U_perp^T V_k,
    Q12 = U_k^T V_perp. (1) Q21: u_i . (A - A_hat) v_j = (l_j - m_i) Q_ij ([sylv_rel]) with l_j - m_i >= gap for
    j < k <= i, and |U_perp^T (A - A_hat) V_k a| <= e |a| ([Y_bound]); the operator-norm bound |Q21 a| <= e/gap |a|
    is [sylvester_bound]: not entrywise, but through the discrete Cayley identity
    X_ij = c_i X_ij g_j + 2 rho Y_ij/((rho + b_i)(rho + a_j)) and the least bound of |X a|^2/|a|^2, which exists by
    the completeness of R. (2) Q12: Q is orthogonal, so |Q11 a|^2 = |a|^2 - |Q21 a|^2 >= (1 - s^2)|a|^2; a square
    matrix bounded below is onto (the elimination lemma [underdetermined] of JiangWeyl.v), so its transpose is
    bounded below by the same constant ([transpose_lower]); then |Q12^T b|^2 = |b|^2 - |Q11^T b|^2 <= s^2 |b|^2 and
    |Q12 g| <= s |g| ([transpose_upper], Cauchy-Schwarz). Equal ranks (k and k) are what make (2) work.

    Theorem 6 ([jiang_theorem_6]) and Theorem 9's deterministic step ([jiang_theorem_9_step]): see their comments
    below. The standard library only. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums JiangWeyl.
Open Scope R_scope.

(* ------------------------------------------------------------------ vectors, norms, matrix-vector products *)
Definition nrm2 (p : nat) (w : nat -> R) : R := sumn p (fun i => w i * w i).
Definition mv (q : nat) (M : nat -> nat -> R) (x : nat -> R) : nat -> R := fun i => sumn q (fun j => M i j * x j).
Definition mvT (p : nat) (M : nat -> nat -> R) (y : nat -> R) : nat -> R := fun j => sumn p (fun i => M i j * y i).

Lemma nrm2_nonneg : forall p w, 0 <= nrm2 p w.
Proof. intros. unfold nrm2. apply sumn_nonneg. intros. apply Rle_0_sqr. Qed.

Lemma nrm2_ext : forall p u w, (forall i, (i < p)%nat -> u i = w i) -> nrm2 p u = nrm2 p w.
Proof. intros p u w H. unfold nrm2. apply sumn_ext. intros i Hi. rewrite H by exact Hi. reflexivity. Qed.

Lemma nrm2_zero : forall p w, nrm2 p w = 0 -> forall i, (i < p)%nat -> w i = 0.
Proof.
  intros p w H i Hi. destruct (Req_EM_T (w i) 0) as [E|E]; [exact E|].
  exfalso. assert (0 < nrm2 p w); [|lra].
  unfold nrm2. apply (sumn_pos p _ i); [intros; apply Rle_0_sqr | exact Hi |].
  assert (w i * w i > 0) by (apply Rsqr_pos_lt; exact E). lra.
Qed.

(** 2 u.w <= t |u|^2 + |w|^2 / t termwise *)
Lemma young_sum : forall p (u w : nat -> R) t, 0 < t ->
  nrm2 p (fun i => u i + w i) <= (1 + t) * nrm2 p u + (1 + / t) * nrm2 p w.
Proof.
  intros p u w t Ht. unfold nrm2. rewrite <- !sumn_scal, <- sumn_plus. apply sumn_le. intros i _.
  assert (E : (1 + t) * (u i * u i) + (1 + / t) * (w i * w i) - (u i + w i) * (u i + w i)
              = (t * u i - w i) * (t * u i - w i) / t) by (field; lra).
  assert (0 <= (t * u i - w i) * (t * u i - w i) / t).
  { apply Rmult_le_pos; [apply Rle_0_sqr | left; apply Rinv_0_lt_compat; exact Ht]. }
  lra.
Qed.

Lemma nrm2_scale_le : forall p (c w : nat -> R) B, (forall i, (i < p)%nat -> c i * c i <= B) ->
  nrm2 p (fun i => c i * w i) <= B * nrm2 p w.
Proof.
  intros p c w B H. unfold nrm2. rewrite <- sumn_scal. apply sumn_le. intros i Hi.
  specialize (H i Hi). assert (0 <= w i * w i) by apply Rle_0_sqr.
  replace (c i * w i * (c i * w i)) with ((c i * c i) * (w i * w i)) by ring. nra.
Qed.

Lemma cauchy_schwarz : forall p (u w : nat -> R),
  sumn p (fun i => u i * w i) * sumn p (fun i => u i * w i) <= nrm2 p u * nrm2 p w.
Proof.
  intros p u w. set (S := sumn p (fun i => u i * w i)). set (U := nrm2 p u). set (W := nrm2 p w).
  assert (HW : 0 <= W) by apply nrm2_nonneg. assert (HU : 0 <= U) by apply nrm2_nonneg.
  destruct (Req_EM_T W 0) as [Z|NZ].
  - assert (S = 0).
    { unfold S. apply sumn_zero. intros i Hi. rewrite (nrm2_zero p w Z i Hi). ring. }
    rewrite H, Z. lra.
  - assert (Hq : 0 <= nrm2 p (fun i => W * u i - S * w i)) by apply nrm2_nonneg.
    assert (E : nrm2 p (fun i => W * u i - S * w i) = W * (W * U - S * S)).
    { unfold nrm2.
      rewrite (sumn_ext p _ (fun i => (W * W) * (u i * u i) + ((- 2 * W * S) * (u i * w i) + (S * S) * (w i * w i))))
        by (intros; ring).
      rewrite !sumn_plus, !sumn_scal. fold S. unfold U, W, nrm2. ring. }
    rewrite E in Hq. assert (0 < W) by lra.
    assert (0 <= W * U - S * S).
    { destruct (Rle_or_lt 0 (W * U - S * S)) as [h|h]; [exact h|]. nra. }
    lra.
Qed.

Lemma dot_mv_swap : forall p q (M : nat -> nat -> R) (x y : nat -> R),
  sumn p (fun i => y i * mv q M x i) = sumn q (fun j => mvT p M y j * x j).
Proof.
  intros p q M x y. unfold mv, mvT.
  rewrite (sumn_ext p _ (fun i => sumn q (fun j => y i * (M i j * x j)))) by (intros; apply sumn_mult_l).
  rewrite sumn_swap. apply sumn_ext. intros j _. rewrite sumn_mult_r. apply sumn_ext. intros; ring.
Qed.

(** a bound of the transpose is a bound of the matrix (|M x|^2 <= s |x|^2) *)
Lemma transpose_upper : forall p q (M : nat -> nat -> R) s, 0 <= s ->
  (forall y, nrm2 q (mvT p M y) <= s * nrm2 p y) -> forall x, nrm2 p (mv q M x) <= s * nrm2 q x.
Proof.
  intros p q M s Hs H x. set (w := mv q M x).
  assert (E : nrm2 p w = sumn q (fun j => mvT p M w j * x j)) by (unfold nrm2; apply dot_mv_swap).
  assert (CS := cauchy_schwarz q (mvT p M w) x). rewrite <- E in CS.
  specialize (H w). assert (Hw := nrm2_nonneg p w). assert (Hx := nrm2_nonneg q x).
  destruct (Req_EM_T (nrm2 p w) 0) as [Z|NZ].
  - rewrite Z. nra.
  - assert (0 < nrm2 p w) by lra.
    assert (nrm2 p w * nrm2 p w <= s * nrm2 p w * nrm2 q x) by nra.
    apply (Rmult_le_reg_l (nrm2 p w)); [lra | nra].
Qed.

(** a square matrix bounded below is onto, and its transpose is bounded below by the same constant *)
Lemma onto_of_below : forall k (N : nat -> nat -> R) c, 0 < c ->
  (forall x, c * nrm2 k x <= nrm2 k (mv k N x)) ->
  forall y, exists x, forall r, (r < k)%nat -> mv k N x r = y r.
Proof.
  intros k N c Hc H y.
  set (rows := fun r col => if Nat.ltb col k then N r col else - y r).
  destruct (underdetermined k (S k) rows) as [z [[a [Ha Hza]] Hz]]; [lia|].
  assert (Hdot : forall r, dot (S k) (rows r) z = mv k N z r + - y r * z k).
  { intros r. unfold dot. simpl. unfold rows at 2. destruct (Nat.ltb_spec k k); [lia|].
    f_equal. unfold mv. apply sumn_ext. intros col Hcol. unfold rows.
    destruct (Nat.ltb_spec col k); [reflexivity | lia]. }
  destruct (Req_EM_T (z k) 0) as [Zk|NZk].
  - exfalso. assert (Ha' : (a < k)%nat) by (destruct (Nat.eq_dec a k); [subst; contradiction | lia]).
    assert (Hn : 0 < nrm2 k z).
    { unfold nrm2. apply (sumn_pos k _ a); [intros; apply Rle_0_sqr | exact Ha' |].
      assert (z a * z a > 0) by (apply Rsqr_pos_lt; exact Hza). lra. }
    assert (Hm : nrm2 k (mv k N z) = 0).
    { unfold nrm2. apply sumn_zero. intros r Hr. specialize (Hz r Hr). rewrite Hdot, Zk in Hz.
      assert (Hr0 : mv k N z r = 0) by lra. rewrite Hr0. ring. }
    specialize (H z). rewrite Hm in H. assert (0 < c * nrm2 k z) by (apply Rmult_lt_0_compat; assumption). lra.
  - exists (fun col => z col / z k). intros r Hr. specialize (Hz r Hr). rewrite Hdot in Hz.
    unfold mv in *. rewrite (sumn_ext k _ (fun col => / z k * (N r col * z col))) by (intros; unfold Rdiv; ring).
    rewrite sumn_scal. set (Sz := sumn k (fun col => N r col * z col)) in *.
    replace Sz with (y r * z k) by lra. field. exact NZk.
Qed.

Lemma transpose_lower : forall k (N : nat -> nat -> R) c,
  (forall x, c * nrm2 k x <= nrm2 k (mv k N x)) -> forall y, c * nrm2 k y <= nrm2 k (mvT k N y).
Proof.
  intros k N c H y. assert (Hy := nrm2_nonneg k y). assert (HT := nrm2_nonneg k (mvT k N y)).
  destruct (Rle_or_lt c 0) as [Hc|Hc]; [nra|].
  destruct (onto_of_below k N c Hc H y) as [x Hx].
  assert (E : nrm2 k y = sumn k (fun j => mvT k N y j * x j)).
  { unfold nrm2. rewrite <- dot_mv_swap. apply sumn_ext. intros r Hr. rewrite Hx by exact Hr. reflexivity. }
  assert (CS := cauchy_schwarz k (mvT k N y) x). rewrite <- E in CS.
  assert (Hx2 : c * nrm2 k x <= nrm2 k y).
  { rewrite (nrm2_ext k y (mv k N x)) by (intros r Hr; rewrite Hx by exact Hr; reflexivity). apply H. }
  assert (HxN := nrm2_nonneg k x).
  destruct (Req_EM_T (nrm2 k y) 0) as [Z|NZ]; [rewrite Z; lra|].
  assert (0 < nrm2 k y) by lra.
  assert (c * (nrm2 k y * nrm2 k y) <= nrm2 k (mvT k N y) * nrm2 k y) by nra.
  apply (Rmult_le_reg_r (nrm2 k y)); [lra | nra].
Qed.

(* ------------------------------------------------------------------ the Sylvester bound *)
Lemma sumn_abs_ge : forall q (f : nat -> R) j, (j < q)%nat -> f j <= sumn q (fun i => Rabs (f i)).
Proof.
  induction q as [|q IH]; intros f j Hj; [lia|]. simpl.
  assert (0 <= sumn q (fun i => Rabs (f i))) by (apply sumn_nonneg; intros; apply Rabs_pos).
  destruct (Nat.eq_dec j q) as [->|Hne].
  - assert (f q <= Rabs (f q)) by apply RRle_abs. lra.
  - assert (f j <= sumn q (fun i => Rabs (f i))) by (apply IH; lia).
    assert (0 <= Rabs (f q)) by apply Rabs_pos. lra.
Qed.

Lemma div_nonneg : forall u v, 0 <= u -> 0 < v -> 0 <= u / v.
Proof. intros u v Hu Hv. unfold Rdiv. apply Rmult_le_pos; [exact Hu | left; apply Rinv_0_lt_compat; exact Hv]. Qed.

(** X (p x q) with (a_j + b_i) X_ij = Y_ij, a_j >= delta > 0, b_i >= 0, and |Y x| <= e |x| for all x: then
    |X x| <= (e / delta) |x| for all x (squared: |X x|^2 delta^2 <= e^2 |x|^2). Not entrywise: with
    rho >= max a_j, c_i = (rho - b_i)/(rho + b_i), g_j = (rho - a_j)/(rho + a_j), the identity
    X_ij = c_i X_ij g_j + 2 rho Y_ij / ((rho + b_i)(rho + a_j)) (a discrete Cayley transform) gives, for the
    least bound T of |X x|^2/|x|^2 (completeness of R), T <= q T + 4 e^2/((rho + delta)^2 (1 - q)) with
    q = (rho - delta)/(rho + delta) < 1, i.e. T delta^2 <= e^2. B is any bound of X (it exists). *)
Theorem sylvester_bound : forall p q (X Y : nat -> nat -> R) (a b : nat -> R) (delta e B : R),
  0 < delta ->
  (forall i j, (i < p)%nat -> (j < q)%nat -> (a j + b i) * X i j = Y i j) ->
  (forall j, (j < q)%nat -> delta <= a j) ->
  (forall i, (i < p)%nat -> 0 <= b i) ->
  (forall x, nrm2 p (mv q Y x) <= e * e * nrm2 q x) ->
  (forall x, nrm2 p (mv q X x) <= B * nrm2 q x) ->
  forall x, nrm2 p (mv q X x) * (delta * delta) <= e * e * nrm2 q x.
Proof.
  intros p q X Y a b delta e B Hd HXY Ha Hb HY HB.
  set (rho := 2 * delta + sumn q (fun j => Rabs (a j))).
  assert (Hsa : 0 <= sumn q (fun j => Rabs (a j))) by (apply sumn_nonneg; intros; apply Rabs_pos).
  assert (Hrho : forall j, (j < q)%nat -> a j <= rho).
  { intros j Hj. assert (a j <= sumn q (fun i => Rabs (a i))) by (apply (sumn_abs_ge q a j Hj)). unfold rho. lra. }
  assert (Hrd : delta < rho) by (unfold rho; lra).
  set (E := fun r => r = 0 \/ exists x, 0 < nrm2 q x /\ r = nrm2 p (mv q X x) / nrm2 q x).
  assert (Hbound : bound E).
  { exists (Rmax B 0). intros r [->|[x [Hx ->]]]; [apply Rmax_r|].
    specialize (HB x). apply (Rle_trans _ B); [|apply Rmax_l].
    unfold Rdiv. apply (Rmult_le_reg_r (nrm2 q x)); [exact Hx|].
    rewrite Rmult_assoc, Rinv_l by lra. lra. }
  destruct (completeness E Hbound (ex_intro _ 0 (or_introl eq_refl))) as [T [HTub HTl]].
  assert (HT0 : 0 <= T) by (apply HTub; left; reflexivity).
  assert (HT : forall x, nrm2 p (mv q X x) <= T * nrm2 q x).
  { intros x. assert (Hn := nrm2_nonneg q x). destruct (Req_EM_T (nrm2 q x) 0) as [Z|NZ].
    - specialize (HB x). rewrite Z in *. lra.
    - assert (Hx : 0 < nrm2 q x) by lra.
      assert (nrm2 p (mv q X x) / nrm2 q x <= T) by (apply HTub; right; exists x; split; [exact Hx | reflexivity]).
      apply (Rmult_le_reg_r (/ nrm2 q x)); [apply Rinv_0_lt_compat; exact Hx|].
      rewrite Rmult_assoc, Rinv_r by lra. unfold Rdiv in H. lra. }
  assert (HTleast : forall T', 0 <= T' -> (forall x, nrm2 p (mv q X x) <= T' * nrm2 q x) -> T <= T').
  { intros T' HT' H. apply HTl. intros r [->|[x [Hx ->]]]; [exact HT'|].
    specialize (H x). apply (Rmult_le_reg_r (nrm2 q x)); [exact Hx|].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  set (qq := (rho - delta) / (rho + delta)).
  set (R4 := 4 * (e * e) / ((rho + delta) * (rho + delta))).
  assert (Hq0 : 0 < qq) by (unfold qq; apply Rdiv_lt_0_compat; lra).
  assert (Hq1 : qq < 1) by (unfold qq; apply (Rmult_lt_reg_r (rho + delta)); [lra|]; unfold Rdiv;
                            rewrite Rmult_assoc, Rinv_l by lra; lra).
  set (c := fun i => (rho - b i) / (rho + b i)).
  set (h := fun i => 2 * rho / (rho + b i)).
  set (g := fun j => (rho - a j) / (rho + a j)).
  set (s := fun j => / (rho + a j)).
  assert (Hstep : forall t, 0 < t -> forall x,
            nrm2 p (mv q X x) <= ((1 + t) * (qq * qq) * T + (1 + / t) * R4) * nrm2 q x).
  { intros t Ht x.
    assert (Hsplit : nrm2 p (mv q X x) =
              nrm2 p (fun i => c i * mv q X (fun j => g j * x j) i + h i * mv q Y (fun j => s j * x j) i)).
    { apply nrm2_ext. intros i Hi. unfold mv. rewrite !sumn_mult_l, <- sumn_plus. apply sumn_ext. intros j Hj.
      rewrite <- (HXY i j Hi Hj). assert (0 <= b i) by (apply Hb; exact Hi). assert (delta <= a j) by (apply Ha; exact Hj).
      unfold c, h, g, s. field. lra. }
    rewrite Hsplit. eapply Rle_trans; [apply young_sum; exact Ht|].
    assert (H1 : nrm2 p (fun i => c i * mv q X (fun j => g j * x j) i) <= 1 * nrm2 p (mv q X (fun j => g j * x j))).
    { apply nrm2_scale_le. intros i Hi. assert (0 <= b i) by (apply Hb; exact Hi). unfold c.
      assert (0 < rho + b i) by lra.
      replace ((rho - b i) / (rho + b i) * ((rho - b i) / (rho + b i))) with
        (((rho - b i) * (rho - b i)) / ((rho + b i) * (rho + b i))) by (field; lra).
      apply (Rmult_le_reg_r ((rho + b i) * (rho + b i))); [nra|]. unfold Rdiv.
      rewrite Rmult_assoc, Rinv_l by nra. nra. }
    assert (H2 : nrm2 p (fun i => h i * mv q Y (fun j => s j * x j) i) <= 4 * nrm2 p (mv q Y (fun j => s j * x j))).
    { apply nrm2_scale_le. intros i Hi. assert (0 <= b i) by (apply Hb; exact Hi). unfold h.
      assert (0 < rho + b i) by lra.
      replace (2 * rho / (rho + b i) * (2 * rho / (rho + b i))) with
        ((4 * (rho * rho)) / ((rho + b i) * (rho + b i))) by (field; lra).
      apply (Rmult_le_reg_r ((rho + b i) * (rho + b i))); [nra|]. unfold Rdiv.
      rewrite Rmult_assoc, Rinv_l by nra. nra. }
    assert (H3 : nrm2 q (fun j => g j * x j) <= (qq * qq) * nrm2 q x).
    { apply nrm2_scale_le. intros j Hj. assert (delta <= a j) by (apply Ha; exact Hj).
      assert (a j <= rho) by (apply Hrho; exact Hj). unfold g, qq.
      assert (0 <= (rho - a j) / (rho + a j)) by (apply div_nonneg; lra).
      assert ((rho - a j) / (rho + a j) <= (rho - delta) / (rho + delta)).
      { apply (Rmult_le_reg_r ((rho + a j) * (rho + delta))); [nra|]. unfold Rdiv.
        replace ((rho - a j) * / (rho + a j) * ((rho + a j) * (rho + delta))) with ((rho - a j) * (rho + delta))
          by (field; lra).
        replace ((rho - delta) * / (rho + delta) * ((rho + a j) * (rho + delta))) with ((rho - delta) * (rho + a j))
          by (field; lra). nra. }
      nra. }
    assert (H4 : nrm2 q (fun j => s j * x j) <= / ((rho + delta) * (rho + delta)) * nrm2 q x).
    { apply nrm2_scale_le. intros j Hj. assert (delta <= a j) by (apply Ha; exact Hj). unfold s.
      rewrite <- Rinv_mult. apply Rinv_le_contravar; nra. }
    assert (H5 := HT (fun j => g j * x j)). assert (H6 := HY (fun j => s j * x j)).
    assert (Hx := nrm2_nonneg q x). assert (0 <= e * e) by apply Rle_0_sqr.
    assert (Ht1 : 0 < 1 + t) by lra. assert (Ht2 : 0 < 1 + / t) by (assert (0 < / t) by (apply Rinv_0_lt_compat; lra); lra).
    assert (A1 : nrm2 p (mv q X (fun j => g j * x j)) <= T * ((qq * qq) * nrm2 q x)) by nra.
    assert (A2 : nrm2 p (mv q Y (fun j => s j * x j)) <= e * e * (/ ((rho + delta) * (rho + delta)) * nrm2 q x)) by nra.
    assert (R4e : R4 = 4 * (e * e) * / ((rho + delta) * (rho + delta))) by (unfold R4; field; lra).
    rewrite R4e. nra. }
  set (t0 := (1 - qq) / qq).
  assert (Ht0 : 0 < t0) by (unfold t0; apply Rdiv_lt_0_compat; lra).
  assert (E1 : (1 + t0) * (qq * qq) = qq) by (unfold t0; field; lra).
  assert (E2 : 1 + / t0 = / (1 - qq)) by (unfold t0; field; lra).
  assert (HTq : T <= qq * T + / (1 - qq) * R4).
  { apply HTleast.
    - assert (0 <= R4) by (unfold R4; apply div_nonneg; [assert (0 <= e * e) by apply Rle_0_sqr; lra | nra]).
      assert (0 < / (1 - qq)) by (apply Rinv_0_lt_compat; lra). nra.
    - intros x. specialize (Hstep t0 Ht0 x). rewrite E1, E2 in Hstep. exact Hstep. }
  assert (E3 : 1 - qq = 2 * delta / (rho + delta)) by (unfold qq; field; lra).
  assert (HTd : T * (delta * delta) <= e * e).
  { assert (T * (1 - qq) <= / (1 - qq) * R4) by lra.
    assert (T * (1 - qq) * (1 - qq) <= R4).
    { assert (0 < 1 - qq) by lra.
      apply (Rmult_le_reg_r (/ (1 - qq))); [apply Rinv_0_lt_compat; lra|].
      replace (T * (1 - qq) * (1 - qq) * / (1 - qq)) with (T * (1 - qq)) by (field; lra). lra. }
    rewrite E3 in H0. unfold R4 in H0.
    apply (Rmult_le_reg_r (4 / ((rho + delta) * (rho + delta)))); [apply Rdiv_lt_0_compat; nra|].
    replace (T * (delta * delta) * (4 / ((rho + delta) * (rho + delta)))) with
      (T * (2 * delta / (rho + delta)) * (2 * delta / (rho + delta))) by (field; lra).
    replace (e * e * (4 / ((rho + delta) * (rho + delta)))) with (4 * (e * e) / ((rho + delta) * (rho + delta)))
      by (field; lra). exact H0. }
  intros x. specialize (HT x). assert (Hx := nrm2_nonneg q x). assert (0 <= delta * delta) by nra. nra.
Qed.

(* ------------------------------------------------------------------ orthonormal eigendecompositions *)
(** A = sum_j lam_j v_j v_j^T with Q = [v_0 .. v_(d-1)] orthogonal: Q Q^T = I ([spectral], JiangWeyl.v) and
    Q^T Q = I (v_i . v_j = [i = j]); lam nonincreasing. *)
Definition orth_eig (d : nat) (A V : nat -> nat -> R) (lam : nat -> R) : Prop :=
  spectral d A V lam /\ (forall i j, (i < d)%nat -> (j < d)%nat -> dot d (V i) (V j) = if Nat.eq_dec i j then 1 else 0).

(** P_k = sum_(j < k) v_j v_j^T *)
Definition proj (d k : nat) (V : nat -> nat -> R) : nat -> nat -> R := fun a b => sumn k (fun j => V j a * V j b).

Lemma dot_comm : forall d u w, dot d u w = dot d w u.
Proof. intros. unfold dot. apply sumn_ext. intros; ring. Qed.

Lemma sum_prod_swap : forall n d (f g : nat -> nat -> R),
  sumn n (fun j => sumn d (fun a => f j a) * sumn d (fun b => g j b))
  = sumn d (fun a => sumn d (fun b => sumn n (fun j => f j a * g j b))).
Proof.
  intros n d f g.
  rewrite (sumn_ext n _ (fun j => sumn d (fun a => sumn d (fun b => f j a * g j b)))).
  2:{ intros j _. rewrite sumn_mult_r. apply sumn_ext. intros a _. rewrite sumn_mult_l. reflexivity. }
  rewrite sumn_swap. apply sumn_ext. intros a _. apply sumn_swap.
Qed.

Lemma parseval_polar : forall d A V lam (w w' : nat -> R), spectral d A V lam ->
  sumn d (fun j => dot d (V j) w * dot d (V j) w') = dot d w w'.
Proof.
  intros d A V lam w w' [Hc _]. unfold dot.
  transitivity (sumn d (fun a => sumn d (fun b => sumn d (fun j => (V j a * w a) * (V j b * w' b))))).
  { exact (sum_prod_swap d d (fun j a => V j a * w a) (fun j b => V j b * w' b)). }
  apply sumn_ext. intros a Ha.
  rewrite (sumn_ext d _ (fun b => (if Nat.eq_dec a b then 1 else 0) * (w a * w' b))).
  - rewrite sumn_delta by exact Ha. reflexivity.
  - intros b Hb. rewrite <- (Hc a b Ha Hb). rewrite sumn_mult_r. apply sumn_ext. intros; ring.
Qed.

Lemma parseval : forall d A V lam (w : nat -> R), spectral d A V lam ->
  nrm2 d w = sumn d (fun j => dot d (V j) w * dot d (V j) w).
Proof. intros. rewrite (parseval_polar d A V lam w w H). reflexivity. Qed.

Lemma eigvec : forall d A V lam, orth_eig d A V lam -> forall j a, (j < d)%nat -> (a < d)%nat ->
  mv d A (V j) a = lam j * V j a.
Proof.
  intros d A V lam [[_ [HA _]] Hcol] j a Hj Ha. unfold mv.
  rewrite (sumn_ext d _ (fun b => sumn d (fun j' => lam j' * V j' a * (V j' b * V j b)))).
  2:{ intros b Hb. rewrite HA by assumption. rewrite sumn_mult_r. apply sumn_ext. intros; ring. }
  rewrite sumn_swap.
  rewrite (sumn_ext d _ (fun j' => (if Nat.eq_dec j j' then 1 else 0) * (lam j' * V j' a))).
  - rewrite sumn_delta by exact Hj. reflexivity.
  - intros j' Hj'. transitivity ((lam j' * V j' a) * dot d (V j) (V j')).
    + rewrite dot_comm. unfold dot. rewrite sumn_mult_l. apply sumn_ext. intros; ring.
    + rewrite (Hcol j j' Hj Hj'). ring.
Qed.

Lemma sym_of_spectral : forall d A V lam, spectral d A V lam -> forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a.
Proof. intros d A V lam [_ [HA _]] a b Ha Hb. rewrite !HA by assumption. apply sumn_ext. intros; ring. Qed.

Lemma isometry : forall p q (M : nat -> nat -> R) x,
  (forall j j', (j < q)%nat -> (j' < q)%nat -> sumn p (fun i => M i j * M i j') = if Nat.eq_dec j j' then 1 else 0) ->
  nrm2 p (mv q M x) = nrm2 q x.
Proof.
  intros p q M x H. unfold nrm2, mv.
  transitivity (sumn q (fun j => sumn q (fun j' => sumn p (fun i => (M i j * x j) * (M i j' * x j'))))).
  { exact (sum_prod_swap p q (fun i j => M i j * x j) (fun i j' => M i j' * x j')). }
  apply sumn_ext. intros j Hj.
  rewrite (sumn_ext q _ (fun j' => (if Nat.eq_dec j j' then 1 else 0) * (x j * x j'))).
  - rewrite sumn_delta by exact Hj. reflexivity.
  - intros j' Hj'. rewrite <- (H j j' Hj Hj'). rewrite sumn_mult_r. apply sumn_ext. intros; ring.
Qed.

Lemma sumn_split : forall k p f, sumn (k + p) f = sumn k f + sumn p (fun i => f (k + i)%nat).
Proof.
  intros k p f. induction p as [|p IH].
  - rewrite Nat.add_0_r. simpl. ring.
  - rewrite Nat.add_succ_r. simpl. rewrite IH. ring.
Qed.

Lemma sumn_split_le : forall k d f, (k <= d)%nat -> sumn d f = sumn k f + sumn (d - k) (fun i => f (k + i)%nat).
Proof. intros k d f H. assert (E : d = (k + (d - k))%nat) by lia. rewrite E at 1. apply sumn_split. Qed.

Lemma proj_mv : forall d k V x a, mv d (proj d k V) x a = sumn k (fun j => V j a * dot d (V j) x).
Proof.
  intros. unfold mv, proj, dot.
  rewrite (sumn_ext d _ (fun b => sumn k (fun j => V j a * (V j b * x b)))).
  2:{ intros b _. rewrite sumn_mult_r. apply sumn_ext. intros; ring. }
  rewrite sumn_swap. apply sumn_ext. intros j _. rewrite sumn_mult_l. reflexivity.
Qed.

Lemma dot_comb : forall d k (u : nat -> R) (W : nat -> nat -> R) (c : nat -> R),
  dot d u (fun a => sumn k (fun j => W j a * c j)) = sumn k (fun j => dot d u (W j) * c j).
Proof.
  intros. unfold dot.
  rewrite (sumn_ext d _ (fun a => sumn k (fun j => u a * (W j a * c j)))) by (intros; apply sumn_mult_l).
  rewrite sumn_swap. apply sumn_ext. intros j _. rewrite sumn_mult_r. apply sumn_ext. intros; ring.
Qed.

Lemma sumn_kron_lt : forall k (f : nat -> R) i,
  sumn k (fun i' => (if Nat.eq_dec i i' then 1 else 0) * f i') = if Nat.ltb i k then f i else 0.
Proof.
  intros k f i. destruct (Nat.ltb_spec i k) as [H|H].
  - apply sumn_delta. exact H.
  - apply sumn_zero. intros i' Hi'. destruct (Nat.eq_dec i i'); [lia | ring].
Qed.

Lemma dot_ext : forall d u w w', (forall a, (a < d)%nat -> w a = w' a) -> dot d u w = dot d u w'.
Proof. intros d u w w' H. unfold dot. apply sumn_ext. intros a Ha. rewrite H by exact Ha. reflexivity. Qed.

Lemma dot_minus : forall d u (f g : nat -> R), dot d u (fun a => f a - g a) = dot d u f - dot d u g.
Proof. intros. unfold dot. rewrite <- sumn_minus. apply sumn_ext. intros; ring. Qed.

Definition Qm (d : nat) (U V : nat -> nat -> R) : nat -> nat -> R := fun i j => dot d (U i) (V j).

(** coordinates of (P_k - P_hat_k) x in the basis of A_hat's eigenvectors *)
Lemma coord_D : forall d k A Ahat V U l m x i, (k <= d)%nat -> (i < d)%nat ->
  orth_eig d A V l -> orth_eig d Ahat U m ->
  dot d (U i) (mv d (fun a b => proj d k V a b - proj d k U a b) x)
  = sumn k (fun j => Qm d U V i j * dot d (V j) x)
    - (if Nat.ltb i k then sumn d (fun j => Qm d U V i j * dot d (V j) x) else 0).
Proof.
  intros d k A Ahat V U l m x i Hk Hi HV HU.
  assert (Hmv : forall a, mv d (fun a b => proj d k V a b - proj d k U a b) x a
                          = sumn k (fun j => V j a * dot d (V j) x) - sumn k (fun i' => U i' a * dot d (U i') x)).
  { intros a. rewrite <- !proj_mv. unfold mv. rewrite <- sumn_minus. apply sumn_ext. intros; ring. }
  transitivity (dot d (U i) (fun a => sumn k (fun j => V j a * dot d (V j) x))
                - dot d (U i) (fun a => sumn k (fun i' => U i' a * dot d (U i') x))).
  { rewrite <- dot_minus. apply dot_ext. intros a Ha. rewrite Hmv. reflexivity. }
  rewrite !dot_comb. unfold Qm. f_equal.
  rewrite (sumn_ext k _ (fun i' => (if Nat.eq_dec i i' then 1 else 0) * dot d (U i') x)).
  2:{ intros i' Hi'. destruct HU as [_ Hc]. rewrite (Hc i i' Hi) by lia. reflexivity. }
  rewrite sumn_kron_lt. destruct (Nat.ltb i k); [|reflexivity].
  destruct HV as [HVs _]. rewrite <- (parseval_polar d A V l (U i) x HVs).
  apply sumn_ext. intros j _. rewrite (dot_comm d (V j) (U i)). reflexivity.
Qed.

Lemma nrm2_D : forall d k A Ahat V U l m x, (k <= d)%nat -> orth_eig d A V l -> orth_eig d Ahat U m ->
  nrm2 d (mv d (fun a b => proj d k V a b - proj d k U a b) x)
  = nrm2 k (mv (d - k) (fun i j' => Qm d U V i (k + j')%nat) (fun j' => dot d (V (k + j')%nat) x))
    + nrm2 (d - k) (mv k (fun i' j => Qm d U V (k + i')%nat j) (fun j => dot d (V j) x)).
Proof.
  intros d k A Ahat V U l m x Hk HV HU.
  assert (HUs : spectral d Ahat U m) by (destruct HU; assumption).
  rewrite (parseval d Ahat U m _ HUs). rewrite (sumn_split_le k d) by exact Hk. f_equal.
  - unfold nrm2. apply sumn_ext. intros i Hi.
    rewrite (coord_D d k A Ahat V U l m x i Hk ltac:(lia) HV HU).
    destruct (Nat.ltb_spec i k) as [_|]; [|lia].
    rewrite (sumn_split_le k d (fun j => Qm d U V i j * dot d (V j) x)) by exact Hk. unfold mv. ring.
  - unfold nrm2. apply sumn_ext. intros i' Hi'.
    rewrite (coord_D d k A Ahat V U l m x (k + i') Hk ltac:(lia) HV HU).
    destruct (Nat.ltb_spec (k + i') k); [lia|]. unfold mv. ring.
Qed.

Lemma sylv_rel : forall d A Ahat V U l m i j, orth_eig d A V l -> orth_eig d Ahat U m -> (i < d)%nat -> (j < d)%nat ->
  dot d (U i) (mv d (fun a b => A a b - Ahat a b) (V j)) = (l j - m i) * Qm d U V i j.
Proof.
  intros d A Ahat V U l m i j HV HU Hi Hj.
  assert (E1 : forall a, (a < d)%nat -> mv d (fun a b => A a b - Ahat a b) (V j) a = l j * V j a - mv d Ahat (V j) a).
  { intros a Ha. rewrite <- (eigvec d A V l HV j a Hj Ha). unfold mv. rewrite <- sumn_minus. apply sumn_ext. intros; ring. }
  rewrite (dot_ext d (U i) _ (fun a => l j * V j a - mv d Ahat (V j) a)) by exact E1.
  rewrite dot_minus.
  assert (E2 : dot d (U i) (mv d Ahat (V j)) = m i * Qm d U V i j).
  { unfold dot at 1. rewrite dot_mv_swap. unfold Qm, dot. rewrite sumn_mult_l. apply sumn_ext. intros b Hb.
    assert (mvT d Ahat (U i) b = m i * U i b).
    { rewrite <- (eigvec d Ahat U m HU i b Hi Hb). unfold mvT, mv. apply sumn_ext. intros a Ha.
      destruct HU as [HUs _]. rewrite (sym_of_spectral d Ahat U m HUs a b Ha Hb). ring. }
    rewrite H. ring. }
  assert (E3 : dot d (U i) (fun a => l j * V j a) = l j * Qm d U V i j).
  { unfold Qm, dot. rewrite sumn_mult_l. apply sumn_ext. intros; ring. }
  rewrite E2, E3. ring.
Qed.

Lemma Q_cols : forall d A Ahat V U l m j j', orth_eig d A V l -> orth_eig d Ahat U m -> (j < d)%nat -> (j' < d)%nat ->
  sumn d (fun i => Qm d U V i j * Qm d U V i j') = if Nat.eq_dec j j' then 1 else 0.
Proof.
  intros d A Ahat V U l m j j' [_ HVc] [HUs _] Hj Hj'. unfold Qm.
  rewrite (parseval_polar d Ahat U m (V j) (V j') HUs). apply HVc; assumption.
Qed.

Lemma Q_rows : forall d A Ahat V U l m i i', orth_eig d A V l -> orth_eig d Ahat U m -> (i < d)%nat -> (i' < d)%nat ->
  sumn d (fun j => Qm d U V i j * Qm d U V i' j) = if Nat.eq_dec i i' then 1 else 0.
Proof.
  intros d A Ahat V U l m i i' [HVs _] [_ HUc] Hi Hi'. unfold Qm.
  rewrite (sumn_ext d _ (fun j => dot d (V j) (U i) * dot d (V j) (U i'))) by (intros; rewrite !(dot_comm d (U _)); reflexivity).
  rewrite (parseval_polar d A V l (U i) (U i') HVs). apply HUc; assumption.
Qed.

Lemma Y_bound : forall d k A Ahat V U l m e, (k <= d)%nat -> orth_eig d A V l -> orth_eig d Ahat U m ->
  (forall x, nrm2 d (mv d (fun a b => A a b - Ahat a b) x) <= e * e * nrm2 d x) ->
  forall al, nrm2 (d - k) (mv k (fun i' j => dot d (U (k + i')%nat) (mv d (fun a b => A a b - Ahat a b) (V j))) al)
             <= e * e * nrm2 k al.
Proof.
  intros d k A Ahat V U l m e Hk HV HU HE al.
  set (Em := fun a b => A a b - Ahat a b).
  set (w := fun b => sumn k (fun j => V j b * al j)).
  assert (H1 : forall i', mv k (fun i' j => dot d (U (k + i')%nat) (mv d Em (V j))) al i' = dot d (U (k + i')%nat) (mv d Em w)).
  { intros i'. transitivity (dot d (U (k + i')%nat) (fun a => sumn k (fun j => mv d Em (V j) a * al j))).
    - exact (eq_sym (dot_comb d k (U (k + i')%nat) (fun j a => mv d Em (V j) a) al)).
    - apply dot_ext. intros a Ha. unfold w. symmetry. exact (dot_comb d k (Em a) V al). }
  rewrite (nrm2_ext (d - k) _ (fun i' => dot d (U (k + i')%nat) (mv d Em w))) by (intros; apply H1).
  assert (HUs : spectral d Ahat U m) by (destruct HU; assumption).
  assert (H2 : nrm2 (d - k) (fun i' => dot d (U (k + i')%nat) (mv d Em w)) <= nrm2 d (mv d Em w)).
  { rewrite (parseval d Ahat U m _ HUs). rewrite (sumn_split_le k d) by exact Hk.
    assert (0 <= sumn k (fun j => dot d (U j) (mv d Em w) * dot d (U j) (mv d Em w))) by (apply sumn_nonneg; intros; apply Rle_0_sqr).
    unfold nrm2. lra. }
  assert (H3 : nrm2 d w = nrm2 k al).
  { change w with (mv k (fun b j => V j b) al). apply isometry. intros j j' Hj Hj'.
    destruct HV as [_ HVc]. apply (HVc j j'); lia. }
  specialize (HE w). fold Em in HE. rewrite H3 in HE. lra.
Qed.

(** The two off-diagonal blocks of Q = U^T V (Q21 = U_perp^T V_k, Q12 = U_k^T V_perp) are bounded by
    e / (l_(k-1) - m_k) (squared: s2 = e^2/gap^2): Q21 by the Sylvester bound, Q12 because Q is orthogonal and
    Q11 = U_k^T V_k is square ([transpose_lower], [transpose_upper]). *)
Theorem dk_blocks : forall (d k : nat) (A Ahat V U : nat -> nat -> R) (l m : nat -> R) (e : R),
  (0 < k)%nat -> (k < d)%nat ->
  orth_eig d A V l -> orth_eig d Ahat U m ->
  m k < l (k - 1)%nat ->
  (forall x, nrm2 d (mv d (fun a b => A a b - Ahat a b) x) <= e * e * nrm2 d x) ->
  (forall al, nrm2 (d - k) (mv k (fun i' j => Qm d U V (k + i')%nat j) al)
              <= e * e / ((l (k - 1)%nat - m k) * (l (k - 1)%nat - m k)) * nrm2 k al) /\
  (forall ga, nrm2 k (mv (d - k) (fun i j' => Qm d U V i (k + j')%nat) ga)
              <= e * e / ((l (k - 1)%nat - m k) * (l (k - 1)%nat - m k)) * nrm2 (d - k) ga) /\
  (forall be, nrm2 (d - k) (mvT k (fun i j' => Qm d U V i (k + j')%nat) be)
              <= e * e / ((l (k - 1)%nat - m k) * (l (k - 1)%nat - m k)) * nrm2 k be).
Proof.
  intros d k A Ahat V U l m e Hk0 Hkd HV HU Hgap HE.
  set (delta := l (k - 1)%nat - m k). assert (Hd : 0 < delta) by (unfold delta; lra).
  set (s2 := e * e / (delta * delta)).
  assert (Hs2 : 0 <= s2) by (unfold s2; apply div_nonneg; [apply Rle_0_sqr | nra]).
  set (Q21 := fun i' j => Qm d U V (k + i')%nat j).
  set (Q12 := fun i j' => Qm d U V i (k + j')%nat).
  (* columns 0 .. k-1 of Q: |Q11 al|^2 + |Q21 al|^2 = |al|^2 *)
  assert (Hcol : forall al, nrm2 k (mv k (Qm d U V) al) + nrm2 (d - k) (mv k Q21 al) = nrm2 k al).
  { intros al. rewrite <- (isometry d k (Qm d U V) al).
    - unfold nrm2. rewrite (sumn_split_le k d _) by lia. reflexivity.
    - intros j j' Hj Hj'. apply (Q_cols d A Ahat V U l m); assumption || lia. }
  assert (H21 : forall al, nrm2 (d - k) (mv k Q21 al) * (delta * delta) <= e * e * nrm2 k al).
  { apply (sylvester_bound (d - k) k Q21 (fun i' j => dot d (U (k + i')%nat) (mv d (fun a b => A a b - Ahat a b) (V j)))
                            (fun j => l j - m k) (fun i' => m k - m (k + i')%nat) delta e 1 Hd).
    - intros i' j Hi' Hj. unfold Q21. rewrite (sylv_rel d A Ahat V U l m (k + i') j HV HU) by lia. ring.
    - intros j Hj. unfold delta. destruct HV as [[_ [_ Hs]] _]. assert (l (k - 1)%nat <= l j) by (apply Hs; lia). lra.
    - intros i' Hi'. destruct HU as [[_ [_ Hs]] _]. assert (m (k + i')%nat <= m k) by (apply Hs; lia). lra.
    - apply (Y_bound d k A Ahat V U l m e); [lia | exact HV | exact HU | exact HE].
    - intros al. specialize (Hcol al). assert (Hn := nrm2_nonneg k (mv k (Qm d U V) al)). lra. }
  assert (H21' : forall al, nrm2 (d - k) (mv k Q21 al) <= s2 * nrm2 k al).
  { intros al. specialize (H21 al). unfold s2. apply (Rmult_le_reg_r (delta * delta)); [nra|].
    replace (e * e / (delta * delta) * nrm2 k al * (delta * delta)) with (e * e * nrm2 k al) by (field; lra). exact H21. }
  split; [exact H21'|].
  assert (H11 : forall al, (1 - s2) * nrm2 k al <= nrm2 k (mv k (Qm d U V) al)).
  { intros al. specialize (Hcol al). specialize (H21' al). lra. }
  assert (HT11 := transpose_lower k (Qm d U V) (1 - s2) H11).
  (* rows 0 .. k-1 of Q: |Q11^T be|^2 + |Q12^T be|^2 = |be|^2 *)
  assert (Hrow : forall be, nrm2 k (mvT k (Qm d U V) be) + nrm2 (d - k) (mvT k Q12 be) = nrm2 k be).
  { intros be. rewrite <- (isometry d k (fun j i => Qm d U V i j) be).
    - unfold nrm2. rewrite (sumn_split_le k d _) by lia. reflexivity.
    - intros i i' Hi Hi'. apply (Q_rows d A Ahat V U l m); assumption || lia. }
  assert (HT12 : forall be, nrm2 (d - k) (mvT k Q12 be) <= s2 * nrm2 k be).
  { intros be. specialize (Hrow be). specialize (HT11 be). lra. }
  split; [|exact HT12].
  apply transpose_upper; [exact Hs2 | exact HT12].
Qed.

(** squared form of Lemma 3: |(P_k - P_hat_k) x|^2 gap^2 <= e^2 |x|^2 for every x *)
Theorem davis_kahan_sq : forall (d k : nat) (A Ahat V U : nat -> nat -> R) (l m : nat -> R) (e : R),
  (0 < k)%nat -> (k < d)%nat ->
  orth_eig d A V l -> orth_eig d Ahat U m ->
  m k < l (k - 1)%nat ->
  (forall x, nrm2 d (mv d (fun a b => A a b - Ahat a b) x) <= e * e * nrm2 d x) ->
  forall x, nrm2 d (mv d (fun a b => proj d k V a b - proj d k U a b) x) * ((l (k - 1)%nat - m k) * (l (k - 1)%nat - m k))
            <= e * e * nrm2 d x.
Proof.
  intros d k A Ahat V U l m e Hk0 Hkd HV HU Hgap HE x.
  destruct (dk_blocks d k A Ahat V U l m e Hk0 Hkd HV HU Hgap HE) as [H21 [H12 _]].
  set (delta := l (k - 1)%nat - m k) in *. assert (Hd : 0 < delta) by (unfold delta; lra).
  rewrite (nrm2_D d k A Ahat V U l m x) by (lia || assumption).
  specialize (H21 (fun j => dot d (V j) x)). specialize (H12 (fun j' => dot d (V (k + j')%nat) x)).
  assert (Hx : nrm2 d x = nrm2 k (fun j => dot d (V j) x) + nrm2 (d - k) (fun j' => dot d (V (k + j')%nat) x)).
  { destruct HV as [HVs _]. rewrite (parseval d A V l x HVs). unfold nrm2. apply sumn_split_le. lia. }
  rewrite Hx.
  set (S := e * e / (delta * delta)) in *.
  assert (ES : S * (delta * delta) = e * e) by (unfold S; field; lra).
  assert (0 < delta * delta) by nra.
  rewrite <- ES. nra.
Qed.

(* ------------------------------------------------------------------ ||.||_2 under its variational definition *)
Definition vnorm (p : nat) (w : nat -> R) : R := sqrt (nrm2 p w).

(** ||M||_2 = b: the least b with |M x| <= b |x| for every x *)
Definition is_norm2 (d : nat) (M : nat -> nat -> R) (b : R) : Prop :=
  (forall x, vnorm d (mv d M x) <= b * vnorm d x) /\
  (forall c, (forall x, vnorm d (mv d M x) <= c * vnorm d x) -> b <= c).

Lemma bound_sq_of_norm : forall d M b, (forall x, vnorm d (mv d M x) <= b * vnorm d x) ->
  forall x, nrm2 d (mv d M x) <= b * b * nrm2 d x.
Proof.
  intros d M b H x. specialize (H x). unfold vnorm in H.
  assert (H0 : 0 <= sqrt (nrm2 d (mv d M x))) by apply sqrt_pos.
  rewrite <- (sqrt_sqrt (nrm2 d (mv d M x))) by apply nrm2_nonneg.
  rewrite <- (sqrt_sqrt (nrm2 d x)) by apply nrm2_nonneg. nra.
Qed.

Lemma norm_of_bound_sq : forall d M b, 0 <= b -> (forall x, nrm2 d (mv d M x) <= b * b * nrm2 d x) ->
  forall x, vnorm d (mv d M x) <= b * vnorm d x.
Proof.
  intros d M b Hb H x. unfold vnorm. rewrite <- (sqrt_square b Hb).
  rewrite <- sqrt_mult_alt by nra. apply sqrt_le_1; [apply nrm2_nonneg | assert (0 <= nrm2 d x) by apply nrm2_nonneg; nra | apply H].
Qed.

Lemma norm_bound_nonneg : forall d M b, (0 < d)%nat -> (forall x, vnorm d (mv d M x) <= b * vnorm d x) -> 0 <= b.
Proof.
  intros d M b Hd H. specialize (H (fun _ => 1)).
  assert (0 < vnorm d (fun _ => 1)).
  { unfold vnorm. apply sqrt_lt_R0. unfold nrm2. apply (sumn_pos d _ 0); [intros; nra | exact Hd | nra]. }
  assert (0 <= vnorm d (mv d M (fun _ => 1))) by apply sqrt_pos. nra.
Qed.

(** jiang-wishart Lemma 3 (Davis-Kahan sin theta), every dimension d and every 1 <= k < d:
    if lambda_k(A) > lambda_(k+1)(A_hat), then ||P_k - P_hat_k||_2 <= ||A - A_hat||_2 / (lambda_k(A) - lambda_(k+1)(A_hat))
    (0-based indices: lambda_k(A) = l (k - 1), lambda_(k+1)(A_hat) = m k), ||.||_2 the least b with |M x| <= b |x|. *)
Theorem jiang_davis_kahan : forall (d k : nat) (A Ahat V U : nat -> nat -> R) (l m : nat -> R) (e pn : R),
  (0 < k)%nat -> (k < d)%nat ->
  orth_eig d A V l -> orth_eig d Ahat U m ->
  m k < l (k - 1)%nat ->
  is_norm2 d (fun a b => A a b - Ahat a b) e ->
  is_norm2 d (fun a b => proj d k V a b - proj d k U a b) pn ->
  pn <= e / (l (k - 1)%nat - m k).
Proof.
  intros d k A Ahat V U l m e pn Hk0 Hkd HV HU Hgap [HE _] [_ Hleast].
  assert (He : 0 <= e) by (apply (norm_bound_nonneg d (fun a b => A a b - Ahat a b) e); [lia | exact HE]).
  set (delta := l (k - 1)%nat - m k). assert (Hd : 0 < delta) by (unfold delta; lra).
  assert (HDK := davis_kahan_sq d k A Ahat V U l m e Hk0 Hkd HV HU Hgap (bound_sq_of_norm d (fun a b => A a b - Ahat a b) e HE)).
  fold delta in HDK.
  apply Hleast. apply norm_of_bound_sq; [apply div_nonneg; lra|].
  intros x. specialize (HDK x). apply (Rmult_le_reg_r (delta * delta)); [nra|].
  replace (e / delta * (e / delta) * nrm2 d x * (delta * delta)) with (e * e * nrm2 d x) by (field; lra). exact HDK.
Qed.

(** the same with any bound e of |(A - A_hat) x| / |x| (not only the least one) *)
Theorem jiang_davis_kahan_bound : forall (d k : nat) (A Ahat V U : nat -> nat -> R) (l m : nat -> R) (e : R),
  (0 < k)%nat -> (k < d)%nat ->
  orth_eig d A V l -> orth_eig d Ahat U m ->
  m k < l (k - 1)%nat ->
  (forall x, vnorm d (mv d (fun a b => A a b - Ahat a b) x) <= e * vnorm d x) ->
  forall x, vnorm d (mv d (fun a b => proj d k V a b - proj d k U a b) x) <= e / (l (k - 1)%nat - m k) * vnorm d x.
Proof.
  intros d k A Ahat V U l m e Hk0 Hkd HV HU Hgap HE.
  assert (He : 0 <= e) by (apply (norm_bound_nonneg d (fun a b => A a b - Ahat a b) e); [lia | exact HE]).
  set (delta := l (k - 1)%nat - m k). assert (Hd : 0 < delta) by (unfold delta; lra).
  assert (HDK := davis_kahan_sq d k A Ahat V U l m e Hk0 Hkd HV HU Hgap (bound_sq_of_norm d (fun a b => A a b - Ahat a b) e HE)).
  fold delta in HDK.
  apply norm_of_bound_sq; [apply div_nonneg; lra|].
  intros x. specialize (HDK x). apply (Rmult_le_reg_r (delta * delta)); [nra|].
  replace (e / delta * (e / delta) * nrm2 d x * (delta * delta)) with (e * e * nrm2 d x) by (field; lra). exact HDK.
Qed.

(* ------------------------------------------------------------------ Theorem 6 *)
Definition frob2 (d : nat) (M : nat -> nat -> R) : R := sumn d (fun a => sumn d (fun b => M a b * M a b)).
Definition ev (j : nat) : nat -> R := fun i => if Nat.eq_dec j i then 1 else 0.

Lemma mv_ev : forall q M j i, (j < q)%nat -> mv q M (ev j) i = M i j.
Proof.
  intros q M j i H. unfold mv, ev.
  rewrite (sumn_ext q _ (fun j0 => (if Nat.eq_dec j j0 then 1 else 0) * M i j0)) by (intros; ring).
  exact (sumn_delta q (fun b => M i b) j H).
Qed.

Lemma mvT_ev : forall p M i j, (i < p)%nat -> mvT p M (ev i) j = M i j.
Proof.
  intros p M i j H. unfold mvT, ev.
  rewrite (sumn_ext p _ (fun i0 => (if Nat.eq_dec i i0 then 1 else 0) * M i0 j)) by (intros; ring).
  exact (sumn_delta p (fun b => M b j) i H).
Qed.

Lemma dot_ev : forall d u b, (b < d)%nat -> dot d u (ev b) = u b.
Proof.
  intros d u b H. unfold dot, ev.
  rewrite (sumn_ext d _ (fun i => (if Nat.eq_dec b i then 1 else 0) * u i)) by (intros; ring).
  exact (sumn_delta d u b H).
Qed.

Lemma nrm2_ev : forall q j, (j < q)%nat -> nrm2 q (ev j) = 1.
Proof.
  intros q j H. unfold nrm2.
  rewrite (sumn_ext q _ (fun i => (if Nat.eq_dec j i then 1 else 0) * ev j i)) by (intros; unfold ev; ring).
  rewrite sumn_delta by exact H. unfold ev. destruct (Nat.eq_dec j j); [reflexivity | congruence].
Qed.

Lemma sumn_const : forall k c, sumn k (fun _ => c) = INR k * c.
Proof. induction k as [|k IH]; intros c; simpl sumn; [simpl; ring|]. rewrite IH, S_INR. ring. Qed.

Lemma mv_ext : forall q M x y i, (forall j, (j < q)%nat -> x j = y j) -> mv q M x i = mv q M y i.
Proof. intros q M x y i H. unfold mv. apply sumn_ext. intros j Hj. rewrite H by exact Hj. reflexivity. Qed.

Lemma frob_cols : forall d M, frob2 d M = sumn d (fun b => nrm2 d (mv d M (ev b))).
Proof.
  intros d M. unfold frob2. rewrite sumn_swap. apply sumn_ext. intros b Hb. unfold nrm2. apply sumn_ext.
  intros a Ha. rewrite mv_ev by exact Hb. reflexivity.
Qed.

Lemma frob_basis : forall d p q (M W : nat -> nat -> R),
  (forall j j', (j < q)%nat -> (j' < q)%nat -> sumn d (fun b => W j b * W j' b) = if Nat.eq_dec j j' then 1 else 0) ->
  sumn d (fun b => nrm2 p (mv q M (fun j => W j b))) = sumn p (fun i => nrm2 q (fun j => M i j)).
Proof.
  intros d p q M W H. unfold nrm2 at 1. rewrite sumn_swap. apply sumn_ext. intros i Hi.
  rewrite <- (isometry d q (fun b j => W j b) (fun j => M i j) H).
  unfold nrm2, mv. cbv beta. apply sumn_ext. intros b Hb.
  rewrite (sumn_ext q (fun j => M i j * W j b) (fun j => W j b * M i j)) by (intros; ring). reflexivity.
Qed.

(** jiang-wishart Theorem 6, for every dimension d and 1 <= k < d. A_hat = A + W with W positive semidefinite under
    the Rayleigh definition (x^T W x >= 0 for all x; every Wishart draw W = sum_i z_i z_i^T is), l the eigenvalues of
    A (the paper's singular values sigma_i: its A = X X^T / n is PSD, so they agree), m those of A + W,
    V_k V_k^T = [proj d k V], V_hat_k V_hat_k^T = [proj d k U], ||W||_2 = w under [is_norm2]; if sigma_k > sigma_(k+1):
    ||V_k V_k^T - V_hat_k V_hat_k^T||_F <= 2 sqrt(k) ||W||_2 / (sigma_k - sigma_(k+1)).
    Not the paper's route (its step ||.||_F <= sqrt(k) ||.||_2 is false, the factor is sqrt(2k); and its gap
    sigma_k - sigma_(k+1) - ||W||_2 would then give 2 sqrt(2k)): Davis-Kahan with the roles of A and A + W
    exchanged ([dk_blocks]), whose gap lambda_k(A + W) - lambda_(k+1)(A) is >= sigma_k - sigma_(k+1) because W is
    PSD (Weyl: [weyl_upper] of JiangWeyl.v with -W); then ||P - P_hat||_F^2 = ||Q12||_F^2 + ||Q21||_F^2 <= 2 k s^2
    (Q21 has k columns, Q12^T k columns, each of norm <= s = ||W||_2 / gap), i.e. the bound with sqrt(2k) <= 2 sqrt(k).
    The paper's hypothesis sigma_k - sigma_(k+1) >= 2 ||W||_2 is not needed. *)
Theorem jiang_theorem_6 : forall (d k : nat) (A W Ahat V U : nat -> nat -> R) (l m : nat -> R) (w : R),
  (0 < k)%nat -> (k < d)%nat ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> Ahat a b = A a b + W a b) ->
  (forall x, 0 <= quad d W x) ->
  is_norm2 d W w ->
  orth_eig d A V l -> orth_eig d Ahat U m ->
  l k < l (k - 1)%nat ->
  sqrt (frob2 d (fun a b => proj d k V a b - proj d k U a b)) <= 2 * sqrt (INR k) * w / (l (k - 1)%nat - l k).
Proof.
  intros d k A W Ahat V U l m w Hk0 Hkd HAW HW [Hw _] HV HU Hgap.
  assert (Hw0 : 0 <= w) by (apply (norm_bound_nonneg d W w); [lia | exact Hw]).
  assert (Hweyl : l (k - 1)%nat <= m (k - 1)%nat + 0).
  { destruct HV as [HVs _]. destruct HU as [HUs _].
    apply (weyl_upper d (k - 1) A Ahat (fun a b => - W a b) V U l m 0); [lia | | exact HVs | exact HUs |].
    - intros a b Ha Hb. rewrite HAW by assumption. ring.
    - intros x. specialize (HW x).
      assert (E : quad d (fun a b => - W a b) x = - quad d W x).
      { unfold quad. transitivity (sumn d (fun a => -1 * (x a * sumn d (fun b => W a b * x b)))).
        - apply sumn_ext. intros a _.
          rewrite (sumn_ext d (fun b => - W a b * x b) (fun b => -1 * (W a b * x b))) by (intros; ring).
          rewrite sumn_scal. ring.
        - rewrite sumn_scal. ring. }
      rewrite E. lra. }
  set (g := l (k - 1)%nat - l k). assert (Hg : 0 < g) by (unfold g; lra).
  set (dl := m (k - 1)%nat - l k). assert (Hdl : g <= dl) by (unfold g, dl; lra).
  assert (Hgap' : l k < m (k - 1)%nat) by lra.
  assert (HE : forall x, nrm2 d (mv d (fun a b => Ahat a b - A a b) x) <= w * w * nrm2 d x).
  { intros x. rewrite (nrm2_ext d _ (mv d W x)).
    - apply bound_sq_of_norm. exact Hw.
    - intros a Ha. unfold mv. apply sumn_ext. intros b Hb. rewrite HAW by assumption. ring. }
  destruct (dk_blocks d k Ahat A U V m l w Hk0 Hkd HU HV Hgap' HE) as [H21 [_ HT12]].
  fold dl in H21, HT12.
  set (s2 := w * w / (dl * dl)) in *.
  set (Q21 := fun i' j => Qm d V U (k + i')%nat j) in *.
  set (Q12 := fun i j' => Qm d V U i (k + j')%nat) in *.
  (* ||P - P_hat||_F^2 as a sum over the columns of P_hat - P *)
  assert (Hneg : frob2 d (fun a b => proj d k V a b - proj d k U a b) = frob2 d (fun a b => proj d k U a b - proj d k V a b)).
  { unfold frob2. apply sumn_ext. intros a _. apply sumn_ext. intros b _. ring. }
  assert (HF : frob2 d (fun a b => proj d k U a b - proj d k V a b)
               = sumn d (fun b => nrm2 k (mv (d - k) Q12 (fun j' => U (k + j')%nat b)))
                 + sumn d (fun b => nrm2 (d - k) (mv k Q21 (fun j => U j b)))).
  { rewrite frob_cols, <- sumn_plus. apply sumn_ext. intros b Hb.
    rewrite (nrm2_D d k Ahat A U V m l (ev b)) by (lia || assumption). f_equal.
    - apply nrm2_ext. intros i Hi. apply mv_ext. intros j' Hj'. apply dot_ev. exact Hb.
    - apply nrm2_ext. intros i Hi. apply mv_ext. intros j Hj. apply dot_ev. exact Hb. }
  assert (HUc : forall j j', (j < d)%nat -> (j' < d)%nat -> sumn d (fun b => U j b * U j' b) = if Nat.eq_dec j j' then 1 else 0).
  { intros j j' Hj Hj'. destruct HU as [_ HUc]. apply (HUc j j' Hj Hj'). }
  assert (HA : sumn d (fun b => nrm2 (d - k) (mv k Q21 (fun j => U j b))) <= INR k * s2).
  { rewrite (frob_basis d (d - k) k Q21 U) by (intros; apply HUc; lia).
    unfold nrm2 at 1. rewrite sumn_swap. rewrite <- sumn_const. apply sumn_le. intros j Hj.
    specialize (H21 (ev j)). rewrite nrm2_ev in H21 by exact Hj.
    unfold nrm2 in H21 |- *. rewrite (sumn_ext (d - k) _ (fun i => mv k Q21 (ev j) i * mv k Q21 (ev j) i)).
    - lra.
    - intros i _. rewrite mv_ev by exact Hj. reflexivity. }
  assert (HB : sumn d (fun b => nrm2 k (mv (d - k) Q12 (fun j' => U (k + j')%nat b))) <= INR k * s2).
  { rewrite (frob_basis d k (d - k) Q12 (fun j' b => U (k + j')%nat b)).
    2:{ intros j1 j2 H1 H2. cbv beta. rewrite (HUc (k + j1)%nat (k + j2)%nat) by lia.
        destruct (Nat.eq_dec (k + j1) (k + j2)), (Nat.eq_dec j1 j2); try reflexivity; lia. }
    rewrite <- sumn_const. apply sumn_le. intros i Hi.
    specialize (HT12 (ev i)). rewrite nrm2_ev in HT12 by exact Hi.
    unfold nrm2 in HT12 |- *. rewrite (sumn_ext (d - k) _ (fun j => mvT k Q12 (ev i) j * mvT k Q12 (ev i) j)).
    - lra.
    - intros j _. rewrite mvT_ev by exact Hi. reflexivity. }
  rewrite Hneg, HF.
  assert (Hk : 0 <= INR k) by apply pos_INR.
  assert (Hs2g : s2 <= w * w / (g * g)).
  { unfold s2, Rdiv. apply Rmult_le_compat_l; [apply Rle_0_sqr|]. apply Rinv_le_contravar; nra. }
  set (Rhs := 2 * sqrt (INR k) * w / g).
  assert (Hsq : 0 <= sqrt (INR k)) by apply sqrt_pos.
  assert (HR0 : 0 <= Rhs) by (unfold Rhs; apply div_nonneg; [nra | lra]).
  assert (HR2 : Rhs * Rhs = 4 * INR k * (w * w / (g * g))).
  { unfold Rhs. replace (2 * sqrt (INR k) * w / g * (2 * sqrt (INR k) * w / g))
      with (4 * (sqrt (INR k) * sqrt (INR k)) * (w * w / (g * g))) by (field; lra).
    rewrite sqrt_sqrt by exact Hk. ring. }
  rewrite <- (sqrt_square Rhs HR0). apply sqrt_le_1.
  - apply Rplus_le_le_0_compat; apply sumn_nonneg; intros; apply nrm2_nonneg.
  - nra.
  - rewrite HR2. assert (INR k * s2 <= INR k * (w * w / (g * g))) by (apply Rmult_le_compat_l; assumption).
    assert (0 <= INR k * (w * w / (g * g))) by (apply Rmult_le_pos; [exact Hk | apply div_nonneg; nra]). lra.
Qed.

(* ------------------------------------------------------------------ the hypotheses are satisfiable *)
(** Not vacuous: every diagonal matrix with sorted entries has the orthonormal eigendecomposition of the standard
    basis, so [orth_eig] holds for some matrices in every dimension. *)
Lemma orth_eig_diag : forall d (l : nat -> R), (forall j j', (j <= j')%nat -> (j' < d)%nat -> l j' <= l j) ->
  orth_eig d (fun a b => if Nat.eq_dec a b then l a else 0) (fun j a => if Nat.eq_dec j a then 1 else 0) l.
Proof.
  intros d l Hs. split; [split; [|split]|].
  - intros a b Ha Hb.
    rewrite (sumn_ext d _ (fun j => (if Nat.eq_dec a j then 1 else 0) * (if Nat.eq_dec j b then 1 else 0))).
    + rewrite (sumn_delta d (fun j => if Nat.eq_dec j b then 1 else 0) a Ha). reflexivity.
    + intros j _. destruct (Nat.eq_dec j a), (Nat.eq_dec a j), (Nat.eq_dec j b); subst; try lia; ring.
  - intros a b Ha Hb.
    rewrite (sumn_ext d _ (fun j => (if Nat.eq_dec a j then 1 else 0) * (l j * (if Nat.eq_dec j b then 1 else 0)))).
    + rewrite (sumn_delta d (fun j => l j * (if Nat.eq_dec j b then 1 else 0)) a Ha).
      destruct (Nat.eq_dec a b); ring.
    + intros j _. destruct (Nat.eq_dec j a), (Nat.eq_dec a j), (Nat.eq_dec j b); subst; try lia; ring.
  - exact Hs.
  - intros i j Hi Hj. unfold dot.
    rewrite (sumn_delta d (fun a => if Nat.eq_dec j a then 1 else 0) i Hi).
    destruct (Nat.eq_dec j i), (Nat.eq_dec i j); subst; try lia; reflexivity.
Qed.

(* ------------------------------------------------------------------ Theorem 9, its deterministic step *)
(** jiang-wishart Theorem 9, its deterministic step: ||A - A_hat_k||_2 <= lambda_(k+1)(A) + 2 ||W||_2, every dimension d.

    A_hat = A + W positive semidefinite under the Rayleigh definition (x^T A_hat x >= 0 for all x: A = X X^T and every
    Wishart draw W are PSD), A_hat_k = sum_(j<k) m_j u_j u_j^T its rank-k truncation, eigenvalues and eigenvectors from
    orthonormal eigendecompositions ([orth_eig] above; the spectral theorem that provides them is not
    in Coq), ||.||_2 the least b with |M x| <= b |x| for every x ([is_norm2]).
    Proof: A - A_hat_k = -W + (A_hat - A_hat_k); |(A_hat - A_hat_k) x|^2 = sum_(j>=k) m_j^2 (u_j . x)^2 <= m_k^2 |x|^2
    (0 <= m_j <= m_k for j >= k: PSD and sorted); m_k <= l_k + ||W||_2 (Weyl, JiangWeyl.weyl_upper, with
    x^T W x <= |x| |W x| by Cauchy-Schwarz); the triangle inequality for |.|. The claim's tail (||W||_2 = O(d log d/eps)
    with high probability) rests on Lemma 1 (Zhu's Wishart tail) for general d, which is not here. *)
(** A_hat_k = sum_(j<k) m_j u_j u_j^T *)
Definition trunc (d k : nat) (U : nat -> nat -> R) (m : nat -> R) : nat -> nat -> R :=
  fun a b => sumn k (fun j => m j * U j a * U j b).

Lemma sumn_opp : forall p (f : nat -> R), - sumn p f = sumn p (fun i => - f i).
Proof. intros. rewrite (sumn_ext p (fun i => - f i) (fun i => -1 * f i)) by (intros; ring). rewrite sumn_scal. ring. Qed.

Lemma vnorm_triangle : forall p (u w : nat -> R), vnorm p (fun i => u i + w i) <= vnorm p u + vnorm p w.
Proof.
  intros p u w. unfold vnorm.
  assert (HU := nrm2_nonneg p u). assert (HW := nrm2_nonneg p w).
  assert (Hs : 0 <= sqrt (nrm2 p u) + sqrt (nrm2 p w)) by (assert (0 <= sqrt (nrm2 p u)) by apply sqrt_pos;
                                                        assert (0 <= sqrt (nrm2 p w)) by apply sqrt_pos; lra).
  rewrite <- (sqrt_square _ Hs). apply sqrt_le_1; [apply nrm2_nonneg | nra |].
  assert (E : nrm2 p (fun i => u i + w i) = nrm2 p u + 2 * sumn p (fun i => u i * w i) + nrm2 p w).
  { unfold nrm2. rewrite (sumn_ext p _ (fun i => u i * u i + (2 * (u i * w i) + w i * w i))) by (intros; ring).
    rewrite !sumn_plus, sumn_scal. ring. }
  rewrite E. set (S := sumn p (fun i => u i * w i)).
  assert (CS := cauchy_schwarz p u w). fold S in CS.
  assert (HS : S <= sqrt (nrm2 p u) * sqrt (nrm2 p w)).
  { rewrite <- sqrt_mult by assumption. apply (Rle_trans _ (Rabs S)); [apply RRle_abs|].
    rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1; [apply Rle_0_sqr | nra | unfold Rsqr; exact CS]. }
  assert (E2 : (sqrt (nrm2 p u) + sqrt (nrm2 p w)) * (sqrt (nrm2 p u) + sqrt (nrm2 p w))
               = sqrt (nrm2 p u) * sqrt (nrm2 p u) + 2 * (sqrt (nrm2 p u) * sqrt (nrm2 p w))
                 + sqrt (nrm2 p w) * sqrt (nrm2 p w)) by ring.
  rewrite E2, !sqrt_sqrt by assumption. lra.
Qed.

Lemma quad_le_of_norm : forall d W w, (forall x, vnorm d (mv d W x) <= w * vnorm d x) ->
  forall x, quad d W x <= w * dot d x x.
Proof.
  intros d W w H x. specialize (H x).
  assert (E : quad d W x = sumn d (fun a => x a * mv d W x a)) by reflexivity.
  assert (CS := cauchy_schwarz d x (mv d W x)). rewrite <- E in CS.
  assert (Hx := nrm2_nonneg d x). assert (HWx := nrm2_nonneg d (mv d W x)).
  unfold vnorm in H. change (dot d x x) with (nrm2 d x).
  assert (Hq : quad d W x <= sqrt (nrm2 d x) * sqrt (nrm2 d (mv d W x))).
  { rewrite <- sqrt_mult by assumption. apply (Rle_trans _ (Rabs (quad d W x))); [apply RRle_abs|].
    rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1; [apply Rle_0_sqr | nra | unfold Rsqr; exact CS]. }
  assert (0 <= sqrt (nrm2 d x)) by apply sqrt_pos.
  assert (sqrt (nrm2 d x) * sqrt (nrm2 d (mv d W x)) <= sqrt (nrm2 d x) * (w * sqrt (nrm2 d x))) by
    (apply Rmult_le_compat_l; assumption).
  assert (Es : sqrt (nrm2 d x) * (w * sqrt (nrm2 d x)) = w * nrm2 d x).
  { rewrite <- (sqrt_sqrt (nrm2 d x) Hx) at 3. ring. }
  lra.
Qed.

Lemma eig_nonneg : forall d A V lam, orth_eig d A V lam -> (forall x, 0 <= quad d A x) ->
  forall j, (j < d)%nat -> 0 <= lam j.
Proof.
  intros d A V lam HV HA j Hj. specialize (HA (V j)).
  assert (E : quad d A (V j) = lam j * dot d (V j) (V j)).
  { unfold quad. rewrite (sumn_ext d _ (fun a => lam j * (V j a * V j a))).
    - unfold dot. rewrite sumn_scal. reflexivity.
    - intros a Ha. change (sumn d (fun b => A a b * V j b)) with (mv d A (V j) a).
      rewrite (eigvec d A V lam HV j a Hj Ha). ring. }
  destruct HV as [_ Hc]. rewrite E, (Hc j j Hj Hj) in HA. destruct (Nat.eq_dec j j); [lra | congruence].
Qed.

(** |(A_hat - A_hat_k) x| <= m_k |x| *)
Lemma tail_bound : forall d k Ahat U m, (k < d)%nat -> orth_eig d Ahat U m -> (forall x, 0 <= quad d Ahat x) ->
  forall x, nrm2 d (mv d (fun a b => Ahat a b - trunc d k U m a b) x) <= m k * m k * nrm2 d x.
Proof.
  intros d k Ahat U m Hk HU HPSD x.
  assert (HUs : spectral d Ahat U m) by (destruct HU; assumption).
  assert (Hm0 : forall j, (j < d)%nat -> 0 <= m j) by (apply (eig_nonneg d Ahat U m HU HPSD)).
  set (beta := fun j => dot d (U j) x).
  (* the tail in the basis u: coordinate i is [k <= i] m_i beta_i *)
  assert (Hmv : forall a, (a < d)%nat -> mv d (fun a b => Ahat a b - trunc d k U m a b) x a
                = sumn (d - k) (fun j' => U (k + j')%nat a * (m (k + j')%nat * beta (k + j')%nat))).
  { intros a Ha. destruct HUs as [_ [HA _]].
    assert (E1 : forall b, (b < d)%nat -> Ahat a b - trunc d k U m a b
                 = sumn (d - k) (fun j' => m (k + j')%nat * U (k + j')%nat a * U (k + j')%nat b)).
    { intros b Hb. rewrite HA by assumption. unfold trunc. rewrite (sumn_split_le k d) by lia. ring. }
    unfold mv. rewrite (sumn_ext d _ (fun b => sumn (d - k) (fun j' => m (k + j')%nat * U (k + j')%nat a * U (k + j')%nat b) * x b))
      by (intros b Hb; rewrite E1 by exact Hb; reflexivity).
    rewrite (sumn_ext d _ (fun b => sumn (d - k) (fun j' => U (k + j')%nat a * m (k + j')%nat * (U (k + j')%nat b * x b))))
      by (intros; rewrite sumn_mult_r; apply sumn_ext; intros; ring).
    rewrite sumn_swap. apply sumn_ext. intros j' _. unfold beta, dot. rewrite <- Rmult_assoc, sumn_mult_l.
    apply sumn_ext. intros; ring. }
  rewrite (parseval d Ahat U m _ HUs).
  assert (Hc : forall i, (i < d)%nat -> dot d (U i) (mv d (fun a b => Ahat a b - trunc d k U m a b) x)
                = if Nat.ltb i k then 0 else m i * beta i).
  { intros i Hi. rewrite (dot_ext d (U i) _ (fun a => sumn (d - k) (fun j' => U (k + j')%nat a * (m (k + j')%nat * beta (k + j')%nat))))
      by exact Hmv.
    rewrite dot_comb. destruct HU as [_ HUc].
    rewrite (sumn_ext (d - k) _ (fun j' => (if Nat.eq_dec (i - k) j' then (if Nat.ltb i k then 0 else 1) else 0)
                                            * (m (k + j')%nat * beta (k + j')%nat))).
    - destruct (Nat.ltb_spec i k) as [Hik|Hik].
      + apply sumn_zero. intros j' _. destruct (Nat.eq_dec (i - k) j'); ring.
      + rewrite (sumn_delta (d - k) (fun j' => m (k + j')%nat * beta (k + j')%nat) (i - k)) by lia.
        replace (k + (i - k))%nat with i by lia. ring.
    - intros j' Hj'. assert (Hd := HUc i (k + j')%nat Hi ltac:(lia)). unfold dot in Hd |- *. cbv beta. rewrite Hd.
      destruct (Nat.eq_dec i (k + j')), (Nat.eq_dec (i - k) j'), (Nat.ltb_spec i k); try lia; ring. }
  rewrite (sumn_ext d _ (fun i => (if Nat.ltb i k then 0 else m i * m i) * (beta i * beta i))).
  2:{ intros i Hi. rewrite Hc by exact Hi. destruct (Nat.ltb i k); ring. }
  rewrite (parseval d Ahat U m x HUs). fold beta. rewrite sumn_mult_l. apply sumn_le. intros i Hi.
  assert (0 <= beta i * beta i) by apply Rle_0_sqr.
  destruct (Nat.ltb_spec i k).
  - assert (0 <= m k * m k) by apply Rle_0_sqr. nra.
  - assert (m i <= m k) by (destruct HUs as [_ [_ Hs]]; apply Hs; lia).
    assert (0 <= m i) by (apply Hm0; exact Hi).
    assert (m i * m i <= m k * m k) by nra. apply Rmult_le_compat_r; assumption.
Qed.

(** Theorem 9's deterministic step (Achlioptas-McSherry Lemma 1 as the paper uses it): for every x,
    |(A - A_hat_k) x| <= (lambda_(k+1)(A) + 2 ||W||_2) |x| (0-based: lambda_(k+1)(A) = l k) *)
Theorem jiang_theorem_9_step : forall (d k : nat) (A W Ahat V U : nat -> nat -> R) (l m : nat -> R) (w : R),
  (k < d)%nat ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> Ahat a b = A a b + W a b) ->
  (forall x, 0 <= quad d Ahat x) ->
  is_norm2 d W w ->
  orth_eig d A V l -> orth_eig d Ahat U m ->
  forall pn, is_norm2 d (fun a b => A a b - trunc d k U m a b) pn -> pn <= l k + 2 * w.
Proof.
  intros d k A W Ahat V U l m w Hk HAW HPSD [Hw _] HV HU pn [_ Hleast].
  assert (Hw0 : 0 <= w) by (apply (norm_bound_nonneg d W w); [lia | exact Hw]).
  assert (Hmk : 0 <= m k) by (apply (eig_nonneg d Ahat U m HU HPSD); exact Hk).
  assert (Hweyl : m k <= l k + w).
  { destruct HV as [HVs _]. destruct HU as [HUs _].
    apply (weyl_upper d k Ahat A W U V m l w Hk); [exact HAW | exact HUs | exact HVs |].
    apply quad_le_of_norm. exact Hw. }
  apply Hleast. intros x.
  assert (HT := norm_of_bound_sq d (fun a b => Ahat a b - trunc d k U m a b) (m k) Hmk
                  (tail_bound d k Ahat U m Hk HU HPSD) x).
  assert (Hsplit : vnorm d (mv d (fun a b => A a b - trunc d k U m a b) x)
                   = vnorm d (fun a => - mv d W x a + mv d (fun a b => Ahat a b - trunc d k U m a b) x a)).
  { unfold vnorm. f_equal. apply nrm2_ext. intros a Ha. unfold mv.
    rewrite sumn_opp, <- sumn_plus. apply sumn_ext.
    intros b Hb. rewrite HAW by assumption. ring. }
  assert (Hneg : vnorm d (fun a => - mv d W x a) = vnorm d (mv d W x)).
  { unfold vnorm, nrm2. f_equal. apply sumn_ext. intros; ring. }
  rewrite Hsplit. eapply Rle_trans; [apply vnorm_triangle|]. rewrite Hneg.
  specialize (Hw x). assert (0 <= vnorm d x) by apply sqrt_pos. nra.
Qed.
