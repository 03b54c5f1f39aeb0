(** * showkatbakhsh-regression Remark 1: the non-coherent bound (16) gives no improvement.

    For every number of rows n' (a natural number) and every s > 0 (the noise-to-signal ratio of
    one row), (1/2) log2(1 + n'/s) <= (n'/2) log2(1 + 1/s): the coherent bound never exceeds the
    non-coherent one. Proof: Bernoulli's inequality (1 + x)^n >= 1 + n x for x >= 0 (induction on n),
    then ln is increasing and ln((1 + x)^n) = n ln(1 + x). The standard library only. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

Lemma bernoulli : forall (n : nat) (x : R), 0 <= x -> 1 + INR n * x <= (1 + x) ^ n.
Proof.
  induction n as [|n IH]; intros x Hx.
  - simpl. lra.
  - rewrite S_INR. simpl.
    specialize (IH x Hx).
    assert (Hn : 0 <= INR n) by apply pos_INR.
    assert (H1 : (1 + x) * (1 + INR n * x) <= (1 + x) * (1 + x) ^ n)
      by (apply Rmult_le_compat_l; lra).
    assert (H2 : 0 <= INR n * x * x) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
    nra.
Qed.

Lemma ln2_pos : 0 < ln 2.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Theorem remark1_noncoherent_not_smaller : forall (n : nat) (s : R), 0 < s ->
  ln (1 + INR n / s) / (2 * ln 2) <= INR n * ln (1 + 1 / s) / (2 * ln 2).
Proof.
  intros n s Hs.
  assert (Hx : 0 < 1 / s) by (unfold Rdiv; rewrite Rmult_1_l; apply Rinv_0_lt_compat; exact Hs).
  assert (Hn : 0 <= INR n) by apply pos_INR.
  assert (Hns : 0 <= INR n / s) by (unfold Rdiv; apply Rmult_le_pos; [exact Hn | left; apply Rinv_0_lt_compat; exact Hs]).
  assert (Hl : 0 < 2 * ln 2) by (pose proof ln2_pos; lra).
  unfold Rdiv at 1 3. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact Hl |].
  rewrite <- ln_pow by lra.
  assert (Hb : 1 + INR n / s <= (1 + 1 / s) ^ n).
  { replace (INR n / s) with (INR n * (1 / s)) by (unfold Rdiv; ring). apply bernoulli. lra. }
  destruct (Rle_lt_or_eq_dec _ _ Hb) as [Hlt | Heq].
  - left. apply ln_increasing; lra.
  - rewrite Heq. right. reflexivity.
Qed.
