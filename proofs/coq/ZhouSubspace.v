(* zhou-compression Proposition 3.4 (Zwald and Blanchard), for every finite dimension p:
   ||P_D(A) - P_D(A + B)||_F <= ||B||_F / delta_D with delta_D = (lambda_D - lambda_{D+1}) / 2.

   Vectors and p x p matrices are functions on the indices 0 .. p-1; sums are finite (FiniteSums.sumn).
   The eigenvalues and eigenvectors of A and of C = A + B are those of orthonormal eigendecompositions,
   taken as hypotheses: A = U diag(lam) U^T and C = V diag(mu) V^T with U, V orthogonal (U^T U = U U^T = I,
   the same for V) and lam, mu nonincreasing. The theorem holds for every such pair of decompositions (so
   for every choice of eigenvectors when an eigenvalue is repeated); that every symmetric matrix has one,
   the spectral theorem, is what defines the paper's P_D and is not in this file. With indices from 0,
   P_D(A) = sum_{j < D} u_j u_j^T (proj below), lambda_D = lam (D - 1) and lambda_{D+1} = lam D.

   Proof (no Weyl, Davis-Kahan or Courant-Fischer): u_j, v_i are the columns of U, V; with
   w_ij = (v_i . u_j)^2 and a_j = sum_{i < D} w_ij, the rows and columns of w sum to 1 (both bases
   orthonormal), so 0 <= a_j <= 1 and sum_j a_j = D;
   <A, P_U> - <A, P_V> = sum_j lam_j ([j < D] - a_j) >= (lam_{D-1} - lam_D) s and
   ||P_U - P_V||_F^2 = 2 s with s = sum_{j < D} (1 - a_j) (key_trace_gap). The same for C with the roles
   exchanged gives <C, P_V - P_U> >= 0, so <B, P_V - P_U> >= delta_D ||P_U - P_V||_F^2, and
   2 <X, Y> <= t ||Y||^2 + ||X||^2 / t at t = delta_D gives delta_D^2 ||P_U - P_V||_F^2 <= ||B||_F^2.
   The paper's hypotheses ||B||_F <= delta_D / 2 and A + B positive, and the simplicity of the
   eigenvalues, are not needed. zhou_prop_3_4 states the claim's conclusion in squared form (both sides
   are nonnegative), with B = C - A. The standard library only. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums.
Open Scope R_scope.

(* ------------------------------------------------------------------ definitions *)
Definition kd (i j : nat) : R := if Nat.eq_dec i j then 1 else 0.
Definition ind (D j : nat) : R := if Nat.ltb j D then 1 else 0.
(* sum_j f_j u_j u_j^T (columns j of U) *)
Definition spec (p : nat) (U : nat -> nat -> R) (f : nat -> R) (k l : nat) : R :=
  sumn p (fun j => f j * (U k j * U l j)).
Definition proj (p D : nat) (U : nat -> nat -> R) : nat -> nat -> R := spec p U (ind D).
Definition inner (p : nat) (X Y : nat -> nat -> R) : R := sumn p (fun k => sumn p (fun l => X k l * Y k l)).
Definition fro2 (p : nat) (X : nat -> nat -> R) : R := inner p X X.
Definition orthogonal (p : nat) (U : nat -> nat -> R) : Prop :=
  (forall i j, (i < p)%nat -> (j < p)%nat -> sumn p (fun k => U k i * U k j) = kd i j) /\
  (forall k l, (k < p)%nat -> (l < p)%nat -> sumn p (fun j => U k j * U l j) = kd k l).
(* c_ij = v_i . u_j *)
Definition cross (p : nat) (U V : nat -> nat -> R) (i j : nat) : R := sumn p (fun k => V k i * U k j).

(* ------------------------------------------------------------------ finite sums *)
Lemma sumn_kd_r : forall p (f : nat -> R) j, (j < p)%nat -> sumn p (fun i => f i * kd i j) = f j.
Proof.
  induction p as [|q IH]; intros f j Hj; [lia|]. simpl.
  destruct (Nat.eq_dec q j) as [->|Hne].
  - rewrite sumn_zero.
    + unfold kd. destruct (Nat.eq_dec j j) as [_|C]; [ring|congruence].
    + intros i Hi. unfold kd. destruct (Nat.eq_dec i j); [lia|ring].
  - rewrite IH by lia. unfold kd. destruct (Nat.eq_dec q j); [congruence|ring].
Qed.

Lemma sumn_kd_l : forall p (f : nat -> R) j, (j < p)%nat -> sumn p (fun i => kd j i * f i) = f j.
Proof.
  intros p f j Hj. rewrite <- (sumn_kd_r p f j Hj). apply sumn_ext. intros i _.
  unfold kd. destruct (Nat.eq_dec j i), (Nat.eq_dec i j); subst; try congruence; ring.
Qed.

Lemma sumn_prod : forall p q (x y : nat -> R),
  sumn p x * sumn q y = sumn p (fun j => sumn q (fun i => x j * y i)).
Proof.
  intros p q x y. rewrite (Rmult_comm (sumn p x)), <- (sumn_scal p (sumn q y) x). apply sumn_ext. intros j _.
  rewrite (Rmult_comm (sumn q y)), <- sumn_scal. apply sumn_ext. intros; ring.
Qed.

Lemma ind_cases : forall D j, ind D j = 1 \/ ind D j = 0.
Proof. intros. unfold ind. destruct (Nat.ltb j D); auto. Qed.

Lemma ind_lt : forall D j, (j < D)%nat -> ind D j = 1.
Proof. intros. unfold ind. destruct (Nat.ltb_spec j D); [reflexivity|lia]. Qed.

Lemma ind_ge : forall D j, (D <= j)%nat -> ind D j = 0.
Proof. intros. unfold ind. destruct (Nat.ltb_spec j D); [lia|reflexivity]. Qed.

(* <sum_j f_j a_j a_j^T, sum_i g_i b_i b_i^T> = sum_i sum_j g_i f_j (b_i . a_j)^2 *)
Lemma inner_spec : forall p (a b : nat -> nat -> R) (f g : nat -> R),
  inner p (spec p a f) (spec p b g) = sumn p (fun i => sumn p (fun j => g i * f j * (cross p a b i j * cross p a b i j))).
Proof.
  intros p a b f g. unfold inner, spec, cross.
  set (T := fun k l j i => f j * g i * (a k j * b k i) * (a l j * b l i)).
  transitivity (sumn p (fun k => sumn p (fun l => sumn p (fun j => sumn p (fun i => T k l j i))))).
  { apply sumn_ext. intros k _. apply sumn_ext. intros l _. rewrite sumn_prod. apply sumn_ext. intros j _.
    apply sumn_ext. intros i _. unfold T. ring. }
  transitivity (sumn p (fun i => sumn p (fun j => sumn p (fun k => sumn p (fun l => T k l j i))))).
  { (* reorder k l j i -> i j k l *)
    rewrite (sumn_ext p (fun k => sumn p (fun l => sumn p (fun j => sumn p (fun i => T k l j i))))
                        (fun k => sumn p (fun j => sumn p (fun l => sumn p (fun i => T k l j i)))))
      by (intros k _; apply sumn_swap).
    rewrite (sumn_ext p (fun k => sumn p (fun j => sumn p (fun l => sumn p (fun i => T k l j i))))
                        (fun k => sumn p (fun j => sumn p (fun i => sumn p (fun l => T k l j i)))))
      by (intros k _; apply sumn_ext; intros j _; apply sumn_swap).
    rewrite sumn_swap.
    rewrite (sumn_ext p (fun j => sumn p (fun k => sumn p (fun i => sumn p (fun l => T k l j i))))
                        (fun j => sumn p (fun i => sumn p (fun k => sumn p (fun l => T k l j i)))))
      by (intros j _; apply sumn_swap).
    apply sumn_swap. }
  apply sumn_ext. intros i _. apply sumn_ext. intros j _. rewrite sumn_prod, <- sumn_scal. apply sumn_ext. intros k _.
  rewrite <- sumn_scal. apply sumn_ext. intros l _. unfold T. ring.
Qed.

(* with orthonormal rows (U U^T = I): sum_j (x . u_j)(y . u_j) = x . y *)
Lemma parseval : forall p (U : nat -> nat -> R) (x y : nat -> R),
  (forall k l, (k < p)%nat -> (l < p)%nat -> sumn p (fun j => U k j * U l j) = kd k l) ->
  sumn p (fun j => sumn p (fun k => x k * U k j) * sumn p (fun l => y l * U l j)) = sumn p (fun k => x k * y k).
Proof.
  intros p U x y HU.
  rewrite (sumn_ext p _ (fun j => sumn p (fun k => sumn p (fun l => x k * y l * (U k j * U l j))))).
  2:{ intros j _. rewrite sumn_prod. apply sumn_ext. intros k _. apply sumn_ext. intros l _. ring. }
  rewrite sumn_swap. apply sumn_ext. intros k Hk.
  rewrite sumn_swap.
  rewrite (sumn_ext p _ (fun l => x k * y l * kd k l)).
  2:{ intros l Hl. rewrite <- HU by assumption. rewrite <- sumn_scal. reflexivity. }
  rewrite (sumn_ext p _ (fun l => kd k l * (x k * y l))) by (intros; ring).
  rewrite sumn_kd_l by exact Hk. reflexivity.
Qed.

Lemma cross_self : forall p U i j, orthogonal p U -> (i < p)%nat -> (j < p)%nat -> cross p U U i j = kd i j.
Proof. intros p U i j [H _] Hi Hj. unfold cross. exact (H i j Hi Hj). Qed.

(* rows of w sum to 1: sum_j (v_i . u_j)^2 = |v_i|^2 = 1 *)
Lemma cross_rows : forall p U V i, orthogonal p U -> orthogonal p V -> (i < p)%nat ->
  sumn p (fun j => cross p U V i j * cross p U V i j) = 1.
Proof.
  intros p U V i [_ HU] [HV _] Hi. unfold cross.
  rewrite (parseval p U (fun k => V k i) (fun k => V k i) HU).
  rewrite HV by assumption. unfold kd. destruct (Nat.eq_dec i i); [reflexivity|congruence].
Qed.

(* columns of w sum to 1: sum_i (v_i . u_j)^2 = |u_j|^2 = 1 *)
Lemma cross_cols : forall p U V j, orthogonal p U -> orthogonal p V -> (j < p)%nat ->
  sumn p (fun i => cross p U V i j * cross p U V i j) = 1.
Proof.
  intros p U V j [HU _] [_ HV] Hj. unfold cross.
  rewrite (sumn_ext p _ (fun i => sumn p (fun k => U k j * V k i) * sumn p (fun l => U l j * V l i))).
  2:{ intros i _. f_equal; apply sumn_ext; intros; ring. }
  rewrite (parseval p V (fun k => U k j) (fun k => U k j) HV).
  rewrite HU by assumption. unfold kd. destruct (Nat.eq_dec j j); [reflexivity|congruence].
Qed.

Lemma inner_self_proj : forall p D U, orthogonal p U ->
  inner p (proj p D U) (proj p D U) = sumn p (fun j => ind D j).
Proof.
  intros p D U HU. unfold proj. rewrite inner_spec. apply sumn_ext. intros i Hi.
  rewrite (sumn_ext p _ (fun j => (ind D i * ind D j) * kd j i)).
  2:{ intros j Hj. rewrite cross_self by assumption. unfold kd.
      destruct (Nat.eq_dec i j), (Nat.eq_dec j i); subst; try congruence; ring. }
  rewrite sumn_kd_r by exact Hi. destruct (ind_cases D i) as [E|E]; rewrite E; ring.
Qed.

Lemma inner_spec_proj_self : forall p D U f, orthogonal p U ->
  inner p (spec p U f) (proj p D U) = sumn p (fun j => ind D j * f j).
Proof.
  intros p D U f HU. unfold proj. rewrite inner_spec. apply sumn_ext. intros i Hi.
  rewrite (sumn_ext p _ (fun j => (ind D i * f j) * kd j i)).
  2:{ intros j Hj. rewrite cross_self by assumption. unfold kd.
      destruct (Nat.eq_dec i j), (Nat.eq_dec j i); subst; try congruence; ring. }
  rewrite sumn_kd_r by exact Hi. reflexivity.
Qed.

Lemma inner_minus_r : forall p X Y Z, inner p X (fun k l => Y k l - Z k l) = inner p X Y - inner p X Z.
Proof.
  intros. unfold inner. rewrite <- sumn_minus. apply sumn_ext. intros k _.
  rewrite <- sumn_minus. apply sumn_ext. intros; ring.
Qed.

Lemma inner_minus_l : forall p X Y Z, inner p (fun k l => X k l - Y k l) Z = inner p X Z - inner p Y Z.
Proof.
  intros. unfold inner. rewrite <- sumn_minus. apply sumn_ext. intros k _.
  rewrite <- sumn_minus. apply sumn_ext. intros; ring.
Qed.

Lemma inner_sym : forall p X Y, inner p X Y = inner p Y X.
Proof. intros. unfold inner. apply sumn_ext. intros. apply sumn_ext. intros. ring. Qed.

Lemma fro2_nonneg : forall p X, 0 <= fro2 p X.
Proof.
  intros. unfold fro2, inner. apply sumn_nonneg. intros. apply sumn_nonneg. intros. apply Rle_0_sqr.
Qed.

(* 2 <X, Y> <= t ||Y||^2 + ||X||^2 / t for t > 0 (termwise: (t Y - X)^2 / t >= 0) *)
Lemma inner_amgm : forall p X Y t, 0 < t -> 2 * inner p X Y <= t * fro2 p Y + / t * fro2 p X.
Proof.
  intros p X Y t Ht. unfold fro2, inner.
  rewrite <- !sumn_scal, <- sumn_plus. apply sumn_le. intros k _.
  rewrite <- !sumn_scal, <- sumn_plus. apply sumn_le. intros l _.
  assert (H : t * (Y k l * Y k l) + / t * (X k l * X k l) - 2 * (X k l * Y k l)
              = / t * ((t * Y k l - X k l) * (t * Y k l - X k l))) by (field; lra).
  assert (0 <= / t * ((t * Y k l - X k l) * (t * Y k l - X k l)))
    by (apply Rmult_le_pos; [left; apply Rinv_0_lt_compat; exact Ht | apply Rle_0_sqr]).
  lra.
Qed.

(* ------------------------------------------------------------------ the key inequality *)
(* For A = U diag(f) U^T whose top D eigenvalues are >= m and the others <= m', and any orthogonal V:
   <A, P_U> - <A, P_V> >= (m - m') ||P_U - P_V||_F^2 / 2. *)
Theorem key_trace_gap : forall p D (U V : nat -> nat -> R) (f : nat -> R) (m m' : R),
  orthogonal p U -> orthogonal p V ->
  (forall j, (j < p)%nat -> (j < D)%nat -> m <= f j) ->
  (forall j, (j < p)%nat -> (D <= j)%nat -> f j <= m') ->
  inner p (spec p U f) (proj p D U) - inner p (spec p U f) (proj p D V)
    >= (m - m') * fro2 p (fun k l => proj p D U k l - proj p D V k l) / 2.
Proof.
  intros p D U V f m m' HU HV Hm Hm'.
  set (w := fun i j => cross p U V i j * cross p U V i j).
  set (a := fun j => sumn p (fun i => ind D i * w i j)).
  set (E := sumn p (fun j => ind D j)).
  (* the inner products in terms of w *)
  assert (H1g : forall f', inner p (spec p U f') (proj p D V) = sumn p (fun j => f' j * a j)).
  { intros f'. unfold proj. rewrite inner_spec. rewrite sumn_swap. apply sumn_ext. intros j _.
    unfold a. rewrite <- sumn_scal. apply sumn_ext. intros i _. unfold w. ring. }
  assert (H2 : inner p (proj p D U) (proj p D V) = sumn p (fun j => ind D j * a j)).
  { unfold proj at 1. apply H1g. }
  assert (H1 := H1g f).
  assert (H3 : inner p (proj p D V) (proj p D V) = E) by (apply inner_self_proj; exact HV).
  assert (H4 : inner p (proj p D U) (proj p D U) = E) by (apply inner_self_proj; exact HU).
  assert (H5 : inner p (spec p U f) (proj p D U) = sumn p (fun j => ind D j * f j))
    by (apply inner_spec_proj_self; exact HU).
  (* ||P_U - P_V||^2 = 2 (E - sum_j [j < D] a_j) *)
  assert (HF : fro2 p (fun k l => proj p D U k l - proj p D V k l) = 2 * (E - sumn p (fun j => ind D j * a j))).
  { unfold fro2. rewrite inner_minus_l, !inner_minus_r. rewrite (inner_sym p (proj p D V) (proj p D U)).
    rewrite H2, H3, H4. ring. }
  (* 0 <= a_j <= 1 *)
  assert (Ha : forall j, (j < p)%nat -> 0 <= a j <= 1).
  { intros j Hj. unfold a. split.
    - apply sumn_nonneg. intros i _. unfold w. destruct (ind_cases D i) as [e|e]; rewrite e;
        [rewrite Rmult_1_l; apply Rle_0_sqr | lra].
    - rewrite <- (cross_cols p U V j HU HV Hj). apply sumn_le. intros i _. fold (w i j).
      assert (0 <= w i j) by (unfold w; apply Rle_0_sqr).
      destruct (ind_cases D i) as [e|e]; rewrite e; lra. }
  (* sum_j a_j = E *)
  assert (Hs : sumn p a = E).
  { unfold a. rewrite sumn_swap. unfold E. apply sumn_ext. intros i Hi.
    rewrite sumn_scal. unfold w. rewrite (cross_rows p U V i HU HV Hi). ring. }
  (* termwise: f_j ([j<D] - a_j) >= m [j<D] (1 - a_j) - m' (1 - [j<D]) a_j *)
  assert (Ht : sumn p (fun j => m * (ind D j * (1 - a j)) - m' * ((1 - ind D j) * a j))
               <= sumn p (fun j => f j * (ind D j - a j))).
  { apply sumn_le. intros j Hj. specialize (Ha j Hj).
    destruct (Nat.ltb_spec j D) as [HjD|HjD].
    - rewrite ind_lt by exact HjD. specialize (Hm j Hj HjD).
      assert (m * (1 - a j) <= f j * (1 - a j)) by (apply Rmult_le_compat_r; lra). lra.
    - rewrite ind_ge by exact HjD. specialize (Hm' j Hj HjD).
      assert (f j * a j <= m' * a j) by (apply Rmult_le_compat_r; lra). lra. }
  rewrite sumn_minus, !sumn_scal in Ht.
  rewrite (sumn_ext p (fun j => ind D j * (1 - a j)) (fun j => ind D j - ind D j * a j)) in Ht by (intros; ring).
  rewrite (sumn_ext p (fun j => (1 - ind D j) * a j) (fun j => a j - ind D j * a j)) in Ht by (intros; ring).
  rewrite (sumn_ext p (fun j => f j * (ind D j - a j)) (fun j => ind D j * f j - f j * a j)) in Ht by (intros; ring).
  rewrite !sumn_minus in Ht. fold E in Ht. rewrite Hs in Ht.
  change (sumn p (ind D)) with E in Ht.
  rewrite H5, H1, HF. lra.
Qed.

(* ------------------------------------------------------------------ Proposition 3.4 *)
Theorem zhou_prop_3_4 : forall p D (U V A C : nat -> nat -> R) (lam mu : nat -> R),
  (1 <= D)%nat -> (D < p)%nat ->
  orthogonal p U -> orthogonal p V ->
  (forall i j, (i <= j)%nat -> (j < p)%nat -> lam j <= lam i) ->
  (forall i j, (i <= j)%nat -> (j < p)%nat -> mu j <= mu i) ->
  (forall k l, (k < p)%nat -> (l < p)%nat -> A k l = spec p U lam k l) ->
  (forall k l, (k < p)%nat -> (l < p)%nat -> C k l = spec p V mu k l) ->
  ((lam (D - 1)%nat - lam D) / 2) * ((lam (D - 1)%nat - lam D) / 2)
    * fro2 p (fun k l => proj p D U k l - proj p D V k l)
    <= fro2 p (fun k l => C k l - A k l).
Proof.
  intros p D U V A C lam mu HD1 HDp HU HV Hlam Hmu HA HC.
  set (F := fro2 p (fun k l => proj p D U k l - proj p D V k l)).
  set (g := lam (D - 1)%nat - lam D).
  assert (HAi : forall Y, inner p A Y = inner p (spec p U lam) Y).
  { intros Y. unfold inner. apply sumn_ext. intros k Hk. apply sumn_ext. intros l Hl. rewrite HA by assumption. reflexivity. }
  assert (HCi : forall Y, inner p C Y = inner p (spec p V mu) Y).
  { intros Y. unfold inner. apply sumn_ext. intros k Hk. apply sumn_ext. intros l Hl. rewrite HC by assumption. reflexivity. }
  (* A: <A, P_U - P_V> >= g F / 2 *)
  assert (KA := key_trace_gap p D U V lam (lam (D - 1)%nat) (lam D) HU HV
                  ltac:(intros j Hj HjD; apply Hlam; lia) ltac:(intros j Hj HjD; apply Hlam; lia)).
  (* C: <C, P_V - P_U> >= (mu_{D-1} - mu_D) F / 2 >= 0 *)
  assert (KC := key_trace_gap p D V U mu (mu (D - 1)%nat) (mu D) HV HU
                  ltac:(intros j Hj HjD; apply Hmu; lia) ltac:(intros j Hj HjD; apply Hmu; lia)).
  assert (HFsym : fro2 p (fun k l => proj p D V k l - proj p D U k l) = F).
  { unfold F, fro2, inner. apply sumn_ext. intros. apply sumn_ext. intros. ring. }
  rewrite HFsym in KC.
  assert (Hmu0 : 0 <= mu (D - 1)%nat - mu D) by (assert (H := Hmu (D - 1)%nat D ltac:(lia) HDp); lra).
  assert (HF0 : 0 <= F) by apply fro2_nonneg.
  assert (Hg0 : 0 <= g) by (unfold g; assert (H := Hlam (D - 1)%nat D ltac:(lia) HDp); lra).
  assert (0 <= (mu (D - 1)%nat - mu D) * F / 2) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  (* <B, P_V - P_U> >= g F / 2 with B = C - A *)
  set (X := fun k l => C k l - A k l).
  set (Y := fun k l => proj p D V k l - proj p D U k l).
  assert (HB : inner p X Y = (inner p (spec p V mu) (proj p D V) - inner p (spec p V mu) (proj p D U))
                              + (inner p (spec p U lam) (proj p D U) - inner p (spec p U lam) (proj p D V))).
  { unfold X, Y. rewrite inner_minus_l, !inner_minus_r, !HAi, !HCi. ring. }
  assert (HXY : g * F / 2 <= inner p X Y) by (rewrite HB; fold F in KA; fold g in KA; lra).
  assert (HY : fro2 p Y = F) by exact HFsym.
  destruct (Req_dec g 0) as [Hg|Hg].
  - rewrite Hg. replace (0 / 2 * (0 / 2) * F) with 0 by field. apply fro2_nonneg.
  - assert (Hgp : 0 < g / 2) by lra.
    assert (Ham := inner_amgm p X Y (g / 2) Hgp). rewrite HY in Ham.
    fold g. fold F. fold X.
    (* g F <= 2 <X, Y> <= (g/2) F + ||X||^2 / (g/2) *)
    assert (Hk : g / 2 * F <= / (g / 2) * fro2 p X) by lra.
    apply Rmult_le_compat_l with (r := g / 2) in Hk; [|lra].
    replace (g / 2 * (/ (g / 2) * fro2 p X)) with (fro2 p X) in Hk by (field; lra).
    lra.
Qed.
