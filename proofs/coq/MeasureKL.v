(* Measure-theoretic facts behind "proved given P" verdicts (same setting as MeasureDP.v: ANY measure
   space (T, mu) of mathcomp-analysis 0.6.0, Coq's R made a realType by Rstruct, Coq's ln with ln 0 = 0, so that
   0 ln(0/q) = 0, the usual convention):
   - kl_binary_data_processing / kl_binary_data_processing_ext: data processing of the Kullback-Leibler divergence onto
     the two-set partition {E, E^c}: KL(f||g) = int f ln(f/g) dmu >= P(E) ln(P(E)/Q(E)) + P(E^c) ln(P(E^c)/Q(E^c)),
     P(E) = int_E f, Q(E) = int_E g, for probability densities f >= 0, g > 0. This discharges the premise "KL is the
     supremum of the KL of finite partitions, so data processing onto {E, E^c} applies on every output space" (only the
     inequality for the partition {E, E^c} is used). Proof: ln t <= t - 1 gives pointwise f ln(f/g) >= f ln r + f - r g
     (r > 0); integrate over E with r = P(E)/Q(E) and over E^c with r' = P(E^c)/Q(E^c). The degenerate cases are
     handled, not assumed away: P(E) = 0 (a limit r -> 0), and Q(E) = 0 < P(E) is shown impossible (r -> oo); so the
     theorem has no hypothesis 0 < Q(E) < 1.
   - markov_inequality: mu[Y >= t] <= (int Y dmu)/t for measurable Y >= 0, t > 0.
   - restricted_expectation_le, conditional_expectation_le: int_F Y <= int Y (Y >= 0), hence
     E[Y | F] = int_F Y / P(F) <= E[Y]/P(F).
   - variance_two_factors, iid_variance_of_sum: on the product of probability spaces the centred sum of k+1 i.i.d.
     rows f(z_i) - E f has second moment (k+1) Var f (cross terms vanish by Fubini: fubini1 of mathcomp-analysis).
   Print Assumptions shows, besides the classical reals, mathcomp's classical axioms (boolp) and Hilbert's epsilon
   (Rstruct), as for MeasureDP.v. *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import MeasureDP.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets functions mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import Order.TTheory GRing.Theory Num.Theory.

(** ln t <= t - 1, in the form a ln(a/b) >= a ln r + a - r b (a >= 0, b > 0, r > 0), Coq's ln (ln 0 = 0, so
    0 ln(0/b) = 0). *)
Lemma ln_gibbs_pointwise (a b r : R) : Rle 0 a -> Rlt 0 b -> Rlt 0 r ->
  Rle (Rminus (Rplus (Rmult a (ln r)) a) (Rmult r b)) (Rmult a (ln (Rdiv a b))).
Proof.
move=> Ha Hb Hr.
case: (Rle_lt_or_eq_dec 0 a Ha) => [Ha'|<-]; last first.
  rewrite !Rmult_0_l; have := Rmult_lt_0_compat _ _ Hr Hb; lra.
have Hy : Rlt 0 (Rmult (Rmult r b) (Rinv a)).
  by apply: Rmult_lt_0_compat; [apply: Rmult_lt_0_compat | apply: Rinv_0_lt_compat].
have Hln := exp_ineq1_le (ln (Rmult (Rmult r b) (Rinv a))).
rewrite exp_ln // in Hln.
have E1 : ln (Rdiv a b) = Rminus (ln a) (ln b).
  by rewrite /Rdiv (ln_mult _ _ Ha' (Rinv_0_lt_compat _ Hb)) (ln_Rinv _ Hb).
have E2 : ln (Rmult (Rmult r b) (Rinv a)) = Rminus (Rplus (ln r) (ln b)) (ln a).
  have Hia : Rlt 0 (Rinv a) by apply: Rinv_0_lt_compat.
  rewrite (ln_mult _ _ (Rmult_lt_0_compat _ _ Hr Hb) Hia) (ln_mult _ _ Hr Hb) (ln_Rinv _ Ha'); lra.
have E3 : Rmult a (Rmult (Rmult r b) (Rinv a)) = Rmult r b by field; lra.
rewrite E2 in Hln.
rewrite E1.
have := Rmult_le_compat_l a _ _ Ha Hln.
lra.
Qed.

Section integrable_tools.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).

Lemma integral_le_integrable (h1 h2 : T -> real_realType) (D : set T) : measurable D ->
  mu.-integrable D (EFin \o h1) -> mu.-integrable D (EFin \o h2) ->
  (forall x, D x -> h1 x <= h2 x)%R -> \int[mu]_(x in D) (h1 x)%:E <= \int[mu]_(x in D) (h2 x)%:E.
Proof.
move=> mD i1 i2 le12.
have H0 : 0 <= \int[mu]_(x in D) ((h2 x)%:E - (h1 x)%:E).
  by apply: integral_ge0 => x Dx; rewrite -EFinB lee_fin subr_ge0 le12.
rewrite (integralB_EFin mD i2 i1) in H0.
have F1 := integral_fune_fin_num mD i1; have F2 := integral_fune_fin_num mD i2.
rewrite -(fineK F1) -(fineK F2) -EFinB lee_fin subr_ge0 in H0.
by rewrite -(fineK F1) -(fineK F2) lee_fin.
Qed.

Lemma integral_splitC (h : T -> real_realType) (E : set T) : measurable E ->
  mu.-integrable setT (EFin \o h) ->
  \int[mu]_x (h x)%:E = \int[mu]_(x in E) (h x)%:E + \int[mu]_(x in ~` E) (h x)%:E.
Proof.
move=> mE ih.
have mEc : measurable (~` E) by apply: measurableC.
have iE : mu.-integrable E (EFin \o h) by apply: integrableS ih.
have iC : mu.-integrable (~` E) (EFin \o h) by apply: integrableS ih.
rewrite (integral_mkcond E) (integral_mkcond (~` E)).
rewrite -integralD //; last 2 first.
- exact: (integrable_mkcond _ mE).1.
- exact: (integrable_mkcond _ mEc).1.
apply: eq_integral => x _; rewrite /patch /=; case: (boolP (x \in E)) => xE.
  by rewrite ifF ?adde0 //; apply/negbTE; rewrite in_setC xE.
by rewrite ifT ?add0e //; rewrite in_setC xE.
Qed.

Lemma integral_lincomb (a b : R) (f g : T -> real_realType) (D : set T) (p q : R) : measurable D ->
  mu.-integrable D (EFin \o f) -> mu.-integrable D (EFin \o g) ->
  \int[mu]_(x in D) (f x)%:E = p%:E -> \int[mu]_(x in D) (g x)%:E = q%:E ->
  \int[mu]_(x in D) (a * f x + b * g x)%:E = (a * p + b * q)%:E.
Proof.
move=> mD i_f i_g fp gq.
have iaf : mu.-integrable D (EFin \o (fun x => (a * f x)%R)).
  by rewrite (_ : _ \o _ = (fun x => a%:E * (EFin \o f) x)); [exact: integrablerM | apply: funext => x; rewrite /= EFinM].
have ibg : mu.-integrable D (EFin \o (fun x => (b * g x)%R)).
  by rewrite (_ : _ \o _ = (fun x => b%:E * (EFin \o g) x)); [exact: integrablerM | apply: funext => x; rewrite /= EFinM].
have := integralD_EFin mD iaf ibg; rewrite /= => ->.
rewrite (eq_integral (fun x => a%:E * (f x)%:E)); last by move=> x _; rewrite EFinM.
rewrite [X in _ + X](eq_integral (fun x => b%:E * (g x)%:E)); last by move=> x _; rewrite EFinM.
by rewrite integralM // integralM // fp gq -!EFinM -EFinD.
Qed.
End integrable_tools.

(** Borel measurability of the KL integrand f ln(f/g) (so that the extended-real KL needs no extra hypothesis):
    ln |.| and Rinv are continuous off 0, hence measurable. *)
Section meas_off0.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

(** a function R -> R continuous at every point but 0 is Borel measurable *)
Lemma measurable_fun_continuous_off0 (phi : R -> R) :
  (forall y, y <> 0%R -> continuity_pt phi y) ->
  measurable_fun setT (phi : real_realType -> real_realType).
Proof.
move=> cphi _ B mB.
have cin (D : set real_realType) : (forall x, D x -> x <> 0%R) -> {in D, continuous (phi : real_realType -> real_realType)}.
  by move=> D0 x; rewrite inE => Dx; apply/continuity_ptE; apply: cphi; apply: D0.
have oN : open [set x : real_realType | x < 0] := @open_lt real_realType 0.
have oP : open [set x : real_realType | x > 0] := @open_gt real_realType 0.
have mN : measurable_fun [set x : real_realType | x < 0] (phi : real_realType -> real_realType).
  apply: open_continuous_measurable_fun => //; apply: cin => x /= /lt_eqF /eqP //.
have mP : measurable_fun [set x : real_realType | x > 0] (phi : real_realType -> real_realType).
  apply: open_continuous_measurable_fun => //; apply: cin => x /= /gt_eqF /eqP //.
have m0 : measurable ([set (0 : real_realType)] `&` (phi : real_realType -> real_realType) @^-1` B).
  case: (pselect (B (phi 0%R))) => B0.
    have -> : [set (0 : real_realType)] `&` (phi : real_realType -> real_realType) @^-1` B = [set 0].
      by rewrite predeqE => x; split => [[]//|/= ->]; split.
    exact: measurable_set1.
  have -> : [set (0 : real_realType)] `&` (phi : real_realType -> real_realType) @^-1` B = set0.
    by rewrite predeqE => x; split => [[/= -> //]|].
  exact: measurable0.
have -> : setT `&` (phi : real_realType -> real_realType) @^-1` B =
    ([set x : real_realType | x < 0] `&` phi @^-1` B) `|` ([set x : real_realType | x > 0] `&` phi @^-1` B)
    `|` ([set (0 : real_realType)] `&` phi @^-1` B).
  rewrite predeqE => x; split; last by case => [[[_ Bx]|[_ Bx]]|[_ Bx]].
  by move=> [_ Bx]; case: (ltgtP x 0) => [xn|xp|x0]; [left; left | left; right | right].
apply: measurableU => //; apply: measurableU.
- by apply: mN => //; exact: open_measurable.
- by apply: mP => //; exact: open_measurable.
Qed.
End meas_off0.

Lemma measurable_ln_abs : measurable_fun setT ((fun y => ln (Rabs y)) : real_realType -> real_realType).
Proof.
apply: measurable_fun_continuous_off0 => y y0.
have ay : Rlt 0 (Rabs y) by apply: Rabs_pos_lt.
apply: (continuity_pt_comp Rabs ln y (Rcontinuity_abs y)).
exact: (derivable_continuous_pt _ _ (exist _ (Rinv (Rabs y)) (derivable_pt_lim_ln _ ay))).
Qed.

Lemma measurable_Rinv : measurable_fun setT (Rinv : real_realType -> real_realType).
Proof.
apply: measurable_fun_continuous_off0 => y y0.
exact: (continuity_pt_inv id y (derivable_continuous_pt _ _ (derivable_pt_id y)) y0).
Qed.

Lemma measurable_kl_integrand d (T : measurableType d) (f g : T -> real_realType) :
  (forall x, Rle 0 (f x)) -> (forall x, Rlt 0 (g x)) -> measurable_fun setT f -> measurable_fun setT g ->
  measurable_fun setT (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))) : real_realType)).
Proof.
move=> f0 g0 mf mg.
have -> : (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))) : real_realType)) =
    (fun x => f x * (fun y => ln (Rabs y)) ((fun z => f z * Rinv (g z)) x))%R.
  apply: funext => x /=; rewrite Rabs_pos_eq //.
  by apply: Rle_mult_inv_pos.
apply: measurable_funM => //.
apply: (measurable_fun_comp measurable_ln_abs).
apply: measurable_funM => //.
exact: (measurable_fun_comp measurable_Rinv mg).
Qed.

Section kl_binary.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).

Lemma integrable_lincomb (a b : R) (f g : T -> real_realType) (D : set T) : measurable D ->
  mu.-integrable D (EFin \o f) -> mu.-integrable D (EFin \o g) ->
  mu.-integrable D (EFin \o (fun x => a * f x + b * g x)%R).
Proof.
move=> mD i_f i_g.
have iaf : mu.-integrable D (fun x => a%:E * (EFin \o f) x) by exact: integrablerM.
have ibg : mu.-integrable D (fun x => b%:E * (EFin \o g) x) by exact: integrablerM.
apply: (eq_integrable mD _ _ _ (integrableD mD iaf ibg)) => x _.
by rewrite /= EFinD !EFinM.
Qed.

Lemma kl_part_bound (f g : T -> real_realType) (A : set T) (p q : R) :
  (forall x, Rle 0 (f x)) -> (forall x, Rlt 0 (g x)) -> measurable A ->
  mu.-integrable A (EFin \o f) -> mu.-integrable A (EFin \o g) ->
  mu.-integrable A (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E) ->
  \int[mu]_(x in A) (f x)%:E = p%:E -> \int[mu]_(x in A) (g x)%:E = q%:E -> Rle 0 p -> Rle 0 q ->
  (Rmult p (ln (Rdiv p q)))%:E <= \int[mu]_(x in A) (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E.
Proof.
move=> f0 g0 mA i_f i_g i_h fp gq p0 q0.
have bound r : Rlt 0 r ->
    (Rplus (Rmult (Rplus (ln r) 1) p) (Rmult (Ropp r) q))%:E <=
    \int[mu]_(x in A) (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E.
  move=> r0.
  have := @integral_lincomb _ _ mu (Rplus (ln r) 1) (Ropp r) f g A p q mA i_f i_g fp gq.
  rewrite -RmultE -RplusE -RmultE => <-.
  have il := @integrable_lincomb (Rplus (ln r) 1) (Ropp r) f g A mA i_f i_g.
  apply: (@integral_le_integrable _ _ mu _ (fun x => Rmult (f x) (ln (Rdiv (f x) (g x)))) _ mA il i_h).
  move=> x _; apply/RleP.
  have := ln_gibbs_pointwise (f x) (g x) r (f0 x) (g0 x) r0.
  rewrite -!RmultE -!RplusE. lra.
have [v Hv] : exists v : R, \int[mu]_(x in A) (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E = v%:E.
  by exists (fine (\int[mu]_(x in A) (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E)); rewrite fineK //; exact: integral_fune_fin_num.
rewrite Hv lee_fin; rewrite Hv in bound.
have B r : Rlt 0 r -> Rle (Rplus (Rmult (Rplus (ln r) 1) p) (Rmult (Ropp r) q)) v.
  by move=> r0; have := bound r r0; rewrite lee_fin => /RleP.
apply/RleP.
case: (Rle_lt_or_eq_dec 0 q q0) => [qq|q0eq].
  case: (Rle_lt_or_eq_dec 0 p p0) => [pp|p0eq].
    have := B (Rdiv p q) (Rdiv_lt_0_compat _ _ pp qq).
    have -> : Rplus (Rmult (Rplus (ln (Rdiv p q)) 1) p) (Rmult (Ropp (Rdiv p q)) q) = Rmult p (ln (Rdiv p q)).
      by field; lra.
    by [].
  have Hp : p = R0 by rewrite -p0eq.
  rewrite Hp Rmult_0_l.
  case: (Rle_or_lt R0 v) => // vneg.
  have r0 : Rlt 0 (Rdiv (Ropp v) (Rmult 2 q)) by apply: Rdiv_lt_0_compat; lra.
  have := B _ r0; rewrite Hp.
  have -> : Rplus (Rmult (Rplus (ln (Rdiv (Ropp v) (Rmult 2 q))) 1) R0) (Rmult (Ropp (Rdiv (Ropp v) (Rmult 2 q))) q) = Rdiv v 2.
    by field; lra.
  lra.
have Hq : q = R0 by rewrite -q0eq.
case: (Rle_lt_or_eq_dec 0 p p0) => [pp|p0eq].
  exfalso.
  have := B (exp (Rdiv (Rabs v) p)) (exp_pos _); rewrite Hq ln_exp.
  have -> : Rplus (Rmult (Rplus (Rdiv (Rabs v) p) 1) p) (Rmult (Ropp (exp (Rdiv (Rabs v) p))) R0) = Rplus (Rabs v) p.
    by field; lra.
  have := Rle_abs v; lra.
have Hp : p = R0 by rewrite -p0eq.
rewrite Hp Rmult_0_l.
have := B (IZR 1) Rlt_0_1; rewrite Hp Hq ln_1.
have -> : Rplus (Rmult (Rplus 0 1) R0) (Rmult (Ropp 1) R0) = R0 by ring.
by [].
Qed.

Lemma density_integrable (f : T -> real_realType) (D : set T) : measurable D ->
  (forall x, Rle 0 (f x)) -> measurable_fun setT f -> \int[mu]_x (f x)%:E = 1 ->
  mu.-integrable D (EFin \o f).
Proof.
move=> mD f0 mf f1; apply: (integrableS measurableT mD (@subsetT _ D)).
split; first by apply/EFin_measurable_fun.
rewrite (eq_integral (fun x => (f x)%:E)); first by rewrite f1 ltey.
by move=> x _; rewrite /= ger0_norm //; apply/RleP.
Qed.

Lemma density_complement (f : T -> real_realType) (E : set T) (p : R) : measurable E ->
  (forall x, Rle 0 (f x)) -> measurable_fun setT f -> \int[mu]_x (f x)%:E = 1 ->
  \int[mu]_(x in E) (f x)%:E = p%:E -> \int[mu]_(x in ~` E) (f x)%:E = (Rminus 1 p)%:E.
Proof.
move=> mE f0 mf f1 fp.
have iT := density_integrable _ _ measurableT f0 mf f1.
have iC := density_integrable _ _ (measurableC mE) f0 mf f1.
have Fc := integral_fune_fin_num (measurableC mE) iC.
have Hc : \int[mu]_(x in ~` E) (f x)%:E = (fine (\int[mu]_(x in ~` E) (f x)%:E))%:E by rewrite fineK.
move: Hc; set c := fine _ => Hc.
have := @integral_splitC _ _ mu f E mE iT; rewrite f1 fp Hc -EFinD => /eqP; rewrite eqe => /eqP H.
have H' : R1 = Rplus p c := H.
by congr EFin; lra.
Qed.

(** KL DATA PROCESSING ONTO {E, E^c}. f, g: probability densities w.r.t. mu (f >= 0, g > 0 everywhere, measurable,
    int f = int g = 1); the KL integrand f ln(f/g) is mu-integrable (so KL(f||g) is a finite real; the case KL = +oo
    is kl_binary_data_processing_ext); E measurable, p = P(E) = int_E f, q = Q(E) = int_E g (so P(E^c) = 1 - p,
    Q(E^c) = 1 - q). Conclusion: p ln(p/q) + (1-p) ln((1-p)/(1-q)) <= int f ln(f/g) dmu, i.e. the binary KL of
    (P(E), Q(E)) is at most KL(P||Q). g > 0 is the standard absolute continuity P << Q (with g > 0 the ratio f/g is
    defined everywhere); no assumption on q: q = 0 forces p = 0 (0 ln 0 = 0) and q = 1 likewise for 1 - p. *)
Theorem kl_binary_data_processing (f g : T -> real_realType) (E : set T) (p q : R) :
  (forall x, Rle 0 (f x)) -> (forall x, Rlt 0 (g x)) ->
  measurable_fun setT f -> measurable_fun setT g ->
  \int[mu]_x (f x)%:E = 1 -> \int[mu]_x (g x)%:E = 1 ->
  mu.-integrable setT (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E) ->
  measurable E -> \int[mu]_(x in E) (f x)%:E = p%:E -> \int[mu]_(x in E) (g x)%:E = q%:E ->
  (Rplus (Rmult p (ln (Rdiv p q))) (Rmult (Rminus 1 p) (ln (Rdiv (Rminus 1 p) (Rminus 1 q)))))%:E
    <= \int[mu]_x (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E.
Proof.
move=> f0 g0 mf mg f1 g1 ih mE fp gq.
have mEc : measurable (~` E) by apply: measurableC.
have g0' x : Rle 0 (g x) by apply: Rlt_le.
have fc := density_complement _ _ _ mE f0 mf f1 fp.
have gc := density_complement _ _ _ mE g0' mg g1 gq.
have p0 : Rle 0 p.
  have : 0 <= \int[mu]_(x in E) (f x)%:E by apply: integral_ge0 => x _; rewrite lee_fin; apply/RleP.
  by rewrite fp lee_fin => /RleP.
have p1 : Rle 0 (Rminus 1 p).
  have : 0 <= \int[mu]_(x in ~` E) (f x)%:E by apply: integral_ge0 => x _; rewrite lee_fin; apply/RleP.
  by rewrite fc lee_fin => /RleP.
have q0 : Rle 0 q.
  have : 0 <= \int[mu]_(x in E) (g x)%:E by apply: integral_ge0 => x _; rewrite lee_fin; apply/RleP.
  by rewrite gq lee_fin => /RleP.
have q1 : Rle 0 (Rminus 1 q).
  have : 0 <= \int[mu]_(x in ~` E) (g x)%:E by apply: integral_ge0 => x _; rewrite lee_fin; apply/RleP.
  by rewrite gc lee_fin => /RleP.
rewrite (@integral_splitC _ _ mu _ E mE ih) EFinD.
apply: lee_add.
- apply: kl_part_bound => //.
  + exact: density_integrable.
  + exact: density_integrable.
  + exact: (integrableS measurableT mE (@subsetT _ E)).
- apply: kl_part_bound => //.
  + exact: density_integrable.
  + exact: density_integrable.
  + exact: (integrableS measurableT mEc (@subsetT _ (~` E))).
Qed.

(** The same with KL(f||g) as an extended-real integral that may be +oo, with no integrability hypothesis: the
    integrand f ln(f/g) is measurable (measurable_kl_integrand) and its negative part is at most g
    (f ln(f/g) >= f - g), so the integral exists in ]-oo, +oo]; when it is +oo the bound is trivial. *)
Theorem kl_binary_data_processing_ext (f g : T -> real_realType) (E : set T) (p q : R) :
  (forall x, Rle 0 (f x)) -> (forall x, Rlt 0 (g x)) ->
  measurable_fun setT f -> measurable_fun setT g ->
  \int[mu]_x (f x)%:E = 1 -> \int[mu]_x (g x)%:E = 1 ->
  measurable E -> \int[mu]_(x in E) (f x)%:E = p%:E -> \int[mu]_(x in E) (g x)%:E = q%:E ->
  (Rplus (Rmult p (ln (Rdiv p q))) (Rmult (Rminus 1 p) (ln (Rdiv (Rminus 1 p) (Rminus 1 q)))))%:E
    <= \int[mu]_x (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E.
Proof.
move=> f0 g0 mf mg f1 g1 mE fp gq.
have mh := @measurable_kl_integrand _ T f g f0 g0 mf mg.
case: (pselect (mu.-integrable setT (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E))) => ih.
  exact: (kl_binary_data_processing _ _ _ _ _ f0 g0 mf mg f1 g1 ih mE fp gq).
set H := (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E).
have mH : measurable_fun setT H by apply/EFin_measurable_fun.
have absoo : \int[mu]_x `|H x| = +oo.
  apply/eqP; rewrite -leye_eq leNgt; apply/negP => Hlt; apply: ih; split => //.
have Hge x : (Rminus (f x) (g x))%:E <= H x.
  rewrite lee_fin; apply/RleP.
  have := ln_gibbs_pointwise (f x) (g x) (IZR 1) (f0 x) (g0 x) Rlt_0_1.
  rewrite ln_1; lra.
have negle : \int[mu]_x H^\- x <= 1.
  rewrite -g1; apply: ge0_le_integral => //.
  - exact: emeasurable_fun_funeneg.
  - by move=> x _; rewrite lee_fin; apply/RleP/Rlt_le.
  - by apply/EFin_measurable_fun.
  - move=> x _; rewrite /funeneg le_maxl; apply/andP; split; last by rewrite lee_fin; apply/RleP/Rlt_le.
    rewrite lee_oppl; apply: le_trans (Hge x); rewrite -EFinN lee_fin; apply/RleP.
    have := f0 x; rewrite -RoppE; lra.
have neg0 : 0 <= \int[mu]_x H^\- x by apply: integral_ge0 => x _; exact: funeneg_ge0.
have negfin : \int[mu]_x H^\- x \is a fin_num.
  by rewrite ge0_fin_numE // (le_lt_trans negle) // ltey.
have posoo : \int[mu]_x H^\+ x = +oo.
  move: absoo; rewrite (eq_integral (fun x => H^\+ x + H^\- x)); last by move=> x _; rewrite -/((abse \o H) x) fune_abse.
  rewrite ge0_integralD //; last 2 first.
  - exact: emeasurable_fun_funepos.
  - exact: emeasurable_fun_funeneg.
  move=> Hs; apply/eqP; rewrite -leye_eq leNgt; apply/negP => alt.
  have : \int[mu]_x H^\+ x + \int[mu]_x H^\- x < +oo.
    by apply: lte_add_pinfty => //; rewrite -(fineK negfin) ltey.
  by rewrite Hs ltxx.
rewrite integralE posoo.
by rewrite -(fineK negfin) /= leey.
Qed.
End kl_binary.

(* the sets [t, +oo[ of R as sets (as in MeasureDP.chernoff_bound) *)
From mathcomp Require Import interval.
From mathcomp.classical Require Import set_interval.

Section markov_restricted.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).

(** MARKOV'S INEQUALITY. Y measurable and nonnegative (the standard hypotheses: int Y is then defined in [0, +oo]),
    t > 0: mu[Y >= t] <= (1/t) int Y dmu (mu any measure). *)
Theorem markov_inequality (Y : T -> real_realType) (t : R) :
  (forall x, Rle 0 (Y x)) -> measurable_fun setT Y -> Rlt 0 t ->
  mu [set x | Rle t (Y x)] <= (Rinv t)%:E * \int[mu]_x (Y x)%:E.
Proof.
move=> Y0 mY t0.
have mA : measurable [set x | Rle t (Y x)].
  have -> : [set x | Rle t (Y x)] = setT `&` Y @^-1` `[(t : real_realType), +oo[%classic.
    rewrite predeqE => x /=; rewrite in_itv /= andbT; split; first by move=> H; split => //; apply/RleP.
    by move=> [_ /RleP].
  by apply: (mY measurableT); apply: measurable_itv.
have it0 : Rle 0 (Rinv t) by apply/Rlt_le/Rinv_0_lt_compat.
have mYE : measurable_fun setT (fun x => (Y x)%:E) by apply/EFin_measurable_fun.
rewrite -ge0_integralM //; last 2 first.
- by move=> x _; rewrite lee_fin; apply/RleP.
- by rewrite lee_fin; apply/RleP.
have -> : mu [set x | Rle t (Y x)] = \int[mu]_x (\1_[set x | Rle t (Y x)] x : real_realType)%:E.
  by rewrite integral_indic // setIT.
apply: ge0_le_integral => //.
- by move=> x _; rewrite lee_fin indicE; case: (x \in _) => /=; [exact: ler01 | exact: lexx].
- by apply/EFin_measurable_fun; apply: measurable_fun_indic.
- by move=> x _; rewrite -EFinM lee_fin; apply/RleP; apply: Rmult_le_pos.
- by apply: measurable_funeM.
- move=> x _; rewrite indicE -EFinM lee_fin; apply/RleP; case: (boolP (x \in _)) => [xA|_] /=.
  + move: xA; rewrite inE /= => H.
    rewrite -RmultE.
    have := Rmult_le_compat_l (Rinv t) t (Y x) it0 H.
    rewrite Rinv_l; last by lra.
    by [].
  + by apply: Rmult_le_pos.
Qed.

(** RESTRICTED EXPECTATION. Y measurable and nonnegative, F measurable: int_F Y dmu <= int Y dmu (monotonicity of
    the integral of a nonnegative function in the domain). Nonnegativity is needed (a negative Y off F would fail). *)
Theorem restricted_expectation_le (Y : T -> real_realType) (F : set T) :
  (forall x, Rle 0 (Y x)) -> measurable_fun setT Y -> measurable F ->
  \int[mu]_(x in F) (Y x)%:E <= \int[mu]_x (Y x)%:E.
Proof.
move=> Y0 mY mF; apply: subset_integral => //.
- by apply/EFin_measurable_fun.
- by move=> x _; rewrite lee_fin; apply/RleP.
Qed.

(** CONDITIONAL EXPECTATION BOUND. The same, divided by P(F) = pF > 0 (finite): E[Y | F] = (1/P(F)) int_F Y dmu
    <= (1/P(F)) int Y dmu = E[Y]/P(F). *)
Theorem conditional_expectation_le (Y : T -> real_realType) (F : set T) (pF : R) :
  (forall x, Rle 0 (Y x)) -> measurable_fun setT Y -> measurable F -> mu F = pF%:E -> Rlt 0 pF ->
  (Rinv pF)%:E * \int[mu]_(x in F) (Y x)%:E <= (Rinv pF)%:E * \int[mu]_x (Y x)%:E.
Proof.
move=> Y0 mY mF _ p0; apply: lee_wpmul2l.
- by rewrite lee_fin; apply/RleP/Rlt_le/Rinv_0_lt_compat.
- exact: restricted_expectation_le.
Qed.
End markov_restricted.

Section square_integrable.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).
Hypothesis mu1 : mu setT = 1.

Lemma abs_le_R (x B : real_realType) : Rle (Ropp B) x -> Rle x B -> (`|x| <= B)%R.
Proof. by move=> h1 h2; rewrite ler_norml; apply/andP; split; apply/RleP. Qed.

Lemma integrable_cst_prob (c : R) : mu.-integrable setT (fun _ => c%:E).
Proof.
split; first exact: measurable_fun_cst.
have -> : \int[mu]_x `|c%:E| = \int[mu]_x (cst `|c|%:E) x by [].
by rewrite integral_cst // mu1 mule1 ltey.
Qed.

Lemma integrable_sq_integrable (h : T -> real_realType) : measurable_fun setT h ->
  mu.-integrable setT (fun x => (Rsqr (h x))%:E) -> mu.-integrable setT (EFin \o h).
Proof.
move=> mh ih2.
have i1 := integrable_cst_prob 1.
apply: (le_integrable measurableT _ _ (integrableD measurableT i1 ih2)).
  by apply/EFin_measurable_fun.
move=> x _ /=.
have H0 : Rle 0 (Rplus 1 (Rsqr (h x))) by have := Rle_0_sqr (h x); lra.
have H1 : Rle (Ropp (Rplus 1 (Rsqr (h x)))) (h x) by rewrite /Rsqr; nra.
have H2 : Rle (h x) (Rplus 1 (Rsqr (h x))) by rewrite /Rsqr; nra.
rewrite lee_fin [X in (_ <= X)%R]ger0_norm; last by apply/RleP; exact: H0.
exact: abs_le_R.
Qed.

Lemma integrable_sq_shift (h : T -> real_realType) (m : R) : measurable_fun setT h ->
  mu.-integrable setT (fun x => (Rsqr (h x))%:E) -> mu.-integrable setT (fun x => (Rsqr (Rminus (h x) m))%:E).
Proof.
move=> mh ih2.
have i1 := integrable_cst_prob (Rmult 2 (Rsqr m)).
have i2 : mu.-integrable setT (fun x => (2%R)%:E * (Rsqr (h x))%:E) by exact: integrablerM.
apply: (le_integrable measurableT _ _ (integrableD measurableT i2 i1)).
  apply/EFin_measurable_fun.
  have -> : (fun x => Rsqr (Rminus (h x) m)) = (fun x => (h x - m) ^+ 2)%R.
    by apply: funext => x; rewrite /Rsqr expr2.
  by apply: measurable_fun_sqr; apply: measurable_funB => //; exact: measurable_fun_cst.
move=> x _ /=.
have H0 : Rle 0 (Rplus (Rmult 2 (Rsqr (h x))) (Rmult 2 (Rsqr m))).
  by have := Rle_0_sqr (h x); have := Rle_0_sqr m; lra.
have H1 : Rle (Rsqr (Rminus (h x) m)) (Rplus (Rmult 2 (Rsqr (h x))) (Rmult 2 (Rsqr m))) by have := Rle_0_sqr (Rplus (h x) m); rewrite /Rsqr; nra.
rewrite lee_fin [X in (_ <= X)%R]ger0_norm; last by apply/RleP; exact: H0.
rewrite ger0_norm; last by apply/RleP; apply: Rle_0_sqr.
by apply/RleP; exact: H1.
Qed.

Lemma integral_shift_mean (h : T -> real_realType) (m : R) : measurable_fun setT h ->
  mu.-integrable setT (fun x => (Rsqr (h x))%:E) -> \int[mu]_x (h x)%:E = m%:E ->
  \int[mu]_x (Rminus (h x) m)%:E = 0.
Proof.
move=> mh ih2 hm.
have ih := integrable_sq_integrable _ mh ih2.
have ic := integrable_cst_prob m.
have := @integralB_EFin _ _ _ mu setT h (fun _ => m) measurableT ih ic.
rewrite (eq_integral (fun x => (Rminus (h x) m)%:E)) //.
move=> ->; rewrite hm.
have -> : \int[mu]_x (m%:E) = \int[mu]_x (cst m%:E) x by [].
by rewrite integral_cst // mu1 mule1 subee.
Qed.
End square_integrable.

Section variance_two.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d1 d2 (T1 : measurableType d1) (T2 : measurableType d2).
Context (m1 : {measure set T1 -> \bar real_realType}) (m2 : {measure set T2 -> \bar real_realType}).
Hypothesis sm2 : sigma_finite setT m2.

Let sqm d (T : measurableType d) (h : T -> real_realType) :
  measurable_fun setT h -> measurable_fun setT (fun x => (Rsqr (h x) : real_realType)).
Proof.
move=> mh; have -> : (fun x => (Rsqr (h x) : real_realType)) = (fun x => h x ^+ 2)%R by apply: funext => x; rewrite /Rsqr expr2.
exact: measurable_fun_sqr.
Qed.

Let integrable_ge0_fin d (T : measurableType d) (mu : {measure set T -> \bar real_realType}) (h : T -> real_realType) :
  (forall x, Rle 0 (h x)) -> measurable_fun setT h -> \int[mu]_x (h x)%:E < +oo -> mu.-integrable setT (EFin \o h).
Proof.
move=> h0 mh hoo; split; first by apply/EFin_measurable_fun.
rewrite (eq_integral (fun x => (h x)%:E)) // => x _ /=.
by rewrite ger0_norm //; apply/RleP.
Qed.

(** VARIANCE OF A SUM OF TWO INDEPENDENT TERMS. On the product m1 x m2 of two probability measures (m2 sigma-finite,
    as product_measure1 requires), S a measurable function of the first coordinate with E[S^2] < oo and X a
    measurable function of the second, integrable, with E[X^2] < oo and E[X] = 0:
    E[(S + X)^2] = E[S^2] + E[X^2]. The cross term E[S X] = E[S E[X]] = 0 by Fubini (fubini1); its integrability
    from |S X| <= S^2 + X^2. *)
Theorem variance_two_factors (S : T1 -> real_realType) (X : T2 -> real_realType) :
  m1 setT = 1 -> m2 setT = 1 -> measurable_fun setT S -> measurable_fun setT X ->
  \int[m1]_x (Rsqr (S x))%:E < +oo -> m2.-integrable setT (EFin \o X) ->
  \int[m2]_y (Rsqr (X y))%:E < +oo -> \int[m2]_y (X y)%:E = 0 ->
  \int[product_measure1 m1 sm2]_z (Rsqr (Rplus (S z.1) (X z.2)))%:E =
    \int[m1]_x (Rsqr (S x))%:E + \int[m2]_y (Rsqr (X y))%:E.
Proof.
move=> m11 m21 mS mX S2 iX X2 X0.
have mS1 : measurable_fun setT (fun z : T1 * T2 => S z.1) := measurable_fun_comp mS (@measurable_fst2 _ _ T1 T2).
have mX2 : measurable_fun setT (fun z : T1 * T2 => X z.2) := measurable_fun_comp mX (@measurable_snd2 _ _ T1 T2).
have sq0 a : Rle 0 (Rsqr a) by apply: Rle_0_sqr.
have one0 : forall y : T2, Rle 0 1 by move=> _; lra.
have one0' : forall y : T1, Rle 0 1 by move=> _; lra.
have int1 d (T : measurableType d) (mu : {measure set T -> \bar real_realType}) :
    mu setT = 1 -> \int[mu]_x (1%R)%:E = 1.
  move=> mu1; have -> : \int[mu]_x (1%R)%:E = \int[mu]_x (cst 1) x by [].
  by rewrite integral_cst // mu1 mule1.
(* the three terms *)
have IA : \int[product_measure1 m1 sm2]_z (Rsqr (S z.1))%:E = \int[m1]_x (Rsqr (S x))%:E.
  have := @product_expectation _ _ T1 T2 m1 m2 sm2 (fun x => Rsqr (S x)) (fun _ => R1) (fun x => sq0 (S x)) one0
    (sqm _ _ _ mS) (measurable_fun_cst _).
  rewrite int1 // mule1 => <-; apply: eq_integral => z _; by rewrite Rmult_1_r.
have IB : \int[product_measure1 m1 sm2]_z (Rsqr (X z.2))%:E = \int[m2]_y (Rsqr (X y))%:E.
  have := @product_expectation _ _ T1 T2 m1 m2 sm2 (fun _ => R1) (fun y => Rsqr (X y)) one0' (fun y => sq0 (X y))
    (measurable_fun_cst _) (sqm _ _ _ mX).
  rewrite int1 // mul1e => <-; apply: eq_integral => z _; by rewrite Rmult_1_l.
have iA : (product_measure1 m1 sm2).-integrable setT (EFin \o (fun z : T1 * T2 => Rsqr (S z.1))).
  by apply: integrable_ge0_fin => //; [exact: sqm | rewrite IA].
have iB : (product_measure1 m1 sm2).-integrable setT (EFin \o (fun z : T1 * T2 => Rsqr (X z.2))).
  by apply: integrable_ge0_fin => //; [exact: sqm | rewrite IB].
have mC : measurable_fun setT (fun z : T1 * T2 => (Rmult (S z.1) (X z.2) : real_realType)).
  exact: measurable_funM mS1 mX2.
have iC : (product_measure1 m1 sm2).-integrable setT (EFin \o (fun z : T1 * T2 => Rmult (S z.1) (X z.2))).
  apply: (le_integrable measurableT _ _ (integrableD measurableT iA iB)); first by apply/EFin_measurable_fun.
  move=> z _ /=.
  have H0 : Rle 0 (Rplus (Rsqr (S z.1)) (Rsqr (X z.2))) by have := sq0 (S z.1); have := sq0 (X z.2); lra.
  have H1 : Rle (Ropp (Rplus (Rsqr (S z.1)) (Rsqr (X z.2)))) (Rmult (S z.1) (X z.2)).
    by have := Rle_0_sqr (Rplus (S z.1) (X z.2)); rewrite /Rsqr; nra.
  have H2 : Rle (Rmult (S z.1) (X z.2)) (Rplus (Rsqr (S z.1)) (Rsqr (X z.2))).
    by have := Rle_0_sqr (Rminus (S z.1) (X z.2)); rewrite /Rsqr; nra.
  rewrite lee_fin [X in (_ <= X)%R]ger0_norm; last by apply/RleP; exact: H0.
  exact: abs_le_R.
have IC : \int[product_measure1 m1 sm2]_z (Rmult (S z.1) (X z.2))%:E = 0.
  have mCE : measurable_fun setT (fun z : T1 * T2 => (Rmult (S z.1) (X z.2))%:E) by apply/EFin_measurable_fun.
  rewrite -(fubini1 mCE iC) /fubini_F /=.
  rewrite (eq_integral (cst 0)); first by rewrite integral0.
  move=> x _ /=.
  rewrite (eq_integral (fun y => (S x)%:E * (X y)%:E)); last by move=> y _; rewrite EFinM.
  by rewrite integralM // X0 mule0.
(* (S + X)^2 = S^2 + X^2 + 2 S X *)
rewrite (eq_integral (fun z => (Rsqr (S z.1))%:E + ((Rsqr (X z.2))%:E + (2%R)%:E * (Rmult (S z.1) (X z.2))%:E))); last first.
  move=> z _; rewrite -EFinM -!EFinD; congr EFin.
  have E : Rsqr (Rplus (S z.1) (X z.2)) = Rplus (Rsqr (S z.1)) (Rplus (Rsqr (X z.2)) (Rmult 2 (Rmult (S z.1) (X z.2)))).
    by rewrite /Rsqr; ring.
  exact: E.
have i2C : (product_measure1 m1 sm2).-integrable setT (fun z : T1 * T2 => (2%R)%:E * (EFin \o (fun z : T1 * T2 => Rmult (S z.1) (X z.2))) z).
  exact: integrablerM.
rewrite (integralD measurableT iA (integrableD measurableT iB i2C)).
rewrite (integralD measurableT iB i2C).
rewrite (integralM measurableT iC).
have -> : \int[product_measure1 m1 sm2]_x (EFin \o (fun z : T1 * T2 => Rmult (S z.1) (X z.2))) x = 0 by exact: IC.
have -> : \int[product_measure1 m1 sm2]_x (EFin \o (fun z : T1 * T2 => Rsqr (S z.1))) x = \int[m1]_x (Rsqr (S x))%:E by exact: IA.
have -> : \int[product_measure1 m1 sm2]_x (EFin \o (fun z : T1 * T2 => Rsqr (X z.2))) x = \int[m2]_y (Rsqr (X y))%:E by exact: IB.
by rewrite mule0 adde0.
Qed.
End variance_two.

Section iid_variance.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (P : {measure set T -> \bar real_realType}).
Hypothesis sP : sigma_finite setT P.

(** the centred sum (f(z_0) - m) + ... + (f(z_k) - m) of a function of each of the k+1 draws
    z = (((z_0, z_1), ...), z_k) of TK k (MeasureDP) *)
Fixpoint centsumK (f : T -> real_realType) (m : R) (k : nat) : TK d T k -> real_realType :=
  match k as k return TK d T k -> real_realType with
  | 0 => fun x => Rminus (f x) m
  | S k => fun z => Rplus (centsumK f m k z.1) (Rminus (f z.2) m) end.

Lemma centsumK_measurable f m k : measurable_fun setT f -> measurable_fun setT (centsumK f m k).
Proof.
move=> mf.
have mX : measurable_fun setT (fun x => (Rminus (f x) m : real_realType)).
  by apply: measurable_funB => //; exact: measurable_fun_cst.
elim: k => [//|k IH] /=.
have := measurable_funD (measurable_fun_comp IH (@measurable_fst2 _ _ (TK d T k) T))
  (measurable_fun_comp mX (@measurable_snd2 _ _ (TK d T k) T)).
exact.
Qed.

Lemma PK_setT k : P setT = 1 -> PK d T P sP k setT = 1.
Proof.
move=> P1; elim: k => [//|k IH] /=.
by rewrite -setMTT product_measure1E // IH P1 mule1.
Qed.

(** VARIANCE OF A SUM (HENCE OF A MEAN) OF I.I.D. ROWS. P a probability measure (P(T) = 1, sigma-finite), f
    measurable with int f^2 dP < oo (f in L^2, the standard hypothesis for a variance), m = int f dP its mean; on
    the (k+1)-fold product (TK k, PK k of MeasureDP.v: k+1 independent draws from P):
    int (sum_{i<=k} (f(z_i) - m))^2 dP^(k+1) = (k+1) int (f - m)^2 dP. Dividing by (k+1)^2: the mean of k+1 i.i.d.
    rows has variance Var(f)/(k+1). Induction on k with variance_two_factors on (T^(k+1)) x T. *)
Theorem iid_variance_of_sum (f : T -> real_realType) (m : R) (k : nat) :
  P setT = 1 -> measurable_fun setT f -> P.-integrable setT (fun x => (Rsqr (f x))%:E) ->
  \int[P]_x (f x)%:E = m%:E ->
  \int[PK d T P sP k]_z (Rsqr (centsumK f m k z))%:E = (INR k.+1)%:E * \int[P]_x (Rsqr (Rminus (f x) m))%:E.
Proof.
move=> P1 mf if2 fm.
have mX : measurable_fun setT (fun x => (Rminus (f x) m : real_realType)).
  by apply: measurable_funB => //; exact: measurable_fun_cst.
have iX2 := @integrable_sq_shift _ _ P P1 f m mf if2.
have iX := @integrable_sq_integrable _ _ P P1 _ mX iX2.
have X0 := @integral_shift_mean _ _ P P1 f m mf if2 fm.
have [v Hv] : exists v : R, \int[P]_x (Rsqr (Rminus (f x) m))%:E = v%:E.
  by exists (fine (\int[P]_x (Rsqr (Rminus (f x) m))%:E)); rewrite fineK //; exact: integral_fune_fin_num iX2.
rewrite Hv.
elim: k => [|k IH]; first by rewrite /= Hv mul1e.
rewrite /=.
rewrite (@variance_two_factors _ _ (TK d T k) T (PK d T P sP k) P sP (centsumK f m k) (fun x => Rminus (f x) m)) //.
- rewrite IH Hv -EFinM -EFinD; congr EFin.
  have E : Rplus (Rmult (INR k.+1) v) v = Rmult (INR k.+2) v by rewrite (S_INR k.+1); ring.
  exact: E.
- exact: PK_setT.
- exact: centsumK_measurable.
- by rewrite IH -EFinM ltey.
- by rewrite Hv ltey.
Qed.
End iid_variance.
