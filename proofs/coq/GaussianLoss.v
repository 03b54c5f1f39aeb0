(** * lecture21-dp Lemma 6 (the Gaussian mechanism): the two deterministic steps of the proof, every dimension K.

    With u = x - F(S) and dF = F(S) - F(S') (so x - F(S') = u + dF), the privacy loss
    (||x - F(S')||^2 - ||x - F(S)||^2)/(2 sigma^2) is bounded through
    - [gaussian_expansion]: ||x - F(S')||^2 = ||x - F(S)||^2 + ||dF||^2 + 2 u.dF (an identity of finite sums);
    - [gaussian_cs_step]: u.dF <= ||u|| B when ||dF|| <= B (Cauchy-Schwarz, [JiangDavisKahan.cauchy_schwarz]).
    Squared norms are [nrm2] (sum of squares), the Euclidean norm is its square root. The proof's tail step
    P(||u|| > sigma^2 eps/B - B/2) <= delta is probabilistic and is checked in Python (it fails for some
    eps <= 1: the claim's steps are refuted there). *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums JiangDavisKahan.
Open Scope R_scope.

Theorem gaussian_expansion : forall K (x f f' : nat -> R),
  nrm2 K (fun i => x i - f' i) =
    nrm2 K (fun i => x i - f i) + nrm2 K (fun i => f i - f' i) + 2 * sumn K (fun i => (x i - f i) * (f i - f' i)).
Proof.
  intros K x f f'. unfold nrm2.
  rewrite (sumn_ext K (fun i => (x i - f' i) * (x i - f' i))
             (fun i => ((x i - f i) * (x i - f i) + (f i - f' i) * (f i - f' i)) + 2 * ((x i - f i) * (f i - f' i))))
    by (intros; ring).
  rewrite sumn_plus, sumn_plus, sumn_scal. ring.
Qed.

Theorem gaussian_cs_step : forall K (x f f' : nat -> R) B, 0 <= B ->
  nrm2 K (fun i => f i - f' i) <= B * B ->
  sumn K (fun i => (x i - f i) * (f i - f' i)) <= sqrt (nrm2 K (fun i => x i - f i)) * B.
Proof.
  intros K x f f' B HB HF.
  set (S := sumn K (fun i => (x i - f i) * (f i - f' i))).
  set (U := nrm2 K (fun i => x i - f i)).
  assert (HU : 0 <= U) by apply nrm2_nonneg.
  assert (HS2 : S * S <= U * (B * B)).
  { eapply Rle_trans; [apply (cauchy_schwarz K (fun i => x i - f i) (fun i => f i - f' i))|].
    apply Rmult_le_compat_l; [exact HU | exact HF]. }
  assert (Hq : sqrt U * sqrt U = U) by (apply sqrt_sqrt; exact HU).
  assert (Hq0 : 0 <= sqrt U) by apply sqrt_pos.
  destruct (Rle_or_lt S (sqrt U * B)) as [h|h]; [exact h|].
  exfalso. assert (0 <= sqrt U * B) by (apply Rmult_le_pos; assumption).
  assert (sqrt U * B * (sqrt U * B) < S * S) by nra.
  nra.
Qed.
