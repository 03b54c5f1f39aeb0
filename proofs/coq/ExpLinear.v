(** * e^x <= 1 + 2x on [0, 5/4] (tu-projections Theorem 2: "exp(eps_1) <= 1 + 2 eps_1 if 0 < eps_1 < 1").

    On [0, 1/2]: e^x = 1 / e^(-x) <= 1 / (1 - x) <= 1 + 2x, from 1 - x <= e^(-x)
    (standard library) and x (1 - 2x) >= 0.  On [1/2, 5/4] the gap 1 + 2x - e^x is >= 0.0097
    and the Interval library's [interval] tactic certifies it (rigorous interval arithmetic
    with bisection, checked by the kernel). *)
From Coq Require Import Reals Lra.
From Interval Require Import Tactic.
Open Scope R_scope.

Lemma exp_linear_low : forall x, 0 <= x <= 1 / 2 -> exp x <= 1 + 2 * x.
Proof.
  intros x Hx.
  pose proof (exp_ineq1_le (- x)) as H.
  assert (Hpos : 0 < 1 - x) by lra.
  assert (Hinv : exp x = / exp (- x)) by (rewrite exp_Ropp, Rinv_inv; reflexivity).
  rewrite Hinv.
  apply Rle_trans with (/ (1 - x)).
  - apply Rinv_le_contravar; [exact Hpos | lra].
  - apply Rmult_le_reg_r with (1 - x); [exact Hpos|].
    rewrite Rinv_l by lra. nra.
Qed.

Lemma exp_linear_high : forall x, 1 / 2 <= x <= 5 / 4 -> exp x <= 1 + 2 * x.
Proof.
  intros x Hx. cut (exp x - 2 * x <= 1); [lra|]. interval with (i_bisect x, i_taylor x).
Qed.

Theorem exp_le_1_plus_2x : forall x, 0 <= x <= 5 / 4 -> exp x <= 1 + 2 * x.
Proof.
  intros x Hx.
  destruct (Rle_lt_dec x (1 / 2)) as [Hl|Hl].
  - apply exp_linear_low; lra.
  - apply exp_linear_high; lra.
Qed.
