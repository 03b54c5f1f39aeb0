(* Measure-theoretic steps shared by the proof files (round 14, issue 33), over ANY measure space (T, mu) of
   mathcomp-analysis 0.6.0, Coq's R made a realType by Rstruct:
   - dp_of_pointwise_measure: a pointwise bound f <= c g between nonnegative measurable densities integrates to
     int_E f dmu <= c int_E g dmu for every measurable event E (monotonicity and homogeneity of the Lebesgue integral:
     ge0_le_integral, ge0_integralM). This is the step that the INTEGRATION premise stood for; its finite-space form is
     FiniteDP.dp_of_pointwise.
   - truncated_density_normalised: a probability density f, an event E of probability P[E] = int_E f < 1: the
     truncated density f' = f/(1 - P[E]) off E, 0 on E, integrates to 1 (additivity of the integral over E and its
     complement: integral_setU).
   Print Assumptions shows, besides the classical reals, mathcomp's classical axioms (boolp) and Hilbert's epsilon
   (Rstruct). Needs Debian's libcoq-mathcomp-analysis. *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets functions mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import Order.TTheory GRing.Theory Num.Theory.

Section measure_dp.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).

Lemma dp_of_pointwise_measure (c : R) (f g : T -> real_realType) (E : set T) :
  Rle 0 c -> (forall x, Rle 0 (f x)) -> (forall x, Rle 0 (g x)) ->
  measurable_fun setT f -> measurable_fun setT g ->
  (forall x, Rle (f x) (Rmult c (g x))) -> measurable E ->
  \int[mu]_(x in E) (f x)%:E <= c%:E * \int[mu]_(x in E) (g x)%:E.
Proof.
move=> Hc Hf Hg mf mg Hfg mE.
have meas h : measurable_fun setT h -> measurable_fun E (fun y => (h y : real_realType)%:E).
  by move=> mh; apply/EFin_measurable_fun; apply: (measurable_funS measurableT).
rewrite -ge0_integralM //; last 2 first.
- by move=> y _; rewrite lee_fin; apply/RleP.
- by rewrite lee_fin; apply/RleP.
apply: ge0_le_integral => //.
- by move=> y _; rewrite lee_fin; apply/RleP.
- exact: meas.
- by move=> y _; rewrite -EFinM lee_fin; apply/RleP; apply: Rmult_le_pos.
- by apply: measurable_funeM; exact: meas.
- by move=> y _; rewrite -EFinM lee_fin; apply/RleP.
- exact: meas.
Qed.

Lemma truncated_density_normalised (f : T -> real_realType) (E : set T) (p : R) :
  (forall x, Rle 0 (f x)) -> measurable_fun setT f -> \int[mu]_x (f x)%:E = 1 ->
  measurable E -> \int[mu]_(x in E) (f x)%:E = p%:E -> Rlt p 1 ->
  \int[mu]_x ((if x \in E then R0 else Rdiv (f x) (Rminus 1 p)) : real_realType)%:E = 1.
Proof.
move=> f0 mf f1 mE fE p1.
have mEc : measurable (~` E) by apply: measurableC.
have UE : E `|` ~` E = setT by rewrite setUCr.
have dE : [disjoint E & ~` E] by rewrite disj_set2E setICr.
have split (h : T -> \bar real_realType) : measurable_fun setT h -> (forall x, 0 <= h x) ->
    \int[mu]_x h x = \int[mu]_(x in E) h x + \int[mu]_(x in ~` E) h x.
  by move=> mh h0; rewrite -{1}UE integral_setU // UE.
have mF : measurable_fun setT (fun x => (f x)%:E) by apply/EFin_measurable_fun.
have F0 x : 0 <= (f x)%:E by rewrite lee_fin; apply/RleP.
have p1' : (1 - p != 0)%R by rewrite subr_eq0; apply/eqP => H; move: p1; rewrite -H; exact: Rlt_irrefl.
have fEc : \int[mu]_(x in ~` E) (f x)%:E = (1 - p)%:E.
  have Xge0 : 0 <= \int[mu]_(x in ~` E) (f x)%:E by apply: integral_ge0.
  have Xle1 : \int[mu]_(x in ~` E) (f x)%:E <= 1.
    by rewrite -f1; apply: subset_integral.
  have Xfin : \int[mu]_(x in ~` E) (f x)%:E \is a fin_num.
    by apply/fin_numPlt; rewrite (lt_le_trans _ Xge0) ?ltNye // (le_lt_trans Xle1) ?ltey.
  have := split _ mF F0; rewrite f1 fE -(fineK Xfin) -EFinD => /eqP; rewrite eqe => /eqP H.
  transitivity ((fine (\int[mu]_(x in ~` E) (f x)%:E))%:E); first by rewrite fineK.
  by congr EFin; rewrite H addrAC subrr add0r.
have mG : measurable_fun setT (fun x => ((if x \in E then R0 else Rdiv (f x) (Rminus 1 p)) : real_realType)%:E).
  apply/EFin_measurable_fun.
  have -> : (fun x => ((if x \in E then R0 else Rdiv (f x) (Rminus 1 p)) : real_realType)) =
            (fun x => (\1_(~` E) x : real_realType) * ((1 - p)^-1 * f x))%R.
    apply: funext => x; rewrite indicE in_setC; case: (x \in E) => /=; first by rewrite mul0r.
    by rewrite mul1r RdivE // mulrC.
  apply: measurable_funM; first exact: measurable_fun_indic.
  exact: measurable_funrM.
have G0 x : 0 <= ((if x \in E then R0 else Rdiv (f x) (Rminus 1 p)) : real_realType)%:E.
  rewrite lee_fin; case: (x \in E); first by [].
  rewrite RdivE //; apply: divr_ge0; first by apply/RleP.
  by rewrite subr_ge0; apply/ltW/RltP.
rewrite (split _ mG G0).
rewrite [X in X + _](eq_integral (cst 0)); last by move=> x xE /=; rewrite xE.
rewrite integral0 add0e.
rewrite (eq_integral (fun x => ((1 - p)^-1)%:E * (f x)%:E)); last first.
  move=> x; rewrite inE /= => xE; rewrite ifF; last by apply/negbTE/negP; rewrite inE.
  by rewrite -EFinM RdivE // mulrC.
rewrite ge0_integralM //.
- by rewrite fEc -EFinM mulVf.
- exact: (measurable_funS measurableT).
- by rewrite lee_fin invr_ge0 subr_ge0; apply/ltW/RltP.
Qed.

End measure_dp.
