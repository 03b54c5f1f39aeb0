(** * Bernoulli's inequality and lecture21-dp Lemma 3 (Laplace utility, union bound).

    For every natural K and 0 <= q <= 1: 1 - K q <= (1 - q)^K (induction on K).
    lecture21-dp Lemma 3: with K independent coordinates of Laplace noise of scale b = B/eps and the
    threshold t = ln(K/delta) B/eps, each coordinate exceeds t with probability q = e^(-t/b) = delta/K,
    so the exact tail of the maximum is 1 - (1 - q)^K; for K >= 1 and 0 < delta <= K it is <= delta.
    (The Laplace tail P(|bX| >= t) = e^(-t/b) and independence are not in Coq.) *)
From Coq Require Import Reals Lra Lia.
Open Scope R_scope.

Theorem bernoulli : forall (n : nat) (q : R), 0 <= q <= 1 -> 1 - INR n * q <= (1 - q) ^ n.
Proof.
  intros n q Hq. induction n as [|n IH].
  - simpl. lra.
  - rewrite S_INR. simpl pow.
    assert (H1 : 0 <= 1 - q) by lra.
    assert (H2 : (1 - q) * (1 - INR n * q) <= (1 - q) * (1 - q) ^ n)
      by (apply Rmult_le_compat_l; assumption).
    assert (Hn : 0 <= INR n) by apply pos_INR.
    assert (H3 : 0 <= INR n * q * q) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
    nra.
Qed.

Theorem laplace_max_tail : forall (K : nat) (delta : R),
  (1 <= K)%nat -> 0 < delta <= INR K ->
  1 - (1 - exp (- ln (INR K / delta))) ^ K <= delta.
Proof.
  intros K delta HK Hd.
  assert (HKpos : 0 < INR K) by (apply lt_0_INR; lia).
  assert (Hq : exp (- ln (INR K / delta)) = delta / INR K).
  { rewrite exp_Ropp, exp_ln.
    - field. split; lra.
    - apply Rdiv_lt_0_compat; lra. }
  rewrite Hq.
  assert (Hr : 0 <= delta / INR K <= 1).
  { split.
    - apply Rlt_le, Rdiv_lt_0_compat; lra.
    - apply Rmult_le_reg_r with (INR K); [lra|].
      unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  pose proof (bernoulli K (delta / INR K) Hr) as HB.
  assert (HKq : INR K * (delta / INR K) = delta) by (field; lra).
  lra.
Qed.
