(* zhou-compression Theorem 4.6, composed, with the real determinant (round 12, issue 33): ZhouTheorem46C's
   zhou_theorem_4_6_composed with det := ZhouLogDetMC.detR (mathcomp's determinant of the p x p matrix with the same
   entries; its four laws proved in ZhouLogDetMC.v), so ln|Sigma_k| = ln (detR p Sigma_k) and the "laws of the
   determinant" hypotheses are discharged. The congruence diagonalisation (the spectral theorem) and the Rayleigh bounds
   stay hypotheses, and so does P[E] <= 1/n^2 (Lemma 4.4). Needs mathcomp-algebra (through ZhouLogDetMC.v); rests on
   Hilbert's epsilon (Coq.Logic.Epsilon) besides the classical reals, as ZhouLogDetMC.v does. *)
From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouLogDet ZhouTheorem46 ZhouTheorem46C ZhouLogDetMC.
Open Scope R_scope.

Theorem zhou_theorem_4_6_det : forall (p m : nat) (n C Dmax : R)
    (S1 Si T1 Ti M Mi X : mat) (d : nat -> R) (Bf : R -> mat) (l1 li s g P1 Pi : R),
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => Ti i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p Ti x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p Ti Si) kron -> meq p (mul p Si Ti) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (Ti i j - T1 i j)) (Bf v)) kron) ->
  (1 <= p)%nat -> (1 <= m)%nat -> 2 <= n ->
  0 < l1 -> 0 < li ->
  (forall x, quad p S1 x >= l1 * sq p x) ->
  (forall x, quad p Si x >= li * sq p x) ->
  (forall i j, (i < p)%nat -> (j < p)%nat -> S1 i j = S1 j i) ->
  0 <= s -> 0 <= g ->
  (forall x, Rabs (quad p S1 x) <= s * sq p x) ->
  (forall x, Rabs (quad p (fun i j => Ti i j - T1 i j) x) <= g * sq p x) ->
  s * g <= 1 / 2 ->
  0 <= P1 <= 1 / (n * n) -> 0 <= Pi <= 1 / (n * n) ->
  (forall j k, (j < p)%nat -> (k < p)%nat ->
     Rabs (scov m p X j k - S1 j k) <= C * sqrt (ln (2 * n * INR p) / INR m) + Dmax) ->
  Rabs (loglik_renorm m p T1 (ln (detR p S1)) P1 X - loglik_renorm m p Ti (ln (detR p Si)) Pi X)
    <= alpha15 m p n C Dmax (sqrt (frob2 p (fun i j => S1 i j - Si i j))) s l1 li + 4 / 3 / (n * n).
Proof.
  intros p m n C Dmax S1 Si T1 Ti M Mi X d Bf l1 li s g P1 Pi.
  exact (zhou_theorem_4_6_composed p m n C Dmax (detR p) S1 Si T1 Ti M Mi X d Bf l1 li s g P1 Pi
           (@detR_mul p) (@detR_diag p) (@detR_tp p) (@detR_ext p)).
Qed.
