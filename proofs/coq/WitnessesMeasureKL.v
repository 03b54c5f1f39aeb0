(** Non-vacuity witnesses for MeasureKL.v (see Witnesses.v and WitnessesMeasureDP.v): each lemma
    <thm>_hyps_satisfiable proves the hypotheses of <thm> at a concrete instance, in the shape WitnessShape.hyps_of
    reads off <thm>'s type. Instances: the fair coin (the booleans, every set measurable, mu = Dirac(true) +
    Dirac(false), f = g = 1/2, E = {true}, p = q = 1/2) for the KL theorems; the Dirac mass at true (a sigma-finite
    probability measure) for Markov, the restricted/conditional expectation and the variance theorems. *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import MeasureDP MeasureKL.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets functions mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import GRing.Theory Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.

(** the fair coin: the booleans (every set measurable), mu = Dirac(true) + Dirac(false) *)
Definition coin2 : {measure set bool -> \bar real_realType} :=
  [the measure _ _ of measure_add (@dirac _ bool true real_realType) (@dirac _ bool false real_realType)].

Lemma coin2_integral (h : bool -> real_realType) (D : set bool) : (forall x, Rle 0 (h x)) ->
  \int[coin2]_(x in D) (h x)%:E = ((\1_D true : real_realType) * h true + (\1_D false : real_realType) * h false)%:E.
Proof.
move=> h0.
have mh : measurable_fun D (fun x => (h x)%:E) by [].
rewrite /coin2 /= integral_measure_add //; last by move=> x _; rewrite lee_fin; apply/RleP.
by rewrite integral_dirac // integral_dirac // -!EFinM -EFinD.
Qed.

Lemma kl_binary_data_processing_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (f g : T -> real_realType) (E : set T) (p q : R),
  (forall x, Rle 0 (f x)) /\ (forall x, Rlt 0 (g x)) /\
  measurable_fun setT f /\ measurable_fun setT g /\
  \int[mu]_x (f x)%:E = 1 /\ \int[mu]_x (g x)%:E = 1 /\
  mu.-integrable setT (fun x => (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E) /\
  measurable E /\ \int[mu]_(x in E) (f x)%:E = p%:E /\ \int[mu]_(x in E) (g x)%:E = q%:E.
Proof.
have h0 : Rlt 0 (Rinv 2) by apply: Rinv_0_lt_compat; lra.
exists default_measure_display, bool, coin2, (fun _ => Rinv 2), (fun _ => Rinv 2), [set true], (Rinv 2), (Rinv 2).
have hh : forall D : set bool, \int[coin2]_(x in D) ((fun _ => Rinv 2) x)%:E =
    ((\1_D true : real_realType) * Rinv 2 + (\1_D false : real_realType) * Rinv 2)%:E.
  by move=> D; apply: coin2_integral => _; lra.
have half : Rplus (Rinv 2) (Rinv 2) = R1 by field.
split; first by move=> _; lra.
split; first by move=> _.
split; first exact: measurable_fun_cst.
split; first exact: measurable_fun_cst.
split; first by rewrite hh !indicE !mem_set //; congr EFin; rewrite !mul1r; exact: half.
split; first by rewrite hh !indicE !mem_set //; congr EFin; rewrite !mul1r; exact: half.
split.
  apply: (eq_integrable measurableT (cst 0)); last exact: integrable0.
  by move=> x _; rewrite /Rdiv Rinv_r ?ln_1 ?Rmult_0_r //; lra.
split; first by [].
have hE : \int[coin2]_(x in [set true]) ((fun _ => Rinv 2) x)%:E = (Rinv 2)%:E.
  rewrite hh !indicE mem_set // memNset //; congr EFin; rewrite mul1r mul0r addr0 //.
split; first exact: hE.
exact: hE.
Qed.

Lemma kl_binary_data_processing_ext_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (f g : T -> real_realType) (E : set T) (p q : R),
  (forall x, Rle 0 (f x)) /\ (forall x, Rlt 0 (g x)) /\
  measurable_fun setT f /\ measurable_fun setT g /\
  \int[mu]_x (f x)%:E = 1 /\ \int[mu]_x (g x)%:E = 1 /\
  measurable E /\ \int[mu]_(x in E) (f x)%:E = p%:E /\ \int[mu]_(x in E) (g x)%:E = q%:E.
Proof.
(* the instance of kl_binary_data_processing_hyps_satisfiable *)
exists default_measure_display, bool, coin2, (fun _ => Rinv 2), (fun _ => Rinv 2), [set true], (Rinv 2), (Rinv 2).
have h0 : Rlt 0 (Rinv 2) by apply: Rinv_0_lt_compat; lra.
have half : Rplus (Rinv 2) (Rinv 2) = R1 by field.
have hh : forall D : set bool, \int[coin2]_(x in D) ((fun _ => Rinv 2) x)%:E =
    ((\1_D true : real_realType) * Rinv 2 + (\1_D false : real_realType) * Rinv 2)%:E.
  by move=> D; apply: coin2_integral => _; lra.
have hE : \int[coin2]_(x in [set true]) ((fun _ => Rinv 2) x)%:E = (Rinv 2)%:E.
  rewrite hh !indicE mem_set // memNset //; congr EFin; rewrite mul1r mul0r addr0 //.
split; first by move=> _; lra.
split; first by move=> _.
split; first exact: measurable_fun_cst.
split; first exact: measurable_fun_cst.
split; first by rewrite hh !indicE !mem_set //; congr EFin; rewrite !mul1r; exact: half.
split; first by rewrite hh !indicE !mem_set //; congr EFin; rewrite !mul1r; exact: half.
split; first by [].
by split; exact: hE.
Qed.

Lemma markov_inequality_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (Y : T -> real_realType) (t : R),
  (forall x, Rle 0 (Y x)) /\ measurable_fun setT Y /\ Rlt 0 t.
Proof.
exists default_measure_display, bool, (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists (fun _ => 1%R), 1%R.
split; first by move=> _; apply/RleP; exact: ler01.
split; first exact: measurable_fun_cst.
by apply/RltP; exact: ltr01.
Qed.

Lemma restricted_expectation_le_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (Y : T -> real_realType) (F : set T),
  (forall x, Rle 0 (Y x)) /\ measurable_fun setT Y /\ measurable F.
Proof.
exists default_measure_display, bool, (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists (fun _ => 1%R), setT.
split; first by move=> _; apply/RleP; exact: ler01.
split; first exact: measurable_fun_cst.
exact: measurableT.
Qed.

Lemma conditional_expectation_le_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (Y : T -> real_realType) (F : set T) (pF : R),
  (forall x, Rle 0 (Y x)) /\ measurable_fun setT Y /\ measurable F /\ mu F = pF%:E /\ Rlt 0 pF.
Proof.
exists default_measure_display, bool, (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists (fun _ => 1%R), setT, 1%R.
split; first by move=> _; apply/RleP; exact: ler01.
split; first exact: measurable_fun_cst.
split; first exact: measurableT.
split; first by rewrite /= diracE mem_set.
by apply/RltP; exact: ltr01.
Qed.

(** the Dirac mass at true: a probability measure, sigma-finite *)
Lemma dirac_true_setT : (@dirac _ bool true real_realType) setT = 1.
Proof. by rewrite /= diracE mem_set. Qed.

Lemma dirac_true_sigma_finite : sigma_finite setT (@dirac _ bool true real_realType).
Proof.
exists (fun _ => setT); first by rewrite predeqE => x; split => _ //; exists 0%N.
by move=> _; split; [exact: measurableT | rewrite dirac_true_setT ltey].
Qed.

Lemma iid_variance_of_sum_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (P : {measure set T -> \bar real_realType})
    (sP : sigma_finite setT P) (f : T -> real_realType) (m : R) (k : nat),
  P setT = 1 /\ measurable_fun setT f /\ P.-integrable setT (fun x => (Rsqr (f x))%:E) /\
  \int[P]_x (f x)%:E = m%:E.
Proof.
exists default_measure_display, bool, (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists dirac_true_sigma_finite, (fun _ => 1%R), 1%R, 0%N.
split; first exact: dirac_true_setT.
split; first exact: measurable_fun_cst.
split.
  apply: (eq_integrable measurableT (fun _ => (1%R)%:E)); last exact: (@integrable_cst_prob _ _ _ dirac_true_setT 1%R).
  by move=> x _; rewrite /Rsqr Rmult_1_r.
by rewrite (@integral_dirac _ _ true real_realType setT measurableT) ?indicE ?mem_set ?mul1e //; exact: measurable_fun_cst.
Qed.

Lemma variance_two_factors_hyps_satisfiable :
  exists (d1 d2 : measure_display) (T1 : measurableType d1) (T2 : measurableType d2)
    (m1 : {measure set T1 -> \bar real_realType}) (m2 : {measure set T2 -> \bar real_realType})
    (sm2 : sigma_finite setT m2) (S : T1 -> real_realType) (X : T2 -> real_realType),
  m1 setT = 1 /\ m2 setT = 1 /\ measurable_fun setT S /\ measurable_fun setT X /\
  \int[m1]_x (Rsqr (S x))%:E < +oo /\ m2.-integrable setT (EFin \o X) /\
  \int[m2]_y (Rsqr (X y))%:E < +oo /\ \int[m2]_y (X y)%:E = 0.
Proof.
exists default_measure_display, default_measure_display, bool, bool.
exists (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists dirac_true_sigma_finite, (fun _ => 0%R), (fun _ => 0%R).
have sq0 : forall x : bool, (Rsqr ((fun _ : bool => 0%R) x))%:E = 0.
  by move=> x; rewrite /Rsqr /= Rmult_0_l.
split; first exact: dirac_true_setT.
split; first exact: dirac_true_setT.
split; first exact: measurable_fun_cst.
split; first exact: measurable_fun_cst.
split; first by rewrite (eq_integral (cst 0)) ?integral0 ?ltey // => x _; exact: sq0.
split; first exact: (@integrable_cst_prob _ _ _ dirac_true_setT 0%R).
split; first by rewrite (eq_integral (cst 0)) ?integral0 ?ltey // => x _; exact: sq0.
by rewrite (eq_integral (cst 0)) ?integral0.
Qed.
