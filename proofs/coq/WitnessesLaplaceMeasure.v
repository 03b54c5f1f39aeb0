(** Non-vacuity witness for LaplaceMeasure.v (see Witnesses.v): eps = 1, M = 1, mu = mu' = 0, E = R (measurable). *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import Laplace.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.

Lemma laplace_dp_lebesgue_hyps_satisfiable :
  exists (eps M mu mu' : R) (E : set real_realType),
  Rlt 0 eps /\ Rlt 0 M /\ Rle (Rabs (mu - mu')) M /\ measurable E.
Proof.
  exists 1%R, 1%R, 0%R, 0%R, setT.
  split; [exact: Rlt_0_1|]. split; [exact: Rlt_0_1|].
  split; [rewrite Rminus_0_r Rabs_R0; exact: Rle_0_1 | exact: measurableT].
Qed.
