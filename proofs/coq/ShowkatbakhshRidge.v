(** * showkatbakhsh-regression Lemma 4 (31): the ridge-regression error bound, for every dimension.

    Vectors of dimension p are functions on the indices 0 .. p-1, sums are finite ([sumn]); X is an
    n x d matrix (a function of two indices), [mv] is x |-> X x and [tmv] is w |-> X^T w.
    theta* (th_ls) is any least-squares solution: X^T (X theta* - y) = 0 (the normal equations);
    theta_RR(lambda) (th_rr) is the ridge solution: X^T (X theta_RR - y) + lambda theta_RR = 0.
    sigma_min^2 is taken under its Rayleigh definition: the largest s with |X x|^2 >= s |x|^2 for every x;
    the theorem holds for every such s >= 0, in particular for sigma_min^2 (X full rank makes it > 0,
    but the theorem needs only s >= 0).

    Conclusion (31), multiplied out by ||X theta* - y||:
      ||X theta_RR - y|| <= ||X theta* - y|| + lambda/(sigma_min^2 + lambda) ||X theta*||,
    and [ridge_relative_error] divides by ||X theta* - y|| > 0 (r(y) = ||X theta*|| / ||X theta* - y||).

    Proof (no spectral theorem, no SVD): with delta = theta_RR - theta*, e = X delta, g = X^T e:
    X theta_RR - y = (X theta* - y) + e and (X theta* - y) . e = 0 (normal equations), so the squared
    error is ||X theta* - y||^2 + |e|^2; g = -lambda theta_RR, so lambda X theta* = -(X g) - lambda e and
    lambda^2 |X theta*|^2 = |X g|^2 + 2 lambda |g|^2 + lambda^2 |e|^2 >= (s + lambda)^2 |e|^2, using
    |X g|^2 >= s |g|^2, |e|^2 = delta . g and 0 <= |g - s delta|^2 with s |delta|^2 <= |e|^2 (so |g|^2 >= s |e|^2).
    The standard library only. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums.
Open Scope R_scope.

Definition dot (p : nat) (u v : nat -> R) : R := sumn p (fun i => u i * v i).
Definition mv (n d : nat) (X : nat -> nat -> R) (v : nat -> R) : nat -> R :=
  fun i => sumn d (fun j => X i j * v j).
Definition tmv (n d : nat) (X : nat -> nat -> R) (w : nat -> R) : nat -> R :=
  fun j => sumn n (fun i => X i j * w i).

Lemma dot_nonneg : forall p u, 0 <= dot p u u.
Proof. intros p u. unfold dot. apply sumn_nonneg. intros i _. apply Rle_0_sqr. Qed.

Lemma dot_sym : forall p u v, dot p u v = dot p v u.
Proof. intros. unfold dot. apply sumn_ext. intros; ring. Qed.

(** X is adjoint to X^T: (X v) . w = v . (X^T w), for every n and d *)
Lemma adjoint : forall n d X v w, dot n (mv n d X v) w = dot d v (tmv n d X w).
Proof.
  intros n d X v w. unfold dot, mv, tmv.
  rewrite (sumn_ext n _ (fun i => sumn d (fun j => X i j * v j * w i))).
  2:{ intros i _. rewrite Rmult_comm. rewrite <- sumn_scal. apply sumn_ext. intros; ring. }
  rewrite sumn_swap. apply sumn_ext. intros j _.
  rewrite <- sumn_scal. apply sumn_ext. intros; ring.
Qed.

Lemma mv_lin : forall n d X a b u v i,
  mv n d X (fun j => a * u j + b * v j) i = a * mv n d X u i + b * mv n d X v i.
Proof.
  intros. unfold mv. rewrite <- !sumn_scal. rewrite <- sumn_plus. apply sumn_ext. intros; ring.
Qed.

Lemma tmv_lin : forall n d X a b u v j,
  tmv n d X (fun i => a * u i + b * v i) j = a * tmv n d X u j + b * tmv n d X v j.
Proof.
  intros. unfold tmv. rewrite <- !sumn_scal. rewrite <- sumn_plus. apply sumn_ext. intros; ring.
Qed.

Lemma dot_lin_l : forall p a b u v w, dot p (fun i => a * u i + b * v i) w = a * dot p u w + b * dot p v w.
Proof. intros. unfold dot. rewrite <- !sumn_scal. rewrite <- sumn_plus. apply sumn_ext. intros; ring. Qed.

Lemma dot_ext : forall p u u' v v', (forall i, (i < p)%nat -> u i = u' i) -> (forall i, (i < p)%nat -> v i = v' i) ->
  dot p u v = dot p u' v'.
Proof. intros. unfold dot. apply sumn_ext. intros i Hi. rewrite H, H0 by exact Hi. reflexivity. Qed.

Lemma mv_ext : forall n d X u v i, (forall j, (j < d)%nat -> u j = v j) -> mv n d X u i = mv n d X v i.
Proof. intros. unfold mv. apply sumn_ext. intros j Hj. rewrite H by exact Hj. reflexivity. Qed.

(** sqrt (A + B) <= sqrt A + k sqrt C when B <= k^2 C, k >= 0 *)
Lemma sqrt_step : forall A B C k, 0 <= A -> 0 <= B -> 0 <= C -> 0 <= k -> B <= k * k * C ->
  sqrt (A + B) <= sqrt A + k * sqrt C.
Proof.
  intros A B C k HA HB HC Hk Hb.
  pose proof (sqrt_pos A) as HsA. pose proof (sqrt_pos C) as HsC.
  pose proof (sqrt_sqrt A HA) as EA. pose proof (sqrt_sqrt C HC) as EC.
  assert (Hr : 0 <= sqrt A + k * sqrt C) by (pose proof (Rmult_le_pos _ _ Hk HsC); lra).
  rewrite <- (sqrt_square (sqrt A + k * sqrt C)) by exact Hr.
  apply sqrt_le_1_alt.
  assert (H2 : 0 <= sqrt A * (k * sqrt C)) by (apply Rmult_le_pos; [exact HsA | apply Rmult_le_pos; assumption]).
  assert (H3 : k * k * C = (k * sqrt C) * (k * sqrt C)) by (rewrite <- EC at 1; ring).
  nra.
Qed.

Theorem ridge_error_bound :
  forall (n d : nat) (X : nat -> nat -> R) (y th_ls th_rr : nat -> R) (s lam : R),
  0 <= s -> 0 < lam ->
  (forall x, s * dot d x x <= dot n (mv n d X x) (mv n d X x)) ->
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_ls i - y i) j = 0) ->
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_rr i - y i) j + lam * th_rr j = 0) ->
  sqrt (dot n (fun i => mv n d X th_rr i - y i) (fun i => mv n d X th_rr i - y i))
  <= sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i))
     + lam / (s + lam) * sqrt (dot n (mv n d X th_ls) (mv n d X th_ls)).
Proof.
  intros n d X y th_ls th_rr s lam Hs Hlam Hray Hls Hrr.
  set (r := fun i => mv n d X th_ls i - y i).
  set (dl := fun j => th_rr j - th_ls j).
  set (e := mv n d X dl).
  set (g := tmv n d X e).
  set (h := mv n d X g).
  (* X theta_RR - y = r + e *)
  assert (Fre : forall i, mv n d X th_rr i - y i = 1 * r i + 1 * e i).
  { intros i. unfold r, e, dl.
    rewrite (mv_ext n d X (fun j => th_rr j - th_ls j) (fun j => 1 * th_rr j + (-1) * th_ls j))
      by (intros; ring).
    rewrite mv_lin. ring. }
  (* r . e = 0 *)
  assert (Fre0 : dot n e r = 0).
  { unfold e. rewrite adjoint. unfold dot. apply sumn_zero. intros j Hj.
    unfold r. rewrite (Hls j Hj). ring. }
  (* g = - lam theta_RR on the indices < d *)
  assert (Fg : forall j, (j < d)%nat -> g j = - lam * th_rr j).
  { intros j Hj. pose proof (Hrr j Hj) as H.
    assert (E : tmv n d X (fun i => mv n d X th_rr i - y i) j = 1 * tmv n d X r j + 1 * tmv n d X e j).
    { rewrite <- tmv_lin. unfold tmv. apply sumn_ext. intros i _. rewrite Fre. reflexivity. }
    rewrite E in H. unfold r in H. rewrite (Hls j Hj) in H. unfold g. lra. }
  (* lam X theta* = - h - lam e *)
  assert (Fls : forall i, lam * mv n d X th_ls i = (-1) * h i + (- lam) * e i).
  { intros i. unfold h, e. rewrite <- mv_lin.
    replace (lam * mv n d X th_ls i) with (mv n d X (fun j => lam * th_ls j + 0 * th_ls j) i) by (rewrite mv_lin; ring).
    apply mv_ext. intros j Hj. rewrite (Fg j Hj). unfold dl. ring. }
  set (A := dot n r r). set (B := dot n e e). set (C := dot n (mv n d X th_ls) (mv n d X th_ls)).
  set (G := dot d g g). set (D := dot d dl dl). set (H := dot n h h).
  assert (HA : 0 <= A) by apply dot_nonneg. assert (HB : 0 <= B) by apply dot_nonneg.
  assert (HC : 0 <= C) by apply dot_nonneg. assert (HG : 0 <= G) by apply dot_nonneg.
  assert (HD : 0 <= D) by apply dot_nonneg.
  (* the squared error is A + B *)
  assert (Ferr : dot n (fun i => mv n d X th_rr i - y i) (fun i => mv n d X th_rr i - y i) = A + B).
  { rewrite (dot_ext n _ (fun i => 1 * r i + 1 * e i) _ (fun i => 1 * r i + 1 * e i)) by (intros; apply Fre).
    rewrite dot_lin_l. rewrite (dot_sym n r), (dot_sym n e). rewrite !dot_lin_l.
    rewrite (dot_sym n r e), Fre0. unfold A, B. ring. }
  (* B = dl . g *)
  assert (FB : B = dot d dl g) by (unfold B, e, g; rewrite adjoint; reflexivity).
  (* h . e = G *)
  assert (Fhe : dot n h e = G) by (unfold h, G, g; rewrite adjoint; reflexivity).
  (* lam^2 C = H + 2 lam G + lam^2 B *)
  assert (FC : lam * lam * C = H + 2 * lam * G + lam * lam * B).
  { assert (E : lam * lam * C = dot n (fun i => (-1) * h i + (- lam) * e i) (fun i => (-1) * h i + (- lam) * e i)).
    { unfold C, dot. rewrite <- !sumn_scal. apply sumn_ext. intros i _. rewrite <- (Fls i). ring. }
    rewrite E, dot_lin_l, (dot_sym n h), (dot_sym n e), !dot_lin_l, (dot_sym n e h), Fhe.
    unfold H, B. ring. }
  assert (HH : s * G <= H) by (apply Hray).
  assert (HBD : s * D <= B) by (apply Hray).
  (* 0 <= |g - s dl|^2 = G - 2 s B + s^2 D *)
  assert (Fsq : 0 <= G - 2 * s * B + s * s * D).
  { pose proof (dot_nonneg d (fun j => 1 * g j + (- s) * dl j)) as P.
    rewrite dot_lin_l, (dot_sym d g), (dot_sym d dl), !dot_lin_l in P.
    rewrite (dot_sym d g dl), <- FB in P. fold G D in P. lra. }
  assert (HGB : s * B <= G).
  { assert (s * (s * D) <= s * B) by (apply Rmult_le_compat_l; lra). nra. }
  assert (Hmain : (s + lam) * (s + lam) * B <= lam * lam * C).
  { rewrite FC. assert (s * (s * B) <= s * G) by (apply Rmult_le_compat_l; lra). nra. }
  rewrite Ferr. fold A C.
  apply sqrt_step; try assumption.
  - unfold Rdiv. apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra].
  - assert (Hk : lam / (s + lam) * (s + lam) = lam) by (field; lra).
    assert (Hpos : 0 < (s + lam) * (s + lam)) by nra.
    set (k := lam / (s + lam)) in *.
    assert (E : (s + lam) * (s + lam) * (k * k * C) = lam * lam * C).
    { replace (lam * lam * C) with ((k * (s + lam)) * (k * (s + lam)) * C) by (rewrite Hk; ring). ring. }
    apply (Rmult_le_reg_l ((s + lam) * (s + lam))); [exact Hpos|]. rewrite E. exact Hmain.
Qed.

(** (31) as printed: ||X theta_RR - y|| / ||X theta* - y|| <= 1 + lambda/(sigma_min^2 + lambda) r(y) with
    r(y) = ||X theta*|| / ||X theta* - y||, whenever X theta* != y *)
Theorem ridge_relative_error :
  forall (n d : nat) (X : nat -> nat -> R) (y th_ls th_rr : nat -> R) (s lam : R),
  0 <= s -> 0 < lam ->
  (forall x, s * dot d x x <= dot n (mv n d X x) (mv n d X x)) ->
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_ls i - y i) j = 0) ->
  (forall j, (j < d)%nat -> tmv n d X (fun i => mv n d X th_rr i - y i) j + lam * th_rr j = 0) ->
  0 < sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i)) ->
  sqrt (dot n (fun i => mv n d X th_rr i - y i) (fun i => mv n d X th_rr i - y i))
    / sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i))
  <= 1 + lam / (s + lam) * (sqrt (dot n (mv n d X th_ls) (mv n d X th_ls))
                           / sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i))).
Proof.
  intros n d X y th_ls th_rr s lam Hs Hlam Hray Hls Hrr Hpos.
  pose proof (ridge_error_bound n d X y th_ls th_rr s lam Hs Hlam Hray Hls Hrr) as Hb.
  set (R0 := sqrt (dot n (fun i => mv n d X th_ls i - y i) (fun i => mv n d X th_ls i - y i))) in *.
  set (E := sqrt (dot n (fun i => mv n d X th_rr i - y i) (fun i => mv n d X th_rr i - y i))) in *.
  set (F := sqrt (dot n (mv n d X th_ls) (mv n d X th_ls))) in *.
  set (k := lam / (s + lam)) in *.
  apply (Rmult_le_reg_r R0); [exact Hpos|].
  unfold Rdiv. field_simplify; [|lra|lra].
  replace ((R0 + k * F) / 1) with (R0 + k * F) by field. replace (E / 1) with E by field. exact Hb.
Qed.

