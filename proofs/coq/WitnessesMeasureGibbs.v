(** Non-vacuity witnesses for MeasureGibbs.v (see WitnessesMeasureKL.v): each lemma <thm>_hyps_satisfiable proves
    the hypotheses of <thm> at a concrete instance, in the shape WitnessShape.hyps_of reads off <thm>'s type.
    - gibbs_integrated: the booleans (every set measurable) with the fair-coin counting measure
      gcoin = Dirac(true) + Dirac(false), densities f = g = 1/2.
    - mutual_information_golden: input law PX = Dirac(true) on the booleans, output measure gcoin, kernel
      phi(x, y) = 1/2, so pY = q = 1/2.
    - gaussian_channel_mi_bound, gaussian_channel_mi_eps: a GENUINE Gaussian kernel. X = 0 (PX = Dirac(true),
      xv = 0), sigma^2 = ws = 2/(pi e) (resp. eps = weps with noise_var weps = ws), phi_x = the N(0, ws) density and
      nu = Dirac(a) + Dirac(-a) on R, a = sqrt ws: the N(0, ws) density is exactly 1/2 at +-a, so this two-point
      output measure reproduces the Gaussian facts the theorem assumes (int phi dnu = 1, int phi y^2 dnu = ws) and
      int q dnu = 2 q(a) <= 1 for the N(0, 1 + ws) density q. *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import MeasureDP MeasureKL MeasureGibbs.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets functions mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import GRing.Theory Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.

(** the fair coin: the booleans (every set measurable), Dirac(true) + Dirac(false) *)
Definition gcoin : {measure set bool -> \bar real_realType} :=
  [the measure _ _ of measure_add (@dirac _ bool true real_realType) (@dirac _ bool false real_realType)].

Lemma gcoin_integral (h : bool -> real_realType) : (forall x, Rle 0 (h x)) ->
  \int[gcoin]_x (h x)%:E = (h true + h false)%:E.
Proof.
move=> h0.
have mh : measurable_fun setT (fun x => (h x)%:E) by [].
rewrite /gcoin /= integral_measure_add //; last by move=> x _; rewrite lee_fin; apply/RleP.
rewrite integral_dirac // integral_dirac // -!EFinM -EFinD !indicE !mem_set //.
by rewrite !mul1r.
Qed.

Lemma gcoin_sigma_finite : sigma_finite setT gcoin.
Proof.
exists (fun _ => setT); first by rewrite predeqE => x; split => _ //; exists 0%N.
move=> _; split; first exact: measurableT.
rewrite /gcoin /= /msum !big_ord_recl big_ord0 /= !diracE !mem_set //.
by rewrite adde0 -EFinD ltey.
Qed.

Lemma half_pos : Rlt 0 (Rinv 2).
Proof. apply: Rinv_0_lt_compat; lra. Qed.

Lemma half_half : Rplus (Rinv 2) (Rinv 2) = R1.
Proof. field. Qed.

Lemma half_ln0 : Rmult (Rinv 2) (ln (Rdiv (Rinv 2) (Rinv 2))) = R0.
Proof. by rewrite /Rdiv Rinv_r ?ln_1 ?Rmult_0_r //; have := half_pos; lra. Qed.

Lemma gcoin_half : \int[gcoin]_x ((fun _ : bool => Rinv 2) x)%:E = 1.
Proof.
rewrite gcoin_integral; last by move=> _; have := half_pos; lra.
by congr EFin; exact: half_half.
Qed.

Lemma gibbs_integrated_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (f g : T -> real_realType),
  (forall x, Rle 0 (f x)) /\ (forall x, Rlt 0 (g x)) /\
  measurable_fun setT f /\ measurable_fun setT g /\
  \int[mu]_x (f x)%:E = 1 /\ \int[mu]_x (g x)%:E = 1 /\
  mu.-integrable setT (fun x => (Rmult (f x) (ln (f x)))%:E) /\
  mu.-integrable setT (fun x => (Rmult (f x) (ln (g x)))%:E).
Proof.
exists default_measure_display, bool, gcoin, (fun _ => Rinv 2), (fun _ => Rinv 2).
have h0 := half_pos.
have icst : gcoin.-integrable setT (fun x : bool => (Rmult (Rinv 2) (ln (Rinv 2)))%:E).
  split; first exact: measurable_fun_cst.
  rewrite (eq_integral (fun _ => (Rabs (Rmult (Rinv 2) (ln (Rinv 2))))%:E)) //.
  by rewrite gcoin_integral ?ltey //; move=> _; exact: Rabs_pos.
split; first by move=> _; lra.
split; first by move=> _.
split; first exact: measurable_fun_cst.
split; first exact: measurable_fun_cst.
split; first exact: gcoin_half.
split; first exact: gcoin_half.
by split; exact: icst.
Qed.

Lemma mutual_information_golden_hyps_satisfiable :
  exists (dX dY : measure_display) (TX : measurableType dX) (TY : measurableType dY)
    (PX : {measure set TX -> \bar real_realType}) (nu : {measure set TY -> \bar real_realType})
    (phi : TX -> TY -> real_realType) (pY q : TY -> real_realType),
  sigma_finite setT nu /\ PX setT = 1 /\
  (forall x y, Rle 0 (phi x y)) /\
  measurable_fun setT (fun z : TX * TY => phi z.1 z.2) /\
  (forall x, \int[nu]_y (phi x y)%:E = 1) /\
  (forall y, \int[PX]_x (phi x y)%:E = (pY y)%:E) /\
  (forall y, Rlt 0 (pY y)) /\
  (forall y, Rlt 0 (q y)) /\ measurable_fun setT q /\ \int[nu]_y (q y)%:E <= 1 /\
  (forall x, nu.-integrable setT (fun y => (Rmult (phi x y) (ln (Rdiv (phi x y) (q y))))%:E)) /\
  PX.-integrable setT (fun x => \int[nu]_y (Rmult (phi x y) (ln (Rdiv (phi x y) (q y))))%:E) /\
  (forall x, nu.-integrable setT (fun y => (Rmult (phi x y) (ln (Rdiv (pY y) (q y))))%:E)) /\
  \int[PX]_x \int[nu]_y `|(Rmult (phi x y) (ln (Rdiv (pY y) (q y))))%:E| < +oo.
Proof.
exists default_measure_display, default_measure_display, bool, bool.
exists (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}), gcoin.
exists (fun _ _ => Rinv 2), (fun _ => Rinv 2), (fun _ => Rinv 2).
have h0 := half_pos.
have z0 : forall (D : Type) (m : {measure set bool -> \bar real_realType}),
    \int[m]_y ((Rmult (Rinv 2) (ln (Rdiv (Rinv 2) (Rinv 2))))%:E) = 0.
  by move=> _ m; rewrite half_ln0 integral0.
have i0 : forall (m : {measure set bool -> \bar real_realType}),
    m.-integrable setT (fun y : bool => (Rmult (Rinv 2) (ln (Rdiv (Rinv 2) (Rinv 2))))%:E).
  by move=> m; rewrite half_ln0; exact: integrable0.
split; first exact: gcoin_sigma_finite.
split; first by rewrite /= diracE mem_set.
split; first by move=> _ _; lra.
split; first exact: measurable_fun_cst.
split; first by move=> _; exact: gcoin_half.
split.
  move=> y; rewrite (@integral_dirac _ _ true real_realType setT measurableT) ?indicE ?mem_set ?mul1e //.
split; first by move=> _.
split; first by move=> _.
split; first exact: measurable_fun_cst.
split; first by rewrite gcoin_half.
split; first by move=> _; exact: i0.
split.
  apply: (eq_integrable measurableT (cst 0)); last exact: integrable0.
  by move=> x _; rewrite /= half_ln0 integral0.
split; first by move=> _; exact: i0.
rewrite (eq_integral (cst 0)); first by rewrite integral0 ltey.
by move=> x _; rewrite /= (eq_integral (cst 0)) ?integral0 // => y _; rewrite half_ln0 /=; congr EFin; exact: normr0.
Qed.

(** THE GAUSSIAN INSTANCE for gaussian_channel_mi_bound: X = 0 (PX = Dirac(true) on the booleans, xv = 0),
    sigma^2 = ws = 2/(pi e), and nu = Dirac(a) + Dirac(-a) on R with a = sqrt(ws): the N(0, ws) density is 1/2 at
    +-a, so int phi dnu = 1, int phi y^2 dnu = a^2 = ws (the Gaussian's mass and second moment are matched exactly by
    this two-point measure), and int q dnu = 2 q(a) <= 1 for the N(0, 1 + ws) density q. *)
Definition ws : R := Rdiv 2 (Rmult PI (exp 1)).
Definition wa : R := sqrt ws.

Lemma ws_pos : Rlt 0 ws.
Proof.
rewrite /ws; apply: Rdiv_lt_0_compat; first lra.
by apply: Rmult_lt_0_compat; [exact: PI_RGT_0 | exact: exp_pos].
Qed.

Lemma wa_sq : Rsqr wa = ws.
Proof. by rewrite /Rsqr /wa sqrt_sqrt //; have := ws_pos; lra. Qed.

Lemma gauss_ws_at (y : R) : Rsqr y = ws -> gauss_density 0 ws y = Rinv 2.
Proof.
move=> y2; have w0 := ws_pos; have pi0 := PI_RGT_0; have e0 := exp_pos 1; have h0 := exp_pos (Ropp (Rinv 2)).
rewrite /gauss_density Rminus_0_r y2.
have -> : Rdiv ws (Rmult 2 ws) = Rinv 2 by field; lra.
have -> : Rmult (Rmult 2 PI) ws = Rsqr (Rmult 2 (exp (Ropp (Rinv 2)))).
  have ee : Rmult (exp (Ropp (Rinv 2))) (exp (Ropp (Rinv 2))) = Rinv (exp 1).
    by rewrite -exp_plus -exp_Ropp; congr exp; field.
  rewrite /Rsqr /ws.
  have -> : Rmult (Rmult 2 (exp (- / 2))) (Rmult 2 (exp (- / 2))) = Rmult 4 (Rmult (exp (- / 2)) (exp (- / 2))) by ring.
  by rewrite ee; field; lra.
rewrite sqrt_Rsqr; last lra.
field; lra.
Qed.

Lemma q_ws_at (y : R) : Rsqr y = ws -> Rle (gauss_density 0 (Rplus 1 ws) y) (Rinv 2).
Proof.
move=> y2; have w0 := ws_pos; have pi0 := PI_RGT_0; have pi2 := PI2_1.
rewrite /gauss_density Rminus_0_r y2.
have E1 : Rlt (exp (Ropp (Rdiv ws (Rmult 2 (Rplus 1 ws))))) 1.
  have H : Rlt (Ropp (Rdiv ws (Rmult 2 (Rplus 1 ws)))) 0.
    have : Rlt 0 (Rdiv ws (Rmult 2 (Rplus 1 ws))) by apply: Rdiv_lt_0_compat; lra.
    lra.
  by have := exp_increasing _ _ H; rewrite exp_0.
have S2 : Rle 2 (sqrt (Rmult (Rmult 2 PI) (Rplus 1 ws))).
  rewrite -{1}(sqrt_Rsqr 2); last lra.
  by apply: sqrt_le_1_alt; rewrite /Rsqr; nra.
have S0 : Rlt 0 (sqrt (Rmult (Rmult 2 PI) (Rplus 1 ws))) by lra.
have I2 : Rle (Rinv (sqrt (Rmult (Rmult 2 PI) (Rplus 1 ws)))) (Rinv 2) by apply: Rinv_le_contravar; lra.
have := exp_pos (Ropp (Rdiv ws (Rmult 2 (Rplus 1 ws)))).
have := Rinv_0_lt_compat _ S0.
nra.
Qed.

Definition wnu : {measure set real_realType -> \bar real_realType} :=
  [the measure _ _ of measure_add (@dirac _ real_realType wa real_realType) (@dirac _ real_realType (Ropp wa) real_realType)].

Lemma wnu_integral (h : real_realType -> \bar real_realType) : (forall y, 0 <= h y) -> measurable_fun setT h ->
  \int[wnu]_y h y = h wa + h (Ropp wa).
Proof.
move=> h0 mh.
rewrite /wnu /= integral_measure_add //; try by move=> y _; exact: h0.
by rewrite integral_dirac // integral_dirac // !indicE !mem_set // !mul1e.
Qed.

Lemma wnu_sigma_finite : sigma_finite setT wnu.
Proof.
exists (fun _ => setT); first by rewrite predeqE => x; split => _ //; exists 0%N.
move=> _; split; first exact: measurableT.
by rewrite /wnu /= /msum !big_ord_recl big_ord0 /= !diracE !mem_set // adde0 -EFinD ltey.
Qed.

Lemma wnu_integrable (f : real_realType -> real_realType) : measurable_fun setT f ->
  wnu.-integrable setT (fun y => (f y)%:E).
Proof.
move=> mf; split; first by apply/EFin_measurable_fun.
rewrite wnu_integral //; first by rewrite /= -EFinD ltey.
by apply: measurable_fun_comp => //; apply/EFin_measurable_fun.
Qed.

Ltac req := match goal with |- ?u = ?v => change (@eq R u v) end.

Lemma wa_sq' : Rsqr (Ropp wa) = ws.
Proof. by rewrite -Rsqr_neg wa_sq. Qed.

(** the hypotheses at the Gaussian instance, sigma2 = ws *)
Lemma gauss_instance_hyps (sigma2 : R) : sigma2 = ws ->
  sigma_finite setT wnu /\ (@dirac _ bool true real_realType) setT = 1 /\ Rlt 0 sigma2 /\ measurable_fun setT (fun _ : bool => (R0 : real_realType)) /\
  (forall x, Rle (Rabs ((fun _ : bool => R0) x)) 1) /\
  (forall x, \int[wnu]_y (gauss_density ((fun _ : bool => R0) x) sigma2 y)%:E = 1) /\
  (forall x, \int[wnu]_y (Rmult (gauss_density ((fun _ : bool => R0) x) sigma2 y) (Rsqr (Rminus y ((fun _ : bool => R0) x))))%:E = sigma2%:E) /\
  (forall x, \int[wnu]_y (Rmult (gauss_density ((fun _ : bool => R0) x) sigma2 y) (Rsqr y))%:E = (Rplus (Rsqr ((fun _ : bool => R0) x)) sigma2)%:E) /\
  \int[wnu]_y (gauss_density 0 (Rplus 1 sigma2) y)%:E <= 1 /\
  (forall y, \int[(@dirac _ bool true real_realType : {measure set bool -> \bar real_realType})]_x (gauss_density ((fun _ : bool => R0) x) sigma2 y)%:E = (gauss_density 0 ws y)%:E).
Proof.
move=> ->.
have w0 := ws_pos.
have g0 y : Rle 0 (gauss_density 0 ws y) by apply: Rlt_le; exact: gauss_pos.
have ga := gauss_ws_at _ wa_sq; have gb := gauss_ws_at _ wa_sq'.
have mg := gauss_measurable 0 ws.
have mq := gauss_measurable 0 (Rplus 1 ws).
have s10 : Rlt 0 (Rplus 1 ws) by lra.
have mE (h : real_realType -> real_realType) : measurable_fun setT h -> measurable_fun setT (fun y => (h y)%:E).
  by move=> mh; apply/EFin_measurable_fun.
have msq : measurable_fun setT (fun y : real_realType => (Rsqr y : real_realType)).
  by rewrite /Rsqr; apply: measurable_funM; exact: measurable_fun_id.
split; first exact: wnu_sigma_finite.
split; first by rewrite /= diracE mem_set.
split; first exact: w0.
split; first exact: measurable_fun_cst.
split; first by move=> _; rewrite Rabs_R0; lra.
split.
  move=> _; rewrite wnu_integral; last exact: mE; last by move=> y; rewrite lee_fin; apply/RleP.
  by rewrite ga gb -EFinD; congr EFin; exact: half_half.
split.
  move=> _; rewrite wnu_integral; last first.
  - apply: mE; apply: measurable_funM => //.
    by rewrite /Rsqr; apply: measurable_funM; apply: measurable_funB; (exact: measurable_fun_id || exact: measurable_fun_cst).
  - by move=> y; rewrite lee_fin; apply/RleP; apply: Rmult_le_pos => //; exact: Rle_0_sqr.
  rewrite !Rminus_0_r ga gb wa_sq wa_sq' -EFinD; congr EFin; rewrite -RplusE; req; field.
split.
  move=> _; rewrite wnu_integral; last first.
  - by apply: mE; apply: measurable_funM.
  - by move=> y; rewrite lee_fin; apply/RleP; apply: Rmult_le_pos => //; exact: Rle_0_sqr.
  rewrite ga gb wa_sq wa_sq' -EFinD; congr EFin; rewrite -RplusE Rsqr_0; req; field.
split.
  rewrite wnu_integral; last exact: mE; last by move=> y; rewrite lee_fin; apply/RleP; apply: Rlt_le; exact: gauss_pos.
  rewrite -EFinD lee_fin; apply/RleP; rewrite -RplusE.
  have := q_ws_at _ wa_sq; have := q_ws_at _ wa_sq'; move=> h1 h2.
  apply: (Rle_trans _ (Rplus (Rinv 2) (Rinv 2))); first lra.
  rewrite half_half; exact: Rle_refl.
move=> y; rewrite (@integral_dirac _ _ true real_realType setT measurableT) ?indicE ?mem_set ?mul1e //.
Qed.

Lemma gaussian_channel_mi_bound_hyps_satisfiable :
  exists (dX : measure_display) (TX : measurableType dX) (PX : {measure set TX -> \bar real_realType})
    (nu : {measure set real_realType -> \bar real_realType})
    (xv : TX -> real_realType) (sigma2 : R) (pY : real_realType -> real_realType),
  sigma_finite setT nu /\ PX setT = 1 /\ Rlt 0 sigma2 /\ measurable_fun setT xv /\
  (forall x, Rle (Rabs (xv x)) 1) /\
  (forall x, \int[nu]_y (gauss_density (xv x) sigma2 y)%:E = 1) /\
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) sigma2 y) (Rsqr (Rminus y (xv x))))%:E = sigma2%:E) /\
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) sigma2 y) (Rsqr y))%:E = (Rplus (Rsqr (xv x)) sigma2)%:E) /\
  \int[nu]_y (gauss_density 0 (Rplus 1 sigma2) y)%:E <= 1 /\
  (forall y, \int[PX]_x (gauss_density (xv x) sigma2 y)%:E = (pY y)%:E).
Proof.
exists default_measure_display, bool, (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists wnu, (fun _ => R0), ws, (gauss_density 0 ws).
exact: (gauss_instance_hyps ws erefl).
Qed.

(** the privacy level eps with noise_var eps = ws: eps = ln(1 + 1/ws)/(2 ln 2) *)
Definition weps : R := Rdiv (ln (Rplus 1 (Rinv ws))) (Rmult 2 (ln 2)).

Lemma ln2_pos : Rlt 0 (ln 2).
Proof. by rewrite -ln_1; apply: ln_increasing; lra. Qed.

Lemma weps_pos : Rlt 0 weps.
Proof.
have w0 := ws_pos; have l2 := ln2_pos.
rewrite /weps; apply: Rdiv_lt_0_compat; last lra.
rewrite -ln_1; apply: ln_increasing; first lra.
have := Rinv_0_lt_compat _ w0; lra.
Qed.

Lemma noise_var_weps : noise_var weps = ws.
Proof.
have w0 := ws_pos; have l2 := ln2_pos.
have i0 := Rinv_0_lt_compat _ w0.
rewrite /noise_var /Rpower.
have -> : Rmult (Rmult 2 weps) (ln 2) = ln (Rplus 1 (Rinv ws)) by rewrite /weps; field; lra.
rewrite exp_ln; last lra.
have -> : Rminus (Rplus 1 (Rinv ws)) 1 = Rinv ws by ring.
by rewrite Rinv_inv.
Qed.

Lemma gaussian_channel_mi_eps_hyps_satisfiable :
  exists (dX : measure_display) (TX : measurableType dX) (PX : {measure set TX -> \bar real_realType})
    (nu : {measure set real_realType -> \bar real_realType})
    (xv : TX -> real_realType) (eps : R) (pY : real_realType -> real_realType),
  sigma_finite setT nu /\ PX setT = 1 /\ Rlt 0 eps /\ measurable_fun setT xv /\
  (forall x, Rle (Rabs (xv x)) 1) /\
  (forall x, \int[nu]_y (gauss_density (xv x) (noise_var eps) y)%:E = 1) /\
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) (noise_var eps) y) (Rsqr (Rminus y (xv x))))%:E = (noise_var eps)%:E) /\
  (forall x, \int[nu]_y (Rmult (gauss_density (xv x) (noise_var eps) y) (Rsqr y))%:E = (Rplus (Rsqr (xv x)) (noise_var eps))%:E) /\
  \int[nu]_y (gauss_density 0 (Rplus 1 (noise_var eps)) y)%:E <= 1 /\
  (forall y, \int[PX]_x (gauss_density (xv x) (noise_var eps) y)%:E = (pY y)%:E).
Proof.
exists default_measure_display, bool, (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
exists wnu, (fun _ => R0), weps, (gauss_density 0 ws).
have [h1 [h2 [_ h]]] := gauss_instance_hyps (noise_var weps) noise_var_weps.
by do 2 (split; first exact: h1 || exact: h2); split; [exact: weps_pos | exact: h].
Qed.
