(* zhou-compression Lemma 3.3 and Proposition 3.1 (8), for every dimension p, under the Rayleigh
   definitions of lambda_min and ||.||_2.

   Vectors and p x p matrices are functions on the indices 0 .. p-1; sums are finite (FiniteSums.sumn).
   The paper's quantities are used through their variational (Rayleigh) definitions, which need no
   spectral theorem:
   - lambda_min(S) is the largest a with x^T S x >= a |x|^2 for every x (is_lmin below);
   - ||D||_2 (D symmetric) is the least b with |x^T D x| <= b |x|^2 for every x (is_opnorm below).
   Lemma 3.3: with Sigma_j = Sigma_1 - Delta, lambda_min(Sigma_j) >= lambda_min(Sigma_1) - ||Delta||_2
   (zhou_lemma_3_3: every a, d with the two quadratic-form bounds give the bound a - d for Sigma_j;
   zhou_lemma_3_3_lmin: the Rayleigh lambda_min of Sigma_j is then >= lambda_min(Sigma_1) - ||Delta||_2).
   The hypothesis ||Delta||_2 < lambda_min(Sigma_1) of the paper is not needed for the inequality.
   Proposition 3.1 (8): with Sigma_j Theta_j = I and Theta_1 Sigma_1 = I (Theta = Sigma^-1), Sigma_1
   symmetric, Gamma = Theta_j - Theta_1 and Delta = Sigma_1 - Sigma_j,
   ||Gamma||_F^2 (l_1 l_j)^2 <= ||Delta||_F^2 for every l_1, l_j > 0 that satisfy the Rayleigh bounds
   of Sigma_1 and Sigma_j (in particular their lambda_min): ||Gamma||_F <= ||Delta||_F/(l_1 l_j).
   The route is the paper's (Gamma = Sigma_j^-1 Delta Sigma_1^-1, then ||S^-1 y|| <= ||y||/l per column
   and per row); the Cauchy-Schwarz step is replaced by 2 x.y <= l |x|^2 + |y|^2/l.
   zhou_prop_3_1 states (7) and (8) together: the claim's conclusion, in squared form (both sides of
   each inequality are nonnegative). Not in Coq: that lambda_min and ||.||_2 are the eigenvalue
   quantities of the spectral theorem (the statement uses the Rayleigh definitions above). *)
Require Import Reals Lra Lia.
From DPVerify Require Import ZhouWeyl.
Open Scope R_scope.

(* ------------------------------------------------------------------ Lemma 3.3 *)
Definition is_lmin (p : nat) (S : nat -> nat -> R) (l : R) : Prop :=
  (forall x, quad p S x >= l * sq p x) /\
  (forall a, (forall x, quad p S x >= a * sq p x) -> a <= l).

Definition is_opnorm (p : nat) (D : nat -> nat -> R) (b : R) : Prop :=
  (forall x, Rabs (quad p D x) <= b * sq p x) /\
  (forall c, (forall x, Rabs (quad p D x) <= c * sq p x) -> b <= c).

Theorem zhou_lemma_3_3 : forall (p : nat) (S1 D : nat -> nat -> R) (l1 d : R),
  (forall x, quad p S1 x >= l1 * sq p x) ->
  (forall x, Rabs (quad p D x) <= d * sq p x) ->
  forall x, quad p (fun i j => S1 i j - D i j) x >= (l1 - d) * sq p x.
Proof.
  intros p S1 D l1 d HS HD x. rewrite quad_minus.
  specialize (HS x). specialize (HD x).
  assert (quad p D x <= Rabs (quad p D x)) by apply RRle_abs.
  lra.
Qed.

Theorem zhou_lemma_3_3_lmin : forall (p : nat) (S1 D : nat -> nat -> R) (l1 d lj : R),
  is_lmin p S1 l1 -> is_opnorm p D d -> is_lmin p (fun i j => S1 i j - D i j) lj ->
  lj >= l1 - d.
Proof.
  intros p S1 D l1 d lj [HS _] [HD _] [_ Hmax].
  apply Rle_ge. apply Hmax. apply zhou_lemma_3_3; assumption.
Qed.

(* ------------------------------------------------------------------ finite sums *)
Definition kron (i k : nat) : R := if Nat.eq_dec i k then 1 else 0.

Lemma sumn_kron_r : forall p (f : nat -> R) k, (k < p)%nat -> sumn p (fun j => f j * kron j k) = f k.
Proof.
  induction p as [|q IH]; intros f k Hk; [lia|]. simpl.
  destruct (Nat.eq_dec q k) as [Heq|Hne].
  - subst q. rewrite sumn_zero.
    + unfold kron. destruct (Nat.eq_dec k k) as [_|C]; [ring|exfalso; apply C; reflexivity].
    + intros i Hi. unfold kron. destruct (Nat.eq_dec i k) as [E|_]; [exfalso; lia|ring].
  - rewrite IH by lia. unfold kron. destruct (Nat.eq_dec q k) as [E|_]; [exfalso; apply Hne; exact E|ring].
Qed.

Lemma sumn_kron_l : forall p (f : nat -> R) i, (i < p)%nat -> sumn p (fun l => kron i l * f l) = f i.
Proof.
  intros p f i Hi.
  rewrite (sumn_ext p _ (fun l => f l * kron l i)).
  - apply sumn_kron_r. exact Hi.
  - intros l _. unfold kron. destruct (Nat.eq_dec i l), (Nat.eq_dec l i); subst; try lia; ring.
Qed.

Definition dot (p : nat) (x y : nat -> R) : R := sumn p (fun i => x i * y i).
Definition mul (p : nat) (A B : nat -> nat -> R) (i k : nat) : R := sumn p (fun j => A i j * B j k).
Definition frob2 (p : nat) (A : nat -> nat -> R) : R := sumn p (fun i => sumn p (fun j => A i j * A i j)).

(* 2 x.y <= l |x|^2 + |y|^2 / l for l > 0 (termwise: (l x_i - y_i)^2 / l >= 0) *)
Lemma dot_amgm : forall p x y l, 0 < l -> 2 * dot p x y <= l * sq p x + / l * sq p y.
Proof.
  intros p x y l Hl. unfold dot, sq.
  rewrite <- !sumn_scal, <- sumn_plus.
  apply sumn_le. intros i _.
  assert (H : l * (x i * x i) + / l * (y i * y i) - 2 * (x i * y i) = / l * ((l * x i - y i) * (l * x i - y i)))
    by (field; lra).
  assert (0 <= / l * ((l * x i - y i) * (l * x i - y i)))
    by (apply Rmult_le_pos; [left; apply Rinv_0_lt_compat; exact Hl | apply Rle_0_sqr]).
  lra.
Qed.

(* S x = y and x^T S x >= l |x|^2 (l > 0) give l^2 |x|^2 <= |y|^2, i.e. ||S^-1 y|| <= ||y|| / l *)
Lemma inverse_bound : forall p (S : nat -> nat -> R) (l : R) (x y : nat -> R),
  0 < l -> (forall z, quad p S z >= l * sq p z) ->
  (forall i, (i < p)%nat -> sumn p (fun j => S i j * x j) = y i) ->
  l * l * sq p x <= sq p y.
Proof.
  intros p S l x y Hl HS Hxy.
  assert (Hq : quad p S x = dot p x y).
  { unfold quad, dot. apply sumn_ext. intros i Hi. rewrite Hxy by exact Hi. reflexivity. }
  specialize (HS x). rewrite Hq in HS.
  pose proof (dot_amgm p x y l Hl) as Ham.
  assert (Hs : l * sq p x <= / l * sq p y) by lra.
  apply Rmult_le_compat_l with (r := l) in Hs; [|lra].
  replace (l * (/ l * sq p y)) with (sq p y) in Hs by (field; lra).
  lra.
Qed.

(* ------------------------------------------------------------------ Proposition 3.1 (8) *)
Theorem zhou_prop_3_1_inverse : forall (p : nat) (S1 Sj T1 Tj : nat -> nat -> R) (l1 lj : R),
  0 < l1 -> 0 < lj ->
  (forall x, quad p S1 x >= l1 * sq p x) ->
  (forall x, quad p Sj x >= lj * sq p x) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p Sj Tj i k = kron i k) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p T1 S1 i k = kron i k) ->
  frob2 p (fun i j => Tj i j - T1 i j) * ((l1 * lj) * (l1 * lj))
    <= frob2 p (fun i j => S1 i j - Sj i j).
Proof.
  intros p S1 Sj T1 Tj l1 lj H1 Hj HS1 HSj Hsym HinvJ Hinv1.
  set (G := fun i j => Tj i j - T1 i j).
  set (N := fun i k => mul p G S1 i k).
  (* N = Tj S1 - I *)
  assert (HN : forall i k, (i < p)%nat -> (k < p)%nat -> N i k = mul p Tj S1 i k - kron i k).
  { intros i k Hi Hk. unfold N, G, mul.
    rewrite (sumn_ext p _ (fun j => Tj i j * S1 j k - T1 i j * S1 j k)) by (intros; ring).
    rewrite sumn_minus. fold (mul p T1 S1 i k). rewrite Hinv1 by assumption. reflexivity. }
  (* Sj N = S1 - Sj (= Delta), column by column *)
  assert (HD : forall k, (k < p)%nat -> forall i, (i < p)%nat ->
            sumn p (fun j => Sj i j * N j k) = S1 i k - Sj i k).
  { intros k Hk i Hi.
    rewrite (sumn_ext p _ (fun j => Sj i j * mul p Tj S1 j k - Sj i j * kron j k))
      by (intros j Hjp; rewrite HN by assumption; ring).
    rewrite sumn_minus. rewrite sumn_kron_r by exact Hk.
    assert (Hassoc : sumn p (fun j => Sj i j * mul p Tj S1 j k) = sumn p (fun l => mul p Sj Tj i l * S1 l k)).
    { unfold mul.
      rewrite (sumn_ext p _ (fun j => sumn p (fun l => Sj i j * Tj j l * S1 l k)))
        by (intros j _; rewrite <- sumn_scal; apply sumn_ext; intros; ring).
      rewrite sumn_swap. apply sumn_ext. intros l _.
      rewrite <- (Rmult_comm (S1 l k)), <- sumn_scal. apply sumn_ext. intros; ring. }
    rewrite Hassoc.
    rewrite (sumn_ext p _ (fun l => kron i l * S1 l k)) by (intros l Hl; rewrite HinvJ by assumption; reflexivity).
    rewrite sumn_kron_l by exact Hi. reflexivity. }
  (* columns: lj^2 |N_{:,k}|^2 <= |Delta_{:,k}|^2 *)
  assert (Hcol : forall k, (k < p)%nat ->
            lj * lj * sq p (fun j => N j k) <= sq p (fun i => S1 i k - Sj i k)).
  { intros k Hk. apply (inverse_bound p Sj lj); [exact Hj | exact HSj |].
    intros i Hi. apply HD; assumption. }
  (* rows: S1 (row i of G) = row i of N, by the symmetry of S1; l1^2 |G_{i,:}|^2 <= |N_{i,:}|^2 *)
  assert (Hrow : forall i, (i < p)%nat -> l1 * l1 * sq p (fun j => G i j) <= sq p (fun k => N i k)).
  { intros i Hi. apply (inverse_bound p S1 l1); [exact H1 | exact HS1 |].
    intros k Hk. unfold N, mul. apply sumn_ext. intros j Hjp. rewrite Hsym by assumption. ring. }
  (* sum the rows and the columns *)
  assert (HG : l1 * l1 * frob2 p G <= frob2 p N).
  { unfold frob2. rewrite <- sumn_scal. apply sumn_le. intros i Hi.
    specialize (Hrow i Hi). unfold sq in Hrow. exact Hrow. }
  assert (HNcol : lj * lj * frob2 p N <= frob2 p (fun i j => S1 i j - Sj i j)).
  { unfold frob2.
    rewrite (sumn_swap p p (fun i j => N i j * N i j)).
    rewrite (sumn_swap p p (fun i j => (S1 i j - Sj i j) * (S1 i j - Sj i j))).
    rewrite <- sumn_scal. apply sumn_le. intros k Hk.
    specialize (Hcol k Hk). unfold sq in Hcol. exact Hcol. }
  assert (0 <= lj * lj) by (apply Rle_0_sqr).
  assert (Hm : lj * lj * (l1 * l1 * frob2 p G) <= lj * lj * frob2 p N) by (apply Rmult_le_compat_l; assumption).
  fold G. nra.
Qed.

(* Proposition 3.1: (7) ||Delta||_F^2 <= (p Delta_max)^2 and (8) ||Gamma||_F^2 (l_1 l_j)^2 <= ||Delta||_F^2 *)
Theorem zhou_prop_3_1 : forall (p : nat) (S1 Sj T1 Tj : nat -> nat -> R) (l1 lj M : R),
  0 < l1 -> 0 < lj ->
  (forall x, quad p S1 x >= l1 * sq p x) ->
  (forall x, quad p Sj x >= lj * sq p x) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p Sj Tj i k = kron i k) ->
  (forall i k, (i < p)%nat -> (k < p)%nat -> mul p T1 S1 i k = kron i k) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> Rabs (S1 i j - Sj i j) <= M) ->
  frob2 p (fun i j => S1 i j - Sj i j) <= (INR p * M) * (INR p * M) /\
  frob2 p (fun i j => Tj i j - T1 i j) * ((l1 * lj) * (l1 * lj))
    <= frob2 p (fun i j => S1 i j - Sj i j).
Proof.
  intros p S1 Sj T1 Tj l1 lj M H1 Hj HS1 HSj Hsym HinvJ Hinv1 HM. split.
  - unfold frob2. apply (zhou_frobenius_entry_bound p (fun i j => S1 i j - Sj i j) M). exact HM.
  - apply zhou_prop_3_1_inverse; assumption.
Qed.
