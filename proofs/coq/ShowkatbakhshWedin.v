(** * showkatbakhsh-regression Lemma 3 (26): the least-squares perturbation bound, for every n and d.

    Vectors of dimension p are functions on the indices 0 .. p-1, sums are finite ([sumn]); X and E are
    n x d matrices, [mv] is x |-> X x and [tmv] is w |-> X^T w (ShowkatbakhshRidge.v); [nrm] is the
    Euclidean norm. The noisy matrix is Xt = X + E (E = sigma_AN N). theta_AN (th_an) is any least-squares
    solution of the noisy problem: Xt^T (Xt theta_AN - y) = 0 (the normal equations). theta* (th) may be
    any vector; the paper's theta* (the least-squares solution of the clean problem) is one of them.
    The singular values enter under their Rayleigh definitions, so no SVD or spectral theorem is used:
    sigma_min(X) is the largest s with |X x| >= s |x| for every x, sigma_max(X) = ||X||_2 the least S with
    |X x| <= S |x|, and ||E||_2 the least e with |E x| <= e |x|; the theorems hold for every such s > 0, S
    and e (the bound (26) only weakens when s decreases or S, e increase, so it holds for the exact values).
    kappa = S / s, Delta = e / S, so kappa Delta = e / s < 1 is the paper's hypothesis; it gives
    rank(X) = rank(X + E) = d, the paper's other hypothesis, which is therefore not assumed.

    [wedin_error_bound]: (s - e) |X theta_AN - y| <= s |X theta* - y| + e |X theta*|.
    Proof: with h = theta_AN - theta*, v = Xt h, rho = X theta* - y, c = E theta* and z = Xt theta_AN - y
    = v + rho + c, the normal equations give z . v = 0 (adjoint), hence the two identities
    |rho + v|^2 + |v + c|^2 = |rho|^2 + |c|^2 and |v|^2 + |z|^2 = |rho + c|^2, so |rho + v| and |v| are
    <= |rho| + |c|; |X h| >= s |h| and |E h| <= e |h| give (s - e) |h| <= |v|; X theta_AN - y = (rho + v) - E h,
    so (s - e) |X theta_AN - y| <= (s - e)(|rho| + |c|) + e |v| <= s (|rho| + |c|), and s |c| <= s e |theta*|
    <= e |X theta*|.
    [wedin_relative_error] is (26) as printed, for |X theta* - y| > 0 and d >= 1 (so S >= s, kappa >= 1):
    |X theta_AN - y| / |X theta* - y| <= 1 + kappa Delta / (1 - kappa Delta) (kappa + r(y)),
    r(y) = |X theta*| / |X theta* - y|. The standard library only. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums ShowkatbakhshRidge.
Open Scope R_scope.

Definition nrm (p : nat) (u : nat -> R) : R := sqrt (dot p u u).

Lemma nrm_nonneg : forall p u, 0 <= nrm p u.
Proof. intros. apply sqrt_pos. Qed.

Lemma nrm_sq : forall p u, nrm p u * nrm p u = dot p u u.
Proof. intros. unfold nrm. apply sqrt_sqrt. apply dot_nonneg. Qed.

(** Cauchy-Schwarz: (u . v)^2 <= |u|^2 |v|^2 (the quadratic |u - t v|^2 >= 0 in t) *)
Lemma cauchy_schwarz_sq : forall p u v, dot p u v * dot p u v <= dot p u u * dot p v v.
Proof.
  intros p u v.
  assert (Hq : forall t, 0 <= dot p u u - 2 * t * dot p u v + t * t * dot p v v).
  { intros t. pose proof (dot_nonneg p (fun i => 1 * u i + (- t) * v i)) as P.
    rewrite dot_lin_l, (dot_sym p u), (dot_sym p v), !dot_lin_l, (dot_sym p v u) in P.
    replace (dot p u u - 2 * t * dot p u v + t * t * dot p v v)
      with (1 * (1 * dot p u u + - t * dot p u v) + - t * (1 * dot p u v + - t * dot p v v)) by ring.
    exact P. }
  pose proof (dot_nonneg p u) as Hu. pose proof (dot_nonneg p v) as Hv.
  destruct (Rle_lt_or_eq_dec 0 (dot p v v) Hv) as [Hvp|Hv0].
  - specialize (Hq (dot p u v / dot p v v)).
    assert (E : dot p u u - 2 * (dot p u v / dot p v v) * dot p u v
                + dot p u v / dot p v v * (dot p u v / dot p v v) * dot p v v
                = (dot p u u * dot p v v - dot p u v * dot p u v) / dot p v v) by (field; lra).
    rewrite E in Hq.
    assert (0 <= dot p u u * dot p v v - dot p u v * dot p u v).
    { apply (Rmult_le_compat_r (dot p v v)) in Hq; [|lra].
      replace ((dot p u u * dot p v v - dot p u v * dot p u v) / dot p v v * dot p v v)
        with (dot p u u * dot p v v - dot p u v * dot p u v) in Hq by (field; lra). lra. }
    lra.
  - destruct (Req_dec (dot p u v) 0) as [Z|NZ].
    + rewrite Z, <- Hv0. lra.
    + exfalso. specialize (Hq ((dot p u u + 1) / dot p u v)). rewrite <- Hv0 in Hq.
      replace (dot p u u - 2 * ((dot p u u + 1) / dot p u v) * dot p u v + (dot p u u + 1) / dot p u v
               * ((dot p u u + 1) / dot p u v) * 0) with (- dot p u u - 2) in Hq by (field; exact NZ).
      lra.
Qed.

Lemma dot_le_nrm : forall p u v, Rabs (dot p u v) <= nrm p u * nrm p v.
Proof.
  intros p u v. unfold nrm.
  rewrite <- sqrt_mult_alt by apply dot_nonneg. rewrite <- sqrt_Rsqr_abs.
  apply sqrt_le_1_alt. unfold Rsqr. apply cauchy_schwarz_sq.
Qed.

(** |a| <= k when |a|^2 <= k^2 and k >= 0 *)
Lemma nrm_le_of_sq : forall p a k, 0 <= k -> dot p a a <= k * k -> nrm p a <= k.
Proof.
  intros p a k Hk H. unfold nrm. rewrite <- (sqrt_square k) by exact Hk. apply sqrt_le_1_alt. exact H.
Qed.

(** the triangle inequality, for a + b and a - b *)
Lemma nrm_add : forall p a b, nrm p (fun i => a i + b i) <= nrm p a + nrm p b.
Proof.
  intros p a b. apply nrm_le_of_sq; [pose proof (nrm_nonneg p a); pose proof (nrm_nonneg p b); lra|].
  rewrite (dot_ext p _ (fun i => 1 * a i + 1 * b i) _ (fun i => 1 * a i + 1 * b i)) by (intros; ring).
  rewrite dot_lin_l, (dot_sym p a), (dot_sym p b), !dot_lin_l, (dot_sym p b a).
  pose proof (dot_le_nrm p a b) as C. pose proof (RRle_abs (dot p a b)).
  rewrite <- (nrm_sq p a), <- (nrm_sq p b). nra.
Qed.

Lemma nrm_sub : forall p a b, nrm p (fun i => a i - b i) <= nrm p a + nrm p b.
Proof.
  intros p a b. apply nrm_le_of_sq; [pose proof (nrm_nonneg p a); pose proof (nrm_nonneg p b); lra|].
  rewrite (dot_ext p _ (fun i => 1 * a i + (-1) * b i) _ (fun i => 1 * a i + (-1) * b i)) by (intros; ring).
  rewrite dot_lin_l, (dot_sym p a), (dot_sym p b), !dot_lin_l, (dot_sym p b a).
  pose proof (dot_le_nrm p a b) as C. pose proof (RRle_abs (- dot p a b)) as M. rewrite Rabs_Ropp in M.
  rewrite <- (nrm_sq p a), <- (nrm_sq p b). nra.
Qed.

(** |A x| <= k |x| from |A x|^2 <= k^2 |x|^2, and s |x| <= |X x| from s^2 |x|^2 <= |X x|^2 *)
Lemma nrm_upper : forall p q a x k, 0 <= k -> dot p a a <= k * k * dot q x x -> nrm p a <= k * nrm q x.
Proof.
  intros p q a x k Hk H. apply nrm_le_of_sq.
  - apply Rmult_le_pos; [exact Hk | apply nrm_nonneg].
  - replace (k * nrm q x * (k * nrm q x)) with (k * k * (nrm q x * nrm q x)) by ring. rewrite nrm_sq. exact H.
Qed.

Lemma nrm_lower : forall p q a x s, 0 <= s -> s * s * dot q x x <= dot p a a -> s * nrm q x <= nrm p a.
Proof.
  intros p q a x s Hs H. unfold nrm.
  rewrite <- (sqrt_square s) at 1 by exact Hs. rewrite <- sqrt_mult_alt by (apply Rle_0_sqr).
  apply sqrt_le_1_alt. exact H.
Qed.

Lemma mv_plus : forall n d X E x i,
  mv n d (fun a b => X a b + E a b) x i = mv n d X x i + mv n d E x i.
Proof. intros. unfold mv. rewrite <- sumn_plus. apply sumn_ext. intros; ring. Qed.

Lemma mv_minus : forall n d X u w i, mv n d X (fun j => u j - w j) i = mv n d X u i - mv n d X w i.
Proof.
  intros. rewrite (mv_ext n d X _ (fun j => 1 * u j + (-1) * w j)) by (intros; ring). rewrite mv_lin. ring.
Qed.

Theorem wedin_error_bound :
  forall (n d : nat) (X E : nat -> nat -> R) (y th th_an : nat -> R) (s e : R),
  0 < s -> 0 <= e -> e < s ->
  (forall x, s * s * dot d x x <= dot n (mv n d X x) (mv n d X x)) ->
  (forall x, dot n (mv n d E x) (mv n d E x) <= e * e * dot d x x) ->
  (forall j, (j < d)%nat ->
     tmv n d (fun a b => X a b + E a b) (fun i => mv n d (fun a b => X a b + E a b) th_an i - y i) j = 0) ->
  (s - e) * nrm n (fun i => mv n d X th_an i - y i)
    <= s * nrm n (fun i => mv n d X th i - y i) + e * nrm n (mv n d X th).
Proof.
  intros n d X E y th th_an s e Hs He Hes HX HE Hne.
  set (Xt := fun a b => X a b + E a b) in *.
  set (h := fun j => th_an j - th j).
  set (v := mv n d Xt h).
  set (rho := fun i => mv n d X th i - y i).
  set (c := mv n d E th).
  set (z := fun i => mv n d Xt th_an i - y i).
  assert (Fz : forall i, z i = v i + rho i + c i).
  { intros i. unfold z, v, rho, c, h. rewrite mv_minus. unfold Xt. rewrite !mv_plus. ring. }
  assert (Fzv : dot n z v = 0).
  { rewrite dot_sym. unfold v. rewrite adjoint. unfold dot. apply sumn_zero. intros j Hj.
    unfold z. rewrite (Hne j Hj). ring. }
  (* |rho + v|^2 + |v + c|^2 = |rho|^2 + |c|^2 + 2 z . v *)
  assert (I1 : dot n (fun i => rho i + v i) (fun i => rho i + v i) + dot n (fun i => v i + c i) (fun i => v i + c i)
               = dot n rho rho + dot n c c + 2 * dot n z v).
  { unfold dot. rewrite <- sumn_plus. rewrite <- sumn_scal. rewrite <- !sumn_plus. apply sumn_ext. intros i _.
    rewrite Fz. ring. }
  (* |v|^2 + |z|^2 = |rho + c|^2 + 2 z . v *)
  assert (I2 : dot n v v + dot n z z = dot n (fun i => rho i + c i) (fun i => rho i + c i) + 2 * dot n z v).
  { unfold dot. rewrite <- sumn_plus. rewrite <- sumn_scal. rewrite <- !sumn_plus. apply sumn_ext. intros i _.
    rewrite Fz. ring. }
  rewrite Fzv in I1, I2.
  set (al := nrm n rho). set (ga := nrm n c).
  assert (Hal : 0 <= al) by apply nrm_nonneg. assert (Hga : 0 <= ga) by apply nrm_nonneg.
  (* |rho + v| <= al + ga *)
  assert (Hu : nrm n (fun i => rho i + v i) <= al + ga).
  { apply nrm_le_of_sq; [lra|].
    pose proof (dot_nonneg n (fun i => v i + c i)).
    assert (dot n rho rho = al * al) by (unfold al; rewrite nrm_sq; reflexivity).
    assert (dot n c c = ga * ga) by (unfold ga; rewrite nrm_sq; reflexivity).
    nra. }
  (* |v| <= al + ga *)
  assert (Hv : nrm n v <= al + ga).
  { apply nrm_le_of_sq; [lra|].
    pose proof (dot_nonneg n z).
    pose proof (nrm_add n rho c) as T. fold al ga in T.
    assert (dot n (fun i => rho i + c i) (fun i => rho i + c i) <= (al + ga) * (al + ga)).
    { rewrite <- nrm_sq. pose proof (nrm_nonneg n (fun i => rho i + c i)). nra. }
    lra. }
  (* (s - e) |h| <= |v| *)
  assert (Hh : (s - e) * nrm d h <= nrm n v).
  { assert (L : s * nrm d h <= nrm n (mv n d X h)) by (apply nrm_lower; [lra | apply HX]).
    assert (U : nrm n (mv n d E h) <= e * nrm d h) by (apply nrm_upper; [lra | apply HE]).
    assert (T : nrm n (mv n d X h) <= nrm n v + nrm n (mv n d E h)).
    { apply Rle_trans with (nrm n (fun i => v i - mv n d E h i)); [|apply nrm_sub].
      right. unfold nrm. f_equal. apply dot_ext; intros i _; unfold v, Xt; rewrite mv_plus; ring. }
    lra. }
  (* X theta_AN - y = (rho + v) - E h *)
  assert (Hdiff : nrm n (fun i => mv n d X th_an i - y i) <= al + ga + e * nrm d h).
  { assert (U : nrm n (mv n d E h) <= e * nrm d h) by (apply nrm_upper; [lra | apply HE]).
    assert (T := nrm_sub n (fun i => rho i + v i) (mv n d E h)).
    assert (Eq : nrm n (fun i => mv n d X th_an i - y i) = nrm n (fun i => rho i + v i - mv n d E h i)).
    { unfold nrm. f_equal. apply dot_ext; intros i _; unfold rho, v, h, Xt; rewrite mv_plus, !mv_minus; ring. }
    rewrite Eq. lra. }
  (* s |c| <= e |X theta*| *)
  assert (Hc : s * ga <= e * nrm n (mv n d X th)).
  { assert (U : ga <= e * nrm d th) by (apply nrm_upper; [lra | apply HE]).
    assert (L : s * nrm d th <= nrm n (mv n d X th)) by (apply nrm_lower; [lra | apply HX]).
    assert (s * ga <= s * (e * nrm d th)) by (apply Rmult_le_compat_l; lra).
    assert (e * (s * nrm d th) <= e * nrm n (mv n d X th)) by (apply Rmult_le_compat_l; lra).
    nra. }
  fold rho. fold al.
  assert (Hse : 0 <= s - e) by lra.
  assert ((s - e) * nrm n (fun i => mv n d X th_an i - y i) <= (s - e) * (al + ga + e * nrm d h))
    by (apply Rmult_le_compat_l; assumption).
  assert (e * ((s - e) * nrm d h) <= e * nrm n v) by (apply Rmult_le_compat_l; assumption).
  assert (e * nrm n v <= e * (al + ga)) by (apply Rmult_le_compat_l; assumption).
  nra.
Qed.

Definition unit0 (j : nat) : R := if Nat.eq_dec j 0 then 1 else 0.

Lemma dot_unit0 : forall d, (1 <= d)%nat -> dot d unit0 unit0 = 1.
Proof.
  induction d as [|d IH]; intros Hd; [lia|].
  unfold dot. simpl. destruct (Nat.eq_dec d 0) as [->|Hne].
  - simpl. unfold unit0. simpl. ring.
  - fold (dot d unit0 unit0). rewrite IH by lia. unfold unit0.
    destruct (Nat.eq_dec d 0); [congruence | ring].
Qed.

(** (26) as printed, with kappa = S/s, Delta = e/S, r(y) = |X theta*| / |X theta* - y| *)
Theorem wedin_relative_error :
  forall (n d : nat) (X E : nat -> nat -> R) (y th th_an : nat -> R) (s S e : R),
  (1 <= d)%nat -> 0 < s -> 0 < S -> 0 <= e ->
  (forall x, s * s * dot d x x <= dot n (mv n d X x) (mv n d X x)) ->
  (forall x, dot n (mv n d X x) (mv n d X x) <= S * S * dot d x x) ->
  (forall x, dot n (mv n d E x) (mv n d E x) <= e * e * dot d x x) ->
  S / s * (e / S) < 1 ->
  (forall j, (j < d)%nat ->
     tmv n d (fun a b => X a b + E a b) (fun i => mv n d (fun a b => X a b + E a b) th_an i - y i) j = 0) ->
  0 < nrm n (fun i => mv n d X th i - y i) ->
  nrm n (fun i => mv n d X th_an i - y i) / nrm n (fun i => mv n d X th i - y i)
    <= 1 + (S / s * (e / S)) / (1 - S / s * (e / S))
          * (S / s + nrm n (mv n d X th) / nrm n (fun i => mv n d X th i - y i)).
Proof.
  intros n d X E y th th_an s S e Hd Hs HS He HX HXS HE Hkd Hne Hpos.
  assert (Hkd' : S / s * (e / S) = e / s) by (field; lra).
  rewrite Hkd' in *.
  assert (Hes : e < s).
  { apply (Rmult_lt_compat_r s) in Hkd; [|exact Hs]. replace (e / s * s) with e in Hkd by (field; lra). lra. }
  (* S >= s, from the unit vector *)
  assert (HSs : s <= S).
  { pose proof (HX unit0) as A. pose proof (HXS unit0) as B. rewrite dot_unit0 in A, B by exact Hd. nra. }
  pose proof (wedin_error_bound n d X E y th th_an s e Hs He Hes HX HE Hne) as Hb.
  set (al := nrm n (fun i => mv n d X th i - y i)) in *.
  set (F := nrm n (fun i => mv n d X th_an i - y i)) in *.
  set (R0 := nrm n (mv n d X th)) in *.
  assert (HR0 : 0 <= R0) by apply nrm_nonneg.
  (* F <= (s al + e R0) / (s - e) <= al (1 + e/(s - e) (S/s)) + e/(s - e) R0 *)
  assert (Hsum : F <= al * (1 + e / s / (1 - e / s) * (S / s)) + e / s / (1 - e / s) * R0).
  { assert (E1 : e / s / (1 - e / s) = e / (s - e)) by (field; lra).
    rewrite E1.
    assert (E2 : e / (s - e) * (S / s) >= e / (s - e)).
    { unfold Rdiv. assert (0 <= e * / (s - e)) by (apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
      assert (1 <= S * / s) by (apply (Rmult_le_reg_r s); [lra|]; field_simplify; lra).
      nra. }
    assert (Hq : F <= (s * al + e * R0) / (s - e)).
    { apply (Rmult_le_reg_l (s - e)); [lra|]. field_simplify; lra. }
    assert (E3 : (s * al + e * R0) / (s - e) = al * (1 + e / (s - e)) + e / (s - e) * R0) by (field; lra).
    rewrite E3 in Hq. nra. }
  apply (Rmult_le_reg_r al); [exact Hpos|].
  unfold Rdiv at 1. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra.
  replace ((1 + e / s / (1 - e / s) * (S / s + R0 / al)) * al)
    with (al * (1 + e / s / (1 - e / s) * (S / s)) + e / s / (1 - e / s) * R0) by (field; lra).
  exact Hsum.
Qed.
