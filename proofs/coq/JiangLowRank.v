(** * jiang-wishart Theorem 9, its deterministic step: ||A - A_hat_k||_2 <= lambda_(k+1)(A) + 2 ||W||_2, every dimension d.

    A_hat = A + W positive semidefinite under the Rayleigh definition (x^T A_hat x >= 0 for all x: A = X X^T and every
    Wishart draw W are PSD), A_hat_k = sum_(j<k) m_j u_j u_j^T its rank-k truncation, eigenvalues and eigenvectors from
    orthonormal eigendecompositions ([orth_eig] of JiangDavisKahan.v; the spectral theorem that provides them is not
    in Coq), ||.||_2 the least b with |M x| <= b |x| for every x ([is_norm2]).
    Proof: A - A_hat_k = -W + (A_hat - A_hat_k); |(A_hat - A_hat_k) x|^2 = sum_(j>=k) m_j^2 (u_j . x)^2 <= m_k^2 |x|^2
    (0 <= m_j <= m_k for j >= k: PSD and sorted); m_k <= l_k + ||W||_2 (Weyl, JiangWeyl.weyl_upper, with
    x^T W x <= |x| |W x| by Cauchy-Schwarz); the triangle inequality for |.|. The claim's tail (||W||_2 = O(d log d/eps)
    with high probability) rests on Lemma 1 (Zhu's Wishart tail) for general d, which is not here. The standard
    library only. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan.
Open Scope R_scope.

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
