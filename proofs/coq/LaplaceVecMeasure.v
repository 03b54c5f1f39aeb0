(* lecture21-dp Lemma 2 and jiang-wishart Theorem 1 as statements about probabilities (round 14, issue 33): the
   Laplace mechanism F(S) + b (X_1, ..., X_K) on R^K, X_i i.i.d. Laplace(0, 1), with ||F(S) - F(S')||_1 <= B and
   b = B/eps (lecture21-dp) or b = lam > s1/eps (jiang-wishart, the matrix output read as its K released
   coordinates), satisfies, for every measurable event E of R^K,
     P(A(S) in E) = int_E p_K(x; F(S), b) dx <= e^eps int_E p_K(x; F(S'), b) dx,
   p_K the product Laplace density (Laplace.lap_vec_density). Laplace.v proves the pointwise bound on the log density
   ratio; the step to events (the INTEGRATION premise) is MeasureDP.dp_of_pointwise_measure. R^K is built here, for
   K >= 1, as the iterated product R^(k+1) = R^k x R of mathcomp-analysis's measurable types (the product
   sigma-algebra: the Borel sets of R^K), and dx as the iterated product measure (lebesgue_integral.product_measure1 of
   the K-1-fold product and the Lebesgue measure of R, which is sigma-finite: measure.Hahn_ext_sigma_finite of
   lebesgue_measure.hlength_sigma_finite); coords K x is the point of R^K as the sequence (x_0, ..., x_(K-1)).
   Print Assumptions shows, besides the classical reals, mathcomp's classical axioms (boolp) and Hilbert's epsilon
   (Rstruct). Needs Debian's libcoq-mathcomp-analysis; without it this file does not compile and the claims keep
   Laplace.v's pointwise theorems (with the integration premise). *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import Laplace LaplaceMeasure MeasureDP.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(** R with its measurable sets (the Borel sets of R) on which LaplaceMeasure.lebR is the Lebesgue measure. *)
Definition Rm := [the measurableType _ of salgebraType (@measurable _ [the semiRingOfSetsType _ of ocitv_type real_realType])].
Definition d0 : measure_display := ltac:(match type of Rm with measurableType ?d => exact d end).

Lemma lebR_sigma_finite : sigma_finite setT lebR.
Proof.
rewrite /lebR /lebesgue_measure; apply: Hahn_ext_sigma_finite.
- exact: hlength_sigma_sub_additive.
- exact: hlength_sigma_finite.
Qed.

(** R^(k+1) with the product sigma-algebra, its product Lebesgue measure and its coordinates. *)
Fixpoint disp (k : nat) : measure_display := match k with 0 => d0 | S k => (disp k, d0).-prod%mdisp end.
Fixpoint RK (k : nat) : measurableType (disp k) :=
  match k as k return measurableType (disp k) with
  | 0 => Rm
  | S k => [the measurableType (disp k, d0).-prod%mdisp of (RK k * Rm)%type] end.
Fixpoint lebK (k : nat) : {measure set (RK k) -> \bar real_realType} :=
  match k as k return {measure set (RK k) -> \bar real_realType} with
  | 0 => lebR
  | S k => [the measure _ _ of product_measure1 (lebK k) lebR_sigma_finite] end.
Fixpoint coord (k : nat) : RK k -> nat -> R :=
  match k as k return RK k -> nat -> R with
  | 0 => fun x _ => x
  | S k => fun p i => if (i == k.+1)%N then p.2 else coord k p.1 i end.

(** R^K (K >= 1), its Lebesgue measure and the coordinates of its points. *)
Definition Rvec (K : nat) := RK K.-1.
Definition lebesgue_vec (K : nat) : {measure set (Rvec K) -> \bar real_realType} := lebK K.-1.
Definition coords (K : nat) : Rvec K -> nat -> R := coord K.-1.
Lemma prodn_ext (f g : nat -> R) n : (forall i, (i < n)%N -> f i = g i) -> prodn f n = prodn g n.
Proof.
elim: n => [//|n IH] H /=. rewrite IH; last by move=> i Hi; apply: H; apply: ltnW.
by rewrite H.
Qed.

Lemma lap_measurable (b mu : R) : Rlt 0 b -> measurable_fun setT (fun x : Rm => (lap_density b mu x : real_realType)).
Proof. by move=> Hb; apply: continuous_measurable_fun; apply: lap_continuous. Qed.

Lemma measurable_fst' k : measurable_fun setT (fun p : RK k.+1 => p.1).
Proof. by have [] := (prod_measurable_funP (fun p : RK k.+1 => p)).1 (@measurable_fun_id _ _ _). Qed.

Lemma measurable_snd' k : measurable_fun setT (fun p : RK k.+1 => (p.2 : Rm)).
Proof. by have [] := (prod_measurable_funP (fun p : RK k.+1 => p)).1 (@measurable_fun_id _ _ _). Qed.

Lemma lap_vec_measurable k (b : R) (mu : nat -> R) : Rlt 0 b ->
  measurable_fun setT (fun x : RK k => (lap_vec_density k.+1 b mu (coord k x) : real_realType)).
Proof.
move=> Hb; elim: k => [|k IH].
- have -> : (fun x : RK 0 => (lap_vec_density 1 b mu (coord 0 x) : real_realType)) = (fun x : Rm => (lap_density b (mu 0%N) x : real_realType)).
    by apply: funext => x; rewrite /lap_vec_density /= Rmult_1_l.
  exact: lap_measurable.
- have -> : (fun x : RK k.+1 => (lap_vec_density k.+2 b mu (coord k.+1 x) : real_realType)) =
            (fun x : RK k.+1 => ((lap_vec_density k.+1 b mu (coord k x.1) : real_realType) * (lap_density b (mu k.+1) x.2 : real_realType))%R).
    apply: funext => x; rewrite /lap_vec_density.
    have -> : prodn (fun i => lap_density b (mu i) (coord k.+1 x i)) k.+2 = (prodn (fun i => lap_density b (mu i) (coord k.+1 x i)) k.+1 * lap_density b (mu k.+1) (coord k.+1 x k.+1))%R by [].
    congr (_ * _)%R; last by rewrite /= eqxx.
    by apply: prodn_ext => i Hi /=; rewrite ifF //; apply/negbTE; rewrite neq_ltn Hi.
  have := measurable_funM (measurable_fun_comp IH (measurable_fst' k)) (measurable_fun_comp (lap_measurable b (mu k.+1) Hb) (measurable_snd' k)).
  exact.
Qed.

Lemma lap_vec_pos K b mu x : Rlt 0 b -> Rlt 0 (lap_vec_density K b mu x).
Proof. by move=> Hb; apply: prodn_pos => i _; apply: lap_density_pos. Qed.

Lemma lap_vec_pointwise K eps b mu mu' x : Rlt 0 b ->
  Rle (ln (lap_vec_density K b mu x) - ln (lap_vec_density K b mu' x)) eps ->
  Rle (lap_vec_density K b mu x) (Rmult (exp eps) (lap_vec_density K b mu' x)).
Proof.
move=> Hb H.
have P1 := lap_vec_pos K b mu x Hb. have P2 := lap_vec_pos K b mu' x Hb.
have L : Rle (ln (lap_vec_density K b mu x)) (eps + ln (lap_vec_density K b mu' x)) by lra.
apply: (Rle_trans _ (exp (eps + ln (lap_vec_density K b mu' x)))).
- rewrite -{1}(exp_ln _ P1). case: (Rle_lt_or_eq_dec _ _ L) => [Hlt|->]; [by apply: Rlt_le; apply: exp_increasing | by apply: Rle_refl].
- rewrite exp_plus exp_ln //. by apply: Rle_refl.
Qed.

(** Any scale b > 0 whose pointwise loss is at most eps: the bound for every measurable event of R^K. *)
Lemma laplace_vec_events (K : nat) (eps b : R) (mu mu' : nat -> R) (E : set (Rvec K)) :
  (0 < K)%N -> Rlt 0 b ->
  (forall x, Rle (ln (lap_vec_density K b mu x) - ln (lap_vec_density K b mu' x)) eps) -> measurable E ->
  (\int[lebesgue_vec K]_(x in E) (lap_vec_density K b mu (coords K x))%:E <=
    (exp eps)%:E * \int[lebesgue_vec K]_(x in E) (lap_vec_density K b mu' (coords K x))%:E)%E.
Proof.
case: K E => [//|k] E _ Hb Hloss mE.
apply: dp_of_pointwise_measure => //.
- by apply: Rlt_le; apply: exp_pos.
- by move=> x; apply: Rlt_le; apply: lap_vec_pos.
- by move=> x; apply: Rlt_le; apply: lap_vec_pos.
- exact: lap_vec_measurable.
- exact: lap_vec_measurable.
- by move=> x; apply: lap_vec_pointwise.
Qed.

(** lecture21-dp/lemma-2: scale B/eps, B the l1 sensitivity of F : S -> R^K. *)
Theorem laplace_vec_dp_lebesgue (K : nat) (eps B : R) (mu mu' : nat -> R) (E : set (Rvec K)) :
  (0 < K)%N -> Rlt 0 eps -> Rlt 0 B -> Rle (Laplace.sumn (fun i => Rabs (mu i - mu' i)) K) B -> measurable E ->
  (\int[lebesgue_vec K]_(x in E) (lap_vec_density K (B / eps) mu (coords K x))%:E <=
    (exp eps)%:E * \int[lebesgue_vec K]_(x in E) (lap_vec_density K (B / eps) mu' (coords K x))%:E)%E.
Proof.
move=> HK He HB Hs mE; apply: laplace_vec_events => //.
- by apply: Rdiv_lt_0_compat.
- by move=> x; apply: laplace_loss_vector.
Qed.

(** jiang-wishart/theorem-1: per-coordinate Laplace(lam), lam > s1/eps, s1 the l1 sensitivity. *)
Theorem laplace_jiang_dp_lebesgue (K : nat) (eps s1 lam : R) (mu mu' : nat -> R) (E : set (Rvec K)) :
  (0 < K)%N -> Rlt 0 eps -> Rlt 0 s1 -> Rgt lam (s1 / eps) -> Rle (Laplace.sumn (fun i => Rabs (mu i - mu' i)) K) s1 ->
  measurable E ->
  (\int[lebesgue_vec K]_(x in E) (lap_vec_density K lam mu (coords K x))%:E <=
    (exp eps)%:E * \int[lebesgue_vec K]_(x in E) (lap_vec_density K lam mu' (coords K x))%:E)%E.
Proof.
move=> HK He Hs Hlam Hsens mE; apply: laplace_vec_events => //.
- have Hpos : Rlt 0 (s1 / eps) by apply: Rdiv_lt_0_compat.
  by apply: (Rlt_trans _ _ _ Hpos).
- by move=> x; apply: (laplace_loss_jiang K eps s1).
Qed.
