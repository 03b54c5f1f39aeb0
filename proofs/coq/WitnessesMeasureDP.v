(** Non-vacuity witness for MeasureDP.v's truncated_density_normalised (see Witnesses.v): the step theorem of
    zhou-compression/procedure-4.2 (dpverify.symbolic.coq.kernel_step, which compiles the theorem and reads its axioms;
    this witness is checked by tests/proofs/test_coq_measure_dp.py). The booleans with every set measurable, mu the
    Dirac mass at true, f = 1, E empty and P[E] = 0. *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import MeasureDP.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets functions mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.
Import GRing.Theory Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Open Scope ereal_scope.

Lemma truncated_density_normalised_hyps_satisfiable :
  exists (d : measure_display) (T : measurableType d) (mu : {measure set T -> \bar real_realType})
    (f : T -> real_realType) (E : set T) (p : R),
  (forall x, Rle 0 (f x)) /\ measurable_fun setT f /\ \int[mu]_x (f x)%:E = 1 /\ measurable E /\
  \int[mu]_(x in E) (f x)%:E = p%:E /\ Rlt p 1.
Proof.
  exists default_measure_display, bool, (@dirac _ bool true real_realType : {measure set bool -> \bar real_realType}).
  exists (fun _ => 1%R), set0, 0%R.
  split; first by move=> _; apply/RleP; exact: ler01.
  split; first exact: measurable_fun_cst.
  split; first by rewrite (@integral_dirac _ _ true real_realType setT measurableT) ?indicE ?mem_set ?mul1e //; exact: measurable_fun_cst.
  split; first exact: measurable0.
  split; first by rewrite integral_set0.
  by apply/RltP; exact: ltr01.
Qed.
