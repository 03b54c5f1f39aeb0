(** Non-vacuity witnesses for LaplaceVecMeasure.v (see Witnesses.v): K = 1, eps = 1, B = s1 = 1 (lam = 2 > 1),
    mu = mu' = 0 and E = R^1 (measurable). *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format,-parsing".
From Coq Require Import Reals Lra.
From DPVerify Require Import Laplace LaplaceVecMeasure.
From mathcomp Require Import all_ssreflect ssralg ssrnum.
From mathcomp.classical Require Import boolp classical_sets mathcomp_extra.
From mathcomp.analysis Require Import Rstruct reals ereal topology normedtype sequences measure numfun lebesgue_measure lebesgue_integral.

Lemma sens_zero : Rle (Laplace.sumn (fun i => Rabs ((fun _ => R0) i - (fun _ => R0) i)) 1) R1.
Proof. rewrite /= Rminus_0_r Rabs_R0 Rplus_0_l. exact: Rle_0_1. Qed.

Lemma laplace_vec_dp_lebesgue_hyps_satisfiable :
  exists (K : nat) (eps B : R) (mu mu' : nat -> R) (E : set (Rvec K)),
  (0 < K)%N /\ Rlt 0 eps /\ Rlt 0 B /\ Rle (Laplace.sumn (fun i => Rabs (mu i - mu' i)) K) B /\ measurable E.
Proof.
  exists 1%N, R1, R1, (fun _ => R0), (fun _ => R0), setT.
  split; first by []. split; [exact: Rlt_0_1|]. split; [exact: Rlt_0_1|].
  split; [exact: sens_zero | exact: measurableT].
Qed.

Lemma laplace_jiang_dp_lebesgue_hyps_satisfiable :
  exists (K : nat) (eps s1 lam : R) (mu mu' : nat -> R) (E : set (Rvec K)),
  (0 < K)%N /\ Rlt 0 eps /\ Rlt 0 s1 /\ Rgt lam (s1 / eps) /\ Rle (Laplace.sumn (fun i => Rabs (mu i - mu' i)) K) s1 /\
  measurable E.
Proof.
  exists 1%N, R1, R1, (Rplus R1 R1), (fun _ => R0), (fun _ => R0), setT.
  split; first by []. split; [exact: Rlt_0_1|]. split; [exact: Rlt_0_1|].
  split; [rewrite /Rdiv Rinv_1 Rmult_1_r; lra|].
  split; [exact: sens_zero | exact: measurableT].
Qed.
