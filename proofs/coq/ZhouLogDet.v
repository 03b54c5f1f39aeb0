(* zhou-compression Proposition C.1 and Lemma C.2, for every dimension p.

   Vectors and p x p matrices are functions on the indices 0 .. p-1; sums are finite (FiniteSums.sumn); mul, kron
   (the identity) and frob2 are those of ZhouRayleigh.v, quad (x^T A x) and sq (|x|^2) those of ZhouWeyl.v; meq p A B:
   A and B agree on the indices below p. The statement's matrices: Theta_1 = T1, Theta_2 = T2, Sigma_1 = S1,
   Sigma_2 = S2 with Theta_1 Sigma_1 = I and Theta_2 Sigma_2 = I, Gamma = Theta_2 - Theta_1.

   Hypotheses (decompositions of the statement's matrices, and the determinant):
   - a congruence diagonalisation of the pair (Theta_1, Gamma): an invertible M (Mi M = M Mi = I) and reals d_k with
     Theta_1 = M M^T and Gamma = M diag(d) M^T. Every such pair with Theta_1 positive definite has one: M = L Q with
     L the symmetric square root of Theta_1 and Q an orthonormal eigenbasis of L^-1 Gamma L^-1 (d its eigenvalues);
     that existence (the spectral theorem) is not in this file. Theta_1 = M M^T with M invertible is positive
     definite.
   - Theta_2 positive definite: x^T Theta_2 x > 0 for every x != 0 (it gives 1 + d_k > 0: d_gt_m1).
   - B(v), 0 <= v <= 1: ANY matrix with (Theta_1 + v Gamma) B(v) = I (the statement's inverse); it is proved equal
     to Mi^T diag(1/(1 + v d)) Mi (spec_inverse).
   - det: Coq's standard library has no determinant for general p; det is any function of p x p matrices with
     (H_mul) det (A B) = det A det B, (H_diag) det (diag f) = prod_{i<p} f_i, (H_tp) det (A^T) = det A and
     (H_ext) det A depends only on the entries i, j < p. The real determinant has all four (multiplicativity, a
     diagonal matrix's determinant is the product of its diagonal, invariance under transposition, and the Leibniz
     formula reads only the p x p entries).

   A: the paper's A = vec(Gamma)^T [int_0^1 (1 - v) B(v) (x) B(v) dv] vec(Gamma) is, by linearity of the integral,
   the integral of the scalar (1 - v) vec(Gamma)^T (B(v) (x) B(v)) vec(Gamma); with vec stacking the columns,
   vec(G)^T (B (x) B) vec(G) = sum_ijkl G_ij B_ik B_jl G_kl (kronsum). A is Coquelicot's RInt of it over [0, 1].

   Proposition C.1 (zhou_prop_c_1): det Sigma_1 > 0, det Sigma_2 > 0, the integral exists (ex_RInt) and
   ln det Sigma_2 - ln det Sigma_1 = A - tr(Gamma Sigma_1). Route: det(Theta_1 + v Gamma) = det(M)^2 prod(1 + v d_k),
   tr(Gamma Sigma_1) = sum_k d_k, vec(G)^T (B (x) B) vec(G) = sum_k d_k^2/(1 + v d_k)^2, and
   int_0^1 (1 - v) d^2/(1 + v d)^2 dv = d - ln(1 + d) for d > -1 (antiderivative -(1 + d)/(1 + v d) - ln(1 + v d),
   is_RInt_derive). zhou_prop_c_1_explicit adds 1 + d_k > 0, A = sum_k (d_k - ln(1 + d_k)) and tr(Gamma Sigma_1) =
   sum_k d_k. Only Theta_1, Theta_2 positive definite are used (no smallness of Gamma).

   Lemma C.2 (zhou_lemma_c_2), under the Rayleigh definitions of lambda_min and ||.||_2: for every l > 0 with
   x^T Sigma_1 x >= l |x|^2 for all x (lambda_min(Sigma_1) is the largest such l, and the lower bound increases with l),
   every s, g with |x^T Sigma_1 x| <= s |x|^2 and |x^T Gamma x| <= g |x|^2 for all x (s = ||Sigma_1||_2, g = ||Gamma||_2
   are the least such bounds), and s g < 1:
     ||Gamma||_F^2 l^2 / (2 (1 + l g)^2) <= A <= ||Gamma||_F^2 s^2 / (2 (1 - s g)^2),
   the paper's "2 - o(1)" read as 2 (1 - ||Sigma_1||_2 ||Gamma||_2)^2 (the lower bound needs no s g < 1).
   Upper route (zhou_c1_c2): |d_k| <= s g (d_k = y^T Gamma y for y the k-th row of Mi, and |y|^2 <= s),
   sum_k d_k^2 = ||Mi Gamma Mi^T||_F^2 <= s^2 ||Gamma||_F^2 (column by column: |Mi z|^2 = z^T Sigma_1 z), and
   0 <= d - ln(1 + d) <= d^2/(2 (1 - c)^2) for |d| <= c < 1 (the integrand is <= (1 - v) d^2/(1 - c)^2).
   Lower route (the paper's; zhou_lemma_c_2_lower): with R = M diag(sqrt(1 + v d)), Theta_1 + v Gamma = R R^T and
   Gamma = R K R^T, K = diag(d/(1 + v d)); |R^T x|^2 = x^T (Theta_1 + v Gamma) x <= (1/l + v g) |x|^2 (x^T Theta_1 x <=
   |x|^2/l from the Rayleigh bound of Sigma_1 and 2 x.z <= |x|^2/l + l |z|^2), so |R y|^2 <= (1/l + v g) |y|^2, then
   ||Gamma||_F^2 <= (1/l + v g)^2 ||K||_F^2 column by column, and ||K||_F^2 = vec(G)^T (B (x) B) vec(G); integrating
   (1 - v) gives ||Gamma||_F^2 / (2 (1/l + g)^2).
   zhou_c1_c2 states C.1's identity, A = sum_k (d_k - ln(1 + d_k)), 0 <= A and the upper bound together (the form
   Theorem 4.6 uses). Coquelicot (integrals, derivatives) and the standard library; classical reals only. *)
From Coq Require Import Reals Lra Lia Classical.
From Coquelicot Require Import Coquelicot.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh.
Open Scope R_scope.

Lemma pos_line : forall d v, -1 < d -> 0 <= v <= 1 -> 0 < 1 + v * d.
Proof. intros d v Hd Hv. destruct (Rle_lt_dec 0 d); nra. Qed.

Definition kernel (d v : R) : R := (1 - v) * (d * d / ((1 + v * d) * (1 + v * d))).
Definition prim (d v : R) : R := - (1 + d) / (1 + v * d) - ln (1 + v * d).

Lemma scalar_integral : forall d, -1 < d -> is_RInt (kernel d) 0 1 (d - ln (1 + d)).
Proof.
  intros d Hd.
  replace (d - ln (1 + d)) with (minus (prim d 1) (prim d 0)).
  2: { unfold minus, plus, opp, prim; simpl. rewrite !Rmult_0_l, !Rmult_1_l, Rplus_0_r, ln_1.
       field. lra. }
  apply (is_RInt_derive (prim d) (kernel d) 0 1).
  - intros x Hx. rewrite Rmin_left, Rmax_right in Hx by lra.
    pose proof (pos_line d x Hd Hx) as Hp.
    unfold prim, kernel. auto_derive.
    + lra.
    + field. lra.
  - intros x Hx. rewrite Rmin_left, Rmax_right in Hx by lra.
    pose proof (pos_line d x Hd Hx) as Hp.
    apply (ex_derive_continuous (kernel d)). unfold kernel. auto_derive. nra.
Qed.

(* finite sums of integrals *)
Lemma sum_integral : forall p (f : nat -> R -> R) (I : nat -> R),
  (forall k, (k < p)%nat -> is_RInt (f k) 0 1 (I k)) ->
  is_RInt (fun v => sumn p (fun k => f k v)) 0 1 (sumn p I).
Proof.
  induction p as [|q IH]; intros f I H; simpl.
  - apply (is_RInt_ext (fun _ => 0)). { intros; reflexivity. }
    replace 0 with (scal (1 - 0) 0) at 2 by (unfold scal; simpl; unfold mult; simpl; ring).
    apply (is_RInt_const 0 1 0).
  - apply (is_RInt_plus (fun v => sumn q (fun k => f k v)) (f q)).
    + apply IH. intros k Hk. apply H. lia.
    + apply H. lia.
Qed.

Definition mat := nat -> nat -> R.
Definition meq (p : nat) (A B : mat) : Prop := forall i j, (i < p)%nat -> (j < p)%nat -> A i j = B i j.
Definition spec (p : nat) (M : mat) (f : nat -> R) : mat := fun i j => sumn p (fun k => f k * (M i k * M j k)).
Definition cospec (p : nat) (N : mat) (g : nat -> R) : mat := fun i j => sumn p (fun k => g k * (N k i * N k j)).
Definition mixed (p : nat) (M N : mat) (h : nat -> R) : mat := fun i j => sumn p (fun k => h k * (M i k * N k j)).

Lemma kron_sym : forall i j, kron i j = kron j i.
Proof. intros i j. unfold kron. destruct (Nat.eq_dec i j), (Nat.eq_dec j i); subst; try lia; reflexivity. Qed.

Lemma kron_same : forall i, kron i i = 1.
Proof. intros i. unfold kron. destruct (Nat.eq_dec i i); [reflexivity|lia]. Qed.

Lemma sumn_mul_sumn : forall p q (a b : nat -> R),
  sumn p a * sumn q b = sumn p (fun k => sumn q (fun l => a k * b l)).
Proof.
  intros p q a b. rewrite Rmult_comm, <- (sumn_scal p (sumn q b) a). apply sumn_ext. intros k _.
  rewrite Rmult_comm, <- (sumn_scal q (a k) b). apply sumn_ext. intros; ring.
Qed.

(* the contraction sum_j X_lj Y_jk = kron l k collapses a triple sum *)
Lemma collapseA : forall p (X Y : mat) (F : nat -> nat -> R), meq p (mul p X Y) kron ->
  sumn p (fun j => sumn p (fun k => sumn p (fun l => F k l * (X l j * Y j k)))) = sumn p (fun k => F k k).
Proof.
  intros p X Y F H.
  rewrite (sumn_swap p p (fun j k => sumn p (fun l => F k l * (X l j * Y j k)))).
  apply sumn_ext. intros k Hk.
  rewrite (sumn_swap p p (fun j l => F k l * (X l j * Y j k))).
  rewrite (sumn_ext p _ (fun l => F k l * kron l k)).
  - apply sumn_kron_r. exact Hk.
  - intros l Hl. rewrite <- (H l k Hl Hk). unfold mul. rewrite <- (sumn_scal p (F k l)). reflexivity.
Qed.

Lemma collapseB : forall p (X Y : mat) (F : nat -> nat -> R), meq p (mul p X Y) kron ->
  sumn p (fun j => sumn p (fun k => sumn p (fun l => F k l * (X k j * Y j l)))) = sumn p (fun k => F k k).
Proof.
  intros p X Y F H.
  rewrite (sumn_swap p p (fun j k => sumn p (fun l => F k l * (X k j * Y j l)))).
  apply sumn_ext. intros k Hk.
  rewrite (sumn_swap p p (fun j l => F k l * (X k j * Y j l))).
  rewrite (sumn_ext p _ (fun l => F k l * kron k l)).
  - rewrite (sumn_ext p _ (fun l => F k l * kron l k)) by (intros; rewrite kron_sym; reflexivity).
    apply sumn_kron_r. exact Hk.
  - intros l Hl. rewrite <- (H k l Hk Hl). unfold mul. rewrite <- (sumn_scal p (F k l)). reflexivity.
Qed.

Section Congruence.
Variable p : nat.
Variables M Mi : mat.
Hypothesis HMiM : meq p (mul p Mi M) kron.
Hypothesis HMMi : meq p (mul p M Mi) kron.

Lemma sandwich1 : forall f g i m, mul p (spec p M f) (cospec p Mi g) i m = mixed p M Mi (fun k => f k * g k) i m.
Proof.
  intros f g i m. unfold mul, spec, cospec, mixed.
  rewrite (sumn_ext p _ (fun j => sumn p (fun k => sumn p (fun l =>
            (f k * M i k * (g l * Mi l m)) * (Mi l j * M j k))))).
  - rewrite collapseA by exact HMiM. apply sumn_ext. intros; ring.
  - intros j _. rewrite sumn_mul_sumn. apply sumn_ext. intros k _. apply sumn_ext. intros l _. ring.
Qed.

Lemma sandwich2 : forall f g i m, mul p (cospec p Mi g) (spec p M f) i m = mixed p M Mi (fun k => g k * f k) m i.
Proof.
  intros f g i m. unfold mul, spec, cospec, mixed.
  rewrite (sumn_ext p _ (fun j => sumn p (fun k => sumn p (fun l =>
            (g k * Mi k i * (f l * M m l)) * (Mi k j * M j l))))).
  - rewrite collapseB by exact HMiM. apply sumn_ext. intros; ring.
  - intros j _. rewrite sumn_mul_sumn. apply sumn_ext. intros k _. apply sumn_ext. intros l _. ring.
Qed.

Lemma sandwich3 : forall h f i m, mul p (mixed p M Mi h) (spec p M f) i m = spec p M (fun k => h k * f k) i m.
Proof.
  intros h f i m. unfold mul, spec, mixed.
  rewrite (sumn_ext p _ (fun j => sumn p (fun k => sumn p (fun l =>
            (h k * M i k * (f l * M m l)) * (Mi k j * M j l))))).
  - rewrite collapseB by exact HMiM. apply sumn_ext. intros; ring.
  - intros j _. rewrite sumn_mul_sumn. apply sumn_ext. intros k _. apply sumn_ext. intros l _. ring.
Qed.

Lemma mixed_one : forall i m, (i < p)%nat -> (m < p)%nat -> mixed p M Mi (fun _ => 1) i m = kron i m.
Proof.
  intros i m Hi Hm. unfold mixed. rewrite <- (HMMi i m Hi Hm). unfold mul. apply sumn_ext. intros; ring.
Qed.

Lemma trace_mixed : forall h, sumn p (fun i => mixed p M Mi h i i) = sumn p h.
Proof.
  intros h. unfold mixed.
  rewrite (sumn_swap p p (fun i k => h k * (M i k * Mi k i))).
  apply sumn_ext. intros k Hk.
  rewrite (sumn_ext p _ (fun i => h k * (Mi k i * M i k))) by (intros; ring).
  rewrite (sumn_scal p (h k) (fun i => Mi k i * M i k)). change (sumn p (fun i => Mi k i * M i k)) with (mul p Mi M k k).
  rewrite HMiM by exact Hk. rewrite kron_same. ring.
Qed.
End Congruence.

Lemma mul_assoc : forall p (A B C : mat) i k, mul p (mul p A B) C i k = mul p A (mul p B C) i k.
Proof.
  intros p A B C i k. unfold mul.
  rewrite (sumn_ext p _ (fun l => sumn p (fun j => A i j * B j l * C l k)))
    by (intros l _; rewrite Rmult_comm, <- (sumn_scal p (C l k)); apply sumn_ext; intros; ring).
  rewrite (sumn_swap p p (fun l j => A i j * B j l * C l k)).
  apply sumn_ext. intros j _. rewrite <- (sumn_scal p (A i j)). apply sumn_ext. intros; ring.
Qed.

Lemma mul_meq_l : forall p A A' B, meq p A A' -> meq p (mul p A B) (mul p A' B).
Proof. intros p A A' B H i k Hi Hk. unfold mul. apply sumn_ext. intros j Hj. rewrite H by assumption. reflexivity. Qed.

Lemma mul_meq_r : forall p A B B', meq p B B' -> meq p (mul p A B) (mul p A B').
Proof. intros p A B B' H i k Hi Hk. unfold mul. apply sumn_ext. intros j Hj. rewrite H by assumption. reflexivity. Qed.

Lemma mul_kron_l : forall p A i k, (i < p)%nat -> mul p kron A i k = A i k.
Proof. intros p A i k Hi. unfold mul. exact (sumn_kron_l p (fun j => A j k) i Hi). Qed.

Lemma mul_kron_r : forall p A i k, (k < p)%nat -> mul p A kron i k = A i k.
Proof. intros p A i k Hk. unfold mul. exact (sumn_kron_r p (fun j => A i j) k Hk). Qed.

(* a left inverse X and a right inverse S of T agree *)
Lemma inverse_unique : forall p (X T S : mat), meq p (mul p X T) kron -> meq p (mul p T S) kron -> meq p S X.
Proof.
  intros p X T S HX HS i k Hi Hk.
  rewrite <- (mul_kron_l p S i k Hi).
  rewrite <- (mul_meq_l p _ _ S HX i k Hi Hk).
  rewrite mul_assoc.
  rewrite (mul_meq_r p X _ _ HS i k Hi Hk).
  apply mul_kron_r. exact Hk.
Qed.

Section Congruence2.
Variable p : nat.
Variables M Mi : mat.
Hypothesis HMiM : meq p (mul p Mi M) kron.
Hypothesis HMMi : meq p (mul p M Mi) kron.

(* every right inverse S of a matrix T = M diag(f) M^T (f nonzero) is Mi^T diag(1/f) Mi *)
Lemma spec_inverse : forall (f : nat -> R) (T S : mat), (forall k, (k < p)%nat -> f k <> 0) ->
  meq p T (spec p M f) -> meq p (mul p T S) kron -> meq p S (cospec p Mi (fun k => / f k)).
Proof.
  intros f T S Hf HT HS.
  apply (inverse_unique p _ T S); [|exact HS].
  intros i m Hi Hm.
  rewrite (mul_meq_r p _ _ _ HT i m Hi Hm).
  rewrite (sandwich2 p M Mi HMiM).
  rewrite kron_sym, <- (mixed_one p M Mi HMMi m i Hm Hi). unfold mixed.
  apply sumn_ext. intros k Hk. field. apply Hf. exact Hk.
Qed.

(* tr(Gamma S) with Gamma = M diag(d) M^T and S = Mi^T Mi *)
Lemma trace_congruence : forall (d : nat -> R) (G S : mat),
  meq p G (spec p M d) -> meq p S (cospec p Mi (fun _ => 1)) ->
  sumn p (fun i => mul p G S i i) = sumn p d.
Proof.
  intros d G S HG HS.
  rewrite (sumn_ext p _ (fun i => mixed p M Mi (fun k => d k * 1) i i)).
  - rewrite (trace_mixed p M Mi HMiM). apply sumn_ext. intros; ring.
  - intros i Hi. rewrite (mul_meq_l p _ _ S HG i i Hi Hi), (mul_meq_r p _ _ _ HS i i Hi Hi).
    apply (sandwich1 p M Mi HMiM).
Qed.
End Congruence2.

(* vec(G)^T (B (x) B) vec(G), vec stacking the columns: sum_ijkl G_ij B_ik B_jl G_kl *)
Definition kronsum (p : nat) (G B : mat) : R :=
  sumn p (fun i => sumn p (fun j => sumn p (fun k => sumn p (fun l => G i j * B i k * B j l * G k l)))).

Lemma kronsum_mul : forall p (G B : mat), (forall k l, (k < p)%nat -> (l < p)%nat -> G k l = G l k) ->
  kronsum p G B = sumn p (fun i => sumn p (fun k => B i k * mul p (mul p G B) G i k)).
Proof.
  intros p G B Hsym. unfold kronsum. apply sumn_ext. intros i Hi.
  rewrite (sumn_swap p p (fun j k => sumn p (fun l => G i j * B i k * B j l * G k l))).
  apply sumn_ext. intros k Hk.
  rewrite (sumn_swap p p (fun j l => G i j * B i k * B j l * G k l)).
  unfold mul. rewrite <- (sumn_scal p (B i k)). apply sumn_ext. intros l Hl.
  transitivity (sumn p (fun j => (B i k * G l k) * (G i j * B j l))).
  { apply sumn_ext. intros j Hj. rewrite (Hsym k l Hk Hl). ring. }
  rewrite (sumn_scal p (B i k * G l k) (fun j => G i j * B j l)). ring.
Qed.

Lemma spec_sym : forall p M f i j, spec p M f i j = spec p M f j i.
Proof. intros. unfold spec. apply sumn_ext. intros; ring. Qed.

Section Congruence3.
Variable p : nat.
Variables M Mi : mat.
Hypothesis HMiM : meq p (mul p Mi M) kron.
Hypothesis HMMi : meq p (mul p M Mi) kron.

Lemma kronsum_congruence : forall (d e : nat -> R) (G B : mat),
  meq p G (spec p M d) -> meq p B (cospec p Mi e) ->
  kronsum p G B = sumn p (fun k => e k * (d k * e k * d k)).
Proof.
  intros d e G B HG HB.
  rewrite kronsum_mul by (intros k l Hk Hl; rewrite (HG k l Hk Hl), (HG l k Hl Hk); apply spec_sym).
  rewrite (sumn_ext p _ (fun i => sumn p (fun k => cospec p Mi e i k * spec p M (fun k => d k * e k * d k) k i))).
  - rewrite (sumn_ext p _ (fun i => mixed p M Mi (fun k => e k * (d k * e k * d k)) i i)).
    + apply (trace_mixed p M Mi HMiM).
    + intros i Hi. rewrite <- (sandwich2 p M Mi HMiM). reflexivity.
  - intros i Hi. apply sumn_ext. intros k Hk.
    rewrite (HB i k Hi Hk), spec_sym. f_equal.
    rewrite (mul_meq_r p _ _ _ HG i k Hi Hk).
    assert (HGB : meq p (mul p G B) (mul p (spec p M d) (cospec p Mi e))).
    { intros a b Ha Hb. rewrite (mul_meq_l p _ _ B HG a b Ha Hb). apply (mul_meq_r p _ _ _ HB a b Ha Hb). }
    rewrite (mul_meq_l p _ _ _ HGB i k Hi Hk).
    rewrite (mul_meq_l p _ (mixed p M Mi (fun k => d k * e k)) _
               (fun a b _ _ => sandwich1 p M Mi HMiM d e a b) i k Hi Hk).
    rewrite (sandwich3 p M Mi HMiM). reflexivity.
Qed.
End Congruence3.

Fixpoint prodn (p : nat) (f : nat -> R) : R := match p with O => 1 | S k => prodn k f * f k end.
Definition diagm (f : nat -> R) : mat := fun i j => kron i j * f i.
Definition tp (A : mat) : mat := fun i j => A j i.

Lemma prodn_pos : forall p f, (forall k, (k < p)%nat -> 0 < f k) -> 0 < prodn p f.
Proof.
  induction p as [|q IH]; intros f H; simpl; [lra|].
  apply Rmult_lt_0_compat; [apply IH; intros; apply H; lia | apply H; lia].
Qed.

Lemma ln_prodn : forall p f, (forall k, (k < p)%nat -> 0 < f k) -> ln (prodn p f) = sumn p (fun k => ln (f k)).
Proof.
  induction p as [|q IH]; intros f H; simpl; [apply ln_1|].
  rewrite ln_mult; [rewrite IH; [reflexivity|intros; apply H; lia] | apply prodn_pos; intros; apply H; lia | apply H; lia].
Qed.

Lemma prodn_one : forall p, prodn p (fun _ => 1) = 1.
Proof. induction p as [|q IH]; simpl; [reflexivity|]. rewrite IH. ring. Qed.

Lemma spec_plus : forall p M f g i j, spec p M f i j + spec p M g i j = spec p M (fun k => f k + g k) i j.
Proof. intros. unfold spec. rewrite <- sumn_plus. apply sumn_ext. intros; ring. Qed.

Lemma spec_factor : forall p M f, meq p (spec p M f) (mul p (mul p M (diagm f)) (tp M)).
Proof.
  intros p M f i j Hi Hj. unfold mul at 1. unfold spec. apply sumn_ext. intros k Hk.
  unfold tp. replace (mul p M (diagm f) i k) with (M i k * f k); [ring|].
  unfold mul, diagm.
  rewrite (sumn_ext p _ (fun l => (M i l * f l) * kron l k)) by (intros; ring).
  symmetry. exact (sumn_kron_r p (fun l => M i l * f l) k Hk).
Qed.

Section Determinant.
Variable p : nat.
Variable det : mat -> R.
Hypothesis Hmul : forall A B, det (mul p A B) = det A * det B.
Hypothesis Hdiag : forall f, det (diagm f) = prodn p f.
Hypothesis Htp : forall A, det (tp A) = det A.
Hypothesis Hext : forall A B, meq p A B -> det A = det B.

Lemma det_kron : det kron = 1.
Proof.
  rewrite <- (prodn_one p), <- Hdiag. apply Hext. intros i j _ _. unfold diagm. ring.
Qed.

Lemma det_spec : forall M f, det (spec p M f) = det M * det M * prodn p f.
Proof. intros M f. rewrite (Hext _ _ (spec_factor p M f)), !Hmul, Hdiag, Htp. ring. Qed.

Lemma det_inverse : forall T S, meq p (mul p T S) kron -> det T * det S = 1.
Proof. intros T S H. rewrite <- Hmul, <- det_kron. apply Hext. exact H. Qed.
End Determinant.

Section PropC1.
Variable p : nat.
Variables T1 T2 S1 M Mi : mat.
Variable d : nat -> R.
Hypothesis HMiM : meq p (mul p Mi M) kron.
Hypothesis HMMi : meq p (mul p M Mi) kron.
Hypothesis HT1 : meq p T1 (spec p M (fun _ => 1)).
Hypothesis HG : meq p (fun i j => T2 i j - T1 i j) (spec p M d).

Lemma T2_spec : meq p T2 (spec p M (fun k => 1 + d k)).
Proof.
  intros i j Hi Hj. rewrite <- (spec_plus p M (fun _ => 1) d i j).
  pose proof (HG i j Hi Hj) as E1. pose proof (HT1 i j Hi Hj) as E2. cbv beta in E1. lra.
Qed.

Lemma Tv_spec : forall v, meq p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (spec p M (fun k => 1 + v * d k)).
Proof.
  intros v i j Hi Hj. cbv beta. pose proof (HG i j Hi Hj) as E1. cbv beta in E1.
  rewrite E1, (HT1 i j Hi Hj). unfold spec.
  rewrite <- sumn_scal, <- sumn_plus. apply sumn_ext. intros; ring.
Qed.

Lemma spec_apply : forall f k i, (k < p)%nat -> sumn p (fun j => spec p M f i j * Mi k j) = f k * M i k.
Proof.
  intros f k i Hk. unfold spec.
  rewrite (sumn_ext p _ (fun j => sumn p (fun a => (f a * M i a) * (Mi k j * M j a)))).
  - rewrite (sumn_swap p p (fun j a => (f a * M i a) * (Mi k j * M j a))).
    rewrite (sumn_ext p _ (fun a => kron k a * (f a * M i a))).
    + exact (sumn_kron_l p (fun a => f a * M i a) k Hk).
    + intros a Ha. rewrite <- (HMiM k a Hk Ha). unfold mul.
      rewrite (sumn_scal p (f a * M i a) (fun j => Mi k j * M j a)). ring.
  - intros j _. rewrite Rmult_comm, <- (sumn_scal p (Mi k j)). apply sumn_ext. intros; ring.
Qed.

(* Theta_2 positive definite gives 1 + d_k > 0 (the quadratic form at the k-th row of Mi is 1 + d_k) *)
Lemma d_gt_m1 : (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) ->
  forall k, (k < p)%nat -> -1 < d k.
Proof.
  intros Hpd k Hk.
  assert (Hq : quad p T2 (fun i => Mi k i) = 1 + d k).
  { unfold quad.
    rewrite (sumn_ext p _ (fun i => Mi k i * ((1 + d k) * M i k))).
    - rewrite (sumn_ext p _ (fun i => (1 + d k) * (Mi k i * M i k))) by (intros; ring).
      rewrite (sumn_scal p (1 + d k) (fun i => Mi k i * M i k)).
      change (sumn p (fun i => Mi k i * M i k)) with (mul p Mi M k k).
      rewrite (HMiM k k Hk Hk), kron_same. ring.
    - intros i Hi. f_equal.
      rewrite (sumn_ext p _ (fun j => spec p M (fun a => 1 + d a) i j * Mi k j))
        by (intros j Hj; rewrite (T2_spec i j Hi Hj); reflexivity).
      apply spec_apply. exact Hk. }
  assert (Hne : exists i, (i < p)%nat /\ Mi k i <> 0).
  { destruct (classic (exists i, (i < p)%nat /\ Mi k i <> 0)) as [H|H]; [exact H|].
    exfalso.
    assert (H0 : sumn p (fun i => Mi k i * M i k) = 0).
    { apply sumn_zero. intros i Hi. destruct (Req_dec (Mi k i) 0) as [E|E].
      - rewrite E. ring.
      - exfalso. apply H. exists i. split; assumption. }
    change (sumn p (fun i => Mi k i * M i k)) with (mul p Mi M k k) in H0.
    rewrite (HMiM k k Hk Hk), kron_same in H0. lra. }
  specialize (Hpd (fun i => Mi k i) Hne). lra.
Qed.
End PropC1.

Lemma A_explicit : forall (p : nat) (T1 T2 M Mi : mat) (d : nat -> R) (Bf : R -> mat),
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) -> meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall k, (k < p)%nat -> -1 < d k) ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  is_RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
          (sumn p (fun k => d k - ln (1 + d k))).
Proof.
  intros p T1 T2 M Mi d Bf HMiM HMMi HT1 HG Hd HB.
  apply (is_RInt_ext (fun v => sumn p (fun k => kernel (d k) v))).
  - intros v Hv. rewrite Rmin_left, Rmax_right in Hv by lra.
    assert (Hv' : 0 <= v <= 1) by lra.
    assert (Hpos : forall k, (k < p)%nat -> 0 < 1 + v * d k) by (intros k Hk; apply pos_line; [apply Hd; exact Hk | exact Hv']).
    assert (HBv : meq p (Bf v) (cospec p Mi (fun k => / (1 + v * d k)))).
    { apply (spec_inverse p M Mi HMiM HMMi (fun k => 1 + v * d k) (fun i j => T1 i j + v * (T2 i j - T1 i j))).
      - intros k Hk. specialize (Hpos k Hk). lra.
      - apply (Tv_spec p T1 T2 M d HT1 HG).
      - apply HB. exact Hv'. }
    rewrite (kronsum_congruence p M Mi HMiM d _ _ _ HG HBv).
    rewrite <- (sumn_scal p (1 - v)). apply sumn_ext. intros k Hk.
    specialize (Hpos k Hk). unfold kernel. field. lra.
  - apply sum_integral. intros k Hk. apply scalar_integral. apply Hd. exact Hk.
Qed.

Lemma S1_explicit : forall (p : nat) (T1 S1 M Mi : mat),
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) -> meq p (mul p T1 S1) kron -> meq p S1 (cospec p Mi (fun _ => 1)).
Proof.
  intros p T1 S1 M Mi HMiM HMMi HT1 HS1 i j Hi Hj.
  rewrite (spec_inverse p M Mi HMiM HMMi (fun _ => 1) T1 S1) by (intros; lra || assumption).
  unfold cospec. apply sumn_ext. intros. rewrite Rinv_1. reflexivity.
Qed.

Theorem zhou_prop_c_1_explicit : forall (p : nat) (det : mat -> R) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat),
  (forall A B, det (mul p A B) = det A * det B) ->
  (forall f, det (diagm f) = prodn p f) ->
  (forall A, det (tp A) = det A) ->
  (forall A B, meq p A B -> det A = det B) ->
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p T2 S2) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  (forall k, (k < p)%nat -> -1 < d k) /\
  0 < det S1 /\ 0 < det S2 /\
  ln (det S2) - ln (det S1) = - sumn p (fun k => ln (1 + d k)) /\
  is_RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
          (sumn p (fun k => d k - ln (1 + d k))) /\
  sumn p (fun i => mul p (fun i j => T2 i j - T1 i j) S1 i i) = sumn p d.
Proof.
  intros p det T1 T2 S1 S2 M Mi d Bf Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB.
  assert (Hd : forall k, (k < p)%nat -> -1 < d k) by exact (d_gt_m1 p T1 T2 M Mi d HMiM HT1 HG Hpd).
  assert (HdT1 : det T1 = det M * det M) by
    (rewrite (Hext _ _ HT1), (det_spec p det Hmul Hdiag Htp Hext), prodn_one; ring).
  assert (HdT2 : det T2 = det M * det M * prodn p (fun k => 1 + d k)) by
    (rewrite (Hext _ _ (T2_spec p T1 T2 M d HT1 HG)), (det_spec p det Hmul Hdiag Htp Hext); reflexivity).
  pose proof (det_inverse p det Hmul Hdiag Hext T1 S1 HS1) as HI1.
  pose proof (det_inverse p det Hmul Hdiag Hext T2 S2 HS2) as HI2.
  assert (HM2 : 0 < det M * det M).
  { destruct (Req_dec (det M) 0) as [E|E]; [rewrite HdT1, E in HI1; lra | nra]. }
  assert (HP : 0 < prodn p (fun k => 1 + d k)) by (apply prodn_pos; intros k Hk; specialize (Hd k Hk); lra).
  assert (HT1p : 0 < det T1) by lra.
  assert (HT2p : 0 < det T2) by (rewrite HdT2; apply Rmult_lt_0_compat; assumption).
  assert (ES1 : det S1 = / det T1) by (field_simplify_eq; [lra | lra]).
  assert (ES2 : det S2 = / det T2) by (field_simplify_eq; [lra | lra]).
  split; [exact Hd|]. split; [rewrite ES1; apply Rinv_0_lt_compat; exact HT1p|].
  split; [rewrite ES2; apply Rinv_0_lt_compat; exact HT2p|].
  split.
  - rewrite ES1, ES2, !ln_Rinv by assumption. rewrite HdT1, HdT2, ln_mult by assumption.
    rewrite (ln_prodn p (fun k => 1 + d k)) by (intros k Hk; specialize (Hd k Hk); lra). ring.
  - split.
    + apply (A_explicit p T1 T2 M Mi d Bf HMiM HMMi HT1 HG Hd HB).
    + apply (trace_congruence p M Mi HMiM d).
      * exact HG.
      * exact (S1_explicit p T1 S1 M Mi HMiM HMMi HT1 HS1).
Qed.

(* Proposition C.1: ln|Sigma_2| - ln|Sigma_1| = A - tr(Gamma Sigma_1) *)
Theorem zhou_prop_c_1 : forall (p : nat) (det : mat -> R) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat),
  (forall A B, det (mul p A B) = det A * det B) ->
  (forall f, det (diagm f) = prodn p f) ->
  (forall A, det (tp A) = det A) ->
  (forall A B, meq p A B -> det A = det B) ->
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p T2 S2) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  0 < det S1 /\ 0 < det S2 /\
  ex_RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
  ln (det S2) - ln (det S1) =
    RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
    - sumn p (fun i => mul p (fun i j => T2 i j - T1 i j) S1 i i).
Proof.
  intros p det T1 T2 S1 S2 M Mi d Bf Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB.
  destruct (zhou_prop_c_1_explicit p det T1 T2 S1 S2 M Mi d Bf Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB)
    as [_ [H1 [H2 [Hln [HA Htr]]]]].
  split; [exact H1|]. split; [exact H2|]. split; [exists (sumn p (fun k => d k - ln (1 + d k))); exact HA|].
  rewrite Hln, (is_RInt_unique _ _ _ _ HA), Htr, sumn_minus. ring.
Qed.

Lemma scalar_nonneg : forall d, -1 < d -> 0 <= d - ln (1 + d).
Proof.
  intros d Hd. assert (H : ln (1 + d) <= ln (exp d)) by (apply ln_le; [lra | apply exp_ineq1_le]).
  rewrite ln_exp in H. lra.
Qed.

Lemma scalar_upper : forall d c, Rabs d <= c -> c < 1 -> d - ln (1 + d) <= d * d / (2 * ((1 - c) * (1 - c))).
Proof.
  intros d c Hdc Hc.
  assert (Hd : -1 < d) by (unfold Rabs in Hdc; destruct (Rcase_abs d); lra).
  set (K := d * d / ((1 - c) * (1 - c))).
  apply (is_RInt_le (kernel d) (fun v => (1 - v) * K) 0 1).
  - lra.
  - apply scalar_integral. exact Hd.
  - replace (d * d / (2 * ((1 - c) * (1 - c)))) with (minus ((1 - 1 * 1 / 2) * K) ((0 - 0 * 0 / 2) * K))
      by (unfold minus, plus, opp, K; simpl; field; lra).
    apply (is_RInt_derive (fun v => (v - v * v / 2) * K) (fun v => (1 - v) * K) 0 1).
    + intros x _. auto_derive; [exact I | field].
    + intros x _. apply (ex_derive_continuous (fun v => (1 - v) * K)). auto_derive. exact I.
  - intros v Hv. unfold kernel.
    assert (Hab : Rabs d <= c) by exact Hdc.
    assert (Hlow : 1 - c <= 1 + v * d).
    { unfold Rabs in Hab. destruct (Rcase_abs d); nra. }
    assert (Hc0 : 0 < 1 - c) by lra.
    apply Rmult_le_compat_l; [lra|]. unfold K.
    unfold Rdiv. apply Rmult_le_compat_l; [apply Rle_0_sqr|].
    apply Rinv_le_contravar; [nra|]. nra.
Qed.

Lemma sumn_ge_term : forall p f k, (forall i, (i < p)%nat -> 0 <= f i) -> (k < p)%nat -> f k <= sumn p f.
Proof.
  induction p as [|q IH]; intros f k H Hk; [lia|]. simpl.
  destruct (Nat.eq_dec k q) as [->|Hne].
  - assert (0 <= sumn q f) by (apply sumn_nonneg; intros i Hi; apply H; lia). lra.
  - assert (f k <= sumn q f) by (apply IH; [intros i Hi; apply H; lia | lia]).
    assert (0 <= f q) by (apply H; lia). lra.
Qed.

Lemma kron_sq : forall a b, kron a b * kron a b = kron a b.
Proof. intros a b. unfold kron. destruct (Nat.eq_dec a b); ring. Qed.

Section Bounds.
Variable p : nat.
Variables M Mi : mat.
Hypothesis HMiM : meq p (mul p Mi M) kron.

Lemma quad_row : forall T f k, (k < p)%nat -> meq p T (spec p M f) -> quad p T (fun i => Mi k i) = f k.
Proof.
  intros T f k Hk HT. unfold quad.
  rewrite (sumn_ext p _ (fun i => f k * (Mi k i * M i k))).
  - rewrite (sumn_scal p (f k) (fun i => Mi k i * M i k)).
    change (sumn p (fun i => Mi k i * M i k)) with (mul p Mi M k k).
    rewrite (HMiM k k Hk Hk), kron_same. ring.
  - intros i Hi.
    rewrite (sumn_ext p _ (fun j => spec p M f i j * Mi k j)) by (intros j Hj; rewrite (HT i j Hi Hj); reflexivity).
    rewrite (spec_apply p M Mi HMiM f k i Hk). ring.
Qed.

Lemma sq_row_pos : forall k, (k < p)%nat -> 0 < sq p (fun i => Mi k i).
Proof.
  intros k Hk.
  destruct (classic (exists i, (i < p)%nat /\ Mi k i <> 0)) as [[i [Hi Hne]]|H].
  - unfold sq. apply (sumn_pos p _ i); [intros j _; apply Rle_0_sqr | exact Hi |].
    change (0 < Rsqr (Mi k i)). apply Rsqr_pos_lt. exact Hne.
  - exfalso.
    assert (H0 : sumn p (fun i => Mi k i * M i k) = 0).
    { apply sumn_zero. intros i Hi. destruct (Req_dec (Mi k i) 0) as [E|E].
      - rewrite E. ring.
      - exfalso. apply H. exists i. split; assumption. }
    change (sumn p (fun i => Mi k i * M i k)) with (mul p Mi M k k) in H0.
    rewrite (HMiM k k Hk Hk), kron_same in H0. lra.
Qed.

(* x^T S x = |Mi x|^2 when S = Mi^T Mi *)
Lemma quad_cospec : forall S x, meq p S (cospec p Mi (fun _ => 1)) ->
  quad p S x = sumn p (fun a => sumn p (fun i => Mi a i * x i) * sumn p (fun i => Mi a i * x i)).
Proof.
  intros S x HS. unfold quad.
  rewrite (sumn_ext p (fun a => sumn p (fun i => Mi a i * x i) * sumn p (fun i => Mi a i * x i))
                     (fun a => sumn p (fun i => sumn p (fun j => x i * (Mi a i * Mi a j) * x j))))
    by (intros a _; rewrite sumn_mul_sumn; apply sumn_ext; intros i _; apply sumn_ext; intros; ring).
  rewrite <- (sumn_swap p p (fun i a => sumn p (fun j => x i * (Mi a i * Mi a j) * x j))).
  apply sumn_ext. intros i Hi.
  rewrite <- (sumn_swap p p (fun j a => x i * (Mi a i * Mi a j) * x j)).
  rewrite <- (sumn_scal p (x i)). apply sumn_ext. intros j Hj.
  rewrite (HS i j Hi Hj). unfold cospec.
  rewrite (Rmult_comm (sumn p _) (x j)), <- (sumn_scal p (x j)), <- (sumn_scal p (x i)).
  apply sumn_ext. intros; ring.
Qed.

Variable S1 : mat.
Hypothesis HS1 : meq p S1 (cospec p Mi (fun _ => 1)).
Variable s : R.
Hypothesis Hs : forall x, Rabs (quad p S1 x) <= s * sq p x.

Lemma col_bound : forall z, sumn p (fun a => sumn p (fun i => Mi a i * z i) * sumn p (fun i => Mi a i * z i)) <= s * sq p z.
Proof.
  intros z. rewrite <- (quad_cospec S1 z HS1).
  apply Rle_trans with (Rabs (quad p S1 z)); [apply RRle_abs | apply Hs].
Qed.

Lemma sq_row_le : forall k, (k < p)%nat -> sq p (fun i => Mi k i) <= s.
Proof.
  intros k Hk. set (y := fun i => Mi k i).
  pose proof (sq_row_pos k Hk) as Hy. fold y in Hy.
  pose proof (col_bound y) as Hc.
  assert (Hterm : sq p y * sq p y <= sumn p (fun a => sumn p (fun i => Mi a i * y i) * sumn p (fun i => Mi a i * y i))).
  { apply (sumn_ge_term p (fun a => sumn p (fun i => Mi a i * y i) * sumn p (fun i => Mi a i * y i)) k);
      [intros; apply Rle_0_sqr | exact Hk]. }
  nra.
Qed.

Lemma s_nonneg : (0 < p)%nat -> 0 <= s.
Proof.
  intros Hp. pose proof (sq_row_pos 0 Hp). pose proof (sq_row_le 0 Hp). lra.
Qed.

Variable G : mat.
Variable d : nat -> R.
Hypothesis HG : meq p G (spec p M d).
Variable g : R.
Hypothesis Hg : forall x, Rabs (quad p G x) <= g * sq p x.

Lemma d_abs_bound : forall k, (k < p)%nat -> Rabs (d k) <= s * g.
Proof.
  intros k Hk.
  pose proof (quad_row G d k Hk HG) as Hq.
  pose proof (Hg (fun i => Mi k i)) as Hb. rewrite Hq in Hb.
  pose proof (sq_row_pos k Hk). pose proof (sq_row_le k Hk).
  assert (0 <= Rabs (d k)) by apply Rabs_pos.
  assert (0 <= g) by nra.
  nra.
Qed.

Lemma sum_d2_bound : sumn p (fun k => d k * d k) <= s * s * frob2 p G.
Proof.
  set (W := fun i b => sumn p (fun j => Mi b j * G i j)).
  assert (HW : forall i b, (i < p)%nat -> (b < p)%nat -> W i b = d b * M i b).
  { intros i b Hi Hb. unfold W. rewrite <- (spec_apply p M Mi HMiM d b i Hb).
    apply sumn_ext. intros j Hj. rewrite (HG i j Hi Hj). ring. }
  set (D := fun a b => sumn p (fun i => Mi a i * W i b)).
  assert (HD : forall a b, (a < p)%nat -> (b < p)%nat -> D a b = d b * kron a b).
  { intros a b Ha Hb. unfold D. rewrite <- (HMiM a b Ha Hb). unfold mul.
    rewrite <- (sumn_scal p (d b)). apply sumn_ext. intros i Hi. rewrite (HW i b Hi Hb). ring. }
  assert (HfD : frob2 p D = sumn p (fun k => d k * d k)).
  { unfold frob2. apply sumn_ext. intros a Ha.
    rewrite (sumn_ext p _ (fun b => (d b * d b) * kron b a)).
    - exact (sumn_kron_r p (fun b => d b * d b) a Ha).
    - intros b Hb. rewrite (HD a b Ha Hb), (kron_sym b a).
      transitivity (d b * d b * (kron a b * kron a b)); [ring|]. rewrite kron_sq. reflexivity. }
  assert (HDW : frob2 p D <= s * frob2 p W).
  { unfold frob2.
    rewrite (sumn_swap p p (fun a b => D a b * D a b)), (sumn_swap p p (fun i b => W i b * W i b)).
    rewrite <- (sumn_scal p s). apply sumn_le. intros b Hb.
    apply (col_bound (fun i => W i b)). }
  assert (HWG : frob2 p W <= s * frob2 p G).
  { unfold frob2. rewrite <- (sumn_scal p s). apply sumn_le. intros i Hi.
    apply (col_bound (fun j => G i j)). }
  rewrite <- HfD.
  destruct (Nat.eq_dec p 0) as [E|E].
  - unfold frob2. rewrite E. simpl. lra.
  - assert (0 <= s) by (apply s_nonneg; lia).
    apply Rle_trans with (s * frob2 p W); [exact HDW|].
    rewrite Rmult_assoc. apply Rmult_le_compat_l; assumption.
Qed.
End Bounds.

Theorem zhou_c1_c2 : forall (p : nat) (det : mat -> R) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat) (s g : R),
  (forall A B, det (mul p A B) = det A * det B) ->
  (forall f, det (diagm f) = prodn p f) ->
  (forall A, det (tp A) = det A) ->
  (forall A B, meq p A B -> det A = det B) ->
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p T2 S2) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  (forall x, Rabs (quad p S1 x) <= s * sq p x) ->
  (forall x, Rabs (quad p (fun i j => T2 i j - T1 i j) x) <= g * sq p x) ->
  s * g < 1 ->
  ex_RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
  ln (det S2) - ln (det S1) =
    RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
    - sumn p (fun i => mul p (fun i j => T2 i j - T1 i j) S1 i i) /\
  RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 = sumn p (fun k => d k - ln (1 + d k)) /\
  0 <= RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
  RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
    <= frob2 p (fun i j => T2 i j - T1 i j) * (s * s) / (2 * ((1 - s * g) * (1 - s * g))).
Proof.
  intros p det T1 T2 S1 S2 M Mi d Bf s g Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB Hs Hg Hsg.
  destruct (zhou_prop_c_1 p det T1 T2 S1 S2 M Mi d Bf Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB)
    as [_ [_ [Hex Hid]]].
  destruct (zhou_prop_c_1_explicit p det T1 T2 S1 S2 M Mi d Bf Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB)
    as [Hd [_ [_ [_ [HA _]]]]].
  rewrite (is_RInt_unique _ _ _ _ HA) in *.
  pose proof (S1_explicit p T1 S1 M Mi HMiM HMMi HT1 HS1) as HS1c.
  split; [exact Hex|]. split; [exact Hid|]. split; [reflexivity|]. split.
  - apply sumn_nonneg. intros k Hk. apply scalar_nonneg. apply Hd. exact Hk.
  - set (c := s * g).
    assert (Hc : forall k, (k < p)%nat -> Rabs (d k) <= c)
      by (intros k Hk; exact (d_abs_bound p M Mi HMiM S1 HS1c s Hs _ d HG g Hg k Hk)).
    apply Rle_trans with (sumn p (fun k => d k * d k / (2 * ((1 - c) * (1 - c))))).
    + apply sumn_le. intros k Hk. apply scalar_upper; [apply Hc; exact Hk | exact Hsg].
    + assert (H2 : 0 < 2 * ((1 - c) * (1 - c))) by (unfold c; nra).
      rewrite (sumn_ext p _ (fun k => / (2 * ((1 - c) * (1 - c))) * (d k * d k))) by (intros; unfold Rdiv; ring).
      rewrite (sumn_scal p (/ (2 * ((1 - c) * (1 - c))))).
      pose proof (sum_d2_bound p M Mi HMiM S1 HS1c s Hs _ d HG) as Hsum.
      apply Rle_trans with (/ (2 * ((1 - c) * (1 - c))) * (s * s * frob2 p (fun i j => T2 i j - T1 i j))).
      * apply Rmult_le_compat_l; [left; apply Rinv_0_lt_compat; exact H2 | exact Hsum].
      * right. unfold c. field. unfold c in H2. lra.
Qed.

Section Lower.
Variable p : nat.
Variables M Mi : mat.
Hypothesis HMiM : meq p (mul p Mi M) kron.

(* M^T x *)
Definition ut (x : nat -> R) (k : nat) : R := sumn p (fun i => M i k * x i).

Lemma quad_spec : forall T f x, meq p T (spec p M f) -> quad p T x = sumn p (fun k => f k * (ut x k * ut x k)).
Proof.
  intros T f x HT. unfold quad, ut.
  rewrite (sumn_ext p (fun k => f k * (sumn p (fun i => M i k * x i) * sumn p (fun i => M i k * x i)))
                     (fun k => sumn p (fun i => sumn p (fun j => x i * (f k * (M i k * M j k)) * x j))))
    by (intros k _; rewrite sumn_mul_sumn, <- sumn_scal; apply sumn_ext; intros i _;
        rewrite <- sumn_scal; apply sumn_ext; intros; ring).
  rewrite <- (sumn_swap p p (fun i k => sumn p (fun j => x i * (f k * (M i k * M j k)) * x j))).
  apply sumn_ext. intros i Hi.
  rewrite <- (sumn_swap p p (fun j k => x i * (f k * (M i k * M j k)) * x j)).
  rewrite <- (sumn_scal p (x i)). apply sumn_ext. intros j Hj.
  rewrite (HT i j Hi Hj). unfold spec.
  rewrite (Rmult_comm (sumn p _) (x j)), <- (sumn_scal p (x j)), <- (sumn_scal p (x i)).
  apply sumn_ext. intros; ring.
Qed.

Variable S1 : mat.
Hypothesis HS1 : meq p S1 (cospec p Mi (fun _ => 1)).
Variable l : R.
Hypothesis Hl0 : 0 < l.
Hypothesis Hl : forall x, quad p S1 x >= l * sq p x.

(* x^T Theta_1 x = |M^T x|^2 <= |x|^2 / l *)
Lemma theta1_upper : forall x, sumn p (fun k => ut x k * ut x k) <= / l * sq p x.
Proof.
  intros x. set (U := sumn p (fun k => ut x k * ut x k)).
  set (z := fun i => sumn p (fun k => M i k * ut x k)).
  assert (HMz : forall a, (a < p)%nat -> sumn p (fun i => Mi a i * z i) = ut x a).
  { intros a Ha. unfold z.
    rewrite (sumn_ext p _ (fun i => sumn p (fun k => ut x k * (Mi a i * M i k))))
      by (intros i _; rewrite <- sumn_scal; apply sumn_ext; intros; ring).
    rewrite (sumn_swap p p (fun i k => ut x k * (Mi a i * M i k))).
    rewrite (sumn_ext p _ (fun k => ut x k * kron a k)).
    - rewrite (sumn_ext p _ (fun k => kron a k * ut x k)) by (intros; ring).
      exact (sumn_kron_l p (ut x) a Ha).
    - intros k Hk. rewrite <- (HMiM a k Ha Hk). unfold mul. rewrite <- (sumn_scal p (ut x k)). reflexivity. }
  assert (Hq : quad p S1 z = U).
  { rewrite (quad_cospec p Mi S1 z HS1). unfold U. apply sumn_ext. intros a Ha. rewrite HMz by exact Ha. reflexivity. }
  assert (Hdot : dot p x z = U).
  { unfold dot, z, U, ut.
    rewrite (sumn_ext p _ (fun i => sumn p (fun k => ut x k * (M i k * x i))))
      by (intros i _; rewrite <- sumn_scal; apply sumn_ext; intros; unfold ut; ring).
    rewrite (sumn_swap p p (fun i k => ut x k * (M i k * x i))).
    apply sumn_ext. intros k _. rewrite (sumn_scal p (ut x k)). reflexivity. }
  pose proof (Hl z) as Hlz. rewrite Hq in Hlz.
  pose proof (dot_amgm p x z (/ l) (Rinv_0_lt_compat l Hl0)) as Ham.
  rewrite Rinv_inv in Ham. rewrite Hdot in Ham. lra.
Qed.

Variable G : mat.
Variable d : nat -> R.
Hypothesis HG : meq p G (spec p M d).
Variable g : R.
Hypothesis Hg : forall x, Rabs (quad p G x) <= g * sq p x.
Hypothesis Hg0 : 0 <= g.
Variable v : R.
Hypothesis Hv : 0 <= v <= 1.
Hypothesis Hf : forall k, (k < p)%nat -> 0 < 1 + v * d k.

Definition rt (k : nat) : R := sqrt (1 + v * d k).
(* R y with R = M diag(sqrt(1 + v d)) *)
Definition Rv (y : nat -> R) (i : nat) : R := sumn p (fun k => M i k * (rt k * y k)).

Lemma rt_sq : forall k, (k < p)%nat -> rt k * rt k = 1 + v * d k.
Proof. intros k Hk. unfold rt. apply sqrt_sqrt. left. apply Hf. exact Hk. Qed.

(* |R^T x|^2 = x^T (Theta_1 + v Gamma) x <= (1/l + v g) |x|^2 *)
Lemma RT_bound : forall x, sumn p (fun k => (rt k * ut x k) * (rt k * ut x k)) <= (/ l + v * g) * sq p x.
Proof.
  intros x.
  rewrite (sumn_ext p _ (fun k => ut x k * ut x k + v * (d k * (ut x k * ut x k))))
    by (intros k Hk; transitivity ((rt k * rt k) * (ut x k * ut x k)); [ring | rewrite rt_sq by exact Hk; ring]).
  rewrite sumn_plus, sumn_scal.
  pose proof (theta1_upper x).
  pose proof (Hg x) as Hgx. rewrite (quad_spec G d x HG) in Hgx.
  assert (sumn p (fun k => d k * (ut x k * ut x k)) <= g * sq p x)
    by (apply Rle_trans with (Rabs (sumn p (fun k => d k * (ut x k * ut x k)))); [apply RRle_abs | exact Hgx]).
  assert (v * sumn p (fun k => d k * (ut x k * ut x k)) <= v * (g * sq p x)) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

Lemma R_bound : forall y, sq p (Rv y) <= (/ l + v * g) * sq p y.
Proof.
  intros y. set (mu := / l + v * g).
  assert (Hmu : 0 < mu) by (unfold mu; assert (0 < / l) by (apply Rinv_0_lt_compat; lra); nra).
  set (x := Rv y).
  assert (Hd : dot p x (Rv y) = dot p (fun k => rt k * ut x k) y).
  { unfold dot, Rv, ut.
    rewrite (sumn_ext p _ (fun i => sumn p (fun k => x i * M i k * (rt k * y k))))
      by (intros i _; rewrite <- sumn_scal; apply sumn_ext; intros; ring).
    rewrite (sumn_swap p p (fun i k => x i * M i k * (rt k * y k))).
    apply sumn_ext. intros k _.
    transitivity ((rt k * y k) * sumn p (fun i => M i k * x i)); [|ring].
    rewrite <- (sumn_scal p (rt k * y k)). apply sumn_ext. intros; ring. }
  assert (Hsx : dot p x (Rv y) = sq p x) by reflexivity.
  pose proof (dot_amgm p (fun k => rt k * ut x k) y (/ mu) (Rinv_0_lt_compat mu Hmu)) as Ham.
  rewrite Rinv_inv in Ham.
  pose proof (RT_bound x) as HRT. fold mu in HRT.
  assert (H1 : / mu * sq p (fun k => rt k * ut x k) <= sq p x).
  { unfold sq at 1. apply Rle_trans with (/ mu * (mu * sq p x)).
    - apply Rmult_le_compat_l; [left; apply Rinv_0_lt_compat; exact Hmu | exact HRT].
    - right. field. lra. }
  rewrite <- Hd, Hsx in Ham. fold x. lra.
Qed.

Lemma sq_unit : forall k, (k < p)%nat -> sq p (fun m => kron m k) = 1.
Proof.
  intros k Hk. unfold sq. rewrite (sumn_ext p _ (fun m => 1 * kron m k)) by (intros m _; rewrite (kron_sym m k), kron_sq; ring).
  exact (sumn_kron_r p (fun _ => 1) k Hk).
Qed.

Lemma col_R_bound : forall k, (k < p)%nat -> sumn p (fun j => (rt k * M j k) * (rt k * M j k)) <= / l + v * g.
Proof.
  intros k Hk. pose proof (R_bound (fun m => kron m k)) as H. rewrite sq_unit in H by exact Hk.
  unfold sq, Rv in H.
  rewrite (sumn_ext p (fun j => (rt k * M j k) * (rt k * M j k))
             (fun i => sumn p (fun m => M i m * (rt m * kron m k)) * sumn p (fun m => M i m * (rt m * kron m k)))).
  - lra.
  - intros j _. rewrite (sumn_ext p _ (fun m => (M j m * rt m) * kron m k)) by (intros; ring).
    rewrite (sumn_kron_r p (fun m => M j m * rt m) k Hk). ring.
Qed.

(* ||Gamma||_F^2 <= (1/l + v g)^2 sum_k (d_k/(1 + v d_k))^2: Gamma = R K R^T with K = diag(d/(1 + v d)) *)
Lemma frob_G_bound : frob2 p G <= (/ l + v * g) * (/ l + v * g) * sumn p (fun k => (d k / (1 + v * d k)) * (d k / (1 + v * d k))).
Proof.
  set (mu := / l + v * g).
  assert (Hmu : 0 < mu) by (unfold mu; assert (0 < / l) by (apply Rinv_0_lt_compat; lra); nra).
  set (h := fun k => d k / (1 + v * d k)).
  set (y := fun j k => h k * (rt k * M j k)).
  assert (Hcol : forall i j, (i < p)%nat -> (j < p)%nat -> G i j = Rv (y j) i).
  { intros i j Hi Hj. rewrite (HG i j Hi Hj). unfold spec, Rv, y. apply sumn_ext. intros k Hk.
    transitivity ((rt k * rt k) * h k * (M i k * M j k)); [|ring].
    rewrite rt_sq by exact Hk. unfold h. field. specialize (Hf k Hk). lra. }
  unfold frob2. rewrite (sumn_swap p p (fun i j => G i j * G i j)).
  rewrite (sumn_ext p _ (fun j => sq p (Rv (y j)))).
  2: { intros j Hj. unfold sq. apply sumn_ext. intros i Hi. rewrite (Hcol i j Hi Hj). reflexivity. }
  apply Rle_trans with (sumn p (fun j => mu * sq p (y j))); [apply sumn_le; intros j _; apply R_bound|].
  rewrite (sumn_scal p mu). unfold sq, y.
  rewrite (sumn_swap p p (fun j k => h k * (rt k * M j k) * (h k * (rt k * M j k)))).
  rewrite (sumn_ext p _ (fun k => (h k * h k) * sumn p (fun j => (rt k * M j k) * (rt k * M j k))))
    by (intros k _; rewrite <- sumn_scal; apply sumn_ext; intros; ring).
  rewrite Rmult_assoc. apply Rmult_le_compat_l; [lra|].
  rewrite <- (sumn_scal p mu). apply sumn_le. intros k Hk.
  rewrite (Rmult_comm mu). apply Rmult_le_compat_l; [apply Rle_0_sqr | apply col_R_bound; exact Hk].
Qed.
End Lower.

Lemma frob2_nonneg : forall p A, 0 <= frob2 p A.
Proof. intros p A. unfold frob2. apply sumn_nonneg. intros i _. apply sumn_nonneg. intros j _. apply Rle_0_sqr. Qed.

Theorem zhou_lemma_c_2_lower : forall (p : nat) (det : mat -> R) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat) (l g : R),
  (forall A B, det (mul p A B) = det A * det B) ->
  (forall f, det (diagm f) = prodn p f) ->
  (forall A, det (tp A) = det A) ->
  (forall A B, meq p A B -> det A = det B) ->
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p T2 S2) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  0 < l -> (forall x, quad p S1 x >= l * sq p x) ->
  (forall x, Rabs (quad p (fun i j => T2 i j - T1 i j) x) <= g * sq p x) ->
  frob2 p (fun i j => T2 i j - T1 i j) * (l * l) / (2 * ((1 + l * g) * (1 + l * g)))
    <= RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1.
Proof.
  intros p det T1 T2 S1 S2 M Mi d Bf l g Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB Hl0 Hl Hg.
  destruct (zhou_prop_c_1_explicit p det T1 T2 S1 S2 M Mi d Bf Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB)
    as [Hd [_ [_ [_ [HA _]]]]].
  rewrite (is_RInt_unique _ _ _ _ HA).
  pose proof (S1_explicit p T1 S1 M Mi HMiM HMMi HT1 HS1) as HS1c.
  set (G := fun i j => T2 i j - T1 i j). fold G in HA, HG, Hg.
  set (F := frob2 p G).
  assert (HF : 0 <= F) by apply frob2_nonneg.
  destruct (Nat.eq_dec p 0) as [E|E].
  { unfold F, frob2. rewrite E. simpl. right. unfold Rdiv. ring. }
  assert (Hg0 : 0 <= g).
  { assert (Hp : (0 < p)%nat) by lia.
    pose proof (sq_row_pos p M Mi HMiM 0 Hp) as Hy.
    pose proof (Hg (fun i => Mi 0%nat i)) as Hb.
    assert (0 <= Rabs (quad p G (fun i => Mi 0%nat i))) by apply Rabs_pos. nra. }
  assert (Hli : 0 < / l) by (apply Rinv_0_lt_compat; exact Hl0).
  set (K := F / ((/ l + g) * (/ l + g))).
  replace (F * (l * l) / (2 * ((1 + l * g) * (1 + l * g)))) with (minus ((1 - 1 * 1 / 2) * K) ((0 - 0 * 0 / 2) * K))
    by (unfold minus, plus, opp, K; simpl; field; split; nra).
  apply (is_RInt_le (fun v => (1 - v) * K) (fun v => (1 - v) * kronsum p G (Bf v)) 0 1); [lra | | exact HA |].
  - apply (is_RInt_derive (fun v => (v - v * v / 2) * K) (fun v => (1 - v) * K) 0 1).
    + intros x _. auto_derive; [exact I | field].
    + intros x _. apply (ex_derive_continuous (fun v => (1 - v) * K)). auto_derive. exact I.
  - intros v Hv.
    assert (Hv' : 0 <= v <= 1) by lra.
    assert (Hpos : forall k, (k < p)%nat -> 0 < 1 + v * d k) by (intros k Hk; apply pos_line; [apply Hd; exact Hk | exact Hv']).
    assert (HBv : meq p (Bf v) (cospec p Mi (fun k => / (1 + v * d k)))).
    { apply (spec_inverse p M Mi HMiM HMMi (fun k => 1 + v * d k) (fun i j => T1 i j + v * (T2 i j - T1 i j))).
      - intros k Hk. specialize (Hpos k Hk). lra.
      - apply (Tv_spec p T1 T2 M d HT1 HG).
      - apply HB. exact Hv'. }
    rewrite (kronsum_congruence p M Mi HMiM d _ _ _ HG HBv).
    apply Rmult_le_compat_l; [lra|].
    pose proof (frob_G_bound p M Mi HMiM S1 HS1c l Hl0 Hl G d HG g Hg Hg0 v Hv' Hpos) as Hfro. fold F in Hfro.
    set (mu := / l + v * g) in Hfro.
    assert (Hmu : 0 < mu) by (unfold mu; nra).
    assert (Hmu1 : mu <= / l + g) by (unfold mu; nra).
    set (H2 := sumn p (fun k => d k / (1 + v * d k) * (d k / (1 + v * d k)))) in Hfro.
    assert (Heq : sumn p (fun k => / (1 + v * d k) * (d k * / (1 + v * d k) * d k)) = H2).
    { unfold H2. apply sumn_ext. intros k Hk. specialize (Hpos k Hk). field. lra. }
    rewrite Heq. unfold K.
    apply Rle_trans with (F / (mu * mu)).
    + unfold Rdiv. apply Rmult_le_compat_l; [exact HF|]. apply Rinv_le_contravar; [nra|]. nra.
    + unfold Rdiv. apply Rmult_le_reg_l with (mu * mu); [nra|].
      replace (mu * mu * (F * / (mu * mu))) with F by (field; lra). exact Hfro.
Qed.

(* Lemma C.2, both bounds *)
Theorem zhou_lemma_c_2 : forall (p : nat) (det : mat -> R) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat) (l s g : R),
  (forall A B, det (mul p A B) = det A * det B) ->
  (forall f, det (diagm f) = prodn p f) ->
  (forall A, det (tp A) = det A) ->
  (forall A B, meq p A B -> det A = det B) ->
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p T2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p T2 S2) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  0 < l -> (forall x, quad p S1 x >= l * sq p x) ->
  (forall x, Rabs (quad p S1 x) <= s * sq p x) ->
  (forall x, Rabs (quad p (fun i j => T2 i j - T1 i j) x) <= g * sq p x) ->
  s * g < 1 ->
  frob2 p (fun i j => T2 i j - T1 i j) * (l * l) / (2 * ((1 + l * g) * (1 + l * g)))
    <= RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
  RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
    <= frob2 p (fun i j => T2 i j - T1 i j) * (s * s) / (2 * ((1 - s * g) * (1 - s * g))).
Proof.
  intros p det T1 T2 S1 S2 M Mi d Bf l s g Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB Hl0 Hl Hs Hg Hsg.
  split.
  - exact (zhou_lemma_c_2_lower p det T1 T2 S1 S2 M Mi d Bf l g Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB Hl0 Hl Hg).
  - destruct (zhou_c1_c2 p det T1 T2 S1 S2 M Mi d Bf s g Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB Hs Hg Hsg)
      as [_ [_ [_ [_ Hup]]]]. exact Hup.
Qed.
