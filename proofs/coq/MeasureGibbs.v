(* showkatbakhsh-regression Lemma 1 (eqs. (17)-(19)): the mutual information of the additive Gaussian channel
   Y = X + sigma N, |X| <= 1, is at most 1/2 ln(1 + 1/sigma^2) nats (= eps bits at sigma^2 = 1/(2^(2 eps) - 1)),
   for every input law, over ANY measure spaces of mathcomp-analysis 0.6.0
   (Coq's R made a realType by Rstruct, Coq's ln with ln 0 = 0, so 0 ln(0/b) = 0, the usual convention):
   - gibbs_integrated (premise P1): for probability densities f >= 0, g > 0 w.r.t. any measure mu, with f ln f and
     f ln g integrable, - int f ln f <= - int f ln g (h(f) <= cross entropy; i.e. KL(f || g) >= 0).
   - mutual_information_golden (in place of the entropy identity I = h(X + sigma N) - h(sigma N) of (18); the
     conditioning on the other entries, (17), is not here: the theorems bound the channel's I(X; X + sigma N)):
     I(X;Y) is written directly as the KL divergence of the joint law to the product of the marginals,
     I(X;Y) = int_x int_y phi_x(y) ln(phi_x(y)/p_Y(y)) dnu(y) dP_X(x), phi_x the density of Y given X = x w.r.t. an
     output measure nu, p_Y = int phi_x dP_X the output density. For EVERY density q > 0 with int q dnu <= 1:
     I(X;Y) <= int_x int_y phi_x ln(phi_x/q) (the "golden formula": the gap is KL(p_Y || q) >= 0, by Fubini and
     ln t <= t - 1). No entropy is used, hence no chain rule and no differential-entropy finiteness.
   - gaussian_channel_mi_bound: the Gaussian channel phi_x = N(x, sigma^2) density w.r.t. a measure nu on R, with
     q = N(0, 1 + sigma^2): I(X;Y) <= 1/2 ln(1 + 1/sigma^2) for every input law P_X carried by [-1, 1]. The only
     Gaussian facts used are the three Lebesgue integrals int phi_x = 1, int phi_x (y - x)^2 = sigma^2,
     int phi_x y^2 = x^2 + sigma^2 and int q <= 1 (stated as hypotheses about nu; they hold for nu the Lebesgue
     measure). All integrability conditions of the golden formula are derived (p_Y is sandwiched between two
     Gaussian-shaped bounds, so |ln(p_Y/q)| <= D + E y^2).
   Print Assumptions shows, besides the classical reals, mathcomp's classical axioms (boolp) and Hilbert's epsilon
   (Rstruct), as for MeasureKL.v. *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import MeasureDP MeasureKL.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets functions mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import Order.TTheory GRing.Theory Num.Theory.

(** a ln(a/b) = a ln(a/c) - a ln(b/c) for a >= 0, b, c > 0 (both sides 0 when a = 0) *)
Lemma ln_ratio_split (a b c : R) : Rle 0 a -> Rlt 0 b -> Rlt 0 c ->
  Rmult a (ln (Rdiv a b)) = Rminus (Rmult a (ln (Rdiv a c))) (Rmult a (ln (Rdiv b c))).
Proof.
move=> Ha Hb Hc.
case: (Rle_lt_or_eq_dec 0 a Ha) => [Ha'|<-]; last by rewrite !Rmult_0_l; ring.
have L x y : Rlt 0 x -> Rlt 0 y -> ln (Rdiv x y) = Rminus (ln x) (ln y).
  by move=> Hx Hy; rewrite /Rdiv (ln_mult _ _ Hx (Rinv_0_lt_compat _ Hy)) (ln_Rinv _ Hy).
rewrite (L _ _ Ha' Hb) (L _ _ Ha' Hc) (L _ _ Hb Hc); ring.
Qed.

(** a ln(a/b) = a ln a - a ln b for a >= 0, b > 0 *)
Lemma ln_ratio_split1 (a b : R) : Rle 0 a -> Rlt 0 b ->
  Rmult a (ln (Rdiv a b)) = Rminus (Rmult a (ln a)) (Rmult a (ln b)).
Proof.
move=> Ha Hb; rewrite (ln_ratio_split a b 1 Ha Hb Rlt_0_1) /Rdiv Rinv_1 !Rmult_1_r //.
Qed.

Section gibbs.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (mu : {measure set T -> \bar real_realType}).

(** GIBBS' INEQUALITY, INTEGRATED (premise P1). f, g probability densities w.r.t. the measure mu (f >= 0,
    g > 0, measurable, int f = int g = 1), f ln f and f ln g mu-integrable (the differential entropy
    h(f) = - int f ln f and the cross entropy - int f ln g are finite reals): h(f) <= - int f ln g, i.e.
    int f ln(f/g) >= 0. Proof: the pointwise inequality ln t <= t - 1 (ln_gibbs_pointwise) integrated against f
    (MeasureKL.kl_part_bound on the whole space), with f ln(f/g) = f ln f - f ln g. *)
Theorem gibbs_integrated (f g : T -> real_realType) :
  (forall x, Rle 0 (f x)) -> (forall x, Rlt 0 (g x)) ->
  measurable_fun setT f -> measurable_fun setT g ->
  \int[mu]_x (f x)%:E = 1 -> \int[mu]_x (g x)%:E = 1 ->
  mu.-integrable setT (fun x => (Rmult (f x) (ln (f x)))%:E) ->
  mu.-integrable setT (fun x => (Rmult (f x) (ln (g x)))%:E) ->
  - (\int[mu]_x (Rmult (f x) (ln (f x)))%:E) <= - (\int[mu]_x (Rmult (f x) (ln (g x)))%:E).
Proof.
move=> f0 g0 mf mg f1 g1 iff ifg.
have g0' x : Rle 0 (g x) by apply: Rlt_le.
have if_ := @density_integrable _ _ mu _ _ measurableT f0 mf f1.
have ig := @density_integrable _ _ mu _ _ measurableT g0' mg g1.
have EQ : (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E) =
    (fun x => (Rmult (f x) (ln (f x)))%:E - (Rmult (f x) (ln (g x)))%:E).
  by apply: funext => x; rewrite (ln_ratio_split1 _ _ (f0 x) (g0 x)).
have ih : mu.-integrable setT (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E).
  by rewrite EQ; exact: (integrableB measurableT iff ifg).
have := @kl_part_bound _ _ mu f g setT 1 1 f0 g0 measurableT if_ ig ih f1 g1 Rle_0_1 Rle_0_1.
rewrite /Rdiv Rinv_1 Rmult_1_r ln_1 Rmult_0_r EQ.
have -> : \int[mu]_x ((Rmult (f x) (ln (f x)))%:E - (Rmult (f x) (ln (g x)))%:E) =
    \int[mu]_x (Rmult (f x) (ln (f x)))%:E - \int[mu]_x (Rmult (f x) (ln (g x)))%:E.
  exact: (integralB_EFin measurableT iff ifg).
have F1 := integral_fune_fin_num measurableT iff; have F2 := integral_fune_fin_num measurableT ifg.
rewrite -(fineK F1) -(fineK F2) -EFinB -!EFinN !lee_fin => H.
by rewrite ler_oppl opprK -subr_ge0.
Qed.
End gibbs.

(** ln(a/b) is measurable for measurable a, b > 0 *)
Lemma measurable_ln_ratio d (T : measurableType d) (a b : T -> real_realType) :
  (forall x, Rlt 0 (a x)) -> (forall x, Rlt 0 (b x)) -> measurable_fun setT a -> measurable_fun setT b ->
  measurable_fun setT (fun x => (ln (Rdiv (a x) (b x)) : real_realType)).
Proof.
move=> a0 b0 ma mb.
have -> : (fun x => (ln (Rdiv (a x) (b x)) : real_realType)) =
    (fun y => ln (Rabs y)) \o (fun z => a z * Rinv (b z))%R.
  apply: funext => x /=; rewrite Rabs_pos_eq //.
  by apply: Rle_mult_inv_pos; [apply: Rlt_le|].
apply: (measurable_fun_comp measurable_ln_abs).
apply: measurable_funM => //.
exact: (measurable_fun_comp measurable_Rinv mb).
Qed.

Section golden.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.
Context dX dY (TX : measurableType dX) (TY : measurableType dY).
Context (PX : {measure set TX -> \bar real_realType}) (nu : {measure set TY -> \bar real_realType}).

(** THE GOLDEN FORMULA BOUND ON THE MUTUAL INFORMATION OF A CHANNEL (premise P2 not needed). X takes values in
    any measurable type TX with law PX (a probability measure: PX(TX) = 1); Y in any measurable type TY carrying a
    sigma-finite measure nu (Lebesgue measure for the Gaussian channel). phi x y >= 0 is the density of Y given
    X = x w.r.t. nu (jointly measurable, int phi_x dnu = 1 for every x); pY is the output density, defined by
    int phi(x, y) dPX(x) = pY(y), assumed > 0 (true for the Gaussian channel: a mixture of positive densities).
    q > 0 measurable with int q dnu <= 1 (a probability or sub-probability density; any candidate output law).
    Integrability hypotheses (all hold for the Gaussian channel with |X| <= 1 and q Gaussian, see
    gaussian_channel_mi_bound where they are derived): for every x, phi_x ln(phi_x/q) and phi_x ln(pY/q) are
    nu-integrable; x |-> int phi_x ln(phi_x/q) dnu is PX-integrable; int_x int_y |phi_x ln(pY/q)| < oo (joint
    integrability, so that Fubini applies). Conclusion:
    I(X;Y) = int_x int_y phi_x ln(phi_x/pY) <= int_x int_y phi_x ln(phi_x/q). Proof: pointwise
    phi ln(phi/pY) = phi ln(phi/q) - phi ln(pY/q); Fubini turns int_x int_y phi_x ln(pY/q) into
    int_y pY ln(pY/q) = KL(pY || q) >= int (pY - q) = 1 - int q >= 0 (ln t <= t - 1; int pY = 1 by Tonelli). *)
Theorem mutual_information_golden (phi : TX -> TY -> real_realType) (pY q : TY -> real_realType) :
  sigma_finite setT nu -> PX setT = 1 ->
  (forall x y, Rle 0 (phi x y)) ->
  measurable_fun setT (fun z : TX * TY => phi z.1 z.2) ->
  (forall x, \int[nu]_y (phi x y)%:E = 1) ->
  (forall y, \int[PX]_x (phi x y)%:E = (pY y)%:E) ->
  (forall y, Rlt 0 (pY y)) ->
  (forall y, Rlt 0 (q y)) -> measurable_fun setT q -> \int[nu]_y (q y)%:E <= 1 ->
  (forall x, nu.-integrable setT (fun y => (Rmult (phi x y) (ln (Rdiv (phi x y) (q y))))%:E)) ->
  PX.-integrable setT (fun x => \int[nu]_y (Rmult (phi x y) (ln (Rdiv (phi x y) (q y))))%:E) ->
  (forall x, nu.-integrable setT (fun y => (Rmult (phi x y) (ln (Rdiv (pY y) (q y))))%:E)) ->
  \int[PX]_x \int[nu]_y `|(Rmult (phi x y) (ln (Rdiv (pY y) (q y))))%:E| < +oo ->
  \int[PX]_x \int[nu]_y (Rmult (phi x y) (ln (Rdiv (phi x y) (pY y))))%:E
    <= \int[PX]_x \int[nu]_y (Rmult (phi x y) (ln (Rdiv (phi x y) (q y))))%:E.
Proof.
move=> snu PX1 phi0 mphi phi1 pYE pY0 q0 mq q1 iB iFB iC iCprod.
have sPX : sigma_finite setT PX.
  exists (fun _ => setT); first by rewrite predeqE => x; split => _ //; exists 0%N.
  by move=> _; split; [exact: measurableT | rewrite PX1 ltey].
have q0' y : Rle 0 (q y) by apply: Rlt_le.
have pY0' y : Rle 0 (pY y) by apply: Rlt_le.
pose B x y := Rmult (phi x y) (ln (Rdiv (phi x y) (q y))).
pose C x y := Rmult (phi x y) (ln (Rdiv (pY y) (q y))).
pose Cf := fun z : TX * TY => (C z.1 z.2)%:E.
(* measurability of the output density pY (Tonelli) *)
have mphiE : measurable_fun setT (fun z : TX * TY => (phi z.1 z.2)%:E) by apply/EFin_measurable_fun.
have mpY : measurable_fun setT pY.
  apply/EFin_measurable_fun.
  have mG := measurable_fun_fubini_tonelli_G sPX _ mphiE (fun z => (_ : 0 <= (phi z.1 z.2)%:E)).
  have -> : (EFin \o pY) = fubini_G PX (fun z : TX * TY => (phi z.1 z.2)%:E).
    by apply: funext => y; rewrite /fubini_G /= pYE.
  by apply: mG => z; rewrite lee_fin; apply/RleP.
(* measurability of the joint integrand C *)
have mL : measurable_fun setT (fun y => (ln (Rdiv (pY y) (q y)) : real_realType)).
  exact: measurable_ln_ratio.
have mC : measurable_fun setT Cf.
  apply/EFin_measurable_fun; rewrite /C /=.
  apply: measurable_funM => //.
  exact: (measurable_fun_comp mL (@measurable_snd2 _ _ TX TY)).
have iCm : (product_measure1 PX snu).-integrable setT Cf by apply: (proj2 (fubini1a PX snu mC)); exact: iCprod.
(* int pY dnu = 1 (Tonelli) *)
have pY1 : \int[nu]_y (pY y)%:E = 1.
  have ph0 : forall z : TX * TY, 0 <= (phi z.1 z.2)%:E by move=> z; rewrite lee_fin; apply/RleP.
  have e1 := fubini_tonelli1 snu _ mphiE ph0.
  have e2 := fubini_tonelli2 sPX snu _ mphiE ph0.
  rewrite e1 in e2.
  have -> : \int[nu]_y (pY y)%:E = \int[nu]_y fubini_G PX (fun z : TX * TY => (phi z.1 z.2)%:E) y.
    by apply: eq_integral => y _; rewrite /fubini_G /= pYE.
  rewrite -e2 (eq_integral (cst 1)); last by move=> x _; rewrite /fubini_F /= phi1.
  by rewrite integral_cst // PX1 mule1.
(* the y-marginal of Cf is pY ln(pY/q) *)
have GC y : fubini_G PX Cf y = (Rmult (pY y) (ln (Rdiv (pY y) (q y))))%:E.
  rewrite /fubini_G /Cf /C /=.
  have ip : PX.-integrable setT (fun x => (phi x y)%:E).
    split; first by apply/EFin_measurable_fun; exact: (measurable_fun_prod2 y mphi).
    rewrite (eq_integral (fun x => (phi x y)%:E)); first by rewrite pYE ltey.
    by move=> x _; rewrite /= ger0_norm //; apply/RleP.
  rewrite (eq_integral (fun x => (ln (Rdiv (pY y) (q y)))%:E * (phi x y)%:E)); last first.
    by move=> x _; rewrite -EFinM mulrC.
  by rewrite integralM // pYE -EFinM mulrC.
(* pY ln(pY/q) is nu-integrable: |int_x C(x,y) dPX| <= int_x |C(x,y)| dPX, whose nu-integral is finite (Tonelli) *)
have iKL : nu.-integrable setT (fun y => (Rmult (pY y) (ln (Rdiv (pY y) (q y))))%:E).
  have mabs : measurable_fun setT (abse \o Cf) by apply: measurable_fun_comp => //; exact: measurable_fun_abse.
  have ig : nu.-integrable setT (fubini_G PX (abse \o Cf)).
    split; first by apply: (measurable_fun_fubini_tonelli_G sPX _ mabs) => z; exact: abse_ge0.
    rewrite (eq_integral (fubini_G PX (abse \o Cf))); first exact: (proj1 (fubini1b sPX snu mC) iCm).
    by move=> y _; rewrite gee0_abs //; apply: integral_ge0 => x _; exact: abse_ge0.
  apply: (le_integrable measurableT _ _ ig).
    have -> : (fun y => (Rmult (pY y) (ln (Rdiv (pY y) (q y))))%:E) = EFin \o (fun y => pY y * ln (Rdiv (pY y) (q y)))%R.
      by [].
    by apply/EFin_measurable_fun; apply: measurable_funM.
  move=> y _; rewrite -GC [X in _ <= X]gee0_abs; last by apply: integral_ge0 => x _; exact: abse_ge0.
  exact: (le_abse_integral PX measurableT (measurable_fun_prod2 y mC)).
have ipY := @density_integrable _ _ nu _ _ measurableT pY0' mpY pY1.
have iq : nu.-integrable setT (EFin \o q).
  split; first by apply/EFin_measurable_fun.
  rewrite (eq_integral (fun y => (q y)%:E)); first exact: (le_lt_trans q1 (ltey 1)).
  by move=> y _; rewrite /= ger0_norm //; apply/RleP.
(* KL(pY || q) >= 0 *)
have KL0 : 0 <= \int[nu]_y (Rmult (pY y) (ln (Rdiv (pY y) (q y))))%:E.
  (* ln t <= t - 1: pY ln(pY/q) >= pY - q, and int (pY - q) = 1 - int q >= 0 *)
  have iD : nu.-integrable setT (EFin \o (fun y => (pY y - q y)%R)).
    by apply: (eq_integrable measurableT _ _ _ (integrableB measurableT ipY iq)) => y _; rewrite /= EFinB.
  have Hle := @integral_le_integrable _ _ nu (fun y => (pY y - q y)%R)
    (fun y => Rmult (pY y) (ln (Rdiv (pY y) (q y)))) setT measurableT iD iKL.
  have Fq := integral_fune_fin_num measurableT iq.
  apply: le_trans (Hle _); last first.
    move=> y _; apply/RleP.
    have := ln_gibbs_pointwise (pY y) (q y) 1 (pY0' y) (q0 y) Rlt_0_1.
    by rewrite ln_1 Rmult_0_r Rmult_1_l Rplus_0_l.
  rewrite (eq_integral (fun y => (pY y)%:E - (q y)%:E)); last by move=> y _; rewrite EFinB.
  by rewrite (integralB_EFin measurableT ipY iq) pY1 subre_ge0.
(* Fubini: int_x int_y C = int_y pY ln(pY/q) *)
have iFC : PX.-integrable setT (fubini_F nu Cf) := integrable_fubini_F mC iCm.
have EC : \int[PX]_x fubini_F nu Cf x = \int[nu]_y (Rmult (pY y) (ln (Rdiv (pY y) (q y))))%:E.
  rewrite (fubini1 mC iCm) -(fubini2 sPX mC iCm).
  by apply: eq_integral => y _; rewrite GC.
(* for each x: int_y phi ln(phi/pY) = int_y phi ln(phi/q) - int_y phi ln(pY/q) *)
have EA x : \int[nu]_y (Rmult (phi x y) (ln (Rdiv (phi x y) (pY y))))%:E =
    \int[nu]_y (B x y)%:E - fubini_F nu Cf x.
  rewrite /fubini_F /Cf /= -(integralB_EFin measurableT (iB x) (iC x)).
  apply: eq_integral => y _; rewrite -EFinB /B /C.
  by rewrite (ln_ratio_split _ _ _ (phi0 x y) (pY0 y) (q0 y)).
rewrite (eq_integral ((fun x => \int[nu]_y (B x y)%:E) \- fubini_F nu Cf)); last by move=> x _; rewrite EA.
rewrite (integralB measurableT iFB iFC) EC.
have F : \int[nu]_y (Rmult (pY y) (ln (Rdiv (pY y) (q y))))%:E \is a fin_num.
  exact: (integral_fune_fin_num measurableT iKL).
by rewrite lee_subl_addr //; exact: lee_addl.
Qed.
End golden.

(** THE GAUSSIAN DENSITY N(m, v): exp(-(y - m)^2/(2 v)) / sqrt(2 pi v) *)
Definition gauss_density (m v y : R) : R :=
  Rmult (exp (Ropp (Rdiv (Rsqr (Rminus y m)) (Rmult 2 v)))) (Rinv (sqrt (Rmult (Rmult 2 PI) v))).

Lemma gauss_pos (m v y : R) : Rlt 0 v -> Rlt 0 (gauss_density m v y).
Proof.
move=> v0; apply: Rmult_lt_0_compat; first exact: exp_pos.
apply: Rinv_0_lt_compat; apply: sqrt_lt_R0.
by apply: Rmult_lt_0_compat => //; apply: Rmult_lt_0_compat; [lra | exact: PI_RGT_0].
Qed.

Lemma gauss_continuous (m v : R) : continuous (fun y : real_realType => (gauss_density m v y : real_realType)).
Proof.
move=> y; apply/continuity_ptE; rewrite /gauss_density.
apply: continuity_pt_mult; last by apply: continuity_pt_const => ? ?.
apply: continuity_pt_comp; last exact: derivable_continuous_pt (derivable_pt_exp _).
apply: continuity_pt_opp; apply: continuity_pt_mult; last by apply: continuity_pt_const => ? ?.
rewrite /Rsqr; apply: continuity_pt_mult;
  (apply: continuity_pt_minus; [exact: derivable_continuous_pt (derivable_pt_id _) | by apply: continuity_pt_const => ? ?]).
Qed.

Lemma gauss_measurable (m v : R) : measurable_fun setT (fun y : real_realType => (gauss_density m v y : real_realType)).
Proof. exact: continuous_measurable_fun (gauss_continuous m v). Qed.

Lemma ln_sqrt_half (u : R) : Rlt 0 u -> ln (sqrt u) = Rdiv (ln u) 2.
Proof.
move=> u0; have s0 := sqrt_lt_R0 _ u0.
have : ln (Rmult (sqrt u) (sqrt u)) = ln u by rewrite sqrt_sqrt //; lra.
rewrite ln_mult //; lra.
Qed.

(** the log-likelihood ratio of N(m, v) to N(0, s2): ln(phi/q) = A0 - (y - m)^2/(2 v) + y^2/(2 s2),
    A0 = ln sqrt(2 pi s2) - ln sqrt(2 pi v) *)
Lemma gauss_log_ratio (m v s2 y : R) : Rlt 0 v -> Rlt 0 s2 ->
  ln (Rdiv (gauss_density m v y) (gauss_density 0 s2 y)) =
  Rplus (Rminus (Rminus (ln (sqrt (Rmult (Rmult 2 PI) s2))) (ln (sqrt (Rmult (Rmult 2 PI) v))))
                (Rdiv (Rsqr (Rminus y m)) (Rmult 2 v)))
        (Rdiv (Rsqr y) (Rmult 2 s2)).
Proof.
move=> v0 s0.
have pi0 := PI_RGT_0.
have c0 w : Rlt 0 w -> Rlt 0 (sqrt (Rmult (Rmult 2 PI) w)).
  by move=> w0; apply: sqrt_lt_R0; apply: Rmult_lt_0_compat => //; lra.
have L a b : Rlt 0 a -> Rlt 0 b -> ln (Rdiv a b) = Rminus (ln a) (ln b).
  by move=> Ha Hb; rewrite /Rdiv (ln_mult _ _ Ha (Rinv_0_lt_compat _ Hb)) (ln_Rinv _ Hb).
have G w mm : Rlt 0 w -> ln (gauss_density mm w y) =
    Rminus (Ropp (Rdiv (Rsqr (Rminus y mm)) (Rmult 2 w))) (ln (sqrt (Rmult (Rmult 2 PI) w))).
  move=> w0; rewrite /gauss_density (ln_mult _ _ (exp_pos _) (Rinv_0_lt_compat _ (c0 _ w0))).
  by rewrite ln_exp (ln_Rinv _ (c0 _ w0)).
rewrite (L _ _ (gauss_pos _ _ _ v0) (gauss_pos _ _ _ s0)) (G _ _ v0) (G _ _ s0) Rminus_0_r.
ring.
Qed.

Lemma exp_le_mono (a b : R) : Rle a b -> Rle (exp a) (exp b).
Proof.
move=> ab; case: (Rle_lt_or_eq_dec _ _ ab) => [lt|->]; last exact: Rle_refl.
by apply: Rlt_le; apply: exp_increasing.
Qed.

(** bounds on the N(m, v) density for |m| <= 1: exp(-(|y|+1)^2/(2v))/sqrt(2 pi v) <= phi <= 1/sqrt(2 pi v) *)
Definition gauss_floor (v y : R) : R :=
  Rmult (exp (Ropp (Rdiv (Rsqr (Rplus (Rabs y) 1)) (Rmult 2 v)))) (Rinv (sqrt (Rmult (Rmult 2 PI) v))).

Lemma gauss_floor_le (m v y : R) : Rlt 0 v -> Rle (Rabs m) 1 -> Rle (gauss_floor v y) (gauss_density m v y).
Proof.
move=> v0 m1; rewrite /gauss_floor /gauss_density.
have c0 : Rlt 0 (sqrt (Rmult (Rmult 2 PI) v)).
  by apply: sqrt_lt_R0; apply: Rmult_lt_0_compat => //; have := PI_RGT_0; lra.
apply: Rmult_le_compat_r; first by apply: Rlt_le; apply: Rinv_0_lt_compat.
apply: exp_le_mono; apply: Ropp_le_contravar; rewrite /Rdiv.
apply: Rmult_le_compat_r; first by apply: Rlt_le; apply: Rinv_0_lt_compat; lra.
rewrite Rsqr_abs [X in Rle _ X]Rsqr_abs; apply: Rsqr_incr_1.
- have := Rabs_triang y (Ropp m); rewrite Rabs_Ropp /Rminus; have := Rabs_pos y.
  rewrite (Rabs_pos_eq (Rplus (Rabs y) 1)); first lra.
  have := Rabs_pos y; lra.
- exact: Rabs_pos.
- exact: Rabs_pos.
Qed.

Lemma gauss_floor_pos (v y : R) : Rlt 0 v -> Rlt 0 (gauss_floor v y).
Proof.
move=> v0; apply: Rmult_lt_0_compat; first exact: exp_pos.
by apply: Rinv_0_lt_compat; apply: sqrt_lt_R0; apply: Rmult_lt_0_compat => //; have := PI_RGT_0; lra.
Qed.

Lemma gauss_le_peak (m v y : R) : Rlt 0 v -> Rle (gauss_density m v y) (Rinv (sqrt (Rmult (Rmult 2 PI) v))).
Proof.
move=> v0; rewrite /gauss_density.
have c0 : Rlt 0 (sqrt (Rmult (Rmult 2 PI) v)).
  by apply: sqrt_lt_R0; apply: Rmult_lt_0_compat => //; have := PI_RGT_0; lra.
rewrite -[X in Rle _ X]Rmult_1_l; apply: Rmult_le_compat_r; first by apply: Rlt_le; apply: Rinv_0_lt_compat.
rewrite -exp_0; apply: exp_le_mono.
have : Rle 0 (Rdiv (Rsqr (Rminus y m)) (Rmult 2 v)) by apply: Rle_mult_inv_pos; [exact: Rle_0_sqr | lra].
lra.
Qed.

Lemma ln_le_mono (a b : R) : Rlt 0 a -> Rle a b -> Rle (ln a) (ln b).
Proof.
move=> a0 ab; case: (Rle_lt_or_eq_dec _ _ ab) => [lt|->]; last exact: Rle_refl.
by apply: Rlt_le; apply: ln_increasing.
Qed.

(** the constants of the quadratic bound |ln(p/q)| <= D + E y^2 for p between the floor and the peak of N(m, v) *)
Definition lr_D (v s2 : R) : R :=
  Rplus (Rabs (Rminus (ln (sqrt (Rmult (Rmult 2 PI) s2))) (ln (sqrt (Rmult (Rmult 2 PI) v))))) (Rinv v).
Definition lr_E (v s2 : R) : R := Rplus (Rinv (Rmult 2 s2)) (Rinv v).

Lemma ln_ratio_quad_bound (v s2 p y : R) : Rlt 0 v -> Rlt 0 s2 ->
  Rle (gauss_floor v y) p -> Rle p (Rinv (sqrt (Rmult (Rmult 2 PI) v))) ->
  Rle (Rabs (ln (Rdiv p (gauss_density 0 s2 y)))) (Rplus (lr_D v s2) (Rmult (lr_E v s2) (Rsqr y))).
Proof.
move=> v0 s0 plo phi.
have pi0 := PI_RGT_0.
have c0 w : Rlt 0 w -> Rlt 0 (sqrt (Rmult (Rmult 2 PI) w)).
  by move=> w0; apply: sqrt_lt_R0; apply: Rmult_lt_0_compat => //; lra.
have p0 : Rlt 0 p by have := gauss_floor_pos _ y v0; lra.
have q0 := gauss_pos 0 s2 y s0.
set Ls := ln (sqrt (Rmult (Rmult 2 PI) v)); set Lq := ln (sqrt (Rmult (Rmult 2 PI) s2)).
have Lr : ln (Rdiv p (gauss_density 0 s2 y)) = Rminus (ln p) (ln (gauss_density 0 s2 y)).
  by rewrite /Rdiv (ln_mult _ _ p0 (Rinv_0_lt_compat _ q0)) (ln_Rinv _ q0).
have Lqv : ln (gauss_density 0 s2 y) = Rminus (Ropp (Rmult (Rsqr y) (Rinv (Rmult 2 s2)))) Lq.
  rewrite /gauss_density (ln_mult _ _ (exp_pos _) (Rinv_0_lt_compat _ (c0 _ s0))) ln_exp (ln_Rinv _ (c0 _ s0)).
  by rewrite Rminus_0_r /Rdiv.
have Lhi : Rle (ln p) (Ropp Ls).
  by rewrite /Ls -(ln_Rinv _ (c0 _ v0)); apply: ln_le_mono.
have Llo : Rle (Rminus (Ropp (Rmult (Rsqr (Rplus (Rabs y) 1)) (Rinv (Rmult 2 v)))) Ls) (ln p).
  have := ln_le_mono _ _ (gauss_floor_pos _ y v0) plo.
  rewrite /gauss_floor (ln_mult _ _ (exp_pos _) (Rinv_0_lt_compat _ (c0 _ v0))) ln_exp (ln_Rinv _ (c0 _ v0)).
  by rewrite /Rdiv.
have A2 : Rle (Rsqr (Rplus (Rabs y) 1)) (Rplus (Rmult 2 (Rsqr y)) 2).
  rewrite (Rsqr_abs y) /Rsqr; have := Rle_0_sqr (Rminus (Rabs y) 1); rewrite /Rsqr; nra.
have iv : Rlt 0 (Rinv v) by apply: Rinv_0_lt_compat.
have F1 : Rle (Rmult (Rsqr (Rplus (Rabs y) 1)) (Rinv (Rmult 2 v))) (Rplus (Rmult (Rsqr y) (Rinv v)) (Rinv v)).
  have -> : Rplus (Rmult (Rsqr y) (Rinv v)) (Rinv v) = Rmult (Rplus (Rmult 2 (Rsqr y)) 2) (Rinv (Rmult 2 v)).
    by field; lra.
  apply: Rmult_le_compat_r => //; apply: Rlt_le; apply: Rinv_0_lt_compat; lra.
have F2 : Rle 0 (Rmult (Rsqr y) (Rinv (Rmult 2 s2))).
  by apply: Rmult_le_pos; [exact: Rle_0_sqr | apply: Rlt_le; apply: Rinv_0_lt_compat; lra].
have F3 : Rle 0 (Rmult (Rsqr y) (Rinv v)) by apply: Rmult_le_pos; [exact: Rle_0_sqr | lra].
have EE : Rmult (lr_E v s2) (Rsqr y) = Rplus (Rmult (Rsqr y) (Rinv (Rmult 2 s2))) (Rmult (Rsqr y) (Rinv v)).
  by rewrite /lr_E; ring.
have a1 := Rle_abs (Rminus Lq Ls); have a2 := Rle_abs (Ropp (Rminus Lq Ls)); rewrite Rabs_Ropp in a2.
rewrite Lr Lqv EE /lr_D -/Ls -/Lq.
apply: Rabs_le; split; lra.
Qed.

Section gaussian_channel.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.

Lemma integrable_ge0_val d (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (h : T -> real_realType) (r : R) :
  (forall y, Rle 0 (h y)) -> measurable_fun setT h -> \int[mu]_y (h y)%:E = r%:E -> mu.-integrable setT (EFin \o h).
Proof.
move=> h0 mh hr; split; first by apply/EFin_measurable_fun.
rewrite (eq_integral (fun y => (h y)%:E)); first by rewrite hr ltey.
by move=> y _; rewrite /= ger0_norm //; apply/RleP.
Qed.

Context dX (TX : measurableType dX) (PX : {measure set TX -> \bar real_realType}).
Context (nu : {measure set real_realType -> \bar real_realType}).

(** THE GAUSSIAN CHANNEL (showkatbakhsh-regression Lemma 1, eqs. (17)-(19), with neither premise). X = xv(T), T of
    law PX on any measurable type TX (PX(TX) = 1), |xv| <= 1 everywhere (the input law is carried by [-1, 1]:
    |X_11| <= 1), xv measurable; sigma2 > 0; Y = X + sigma N has the density phi_x = gauss_density (xv x) sigma2
    (the N(xv x, sigma2) density) w.r.t. a sigma-finite measure nu on R. Gaussian facts taken as hypotheses (true
    for nu the Lebesgue measure, where they are the standard Gaussian integrals): int phi_x dnu = 1 (mass),
    int phi_x (y - xv x)^2 dnu = sigma2 (variance), int phi_x y^2 dnu = xv(x)^2 + sigma2 (second moment), and
    int q dnu <= 1 for q = gauss_density 0 (1 + sigma2) (the N(0, 1 + sigma2) density has mass 1).
    pY is the output density: int phi_x(y) dPX(x) = pY(y) for every y (a definition; pY > 0, its measurability and
    all integrability conditions are derived). Conclusion: I(X;Y) <= 1/2 ln(1 + 1/sigma2) nats; at
    sigma2 = 1/(2^(2 eps) - 1) this is eps ln 2 nats = eps bits (gaussian_channel_mi_eps). *)
Theorem gaussian_channel_mi_bound (xv : TX -> real_realType) (sigma2 : R) (pY : real_realType -> real_realType) :
  sigma_finite setT nu -> PX setT = 1 -> Rlt 0 sigma2 -> measurable_fun setT xv ->
  (forall x, Rle (Rabs (xv x)) 1) ->
  (forall x, \int[nu]_y (gauss_density (xv x) sigma2 y)%:E = 1) ->
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) sigma2 y) (Rsqr (Rminus y (xv x))))%:E = sigma2%:E) ->
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) sigma2 y) (Rsqr y))%:E = (Rplus (Rsqr (xv x)) sigma2)%:E) ->
  \int[nu]_y (gauss_density 0 (Rplus 1 sigma2) y)%:E <= 1 ->
  (forall y, \int[PX]_x (gauss_density (xv x) sigma2 y)%:E = (pY y)%:E) ->
  \int[PX]_x \int[nu]_y (Rmult (gauss_density (xv x) sigma2 y) (ln (Rdiv (gauss_density (xv x) sigma2 y) (pY y))))%:E
    <= (Rmult (Rinv 2) (ln (Rplus 1 (Rinv sigma2))))%:E.
Proof.
move=> snu PX1 s0 mxv xv1 phi1 phi2 phi3 q1 pYE.
set s2 := Rplus 1 sigma2.
have s20 : Rlt 0 s2 by rewrite /s2; lra.
set A0 := Rminus (ln (sqrt (Rmult (Rmult 2 PI) s2))) (ln (sqrt (Rmult (Rmult 2 PI) sigma2))).
pose K : real_realType -> real_realType := fun m => Rplus (Rminus A0 (Rinv 2)) (Rdiv (Rplus (Rsqr m) sigma2) (Rmult 2 s2)).
pose phi : TX -> real_realType -> real_realType := fun x y => gauss_density (xv x) sigma2 y.
have phi0 x y : Rle 0 (phi x y) by apply: Rlt_le; apply: gauss_pos.
(* the integrand B = phi ln(phi/q) is a linear combination of phi, phi (y-m)^2, phi y^2 *)
have mphi x : measurable_fun setT (phi x) by exact: gauss_measurable.
have mid : measurable_fun setT (fun y : real_realType => y) by exact: measurable_fun_id.
have msq (m : R) : measurable_fun setT (fun y : real_realType => (Rsqr (Rminus y m) : real_realType)).
  by rewrite /Rsqr; apply: measurable_funM; apply: measurable_funB => //; exact: measurable_fun_cst.
have i1 x : nu.-integrable setT (EFin \o phi x).
  by apply: (@integrable_ge0_val _ _ nu _ (1%R)) => //; exact: phi1.
have i2 x : nu.-integrable setT (EFin \o (fun y => Rmult (phi x y) (Rsqr (Rminus y (xv x))))).
  apply: (@integrable_ge0_val _ _ nu _ (sigma2)); last exact: phi2.
  - by move=> y; apply: Rmult_le_pos => //; exact: Rle_0_sqr.
  - exact: measurable_funM.
have i3 x : nu.-integrable setT (EFin \o (fun y => Rmult (phi x y) (Rsqr y))).
  apply: (@integrable_ge0_val _ _ nu _ (Rplus (Rsqr (xv x)) sigma2)); last exact: phi3.
  - by move=> y; apply: Rmult_le_pos => //; exact: Rle_0_sqr.
  - apply: measurable_funM => //; have := msq 0%R; rewrite /Rsqr.
    by under [X in measurable_fun _ X -> _]eq_fun do rewrite Rminus_0_r.
set a := A0; set b := Ropp (Rinv (Rmult 2 sigma2)); set c := Rinv (Rmult 2 s2).
have i12 x := @integrable_lincomb _ _ nu a b (phi x) (fun y => Rmult (phi x y) (Rsqr (Rminus y (xv x)))) setT
  measurableT (i1 x) (i2 x).
have i123 x := @integrable_lincomb _ _ nu 1 c (fun y => a * phi x y + b * Rmult (phi x y) (Rsqr (Rminus y (xv x))))%R
  (fun y => Rmult (phi x y) (Rsqr y)) setT measurableT (i12 x) (i3 x).
have Bpt x y : Rmult (phi x y) (ln (Rdiv (phi x y) (gauss_density 0 s2 y))) =
    (1 * (a * phi x y + b * Rmult (phi x y) (Rsqr (Rminus y (xv x)))) + c * Rmult (phi x y) (Rsqr y))%R.
  rewrite /phi gauss_log_ratio // /a /b /c /A0 mul1r -!RmultE -!RplusE /Rsqr; field; repeat split; lra.
have iB x : nu.-integrable setT (fun y => (Rmult (phi x y) (ln (Rdiv (phi x y) (gauss_density 0 s2 y))))%:E).
  by apply: (eq_integrable measurableT _ _ _ (i123 x)) => y _; rewrite /= Bpt.
have EB x : \int[nu]_y (Rmult (phi x y) (ln (Rdiv (phi x y) (gauss_density 0 s2 y))))%:E = (K (xv x))%:E.
  have e12 := @integral_lincomb _ _ nu a b (phi x) (fun y => Rmult (phi x y) (Rsqr (Rminus y (xv x)))) setT
    1 sigma2 measurableT (i1 x) (i2 x) (phi1 x) (phi2 x).
  have e123 := @integral_lincomb _ _ nu 1 c (fun y => a * phi x y + b * Rmult (phi x y) (Rsqr (Rminus y (xv x))))%R
    (fun y => Rmult (phi x y) (Rsqr y)) setT (a * 1 + b * sigma2)%R (Rplus (Rsqr (xv x)) sigma2) measurableT
    (i12 x) (i3 x) e12 (phi3 x).
  rewrite (eq_integral (fun y => (1 * (a * phi x y + b * Rmult (phi x y) (Rsqr (Rminus y (xv x))))
    + c * Rmult (phi x y) (Rsqr y))%R%:E)); last by move=> y _; rewrite Bpt.
  rewrite e123; congr EFin; rewrite /K /a /b /c mul1r mulr1 -!RmultE -!RplusE /Rsqr.
  match goal with |- ?u = ?v => change (@eq R u v) end; field; repeat split; lra.
(* K(m) lies in [A0 - 1/2, A0] for |m| <= 1 *)
have Kle m : Rle (Rabs m) 1 -> Rle (Rminus A0 (Rinv 2)) (K m) /\ Rle (K m) A0.
  move=> m1.
  have m2 : Rle (Rsqr m) 1.
    rewrite Rsqr_abs -Rsqr_1; apply: Rsqr_incr_1 => //; [exact: Rabs_pos | lra].
  have m0 := Rle_0_sqr m.
  have h1 : Rle 0 (Rdiv (Rplus (Rsqr m) sigma2) (Rmult 2 s2)).
    by apply: Rle_mult_inv_pos; [lra | lra].
  have h2 : Rle (Rdiv (Rplus (Rsqr m) sigma2) (Rmult 2 s2)) (Rinv 2).
    have -> : Rdiv (Rplus (Rsqr m) sigma2) (Rmult 2 s2) = Rminus (Rinv 2) (Rdiv (Rminus 1 (Rsqr m)) (Rmult 2 s2)).
      by rewrite /s2; field; lra.
    have : Rle 0 (Rdiv (Rminus 1 (Rsqr m)) (Rmult 2 s2)) by apply: Rle_mult_inv_pos; lra.
    lra.
  by rewrite /K; split; lra.
(* integrability of x |-> K(xv x) on the probability space PX *)
have mK : measurable_fun setT (fun x => K (xv x)).
  have -> : (fun x => K (xv x)) =
      (fun x => (Rminus A0 (Rinv 2)) + (xv x * xv x + sigma2) * Rinv (Rmult 2 s2))%R.
    by apply: funext => x; rewrite /K /Rsqr.
  apply: measurable_funD; first exact: measurable_fun_cst.
  apply: measurable_funM; last exact: measurable_fun_cst.
  apply: measurable_funD; last exact: measurable_fun_cst.
  exact: measurable_funM.
have iK : PX.-integrable setT (EFin \o (fun x => K (xv x))).
  apply: (le_integrable measurableT _ _ (@integrable_cst_prob _ _ PX PX1 (Rplus (Rabs A0) 1))).
    by apply/EFin_measurable_fun.
  move=> x _ /=; rewrite lee_fin; have [k1 k2] := Kle _ (xv1 x).
  have a0 := Rle_abs A0; have a1 := Rle_abs (Ropp A0); rewrite Rabs_Ropp in a1.
  have Hk0 (k a0' ra : R) : Rle (Rminus a0' (Rinv 2)) k -> Rle k a0' -> Rle a0' ra -> Rle (Ropp a0') ra ->
      Rle (Rabs k) (Rplus ra 1).
    move=> h1 h2 h3 h4.
    have i0 : Rlt 0 (Rinv 2) by apply: Rinv_0_lt_compat; lra.
    have i1' : Rlt (Rinv 2) 1 by rewrite -Rinv_1; apply: Rinv_lt_contravar; lra.
    by apply: Rabs_le; split; lra.
  have Hk := Hk0 _ _ _ k1 k2 a0 a1.
  rewrite [X in (_ <= X)%R]ger0_norm; last first.
    by apply/RleP; exact: (Rplus_le_le_0_compat _ _ (Rabs_pos A0) Rle_0_1).
  exact/RleP.
have iFB : PX.-integrable setT
    (fun x => \int[nu]_y (Rmult (phi x y) (ln (Rdiv (phi x y) (gauss_density 0 s2 y))))%:E).
  by apply: (eq_integrable measurableT _ _ _ iK) => x _; rewrite EB.
(* joint measurability of the kernel (x, y) |-> phi_x(y) = gauss(0, sigma2, y - xv x) *)
have mphiJ : measurable_fun setT (fun z : TX * real_realType => phi z.1 z.2).
  have -> : (fun z : TX * real_realType => phi z.1 z.2) =
      (fun t => gauss_density 0 sigma2 t) \o (fun z : TX * real_realType => (z.2 - xv z.1)%R).
    by apply: funext => z; rewrite /phi /gauss_density /= Rminus_0_r.
  apply: (measurable_fun_comp (gauss_measurable 0 sigma2)).
  apply: measurable_funB; first exact: (@measurable_snd2 _ _ TX real_realType).
  exact: (measurable_fun_comp mxv (@measurable_fst2 _ _ TX real_realType)).
(* the output density pY: measurable (Tonelli), between the floor and the peak of N(., sigma2), so positive *)
have sPX : sigma_finite setT PX.
  exists (fun _ => setT); first by rewrite predeqE => x; split => _ //; exists 0%N.
  by move=> _; split; [exact: measurableT | rewrite PX1 ltey].
have mphiE : measurable_fun setT (fun z : TX * real_realType => (phi z.1 z.2)%:E) by apply/EFin_measurable_fun.
have mpY : measurable_fun setT pY.
  apply/EFin_measurable_fun.
  have mG := measurable_fun_fubini_tonelli_G sPX _ mphiE (fun z => (_ : 0 <= (phi z.1 z.2)%:E)).
  have -> : (EFin \o pY) = fubini_G PX (fun z : TX * real_realType => (phi z.1 z.2)%:E).
    by apply: funext => y; rewrite /fubini_G /= pYE.
  by apply: mG => z; rewrite lee_fin; apply/RleP.
have mphix y : measurable_fun setT (fun x => (phi x y)%:E).
  by apply/EFin_measurable_fun; exact: (measurable_fun_prod2 y mphiJ).
have intc (r : R) : \int[PX]_x (cst r%:E) x = r%:E by rewrite integral_cst // PX1 mule1.
have pYlo y : Rle (gauss_floor sigma2 y) (pY y).
  have : (gauss_floor sigma2 y)%:E <= (pY y)%:E.
    rewrite -pYE -[X in X <= _]intc.
    apply: ge0_le_integral => //.
    - by move=> x _; rewrite lee_fin; apply/RleP; apply: Rlt_le; exact: gauss_floor_pos.
    - exact: measurable_fun_cst.
    - by move=> x _; rewrite lee_fin; apply/RleP; exact: phi0.
    - exact: mphix y.
    - by move=> x _; rewrite lee_fin; apply/RleP; exact: gauss_floor_le.
  by rewrite lee_fin => /RleP.
have pYhi y : Rle (pY y) (Rinv (sqrt (Rmult (Rmult 2 PI) sigma2))).
  have : (pY y)%:E <= (Rinv (sqrt (Rmult (Rmult 2 PI) sigma2)))%:E.
    rewrite -pYE -[X in _ <= X]intc.
    apply: ge0_le_integral => //.
    - by move=> x _; rewrite lee_fin; apply/RleP; exact: phi0.
    - exact: mphix y.
    - move=> x _; rewrite lee_fin; apply/RleP; apply: Rle_trans (phi0 x y) _; exact: gauss_le_peak.
    - exact: measurable_fun_cst.
    - by move=> x _; rewrite lee_fin; apply/RleP; exact: gauss_le_peak.
  by rewrite lee_fin => /RleP.
have pY0 y : Rlt 0 (pY y) by have := gauss_floor_pos sigma2 y s0; have := pYlo y; lra.
(* |phi ln(pY/q)| <= D phi + E phi y^2, integrable *)
have lb x y : Rle (Rabs (Rmult (phi x y) (ln (Rdiv (pY y) (gauss_density 0 s2 y)))))
    (Rplus (Rmult (lr_D sigma2 s2) (phi x y)) (Rmult (lr_E sigma2 s2) (Rmult (phi x y) (Rsqr y)))).
  rewrite Rabs_mult (Rabs_pos_eq _ (phi0 x y)).
  have h := ln_ratio_quad_bound sigma2 s2 (pY y) y s0 s20 (pYlo y) (pYhi y).
  apply: Rle_trans (Rmult_le_compat_l _ _ _ (phi0 x y) h) _; right; ring.
have iQ x := @integrable_lincomb _ _ nu (lr_D sigma2 s2) (lr_E sigma2 s2) (phi x)
  (fun y => Rmult (phi x y) (Rsqr y)) setT measurableT (i1 x) (i3 x).
have eQ x := @integral_lincomb _ _ nu (lr_D sigma2 s2) (lr_E sigma2 s2) (phi x)
  (fun y => Rmult (phi x y) (Rsqr y)) setT 1 (Rplus (Rsqr (xv x)) sigma2) measurableT (i1 x) (i3 x) (phi1 x) (phi3 x).
have mL : measurable_fun setT (fun y => (ln (Rdiv (pY y) (gauss_density 0 s2 y)) : real_realType)).
  exact: (@measurable_ln_ratio _ _ pY (gauss_density 0 s2) pY0 (fun y => gauss_pos 0 s2 y s20) mpY (gauss_measurable 0 s2)).
have iC x : nu.-integrable setT (fun y => (Rmult (phi x y) (ln (Rdiv (pY y) (gauss_density 0 s2 y))))%:E).
  apply: (le_integrable measurableT _ _ (iQ x)).
    by apply/EFin_measurable_fun; apply: measurable_funM.
  move=> y _ /=; rewrite lee_fin; apply/RleP.
  apply: Rle_trans (lb x y) _; exact: Rle_abs.
have D0 : Rle 0 (lr_D sigma2 s2).
  by rewrite /lr_D; have := Rabs_pos (Rminus (ln (sqrt (Rmult (Rmult 2 PI) s2))) (ln (sqrt (Rmult (Rmult 2 PI) sigma2))));
    have := Rinv_0_lt_compat _ s0; lra.
have E0 : Rle 0 (lr_E sigma2 s2).
  rewrite /lr_E; have h1 := Rinv_0_lt_compat _ s0.
  have h2 : Rlt 0 (Rinv (Rmult 2 s2)) by apply: Rinv_0_lt_compat; lra.
  lra.
pose Cf := fun z : TX * real_realType => (Rmult (phi z.1 z.2) (ln (Rdiv (pY z.2) (gauss_density 0 s2 z.2))))%:E.
have mC : measurable_fun setT Cf.
  apply/EFin_measurable_fun; apply: measurable_funM => //.
  exact: (measurable_fun_comp mL (@measurable_snd2 _ _ TX real_realType)).
have mabs : measurable_fun setT (abse \o Cf) by apply: measurable_fun_comp => //; exact: measurable_fun_abse.
have mF := measurable_fun_fubini_tonelli_F snu (abse \o Cf) mabs (fun z => abse_ge0 _).
have iCprod : \int[PX]_x \int[nu]_y `|(Rmult (phi x y) (ln (Rdiv (pY y) (gauss_density 0 s2 y))))%:E| < +oo.
  set M := Rplus (lr_D sigma2 s2) (Rmult (lr_E sigma2 s2) (Rplus 1 sigma2)).
  apply: (@le_lt_trans _ _ (\int[PX]_x (cst M%:E) x)); last by rewrite intc ltey.
  apply: ge0_le_integral => //.
  - by move=> x _; apply: integral_ge0 => y _; exact: abse_ge0.
  - move=> x _; rewrite /= lee_fin; apply/RleP; exact: (Rplus_le_le_0_compat _ _ D0 (Rmult_le_pos _ _ E0 (ltac:(lra) : Rle 0 (Rplus 1 sigma2)))).
  - exact: measurable_fun_cst.
  move=> x _.
  apply: (@le_trans _ _ (\int[nu]_y ((lr_D sigma2 s2) * phi x y + (lr_E sigma2 s2) * Rmult (phi x y) (Rsqr y))%R%:E)).
    apply: ge0_le_integral => //.
    - by apply: measurable_fun_comp => //; apply/EFin_measurable_fun; apply: measurable_funM.
    - move=> y _; rewrite lee_fin; apply/RleP; apply: Rle_trans (Rabs_pos _) (lb x y).
    - apply/EFin_measurable_fun; apply: measurable_funD; apply: measurable_funM => //; try exact: measurable_fun_cst.
      by apply/EFin_measurable_fun; exact: (proj1 (i3 x)).
    - by move=> y _ /=; rewrite lee_fin; apply/RleP; exact: lb.
  rewrite eQ lee_fin /M; apply/RleP; rewrite -!RmultE -!RplusE.
  have sq1 : Rle (Rsqr (xv x)) 1.
    rewrite Rsqr_abs -Rsqr_1; apply: Rsqr_incr_1; [exact: xv1 | exact: Rabs_pos | lra].
  have := Rmult_le_compat_l _ _ _ E0 (ltac:(lra) : Rle (Rplus (Rsqr (xv x)) sigma2) (Rplus 1 sigma2)).
  lra.
have G := @mutual_information_golden _ _ TX real_realType PX nu phi pY (gauss_density 0 s2) snu PX1 phi0 mphiJ
  phi1 pYE pY0 (fun y => gauss_pos 0 s2 y s20) (gauss_measurable 0 s2) q1 iB iFB iC iCprod.
apply: (le_trans G).
rewrite (eq_integral (fun x => (K (xv x))%:E)); last by move=> x _; rewrite EB.
have ic := @integrable_cst_prob _ _ PX PX1 A0.
apply: le_trans (@integral_le_integrable _ _ PX (fun x => K (xv x)) (fun _ => A0) setT measurableT iK ic _) _.
  by move=> x _; apply/RleP; have [_ ?] := Kle _ (xv1 x).
have -> : \int[PX]_x ((fun _ => A0) x)%:E = \int[PX]_x (cst A0%:E) x by [].
rewrite integral_cst // PX1 mule1 lee_fin; apply/RleP; right.
rewrite /A0 !ln_sqrt_half; try by apply: Rmult_lt_0_compat => //; have := PI_RGT_0; lra.
have pi0 := PI_RGT_0.
have u0 : Rlt 0 (Rmult (Rmult 2 PI) sigma2) by apply: Rmult_lt_0_compat => //; lra.
have w0 : Rlt 0 (Rplus 1 (Rinv sigma2)) by have := Rinv_0_lt_compat _ s0; lra.
have -> : Rmult (Rmult 2 PI) s2 = Rmult (Rmult (Rmult 2 PI) sigma2) (Rplus 1 (Rinv sigma2)).
  by rewrite /s2; field; lra.
rewrite (ln_mult _ _ u0 w0) /Rdiv; ring.
Qed.

(** THE PAPER'S NOISE LEVEL: sigma^2 = 1/(2^(2 eps) - 1) (Rpower 2 t = 2^t) *)
Definition noise_var (eps : R) : R := Rinv (Rminus (Rpower 2 (Rmult 2 eps)) 1).

Lemma noise_var_pos (eps : R) : Rlt 0 eps -> Rlt 0 (noise_var eps).
Proof.
move=> e0; rewrite /noise_var; apply: Rinv_0_lt_compat.
have l2 : Rlt 0 (ln 2) by rewrite -ln_1; apply: ln_increasing; lra.
have : Rlt 1 (Rpower 2 (Rmult 2 eps)).
  rewrite /Rpower -exp_0; apply: exp_increasing; apply: Rmult_lt_0_compat => //; lra.
lra.
Qed.

Lemma noise_var_capacity (eps : R) : Rlt 0 eps ->
  Rmult (Rinv 2) (ln (Rplus 1 (Rinv (noise_var eps)))) = Rmult eps (ln 2).
Proof.
move=> e0; have := noise_var_pos _ e0; rewrite /noise_var => n0.
rewrite Rinv_inv.
have -> : Rplus 1 (Rminus (Rpower 2 (Rmult 2 eps)) 1) = Rpower 2 (Rmult 2 eps) by ring.
rewrite /Rpower ln_exp; field.
Qed.

(** SHOWKATBAKHSH-REGRESSION LEMMA 1 AT THE PAPER'S NOISE LEVEL: eps > 0, sigma^2 = noise_var eps
    = 1/(2^(2 eps) - 1); the hypotheses of gaussian_channel_mi_bound at that sigma^2 (the Gaussian integrals and
    the definition of the output density pY); conclusion: I(X;Y) <= eps ln 2 nats, i.e. eps bits. *)
Theorem gaussian_channel_mi_eps (xv : TX -> real_realType) (eps : R) (pY : real_realType -> real_realType) :
  sigma_finite setT nu -> PX setT = 1 -> Rlt 0 eps -> measurable_fun setT xv ->
  (forall x, Rle (Rabs (xv x)) 1) ->
  (forall x, \int[nu]_y (gauss_density (xv x) (noise_var eps) y)%:E = 1) ->
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) (noise_var eps) y) (Rsqr (Rminus y (xv x))))%:E
     = (noise_var eps)%:E) ->
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) (noise_var eps) y) (Rsqr y))%:E
     = (Rplus (Rsqr (xv x)) (noise_var eps))%:E) ->
  \int[nu]_y (gauss_density 0 (Rplus 1 (noise_var eps)) y)%:E <= 1 ->
  (forall y, \int[PX]_x (gauss_density (xv x) (noise_var eps) y)%:E = (pY y)%:E) ->
  \int[PX]_x \int[nu]_y
      (Rmult (gauss_density (xv x) (noise_var eps) y) (ln (Rdiv (gauss_density (xv x) (noise_var eps) y) (pY y))))%:E
    <= (Rmult eps (ln 2))%:E.
Proof.
move=> snu PX1 e0 mxv xv1 phi1 phi2 phi3 q1 pYE.
rewrite -(noise_var_capacity _ e0).
exact: (@gaussian_channel_mi_bound xv (noise_var eps) pY snu PX1 (noise_var_pos _ e0) mxv xv1 phi1 phi2 phi3 q1 pYE).
Qed.
End gaussian_channel.
