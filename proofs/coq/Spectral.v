(** * The finite-dimensional real spectral theorem: every symmetric d x d matrix A has an orthonormal
    eigendecomposition [orth_eig d A V lam] (A = Q diag(lam) Q^T with Q Q^T = Q^T Q = I, lam nonincreasing).

    Vectors and matrices are functions on the indices 0 .. d-1 with finite sums [sumn] (FiniteSums.v); the
    predicates [spectral] (JiangWeyl.v) and [orth_eig] (JiangDavisKahan.v) are the ones those files assume.

    Proof: induction on d, without compactness.
    - One eigenvector ([eigvec]): split index 0 off, S = [[a, b^T], [b, S']]. By the induction hypothesis
      S' = sum_i lam'_i v_i v_i^T. With c_i = v_i . b: if some c_k = 0, (0, v_k) is an eigenvector; otherwise
      the secular function g(mu) = mu - a + sum_i c_i^2 / (lam'_i - mu) is continuous below lam'_min, negative
      at an explicit lower point and positive at an explicit point just below lam'_min, so the intermediate
      value theorem ([IVT_interv]) gives a root mu, and (1, sum_i c_i / (mu - lam'_i) v_i) is an eigenvector.
    - Deflation ([householder], [complete_eig]): for a unit eigenvector u with u_0 <= 0 the Householder
      reflection H = I - 2 w w^T / (w . w), w = u - e_0, is symmetric and orthogonal with H e_0 = u; its
      other columns W_c complete u to an orthonormal basis. T' = W^T S W is symmetric of size d, the
      induction hypothesis diagonalises it, and the vectors W q'_k together with u diagonalise S.
    - Ordering ([insert_eig]): mu is inserted into the nonincreasing lam' at its place p ([skip]/[unskip]).
    The standard library only. *)
From Coq Require Import Reals Lra Lia Ranalysis5.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan.
Open Scope R_scope.

Local Notation kd a b := (if Nat.eq_dec a b then 1 else 0).

Definition symm (d : nat) (A : nat -> nat -> R) : Prop :=
  forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a.

Definition sorted (n : nat) (lam : nat -> R) : Prop :=
  forall j l, (j <= l)%nat -> (l < n)%nat -> lam l <= lam j.

(** the induction hypothesis: every symmetric n x n matrix has an orthonormal eigendecomposition *)
Definition has_eig (n : nat) : Prop :=
  forall A, symm n A -> exists V lam, orth_eig n A V lam.

(* ------------------------------------------------------------------ finite sums *)
Lemma kd_sym : forall a b, kd a b = kd b a.
Proof. intros a b. destruct (Nat.eq_dec a b), (Nat.eq_dec b a); congruence. Qed.

Lemma sumn_delta_r : forall d (x : nat -> R) a, (a < d)%nat ->
  sumn d (fun b => x b * kd b a) = x a.
Proof.
  intros d x a Ha. rewrite <- (sumn_delta d x a Ha). apply sumn_ext. intros b _.
  rewrite (kd_sym b a). ring.
Qed.

Lemma sumn_shift : forall n f, sumn (S n) f = f 0%nat + sumn n (fun c => f (S c)).
Proof.
  induction n as [|n IH]; intros f.
  - simpl. ring.
  - change (sumn (S (S n)) f) with (sumn (S n) f + f (S n)). rewrite IH. simpl. ring.
Qed.

Lemma sum_mul_r : forall n m (F : nat -> nat -> R) (x : nat -> R),
  sumn n (fun e => sumn m (fun j => F j e) * x e) = sumn m (fun j => sumn n (fun e => F j e * x e)).
Proof.
  intros. rewrite <- sumn_swap. apply sumn_ext. intros e _. apply sumn_mult_r.
Qed.

Lemma sum_mul_l : forall n m (F : nat -> nat -> R) (x : nat -> R),
  sumn n (fun e => x e * sumn m (fun j => F j e)) = sumn m (fun j => sumn n (fun e => x e * F j e)).
Proof.
  intros. rewrite <- sumn_swap. apply sumn_ext. intros e _. apply sumn_mult_l.
Qed.

Lemma dot_lin : forall N n (x q : nat -> R) (W : nat -> nat -> R),
  dot N x (fun a => sumn n (fun c => q c * W c a)) = sumn n (fun c => q c * dot N x (W c)).
Proof.
  intros. unfold dot. rewrite sum_mul_l. apply sumn_ext. intros c _.
  rewrite <- sumn_scal. apply sumn_ext. intros; ring.
Qed.

Lemma sumn_ge_term : forall n (f : nat -> R) k, (forall i, (i < n)%nat -> 0 <= f i) -> (k < n)%nat ->
  f k <= sumn n f.
Proof.
  induction n as [|n IH]; intros f k H Hk; [lia|]. simpl.
  destruct (Nat.eq_dec k n) as [->|Hne].
  - assert (0 <= sumn n f) by (apply sumn_nonneg; intros i Hi; apply H; lia). lra.
  - assert (f k <= sumn n f) by (apply IH; [intros i Hi; apply H; lia | lia]).
    assert (0 <= f n) by (apply H; lia). lra.
Qed.

Lemma zero_or_not : forall n (f : nat -> R),
  (exists k, (k < n)%nat /\ f k = 0) \/ (forall k, (k < n)%nat -> f k <> 0).
Proof.
  induction n as [|n IH]; intros f.
  - right. intros; lia.
  - destruct (IH f) as [[k [Hk Hf]]|H].
    + left. exists k. split; [lia | exact Hf].
    + destruct (Req_dec (f n) 0) as [E|E].
      * left. exists n. split; [lia | exact E].
      * right. intros k Hk. destruct (Nat.eq_dec k n) as [->|]; [exact E | apply H; lia].
Qed.

(* ------------------------------------------------------------------ consequences of a decomposition *)
(** x = sum_i (v_i . x) v_i when Q Q^T = I *)
Lemma expand : forall n (V : nat -> nat -> R),
  (forall a b, (a < n)%nat -> (b < n)%nat -> sumn n (fun j => V j a * V j b) = kd a b) ->
  forall x r, (r < n)%nat -> x r = sumn n (fun i => V i r * dot n (V i) x).
Proof.
  intros n V Hc x r Hr. rewrite <- (sumn_delta n x r Hr).
  rewrite (sumn_ext n _ (fun e => sumn n (fun j => V j r * V j e) * x e))
    by (intros e He; rewrite Hc by assumption; reflexivity).
  rewrite sum_mul_r. apply sumn_ext. intros j _. unfold dot. rewrite <- sumn_scal.
  apply sumn_ext. intros; ring.
Qed.

(** A v_k = lam_k v_k *)
Lemma eig_col : forall n A V lam, orth_eig n A V lam -> forall k a, (k < n)%nat -> (a < n)%nat ->
  sumn n (fun c => A a c * V k c) = lam k * V k a.
Proof.
  intros n A V lam [[Hc [Hd Hs]] Ho] k a Hk Ha.
  rewrite (sumn_ext n _ (fun c => sumn n (fun j => lam j * V j a * V j c) * V k c))
    by (intros c Hc'; rewrite Hd by assumption; reflexivity).
  rewrite spectral_inner.
  rewrite (sumn_ext n _ (fun j => lam j * V j a * kd j k)) by (intros j Hj; rewrite Ho by assumption; reflexivity).
  apply (sumn_delta_r n (fun j => lam j * V j a) k Hk).
Qed.

(* ------------------------------------------------------------------ ordering by insertion *)
Lemma insert_pos : forall n (lam : nat -> R) mu, sorted n lam ->
  exists p, (p <= n)%nat /\ (forall c, (c < p)%nat -> mu <= lam c) /\
            (forall c, (p <= c)%nat -> (c < n)%nat -> lam c <= mu).
Proof.
  induction n as [|n IH]; intros lam mu Hs.
  - exists 0%nat. split; [lia | split; intros; lia].
  - destruct (IH lam mu) as [p [Hp [H1 H2]]].
    { intros j l Hjl Hl. apply Hs; lia. }
    destruct (Nat.eq_dec p n) as [->|Hne].
    + destruct (Rle_dec mu (lam n)) as [Hm|Hm].
      * exists (S n). split; [lia | split].
        -- intros c Hc. destruct (Nat.eq_dec c n) as [->|]; [exact Hm | apply H1; lia].
        -- intros; lia.
      * exists n. split; [lia | split; [exact H1|]].
        intros c Hc1 Hc2. assert (c = n) by lia. subst. lra.
    + exists p. split; [lia | split; [exact H1|]].
      intros c Hc1 Hc2. destruct (Nat.eq_dec c n) as [->|].
      * assert (lam n <= lam p) by (apply Hs; lia). assert (lam p <= mu) by (apply H2; lia). lra.
      * apply H2; lia.
Qed.

Lemma skip_unskip : forall p i, i <> p -> skip p (unskip p i) = i.
Proof.
  intros p i H. unfold unskip. destruct (Nat.ltb_spec i p) as [H1|H1]; unfold skip.
  - destruct (Nat.ltb_spec i p); lia.
  - destruct (Nat.ltb_spec (pred i) p); lia.
Qed.

Lemma unskip_lt : forall p i n, (p <= n)%nat -> (i < S n)%nat -> i <> p -> (unskip p i < n)%nat.
Proof. intros p i n Hp Hi H. unfold unskip. destruct (Nat.ltb_spec i p); lia. Qed.

Lemma skip_le : forall p c c', (skip p c <= skip p c')%nat -> (c <= c')%nat.
Proof. intros p c c' H. unfold skip in H. destruct (Nat.ltb_spec c p), (Nat.ltb_spec c' p); lia. Qed.

Lemma skip_lt_p : forall p c, (skip p c < p)%nat -> (c < p)%nat.
Proof. intros p c H. unfold skip in H. destruct (Nat.ltb_spec c p); lia. Qed.

Lemma skip_gt_p : forall p c, (p < skip p c)%nat -> (p <= c)%nat.
Proof. intros p c H. unfold skip in H. destruct (Nat.ltb_spec c p); lia. Qed.

(** u, Z_0 .. Z_(n-1): an orthonormal basis of R^(n+1) diagonalising A, eigenvalues mu and lam (sorted) *)
Definition split_eig (n : nat) (A : nat -> nat -> R) (u : nat -> R) (mu : R) (Z : nat -> nat -> R)
  (lam : nat -> R) : Prop :=
  (forall a b, (a < S n)%nat -> (b < S n)%nat -> u a * u b + sumn n (fun k => Z k a * Z k b) = kd a b) /\
  (forall a b, (a < S n)%nat -> (b < S n)%nat -> A a b = mu * u a * u b + sumn n (fun k => lam k * Z k a * Z k b)) /\
  dot (S n) u u = 1 /\ (forall k, (k < n)%nat -> dot (S n) u (Z k) = 0) /\
  (forall k l, (k < n)%nat -> (l < n)%nat -> dot (S n) (Z k) (Z l) = kd k l) /\ sorted n lam.

Lemma insert_eig : forall n A u mu Z lam, split_eig n A u mu Z lam -> exists V l, orth_eig (S n) A V l.
Proof.
  intros n A u mu Z lam [Hc [Hd [Huu [HuZ [HZZ Hs]]]]].
  destruct (insert_pos n lam mu Hs) as [p [Hp [H1 H2]]].
  set (V := fun j => if Nat.eq_dec j p then u else Z (unskip p j)).
  set (l := fun j => if Nat.eq_dec j p then mu else lam (unskip p j)).
  assert (HVp : V p = u) by (unfold V; destruct (Nat.eq_dec p p); congruence).
  assert (Hlp : l p = mu) by (unfold l; destruct (Nat.eq_dec p p); congruence).
  assert (HVs : forall c, V (skip p c) = Z c).
  { intros c. unfold V. destruct (Nat.eq_dec (skip p c) p) as [E|_].
    - exfalso. exact (skip_neq p c E).
    - rewrite unskip_skip. reflexivity. }
  assert (Hls : forall c, l (skip p c) = lam c).
  { intros c. unfold l. destruct (Nat.eq_dec (skip p c) p) as [E|_].
    - exfalso. exact (skip_neq p c E).
    - rewrite unskip_skip. reflexivity. }
  assert (Hsum : forall f, sumn (S n) f = f p + sumn n (fun c => f (skip p c))) by (intros; apply sumn_skip; exact Hp).
  assert (Hidx : forall i, (i < S n)%nat -> i = p \/ exists c, (c < n)%nat /\ i = skip p c).
  { intros i Hi. destruct (Nat.eq_dec i p) as [E|E]; [left; exact E | right].
    exists (unskip p i). split; [apply unskip_lt; assumption | symmetry; apply skip_unskip; exact E]. }
  assert (Hkd : forall c c', kd (skip p c) (skip p c') = kd c c').
  { intros c c'. destruct (Nat.eq_dec (skip p c) (skip p c')) as [E|E], (Nat.eq_dec c c') as [E'|E']; try reflexivity.
    - exfalso. apply E'. rewrite <- (unskip_skip p c), <- (unskip_skip p c'), E. reflexivity.
    - exfalso. apply E. rewrite E'. reflexivity. }
  exists V, l. split; [split; [|split]|].
  - intros a b Ha Hb. rewrite Hsum, HVp.
    rewrite (sumn_ext n _ (fun k => Z k a * Z k b)) by (intros; rewrite HVs; reflexivity). apply Hc; assumption.
  - intros a b Ha Hb. rewrite Hsum, HVp, Hlp.
    rewrite (sumn_ext n _ (fun k => lam k * Z k a * Z k b)) by (intros; rewrite HVs, Hls; reflexivity).
    rewrite Hd by assumption. ring.
  - intros j k Hjk Hk.
    destruct (Hidx k Hk) as [Ek|[ck [Hck Ek]]]; destruct (Hidx j ltac:(lia)) as [Ej|[cj [Hcj Ej]]]; subst j k.
    + lra.
    + rewrite Hlp, Hls. apply H1. apply skip_lt_p.
      destruct (Nat.eq_dec (skip p cj) p) as [E|E]; [exfalso; exact (skip_neq p cj E) | lia].
    + rewrite Hlp, Hls. apply H2; [|exact Hck]. apply skip_gt_p.
      destruct (Nat.eq_dec (skip p ck) p) as [E|E]; [exfalso; exact (skip_neq p ck E) | lia].
    + rewrite !Hls. apply Hs; [apply (skip_le p); exact Hjk | exact Hck].
  - intros i j Hi Hj.
    destruct (Hidx i Hi) as [Ei|[ci [Hci Ei]]]; destruct (Hidx j Hj) as [Ej|[cj [Hcj Ej]]]; subst i j.
    + rewrite HVp. destruct (Nat.eq_dec p p); [exact Huu | congruence].
    + rewrite HVp, HVs, HuZ by exact Hcj. destruct (Nat.eq_dec p (skip p cj)) as [E|_]; [|reflexivity].
      exfalso. exact (skip_neq p cj (eq_sym E)).
    + rewrite HVp, HVs, dot_comm, HuZ by exact Hci. destruct (Nat.eq_dec (skip p ci) p) as [E|_]; [|reflexivity].
      exfalso. exact (skip_neq p ci E).
    + rewrite !HVs, HZZ by assumption. symmetry. apply Hkd.
Qed.

(* ------------------------------------------------------------------ Householder reflection *)
(** for a unit vector u with u_0 <= 0, H = I - 2 w w^T / (w . w) (w = u - e_0) is orthogonal and H e_0 = u;
    its columns 1 .. n complete u to an orthonormal basis *)
Lemma householder : forall n (u : nat -> R), dot (S n) u u = 1 -> u 0%nat <= 0 ->
  exists W : nat -> nat -> R,
    (forall c, (c < n)%nat -> dot (S n) u (W c) = 0) /\
    (forall c c', (c < n)%nat -> (c' < n)%nat -> dot (S n) (W c) (W c') = kd c c') /\
    (forall a b, (a < S n)%nat -> (b < S n)%nat -> u a * u b + sumn n (fun c => W c a * W c b) = kd a b).
Proof.
  intros n u Huu Hu0.
  set (N := S n).
  set (w := fun a => u a - kd 0%nat a).
  set (s := dot N w w).
  assert (Hs : s = 2 - 2 * u 0%nat).
  { unfold s, dot, w.
    rewrite (sumn_ext N _ (fun a => u a * u a + (-2) * (kd 0%nat a * u a) + kd 0%nat a * kd 0%nat a))
      by (intros; ring).
    rewrite !sumn_plus, !sumn_scal, !sumn_delta by (unfold N; lia).
    fold (dot N u u). unfold N. rewrite Huu. destruct (Nat.eq_dec 0 0); [ring | congruence]. }
  assert (Hspos : 0 < s) by lra.
  set (Hr := fun a b => kd a b - 2 * w a * w b / s).
  assert (Hrr : forall a b, (a < N)%nat -> (b < N)%nat -> sumn N (fun e => Hr a e * Hr b e) = kd a b).
  { intros a b Ha Hb. unfold Hr.
    rewrite (sumn_ext N _ (fun e => kd a e * kd b e + (- (2 / s * w b)) * (kd a e * w e)
                                     + (- (2 / s * w a)) * (kd b e * w e) + (4 / (s * s) * w a * w b) * (w e * w e)))
      by (intros; field; lra).
    rewrite !sumn_plus, !sumn_scal, !sumn_delta by assumption.
    fold (dot N w w). fold s. rewrite (kd_sym b a). field. lra. }
  assert (Hrs : forall a b, Hr a b = Hr b a) by (intros a b; unfold Hr; cbv beta; rewrite (kd_sym a b); unfold Rdiv; ring).
  assert (Hu : forall a, Hr a 0%nat = u a).
  { intros a. unfold Hr, w. cbv beta. rewrite Hs. rewrite (kd_sym a 0). destruct (Nat.eq_dec 0 0) as [_|]; [|congruence].
    field. lra. }
  exists (fun c a => Hr a (S c)). split; [|split].
  - intros c Hc. unfold dot.
    rewrite (sumn_ext N _ (fun e => Hr 0%nat e * Hr (S c) e)) by (intros e _; rewrite <- Hu, !(Hrs e); reflexivity).
    rewrite Hrr by (unfold N; lia). destruct (Nat.eq_dec 0 (S c)); [lia | reflexivity].
  - intros c c' Hc Hc'. unfold dot.
    rewrite (sumn_ext N _ (fun e => Hr (S c) e * Hr (S c') e)) by (intros e _; rewrite !(Hrs e); reflexivity).
    rewrite Hrr by (unfold N; lia).
    destruct (Nat.eq_dec (S c) (S c')), (Nat.eq_dec c c'); first [reflexivity | lia].
  - intros a b Ha Hb. rewrite <- !Hu. fold N. rewrite <- Hrr by assumption.
    unfold N. rewrite sumn_shift. reflexivity.
Qed.

(* ------------------------------------------------------------------ deflation *)
Lemma iso : forall n (Q : nat -> nat -> R),
  (forall c c', (c < n)%nat -> (c' < n)%nat -> sumn n (fun k => Q k c * Q k c') = kd c c') ->
  forall x y : nat -> R,
  sumn n (fun k => sumn n (fun c => Q k c * x c) * sumn n (fun c => Q k c * y c)) = sumn n (fun c => x c * y c).
Proof.
  intros n Q HQ x y. rewrite sum_prod_swap. apply sumn_ext. intros c Hc.
  rewrite (sumn_ext n _ (fun c' => (x c * y c') * kd c c')).
  - rewrite <- (sumn_delta n (fun c' => x c * y c') c Hc). apply sumn_ext. intros; ring.
  - intros c' Hc'. rewrite <- HQ by assumption. rewrite sumn_mult_l. apply sumn_ext. intros; ring.
Qed.

(** given a unit eigenvector u and an orthonormal completion W, diagonalise S on the complement *)
Lemma complete_eig : forall n (M : nat -> nat -> R) (u : nat -> R) mu (W : nat -> nat -> R),
  symm (S n) M -> has_eig n ->
  (forall a, (a < S n)%nat -> sumn (S n) (fun b => M a b * u b) = mu * u a) ->
  dot (S n) u u = 1 ->
  (forall c, (c < n)%nat -> dot (S n) u (W c) = 0) ->
  (forall c c', (c < n)%nat -> (c' < n)%nat -> dot (S n) (W c) (W c') = kd c c') ->
  (forall a b, (a < S n)%nat -> (b < S n)%nat -> u a * u b + sumn n (fun c => W c a * W c b) = kd a b) ->
  exists Z lam, split_eig n M u mu Z lam.
Proof.
  intros n M u mu W HM IH Hu Huu HuW HWW Hcomp.
  set (N := S n). fold N in Hu, Huu, HuW, HWW, Hcomp.
  set (Mv := fun (x : nat -> R) a => sumn N (fun b => M a b * x b)).
  assert (Hsym : forall x y, dot N x (Mv y) = dot N y (Mv x)).
  { intros x y. unfold dot, Mv. rewrite !sum_mul_l. rewrite sumn_swap. apply sumn_ext. intros a Ha.
    apply sumn_ext. intros b Hb. rewrite (HM a b) by assumption. ring. }
  (* x = (u . x) u + sum_c (W_c . x) W_c *)
  assert (Hexp : forall x a, (a < N)%nat -> x a = u a * dot N u x + sumn n (fun c => W c a * dot N (W c) x)).
  { intros x a Ha. rewrite <- (sumn_delta N x a Ha).
    rewrite (sumn_ext N _ (fun e => u a * (u e * x e) + sumn n (fun c => W c a * W c e) * x e))
      by (intros e He; rewrite <- Hcomp by assumption; ring).
    rewrite sumn_plus, sumn_scal, sum_mul_r. f_equal. apply sumn_ext. intros c _.
    unfold dot. rewrite <- sumn_scal. apply sumn_ext. intros; ring. }
  set (T := fun c c' => dot N (W c) (Mv (W c'))).
  assert (HT : symm n T) by (intros c c' _ _; unfold T; apply Hsym).
  destruct (IH T HT) as [Q [lam [[HQc [HQd HQs]] HQo]]].
  set (Z := fun k a => sumn n (fun c => Q k c * W c a)).
  exists Z, lam. split; [|split; [|split; [exact Huu | split; [|split; [|exact HQs]]]]].
  - intros a b Ha Hb. unfold Z. rewrite (iso n Q HQc (fun c => W c a) (fun c => W c b)). apply Hcomp; assumption.
  - intros a b Ha Hb.
    (* M a b = (column b of M) at a *)
    rewrite (Hexp (fun e => M e b) a Ha).
    assert (E1 : dot N u (fun e => M e b) = mu * u b).
    { rewrite <- Hu by assumption. unfold dot. apply sumn_ext. intros e He. rewrite (HM e b) by assumption. ring. }
    assert (E2 : forall c, (c < n)%nat -> dot N (W c) (fun e => M e b)
                 = sumn n (fun c' => W c' b * T c' c)).
    { intros c Hc. transitivity (Mv (W c) b).
      - unfold dot, Mv. apply sumn_ext. intros e He. rewrite (HM e b) by assumption. ring.
      - rewrite (Hexp (Mv (W c)) b Hb).
        assert (E3 : dot N u (Mv (W c)) = 0).
        { rewrite Hsym. unfold Mv. rewrite (dot_ext N (W c) _ (fun a => mu * u a)) by exact Hu.
          unfold dot. rewrite (sumn_ext N _ (fun a => mu * (W c a * u a))) by (intros; ring).
          rewrite sumn_scal. fold (dot N (W c) u). rewrite dot_comm, HuW by exact Hc. ring. }
        rewrite E3. unfold T. ring_simplify. reflexivity. }
    rewrite E1. rewrite (sumn_ext n _ (fun c => sumn n (fun c' => W c a * W c' b * T c' c))).
    2:{ intros c Hc. rewrite E2 by exact Hc. rewrite sumn_mult_l. apply sumn_ext. intros; ring. }
    rewrite (sumn_ext n _ (fun c => sumn n (fun c' => sumn n (fun k => (Q k c * W c a) * (lam k * Q k c' * W c' b))))).
    2:{ intros c Hc. apply sumn_ext. intros c' Hc'. rewrite (HQd c' c) by assumption.
        rewrite sumn_mult_l. apply sumn_ext. intros; ring. }
    rewrite <- sum_prod_swap. replace (u a * (mu * u b)) with (mu * u a * u b) by ring. f_equal. unfold Z. apply sumn_ext. intros k _.
    rewrite (sumn_ext n (fun c' => lam k * Q k c' * W c' b) (fun c' => lam k * (Q k c' * W c' b))) by (intros; ring).
    rewrite sumn_scal. ring.
  - intros k Hk. unfold Z. rewrite dot_lin. apply sumn_zero. intros c Hc. rewrite HuW by exact Hc. ring.
  - intros k l Hk Hl. unfold Z. rewrite dot_lin.
    rewrite (sumn_ext n _ (fun c' => Q l c' * Q k c')).
    + rewrite <- (HQo k l Hk Hl). unfold dot. apply sumn_ext. intros; ring.
    + intros c' Hc'. rewrite dot_comm, dot_lin.
      rewrite (sumn_ext n _ (fun c => Q k c * kd c c')) by (intros c Hc; rewrite HWW by assumption; rewrite kd_sym; reflexivity).
      rewrite sumn_delta_r by exact Hc'. reflexivity.
Qed.

(* ------------------------------------------------------------------ one eigenvector *)
Lemma cont_sumn : forall n (F : nat -> R -> R) x, (forall i, (i < n)%nat -> continuity_pt (F i) x) ->
  continuity_pt (fun t => sumn n (fun i => F i t)) x.
Proof.
  induction n as [|n IH]; intros F x H.
  - simpl. apply continuity_pt_const. intros ? ?. reflexivity.
  - apply (continuity_pt_plus (fun t => sumn n (fun i => F i t)) (F n)).
    + apply IH. intros i Hi. apply H. lia.
    + apply H. lia.
Qed.

Lemma cont_const : forall c x, continuity_pt (fct_cte c) x.
Proof. intros. apply continuity_pt_const. intros ? ?. reflexivity. Qed.

Lemma cont_id : forall x, continuity_pt id x.
Proof. intros. apply derivable_continuous_pt, derivable_pt_id. Qed.

(** a nonzero eigenvector of a symmetric (n+1) x (n+1) matrix, from the decomposition of its trailing block *)
Lemma eigvec : forall n, has_eig n -> forall M, symm (S n) M ->
  exists x mu, 0 < dot (S n) x x /\ forall a, (a < S n)%nat -> sumn (S n) (fun b => M a b * x b) = mu * x a.
Proof.
  intros n IH M HM.
  destruct (Nat.eq_dec n 0) as [->|Hn0].
  { exists (fun _ => 1), (M 0%nat 0%nat). split.
    - unfold dot. simpl. lra.
    - intros a Ha. assert (a = 0%nat) by lia. subst. simpl. ring. }
  set (M' := fun c c' => M (S c) (S c')).
  assert (HM' : symm n M') by (intros c c' Hc Hc'; unfold M'; apply HM; lia).
  destruct (IH M' HM') as [Q [lam [[HQc [HQd HQs]] HQo]]].
  assert (HQ : orth_eig n M' Q lam) by (split; [split; [|split]|]; assumption).
  set (bv := fun c => M (S c) 0%nat).
  set (a0 := M 0%nat 0%nat).
  set (cf := fun k => dot n (Q k) bv).
  assert (Hrow0 : forall x : nat -> R,
    sumn (S n) (fun b => M 0%nat b * x b) = a0 * x 0%nat + dot n bv (fun c => x (S c))).
  { intros x. rewrite sumn_shift. unfold dot, bv, a0. f_equal. apply sumn_ext. intros c Hc.
    rewrite (HM 0%nat (S c)) by lia. reflexivity. }
  assert (HrowS : forall x r, (r < n)%nat ->
    sumn (S n) (fun b => M (S r) b * x b) = bv r * x 0%nat + sumn n (fun c => M' r c * x (S c))).
  { intros x r Hr. rewrite sumn_shift. reflexivity. }
  destruct (zero_or_not n cf) as [[k [Hk Hck]]|Hcf].
  - (* c_k = 0: (0, v_k) *)
    exists (fun e => match e with O => 0 | S e' => Q k e' end), (lam k). split.
    + unfold dot. rewrite sumn_shift. cbv beta iota.
      change (sumn n (fun c => Q k c * Q k c)) with (dot n (Q k) (Q k)).
      rewrite HQo by exact Hk. destruct (Nat.eq_dec k k); [lra | congruence].
    + intros a Ha. destruct a as [|r].
      * rewrite Hrow0. cbv beta iota. change (fun c => Q k c) with (Q k).
        rewrite dot_comm. unfold cf in Hck. rewrite Hck. ring.
      * rewrite HrowS by lia. cbv beta iota. rewrite (eig_col n M' Q lam HQ k r Hk) by lia. ring.
  - (* all c_i <> 0: a root of the secular function below lam_min *)
    set (m := lam (pred n)).
    assert (Hm : forall i, (i < n)%nat -> m <= lam i) by (intros i Hi; apply HQs; lia).
    set (C := sumn n (fun i => cf i * cf i)).
    assert (HC : 0 <= C) by (apply sumn_nonneg; intros; nra).
    set (ck := cf (pred n) * cf (pred n)).
    assert (Hck : 0 < ck).
    { assert (cf (pred n) <> 0) by (apply Hcf; lia). pose proof (Rsqr_pos_lt _ H). unfold Rsqr in *. exact H0. }
    set (K := Rabs (a0 - m) + 1).
    assert (HK : a0 - m + 1 <= K) by (unfold K; pose proof (Rle_abs (a0 - m)); lra).
    assert (HK0 : 1 <= K) by (unfold K; pose proof (Rabs_pos (a0 - m)); lra).
    set (dl := ck / (K + ck)).
    assert (Hdl : 0 < dl < 1).
    { unfold dl. split; [apply Rdiv_lt_0_compat; lra|].
      apply (Rmult_lt_reg_r (K + ck)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
    set (g := fun t => t - a0 + sumn n (fun i => cf i * cf i / (lam i - t))).
    set (lo := Rmin a0 m - 1 - C).
    set (hi := m - dl).
    assert (Hlo : lo <= m - 1 - C /\ lo <= a0 - 1 - C)
      by (unfold lo; pose proof (Rmin_l a0 m); pose proof (Rmin_r a0 m); lra).
    assert (Hlohi : lo < hi) by (unfold hi; lra).
    assert (Hglo : g lo < 0).
    { unfold g.
      assert (Hs : sumn n (fun i => cf i * cf i / (lam i - lo)) <= sumn n (fun i => cf i * cf i * / (1 + C))).
      { apply sumn_le. intros i Hi. unfold Rdiv. apply Rmult_le_compat_l; [nra|].
        apply Rinv_le_contravar; [lra|]. pose proof (Hm i Hi). lra. }
      rewrite <- sumn_mult_r in Hs. fold C in Hs.
      assert (C * / (1 + C) < 1).
      { apply (Rmult_lt_reg_r (1 + C)); [lra|]. rewrite Rmult_assoc, Rinv_l by lra. lra. }
      lra. }
    assert (Hghi : 0 < g hi).
    { unfold g.
      assert (Hterm : forall i, (i < n)%nat -> 0 <= cf i * cf i / (lam i - hi)).
      { intros i Hi. pose proof (Hm i Hi). unfold Rdiv. apply Rmult_le_pos; [nra|].
        apply Rlt_le, Rinv_0_lt_compat. unfold hi; lra. }
      pose proof (sumn_ge_term n (fun i => cf i * cf i / (lam i - hi)) (pred n) Hterm ltac:(lia)) as Hge.
      cbv beta in Hge.
      assert (E : cf (pred n) * cf (pred n) / (lam (pred n) - hi) = K + ck).
      { fold m ck. replace (m - hi) with dl by (unfold hi; ring). unfold dl. field. lra. }
      rewrite E in Hge. unfold hi in *. lra. }
    assert (Hcont : forall t, lo <= t <= hi -> continuity_pt g t).
    { intros t Ht. unfold g.
      apply (continuity_pt_plus (fun t => t - a0) (fun t => sumn n (fun i => cf i * cf i / (lam i - t)))).
      - apply (continuity_pt_minus id (fct_cte a0)); [apply cont_id | apply cont_const].
      - apply (cont_sumn n (fun i t => cf i * cf i / (lam i - t))). intros i Hi.
        apply (continuity_pt_div (fct_cte (cf i * cf i)) (fun t => lam i - t)).
        + apply cont_const.
        + apply (continuity_pt_minus (fct_cte (lam i)) id); [apply cont_const | apply cont_id].
        + cbv beta. pose proof (Hm i Hi). unfold hi in Ht. lra. }
    destruct (IVT_interv g lo hi Hcont Hlohi Hglo Hghi) as [mu [Hmu Hgmu]].
    assert (Hmum : mu < m) by (unfold hi in Hmu; lra).
    assert (Hne : forall i, (i < n)%nat -> mu < lam i) by (intros i Hi; pose proof (Hm i Hi); lra).
    set (al := fun i => cf i / (mu - lam i)).
    set (z := fun e => sumn n (fun i => al i * Q i e)).
    exists (fun e => match e with O => 1 | S e' => z e' end), mu. split.
    + unfold dot. rewrite sumn_shift. cbv beta iota.
      assert (0 <= sumn n (fun c => z c * z c)) by (apply sumn_nonneg; intros; nra). lra.
    + intros a Ha. destruct a as [|r].
      * rewrite Hrow0. cbv beta iota. change (fun c => z c) with z. unfold z. rewrite dot_lin.
        assert (E : sumn n (fun i => al i * dot n bv (Q i)) = - sumn n (fun i => cf i * cf i / (lam i - mu))).
        { rewrite sumn_opp. apply sumn_ext. intros i Hi. rewrite dot_comm.
          change (dot n (Q i) bv) with (cf i). unfold al. pose proof (Hne i Hi). field. lra. }
        rewrite E. unfold g in Hgmu. lra.
      * rewrite HrowS by lia. cbv beta iota.
        rewrite (expand n Q HQc bv r) by lia.
        unfold z. rewrite sum_mul_l.
        rewrite (sumn_ext n (fun j => sumn n (fun e => M' r e * (al j * Q j e))) (fun j => al j * (lam j * Q j r))).
        2:{ intros j Hj. rewrite <- (eig_col n M' Q lam HQ j r Hj) by lia. rewrite <- sumn_scal.
            apply sumn_ext. intros; ring. }
        rewrite (sumn_mult_l n (fun i => al i * Q i r) mu). rewrite Rmult_1_r, <- sumn_plus.
        apply sumn_ext. intros i Hi. change (dot n (Q i) bv) with (cf i). unfold al.
        pose proof (Hne i Hi). field. lra.
Qed.

(** normalised, with nonpositive first coordinate *)
Lemma unit_eigvec : forall n, has_eig n -> forall M, symm (S n) M ->
  exists u mu, dot (S n) u u = 1 /\ u 0%nat <= 0 /\
    forall a, (a < S n)%nat -> sumn (S n) (fun b => M a b * u b) = mu * u a.
Proof.
  intros n IH M HM. destruct (eigvec n IH M HM) as [x [mu [Hx Hev]]].
  set (r := sqrt (dot (S n) x x)).
  assert (Hr : 0 < r) by (apply sqrt_lt_R0; exact Hx).
  assert (Hrr : r * r = dot (S n) x x) by (apply sqrt_sqrt; lra).
  assert (Hscal : forall k, (k * k = / (r * r)) ->
    dot (S n) (fun a => k * x a) (fun a => k * x a) = 1 /\
    forall a, (a < S n)%nat -> sumn (S n) (fun b => M a b * (k * x b)) = mu * (k * x a)).
  { intros k Hk. split.
    - unfold dot. rewrite (sumn_ext _ _ (fun a => (k * k) * (x a * x a))) by (intros; ring).
      rewrite sumn_scal. fold (dot (S n) x x). rewrite <- Hrr, Hk. field. lra.
    - intros a Ha. rewrite (sumn_ext _ _ (fun b => k * (M a b * x b))) by (intros; ring).
      rewrite sumn_scal, Hev by exact Ha. ring. }
  pose proof (Rinv_0_lt_compat r Hr) as Hir.
  destruct (Rle_dec (x 0%nat) 0) as [H0|H0].
  - destruct (Hscal (/ r)) as [H1 H2]; [field; lra|].
    exists (fun a => / r * x a), mu. split; [exact H1 | split; [nra | exact H2]].
  - destruct (Hscal (- / r)) as [H1 H2]; [field; lra|].
    exists (fun a => - / r * x a), mu. split; [exact H1 | split; [nra | exact H2]].
Qed.

(* ------------------------------------------------------------------ the theorem *)
Lemma has_eig_0 : has_eig 0.
Proof.
  intros A _. exists (fun _ _ => 0), (fun _ => 0).
  split; [split; [|split]|]; intros; exfalso; lia.
Qed.

Lemma has_eig_S : forall n, has_eig n -> has_eig (S n).
Proof.
  intros n IH M HM.
  destruct (unit_eigvec n IH M HM) as [u [mu [Huu [Hu0 Hev]]]].
  destruct (householder n u Huu Hu0) as [W [HuW [HWW Hcomp]]].
  destruct (complete_eig n M u mu W HM IH Hev Huu HuW HWW Hcomp) as [Z [lam Hs]].
  exact (insert_eig n M u mu Z lam Hs).
Qed.

(** the spectral theorem: every symmetric matrix has an orthonormal eigendecomposition, eigenvalues
    nonincreasing *)
Theorem spectral_exists : forall (d : nat) (A : nat -> nat -> R),
  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a) ->
  exists (V : nat -> nat -> R) (lam : nat -> R), orth_eig d A V lam.
Proof.
  intros d. change (has_eig d).
  induction d as [|d IH]; [exact has_eig_0 | exact (has_eig_S d IH)].
Qed.
