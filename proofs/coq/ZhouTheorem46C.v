(* zhou-compression Theorem 4.6, composed: ZhouTheorem46.zhou_theorem_4_6 with its Proposition C.1 / Lemma C.2
   hypotheses discharged by ZhouLogDet.zhou_c1_c2, for every dimension p and every m >= 1, under the Rayleigh
   definitions of lambda_min and ||.||_2, with the explicit reading of the o(1)s (s g <= 1/2 for Lemma C.2's
   "2 - o(1)", the renormalisation term (4/3)/n^2 for (15)'s "+ o(1)").

   The hypotheses are those of the two files, on the statement's own matrices: det any function of p x p matrices
   with det(AB) = det A det B, det(diag f) = prod_i f_i, det(A^T) = det A and depending only on the entries below p
   (the real determinant has all four); a congruence diagonalisation of (Theta_1, Gamma): M invertible with
   Theta_1 = M M^T and Gamma = Theta_i - Theta_1 = M diag(d) M^T (it exists by the spectral theorem, not in Coq);
   Theta_i positive definite; Theta_1 Sigma_1 = I and Theta_i Sigma_i = Sigma_i Theta_i = I; B(v) the inverse of
   Theta_1 + v Gamma on [0, 1]; l_1, l_i Rayleigh lower bounds of Sigma_1, Sigma_i; s, g Rayleigh bounds of
   ||Sigma_1||_2, ||Gamma||_2 with s g <= 1/2; P_1[E], P_i[E] in [0, 1/n^2], n >= 2 ("truncating a subset of measure
   at most 1/n^2"; Lemma 4.4 certifies it). Conclusion: every X in the kept set (12) has
     |ln f'_1(X)/f'_i(X)| <= m p ||Delta||_F/(2 l_i l_1) (C sqrt(ln(2np)/m) + Delta_max + 2 ||Delta||_F s^2/(p l_i l_1))
                             + (4/3)/n^2,
   f'_k the Gaussian likelihood of the m rows with ln|Sigma_k| = ln(det Sigma_k), renormalised by 1 - P_k[E]. *)
From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouLogDet ZhouTheorem46.
Open Scope R_scope.

Theorem zhou_theorem_4_6_composed : forall (p m : nat) (n C Dmax : R) (det : mat -> R)
    (S1 Si T1 Ti M Mi X : mat) (d : nat -> R) (Bf : R -> mat) (l1 li s g P1 Pi : R),
  (forall A B, det (mul p A B) = det A * det B) ->
  (forall f, det (diagm f) = prodn p f) ->
  (forall A, det (tp A) = det A) ->
  (forall A B, meq p A B -> det A = det B) ->
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
  Rabs (loglik_renorm m p T1 (ln (det S1)) P1 X - loglik_renorm m p Ti (ln (det Si)) Pi X)
    <= alpha15 m p n C Dmax (sqrt (frob2 p (fun i j => S1 i j - Si i j))) s l1 li + 4 / 3 / (n * n).
Proof.
  intros p m n C Dmax det S1 Si T1 Ti M Mi X d Bf l1 li s g P1 Pi Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd
    HS1 HS2 HS2' HB Hp Hm Hn Hl1 Hli HR1 HRi Hsym Hs Hg Hs2 Hg2 Hsg HP1 HPi Hkept.
  destruct (zhou_c1_c2 p det T1 Ti S1 Si M Mi d Bf s g Hmul Hdiag Htp Hext HMiM HMMi HT1 HG Hpd HS1 HS2 HB Hs2 Hg2
              ltac:(lra)) as [_ [Hc1 [_ [HA0 HA1]]]].
  apply (zhou_theorem_4_6 p m n C Dmax S1 Si T1 Ti X l1 li s g
           (RInt (fun v => (1 - v) * kronsum p (fun i j => Ti i j - T1 i j) (Bf v)) 0 1)
           (ln (det S1)) (ln (det Si)) P1 Pi); try assumption.
Qed.
