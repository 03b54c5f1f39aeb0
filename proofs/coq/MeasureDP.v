(* Measure-theoretic steps shared by the proof files (round 14, issue 33), over ANY measure space (T, mu) of
   mathcomp-analysis 0.6.0, Coq's R made a realType by Rstruct:
   - dp_of_pointwise_measure: a pointwise bound f <= c g between nonnegative measurable densities integrates to
     int_E f dmu <= c int_E g dmu for every measurable event E (monotonicity and homogeneity of the Lebesgue integral:
     ge0_le_integral, ge0_integralM). This is the step that the INTEGRATION premise stood for; its finite-space form is
     FiniteDP.dp_of_pointwise.
   - truncated_density_normalised: a probability density f, an event E of probability P[E] = int_E f < 1: the
     truncated density f' = f/(1 - P[E]) off E, 0 on E, integrates to 1 (additivity of the integral over E and its
     complement: integral_setU).
   - the three facts of probability that zhou-compression Lemma 4.4's Chernoff route uses: chernoff_bound
     (monotonicity of the expectation: P[X >= t] = E[1{X >= t}] <= E[exp(lam (X - t))], lam >= 0),
     iid_product_expectation (the expectation of a product of functions of k+1 independent draws from P is the
     product of their expectations: the integral over the product measure P^(k+1), product_measure1 with
     Fubini-Tonelli, P sigma-finite) and union_bound (finite subadditivity of a measure: content_sub_additive).
   Print Assumptions shows, besides the classical reals, mathcomp's classical axioms (boolp) and Hilbert's epsilon
   (Rstruct). Needs Debian's libcoq-mathcomp-analysis. *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets functions mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import Order.TTheory GRing.Theory Num.Theory.

(** exp(lam (y - t)), the Chernoff weight, continuous in y (a named function: Rstruct's continuity_ptE did not apply
    to the same function written inline as a lambda) *)
Definition chernoff_weight (lam t y : R) : R := exp (Rmult lam (Rminus y t)).
Lemma chernoff_weight_continuous (lam t : R) :
  continuous (fun y : real_realType => (chernoff_weight lam t y : real_realType)).
Proof.
move=> y; apply/continuity_ptE; rewrite /chernoff_weight.
apply: continuity_pt_comp; last exact: derivable_continuous_pt (derivable_pt_exp _).
apply: continuity_pt_mult; first by apply: continuity_pt_const => ? ?.
apply: continuity_pt_minus; first exact: derivable_continuous_pt (derivable_pt_id _).
by apply: continuity_pt_const => ? ?.
Qed.

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

Section union_bound.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).

Lemma union_bound (F : nat -> set T) (n : nat) : (forall k, measurable (F k)) ->
  mu (\big[setU/set0]_(k < n) F k) <= \sum_(k < n) mu (F k).
Proof.
move=> mF; apply: (@content_sub_additive _ _ _ mu (\big[setU/set0]_(k < n) F k) F n).
- by move=> k _; apply: mF.
- by apply: bigsetU_measurable => k _; apply: mF.
- by [].
Qed.
End union_bound.

Section product_expectation.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d1 d2 (T1 : measurableType d1) (T2 : measurableType d2).
Context (m1 : {measure set T1 -> \bar real_realType}) (m2 : {measure set T2 -> \bar real_realType}).
Hypothesis sm2 : sigma_finite setT m2.

Lemma measurable_fst2 : measurable_fun setT (fun z : T1 * T2 => z.1).
Proof. by have [] := (prod_measurable_funP (fun z : T1 * T2 => z)).1 (@measurable_fun_id _ _ _). Qed.
Lemma measurable_snd2 : measurable_fun setT (fun z : T1 * T2 => z.2).
Proof. by have [] := (prod_measurable_funP (fun z : T1 * T2 => z)).1 (@measurable_fun_id _ _ _). Qed.

Lemma product_expectation (f : T1 -> real_realType) (g : T2 -> real_realType) :
  (forall x, Rle 0 (f x)) -> (forall y, Rle 0 (g y)) -> measurable_fun setT f -> measurable_fun setT g ->
  \int[product_measure1 m1 sm2]_z (Rmult (f z.1) (g z.2))%:E =
    \int[m1]_x (f x)%:E * \int[m2]_y (g y)%:E.
Proof.
move=> f0 g0 mf mg.
have mh : measurable_fun setT (fun z : T1 * T2 => (Rmult (f z.1) (g z.2))%:E).
  apply/EFin_measurable_fun.
  exact: (measurable_funM (measurable_fun_comp mf measurable_fst2) (measurable_fun_comp mg measurable_snd2)).
have h0 z : 0 <= (Rmult (f z.1) (g z.2))%:E by rewrite lee_fin; apply/RleP; apply: Rmult_le_pos.
rewrite (@fubini_tonelli1 _ _ _ _ _ m1 m2 sm2 _ mh h0) /fubini_F /=.
have G0 : 0 <= \int[m2]_y (g y)%:E by apply: integral_ge0 => y _; rewrite lee_fin; apply/RleP.
have mgE : measurable_fun setT (fun y => (g y)%:E) by apply/EFin_measurable_fun.
have mfE : measurable_fun setT (fun x => (f x)%:E) by apply/EFin_measurable_fun.
transitivity (\int[m1]_x (\int[m2]_y (g y)%:E * (f x)%:E)).
  apply: eq_integral => x _.
  transitivity (\int[m2]_y ((f x)%:E * (g y)%:E)); first by apply: eq_integral => y _; rewrite EFinM.
  rewrite ge0_integralM //; first by rewrite muleC.
  - by move=> y _; rewrite lee_fin; apply/RleP.
  - by rewrite lee_fin; apply/RleP.
rewrite ge0_integralM //; first by rewrite muleC.
by move=> x _; rewrite lee_fin; apply/RleP.
Qed.
End product_expectation.

Section iid_product.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (P : {measure set T -> \bar real_realType}).
Hypothesis sP : sigma_finite setT P.

(** T^(k+1) with the product sigma-algebra and the product measure P^(k+1): k+1 independent draws from P. *)
Fixpoint idisp (k : nat) : measure_display := match k with 0 => d | S k => (idisp k, d).-prod%mdisp end.
Fixpoint TK (k : nat) : measurableType (idisp k) :=
  match k as k return measurableType (idisp k) with
  | 0 => T
  | S k => [the measurableType (idisp k, d).-prod%mdisp of (TK k * T)%type] end.
Fixpoint PK (k : nat) : {measure set (TK k) -> \bar real_realType} :=
  match k as k return {measure set (TK k) -> \bar real_realType} with
  | 0 => P
  | S k => [the measure _ _ of product_measure1 (PK k) sP] end.
(** the product f(x_0) ... f(x_k) of a function of each draw *)
Fixpoint prodK (f : T -> real_realType) (k : nat) : TK k -> real_realType :=
  match k as k return TK k -> real_realType with
  | 0 => fun x => f x
  | S k => fun z => Rmult (prodK f k z.1) (f z.2) end.

Lemma prodK_ge0 f k : (forall x, Rle 0 (f x)) -> forall z, Rle 0 (prodK f k z).
Proof. by move=> f0; elim: k => [//|k IH] z /=; apply: Rmult_le_pos. Qed.

Lemma prodK_measurable f k : measurable_fun setT f -> measurable_fun setT (prodK f k).
Proof.
move=> mf; elim: k => [//|k IH] /=.
have := measurable_funM (measurable_fun_comp IH (@measurable_fst2 _ _ (TK k) T)) (measurable_fun_comp mf (@measurable_snd2 _ _ (TK k) T)).
exact.
Qed.

Lemma iid_product_expectation (f : T -> real_realType) (k : nat) :
  (forall x, Rle 0 (f x)) -> measurable_fun setT f ->
  \int[PK k]_z (prodK f k z)%:E = (\int[P]_x (f x)%:E) ^+ k.+1.
Proof.
move=> f0 mf; elim: k => [//|k IH].
rewrite /= (@product_expectation _ _ (TK k) T (PK k) P sP (prodK f k) f (prodK_ge0 f k f0) f0 (prodK_measurable f k mf) mf) IH.
by rewrite [in RHS]/expe /= muleC.
Qed.
End iid_product.

(* the sets [t, +oo[ of R as sets (the interval notations of classical_set_scope) *)
From mathcomp Require Import interval.
From mathcomp.classical Require Import set_interval.

Section chernoff.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).

Lemma chernoff_bound (X : T -> real_realType) (t lam : R) : measurable_fun setT X -> Rle 0 lam ->
  mu [set x | Rle t (X x)] <= \int[mu]_x (exp (Rmult lam (Rminus (X x) t)))%:E.
Proof.
move=> mX Hlam.
have mA : measurable [set x | Rle t (X x)].
  have -> : [set x | Rle t (X x)] = setT `&` X @^-1` `[(t : real_realType), +oo[%classic.
    rewrite predeqE => x /=; rewrite in_itv /= andbT; split; first by move=> H; split => //; apply/RleP.
    by move=> [_ /RleP].
  by apply: (mX measurableT); apply: measurable_itv.
have cg := chernoff_weight_continuous lam t.
have mg : measurable_fun setT (fun x => (exp (Rmult lam (Rminus (X x) t)) : real_realType)%:E).
  apply/EFin_measurable_fun.
  exact: (measurable_fun_comp (continuous_measurable_fun cg) mX).
have -> : mu [set x | Rle t (X x)] = \int[mu]_x (\1_[set x | Rle t (X x)] x : real_realType)%:E.
  by rewrite integral_indic // setIT.
apply: ge0_le_integral => //.
- by move=> x _; rewrite lee_fin indicE; case: (x \in _) => /=; [exact: ler01 | exact: lexx].
- by apply/EFin_measurable_fun; apply: measurable_fun_indic.
- by move=> x _; rewrite lee_fin; apply/RleP; apply: Rlt_le; apply: exp_pos.
- move=> x _; rewrite indicE lee_fin; case: (boolP (x \in _)) => [xA|_] /=.
  + apply/RleP; apply: (Rle_trans _ (exp 0)); first by rewrite exp_0; apply: Rle_refl.
    have H0 : Rle 0 (Rmult lam (Rminus (X x) t)).
      by apply: Rmult_le_pos => //; move: xA; rewrite inE /= => H; lra.
    case: (Rle_lt_or_eq_dec _ _ H0) => [Hlt|<-]; [by apply: Rlt_le; apply: exp_increasing | by apply: Rle_refl].
  + by apply/RleP; apply: Rlt_le; apply: exp_pos.
Qed.
End chernoff.

(** The three facts of zhou-compression Lemma 4.4's Chernoff route together (one theorem for the proof file's
    kernel_step): monotonicity of the expectation (chernoff_bound), the expectation of a product of independent
    factors (two factors with any two functions: product_expectation; k+1 independent draws of one law:
    iid_product_expectation), and the union bound. *)
Section chernoff_route.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.

Theorem chernoff_route_facts :
  (forall d (T : measurableType d) (mu : {measure set T -> \bar real_realType}) (X : T -> real_realType) (t lam : R),
     measurable_fun setT X -> Rle 0 lam ->
     mu [set x | Rle t (X x)] <= \int[mu]_x (exp (Rmult lam (Rminus (X x) t)))%:E) /\
  (forall d1 d2 (T1 : measurableType d1) (T2 : measurableType d2) (m1 : {measure set T1 -> \bar real_realType})
     (m2 : {measure set T2 -> \bar real_realType}) (sm2 : sigma_finite setT m2) (f : T1 -> real_realType)
     (g : T2 -> real_realType),
     (forall x, Rle 0 (f x)) -> (forall y, Rle 0 (g y)) -> measurable_fun setT f -> measurable_fun setT g ->
     \int[product_measure1 m1 sm2]_z (Rmult (f z.1) (g z.2))%:E = \int[m1]_x (f x)%:E * \int[m2]_y (g y)%:E) /\
  (forall d (T : measurableType d) (P : {measure set T -> \bar real_realType}) (sP : sigma_finite setT P)
     (f : T -> real_realType) (k : nat),
     (forall x, Rle 0 (f x)) -> measurable_fun setT f ->
     \int[@PK d T P sP k]_z (@prodK d T f k z)%:E = (\int[P]_x (f x)%:E) ^+ k.+1) /\
  (forall d (T : measurableType d) (mu : {measure set T -> \bar real_realType}) (F : nat -> set T) (n : nat),
     (forall k, measurable (F k)) -> mu (\big[setU/set0]_(k < n) F k) <= \sum_(k < n) mu (F k)).
Proof.
split; first exact: chernoff_bound.
split; first exact: product_expectation.
split; first exact: iid_product_expectation.
exact: union_bound.
Qed.
End chernoff_route.
