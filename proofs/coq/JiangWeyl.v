(** * jiang-wishart Lemma 4 (Weyl): nu_i + rho_d <= mu_i <= nu_i + rho_1 for M = H + P, every dimension d.

    Vectors of dimension d are functions on the indices 0 .. d-1, matrices functions of two indices, sums
    finite ([sumn]). The eigenvalues nu_1 >= ... >= nu_d of H and mu_1 >= ... >= mu_d of M are those of an
    orthonormal eigendecomposition ([spectral]: A = Q diag(lam) Q^T with Q Q^T = I, lam nonincreasing; the
    theorem holds for every such decomposition; that every symmetric matrix has one, the spectral theorem,
    is what defines the paper's nu_i, mu_i and is not in this file). rho_1 and rho_d, the extreme eigenvalues
    of P, enter under their Rayleigh definitions: rho_d |x|^2 <= x^T P x <= rho_1 |x|^2 for all x (the theorem
    holds for every such pair of bounds).

    Proof: Courant-Fischer is not needed in general form. [underdetermined]: d - 1 homogeneous linear
    equations in d unknowns have a nonzero solution (elimination of one unknown, induction on the number of
    equations). Take x != 0 orthogonal to the eigenvectors of M after the i-th and to those of H before the
    i-th (d - 1 equations); then mu_i |x|^2 <= x^T M x = x^T H x + x^T P x <= (nu_i + rho_1) |x|^2
    ([weyl_upper]); the lower bound is [weyl_upper] for H = M + (-P). The standard library only. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums.
Open Scope R_scope.

Lemma sumn_delta : forall d (x : nat -> R) a, (a < d)%nat ->
  sumn d (fun b => (if Nat.eq_dec a b then 1 else 0) * x b) = x a.
Proof.
  induction d as [|d IH]; intros x a Ha; [lia|]. simpl.
  destruct (Nat.eq_dec a d) as [->|Hne].
  - rewrite sumn_zero; [ring|]. intros b Hb. destruct (Nat.eq_dec d b); [lia|ring].
  - rewrite IH by lia. ring.
Qed.

(** skipping one index: sums over d + 1 indices are the skipped term plus a sum over d *)
Definition skip (p c : nat) : nat := if Nat.ltb c p then c else S c.
Definition unskip (p c : nat) : nat := if Nat.ltb c p then c else pred c.

Lemma skip_lt : forall p c d, (c < d)%nat -> (skip p c < S d)%nat.
Proof. intros. unfold skip. destruct (Nat.ltb_spec c p); lia. Qed.

Lemma skip_neq : forall p c, skip p c <> p.
Proof. intros. unfold skip. destruct (Nat.ltb_spec c p); lia. Qed.

Lemma unskip_skip : forall p c, unskip p (skip p c) = c.
Proof.
  intros. unfold skip, unskip. destruct (Nat.ltb_spec c p).
  - destruct (Nat.ltb_spec c p); [reflexivity | lia].
  - destruct (Nat.ltb_spec (S c) p); [lia | reflexivity].
Qed.

Lemma sumn_skip : forall d f p, (p <= d)%nat -> sumn (S d) f = f p + sumn d (fun c => f (skip p c)).
Proof.
  induction d as [|d IH]; intros f p Hp.
  - simpl. assert (p = 0%nat) by lia. subst. lra.
  - destruct (Nat.eq_dec p (S d)) as [->|Hne].
    + change (sumn (S (S d)) f) with (sumn (S d) f + f (S d)).
      rewrite (sumn_ext (S d) (fun c => f (skip (S d) c)) f).
      * lra.
      * intros c Hc. unfold skip. destruct (Nat.ltb_spec c (S d)); [reflexivity | lia].
    + change (sumn (S (S d)) f) with (sumn (S d) f + f (S d)).
      rewrite (IH f p) by lia. simpl.
      assert (E : skip p d = S d) by (unfold skip; destruct (Nat.ltb_spec d p); lia).
      rewrite E. lra.
Qed.

Definition dot (d : nat) (u v : nat -> R) : R := sumn d (fun i => u i * v i).

Lemma all_zero_or_not : forall d (w : nat -> R),
  (forall c, (c < d)%nat -> w c = 0) \/ (exists p, (p < d)%nat /\ w p <> 0).
Proof.
  induction d as [|d IH]; intros w.
  - left. intros; lia.
  - destruct (IH w) as [H|[p [Hp Hw]]].
    + destruct (Req_EM_T (w d) 0) as [E|E].
      * left. intros c Hc. destruct (Nat.eq_dec c d) as [->|]; [exact E | apply H; lia].
      * right. exists d. split; [lia | exact E].
    + right. exists p. split; [lia | exact Hw].
Qed.

(** fewer homogeneous linear equations than unknowns: a nonzero solution (elimination of one unknown) *)
Lemma underdetermined : forall m d (rows : nat -> nat -> R), (m < d)%nat ->
  exists x : nat -> R, (exists a, (a < d)%nat /\ x a <> 0) /\ (forall r, (r < m)%nat -> dot d (rows r) x = 0).
Proof.
  induction m as [|m IH]; intros d rows Hmd.
  - exists (fun _ => 1). split; [exists 0%nat; split; [lia | lra] | intros; lia].
  - destruct d as [|d']; [lia|].
    set (w := rows m).
    destruct (all_zero_or_not (S d') w) as [Hz|[p [Hp Hw]]].
    + destruct (IH (S d') rows) as [x [Hx Hs]]; [lia|].
      exists x. split; [exact Hx|]. intros r Hr. destruct (Nat.eq_dec r m) as [->|Hne].
      * unfold dot. apply sumn_zero. intros c Hc. fold w. rewrite (Hz c Hc). ring.
      * apply Hs. lia.
    + set (B := fun r c => rows r (skip p c) - rows r p / w p * w (skip p c)).
      destruct (IH d' B) as [z [[a [Ha Hza]] Hs]]; [lia|].
      set (Sw := sumn d' (fun c => w (skip p c) * z c)).
      set (t := - Sw / w p).
      set (x := fun c => if Nat.eq_dec c p then t else z (unskip p c)).
      assert (Hxs : forall c, x (skip p c) = z c).
      { intros c. unfold x. destruct (Nat.eq_dec (skip p c) p) as [E|_].
        - exfalso. exact (skip_neq p c E).
        - rewrite unskip_skip. reflexivity. }
      assert (Hxp : x p = t) by (unfold x; destruct (Nat.eq_dec p p); [reflexivity | congruence]).
      assert (Hdot : forall v, dot (S d') v x = v p * t + sumn d' (fun c => v (skip p c) * z c)).
      { intros v. unfold dot. rewrite (sumn_skip d' _ p) by lia. rewrite Hxp.
        f_equal. apply sumn_ext. intros c _. rewrite Hxs. reflexivity. }
      exists x. split.
      * exists (skip p a). split; [apply skip_lt; exact Ha | rewrite Hxs; exact Hza].
      * intros r Hr. rewrite Hdot. destruct (Nat.eq_dec r m) as [->|Hne].
        -- fold w. fold Sw. unfold t. field. exact Hw.
        -- assert (HB := Hs r ltac:(lia)). unfold dot, B in HB.
           rewrite (sumn_ext d' _ (fun c => rows r (skip p c) * z c + (- (rows r p / w p)) * (w (skip p c) * z c)))
             in HB by (intros; ring).
           rewrite sumn_plus, sumn_scal in HB. fold Sw in HB.
           unfold t. field_simplify; [| exact Hw].
           assert (E : sumn d' (fun c => rows r (skip p c) * z c) = rows r p / w p * Sw) by lra.
           rewrite E. field. exact Hw.
Qed.

Definition quad (d : nat) (A : nat -> nat -> R) (x : nat -> R) : R :=
  sumn d (fun a => x a * sumn d (fun b => A a b * x b)).

Lemma sumn_mult_r : forall p f c, sumn p f * c = sumn p (fun i => f i * c).
Proof. intros. rewrite Rmult_comm, <- sumn_scal. apply sumn_ext. intros; ring. Qed.

Lemma sumn_mult_l : forall p f c, c * sumn p f = sumn p (fun i => c * f i).
Proof. intros. rewrite <- sumn_scal. reflexivity. Qed.

Lemma spectral_inner : forall d (V : nat -> nat -> R) (lam x : nat -> R) a,
  sumn d (fun b => sumn d (fun j => lam j * V j a * V j b) * x b) = sumn d (fun j => lam j * V j a * dot d (V j) x).
Proof.
  intros d V lam x a.
  rewrite (sumn_ext d _ (fun b => sumn d (fun j => lam j * V j a * (V j b * x b)))).
  2:{ intros b _. rewrite sumn_mult_r. apply sumn_ext. intros; ring. }
  rewrite sumn_swap. apply sumn_ext. intros j _. unfold dot.
  exact (sumn_scal d (lam j * V j a) (fun i => V j i * x i)).
Qed.

(** the quadratic form of sum_j lam_j v_j v_j^T is sum_j lam_j (v_j . x)^2 *)
Lemma quad_spectral : forall d (V : nat -> nat -> R) (lam x : nat -> R),
  sumn d (fun a => x a * sumn d (fun b => sumn d (fun j => lam j * V j a * V j b) * x b))
  = sumn d (fun j => lam j * (dot d (V j) x * dot d (V j) x)).
Proof.
  intros d V lam x.
  rewrite (sumn_ext d _ (fun a => sumn d (fun j => x a * (lam j * V j a * dot d (V j) x)))).
  2:{ intros a _. rewrite spectral_inner. symmetry.
      exact (sumn_scal d (x a) (fun j => lam j * V j a * dot d (V j) x)). }
  rewrite sumn_swap. apply sumn_ext. intros j _.
  transitivity ((lam j * dot d (V j) x) * sumn d (fun a => V j a * x a)).
  - rewrite <- sumn_scal. apply sumn_ext. intros; ring.
  - unfold dot. ring.
Qed.

Lemma quad_plus : forall d A B E x, (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = B a b + E a b) ->
  quad d A x = quad d B x + quad d E x.
Proof.
  intros d A B E x H. unfold quad. rewrite <- sumn_plus. apply sumn_ext. intros a Ha.
  rewrite <- Rmult_plus_distr_l, <- sumn_plus. f_equal. apply sumn_ext. intros b Hb. rewrite H by assumption. ring.
Qed.

(** A = Q diag(lam) Q^T with Q Q^T = I (Q's columns V j: an orthonormal eigenbasis), eigenvalues nonincreasing *)
Definition spectral (d : nat) (A : nat -> nat -> R) (V : nat -> nat -> R) (lam : nat -> R) : Prop :=
  (forall a b, (a < d)%nat -> (b < d)%nat -> sumn d (fun j => V j a * V j b) = if Nat.eq_dec a b then 1 else 0) /\
  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = sumn d (fun j => lam j * V j a * V j b)) /\
  (forall j l, (j <= l)%nat -> (l < d)%nat -> lam l <= lam j).

Lemma quad_of_spectral : forall d A V lam x, spectral d A V lam ->
  quad d A x = sumn d (fun j => lam j * (dot d (V j) x * dot d (V j) x)).
Proof.
  intros d A V lam x [_ [Hd _]]. unfold quad. rewrite <- quad_spectral. apply sumn_ext. intros a Ha.
  f_equal. apply sumn_ext. intros b Hb. rewrite Hd by assumption. reflexivity.
Qed.

Lemma norm_of_spectral : forall d A V lam x, spectral d A V lam ->
  dot d x x = sumn d (fun j => dot d (V j) x * dot d (V j) x).
Proof.
  intros d A V lam x [Hc _].
  rewrite (sumn_ext d (fun j => dot d (V j) x * dot d (V j) x) (fun j => (fun _ => 1) j * (dot d (V j) x * dot d (V j) x)))
    by (intros; ring).
  rewrite <- quad_spectral. unfold dot at 1. apply sumn_ext. intros a Ha. f_equal.
  rewrite (sumn_ext d _ (fun b => (if Nat.eq_dec a b then 1 else 0) * x b)).
  - rewrite sumn_delta by exact Ha. reflexivity.
  - intros b Hb. rewrite <- (Hc a b Ha Hb). f_equal. apply sumn_ext. intros; ring.
Qed.

(** lambda_i(A) <= lambda_i(B) + e when A = B + E and x^T E x <= e |x|^2 for all x *)
Theorem weyl_upper : forall (d i : nat) (A B E VA VB : nat -> nat -> R) (la lb : nat -> R) (e : R),
  (i < d)%nat ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = B a b + E a b) ->
  spectral d A VA la -> spectral d B VB lb ->
  (forall x, quad d E x <= e * dot d x x) ->
  la i <= lb i + e.
Proof.
  intros d i A B E VA VB la lb e Hi HAB HA HB HE.
  set (k := (d - 1 - i)%nat).
  set (rows := fun r => if Nat.ltb r k then VA (i + 1 + r)%nat else VB (r - k)%nat).
  destruct (underdetermined (d - 1) d rows) as [x [[a [Ha Hxa]] Hx]]; [lia|].
  assert (HxA : forall l, (i < l)%nat -> (l < d)%nat -> dot d (VA l) x = 0).
  { intros l H1 H2. specialize (Hx (l - i - 1)%nat ltac:(lia)). unfold rows in Hx.
    destruct (Nat.ltb_spec (l - i - 1) k) as [_|]; [|lia].
    replace (i + 1 + (l - i - 1))%nat with l in Hx by lia. exact Hx. }
  assert (HxB : forall j, (j < i)%nat -> dot d (VB j) x = 0).
  { intros j Hj. specialize (Hx (j + k)%nat ltac:(lia)). unfold rows in Hx.
    destruct (Nat.ltb_spec (j + k) k) as [|_]; [lia|].
    replace (j + k - k)%nat with j in Hx by lia. exact Hx. }
  set (s := dot d x x).
  assert (Hs : 0 < s).
  { unfold s, dot. apply (sumn_pos d _ a); [intros; apply Rle_0_sqr | exact Ha |].
    assert (x a * x a > 0) by (apply Rsqr_pos_lt; exact Hxa). lra. }
  assert (H1 : la i * s <= quad d A x).
  { rewrite (quad_of_spectral d A VA la x HA). unfold s. rewrite (norm_of_spectral d A VA la x HA).
    rewrite sumn_mult_l. apply sumn_le. intros l Hl.
    destruct HA as [_ [_ Hsort]].
    destruct (Nat.le_gt_cases l i) as [Hle|Hgt].
    - assert (la i <= la l) by (apply Hsort; lia).
      assert (0 <= dot d (VA l) x * dot d (VA l) x) by apply Rle_0_sqr. nra.
    - rewrite (HxA l Hgt Hl). lra. }
  assert (H2 : quad d B x <= lb i * s).
  { rewrite (quad_of_spectral d B VB lb x HB). unfold s. rewrite (norm_of_spectral d B VB lb x HB).
    rewrite sumn_mult_l. apply sumn_le. intros j Hj.
    destruct HB as [_ [_ Hsort]].
    destruct (Nat.lt_ge_cases j i) as [Hlt|Hge].
    - rewrite (HxB j Hlt). lra.
    - assert (lb j <= lb i) by (apply Hsort; lia).
      assert (0 <= dot d (VB j) x * dot d (VB j) x) by apply Rle_0_sqr. nra. }
  assert (H3 : quad d A x = quad d B x + quad d E x) by (apply quad_plus; exact HAB).
  assert (H4 : quad d E x <= e * s) by apply HE.
  assert (la i * s <= (lb i + e) * s) by lra.
  apply (Rmult_le_reg_r s); [exact Hs | lra].
Qed.

(** Lemma 4 (Weyl) of jiang-wishart: M = H + P; nu, mu the eigenvalues of H, M (nonincreasing, from orthonormal
    eigenbases); rho_1, rho_d bound the quadratic form of P (Rayleigh: rho_d |x|^2 <= x^T P x <= rho_1 |x|^2) *)
Theorem jiang_weyl : forall (d i : nat) (H P M VH VM : nat -> nat -> R) (nu mu : nat -> R) (rho1 rhod : R),
  (i < d)%nat ->
  (forall a b, (a < d)%nat -> (b < d)%nat -> M a b = H a b + P a b) ->
  spectral d H VH nu -> spectral d M VM mu ->
  (forall x, quad d P x <= rho1 * dot d x x) ->
  (forall x, rhod * dot d x x <= quad d P x) ->
  nu i + rhod <= mu i /\ mu i <= nu i + rho1.
Proof.
  intros d i H P M VH VM nu mu rho1 rhod Hi HM SH SM Hup Hlo. split.
  - assert (nu i <= mu i + - rhod).
    { apply (weyl_upper d i H M (fun a b => - P a b) VH VM nu mu (- rhod) Hi).
      - intros a b Ha Hb. rewrite HM by assumption. ring.
      - exact SH.
      - exact SM.
      - intros x. specialize (Hlo x).
        assert (E : quad d (fun a b => - P a b) x = - quad d P x).
        { unfold quad. transitivity (sumn d (fun a => -1 * (x a * sumn d (fun b => P a b * x b)))).
          - apply sumn_ext. intros a _.
            rewrite (sumn_ext d (fun b => - P a b * x b) (fun b => -1 * (P a b * x b))) by (intros; ring).
            rewrite sumn_scal. ring.
          - rewrite sumn_scal. ring. }
        rewrite E. lra. }
    lra.
  - apply (weyl_upper d i M H P VM VH mu nu rho1 Hi HM SM SH Hup).
Qed.
