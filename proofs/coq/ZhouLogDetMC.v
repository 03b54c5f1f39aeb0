(* zhou-compression Proposition C.1 and Lemma C.2 with the real determinant (round 12, issue 33).

   ZhouLogDet.v proves both for every p with det any function of p x p matrices satisfying four laws (det(AB) =
   det A det B, det(diag f) = prod_{i<p} f_i, det(A^T) = det A, det A reads only the p x p entries): a premise the
   verdicts named ("laws of the determinant"). Here det is the real determinant itself: mathcomp's determinant
   (Leibniz formula, mathcomp-algebra 1.15) of the p x p matrix with the same entries, detR p A, and the four laws are
   proved from mathcomp's det_mulmx, det_diag and det_tr (detR_mul, detR_diag, detR_tp, detR_ext). The theorems below
   are ZhouLogDet's with that det: the determinant premise is discharged; the congruence diagonalisation (the spectral
   theorem) stays a hypothesis.

   mathcomp's matrices need Coq's R as a ring (eqType, choiceType, zmodType, ringType, comRingType; the structures
   below, written for this file): its choice structure uses Hilbert's epsilon (Coq.Logic.Epsilon, axiom
   epsilon_statement) besides the classical reals' axioms; Print Assumptions shows it, and the verdicts name it.
   Needs Debian's libcoq-mathcomp-algebra (mathcomp 1.15); without it this file does not compile and the claims keep
   ZhouLogDet's theorems (with the determinant premise). *)
Set Warnings "-notation-overridden,-ambiguous-paths,-notation-incompatible-format".
From Coq Require Import Reals Lra Epsilon FunctionalExtensionality.
From Coquelicot Require Import Coquelicot.
From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq choice fintype bigop ssralg matrix.
From DPVerify Require Import FiniteSums ZhouWeyl ZhouRayleigh ZhouLogDet.
Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import GRing.Theory.

Definition eqR (x y : R) : bool := if Req_EM_T x y then true else false.
Lemma eqRP : Equality.axiom eqR.
Proof. move=> x y; rewrite /eqR; case: Req_EM_T => H; [by constructor | by constructor]. Qed.
Canonical R_eqMixin := EqMixin eqRP.
Canonical R_eqType := Eval hnf in EqType R R_eqMixin.

Definition findR (P : pred R) (n : nat) : option R :=
  let x := epsilon (inhabits R0) (fun x => P x) in if P x then Some x else None.
Fact findR_some P n x : findR P n = Some x -> P x.
Proof. rewrite /findR; case: ifP => // Px [<-]; exact Px. Qed.
Fact findR_ex (P : pred R) : (exists x, P x) -> exists n, findR P n.
Proof. move=> /(epsilon_spec (inhabits R0)) H; exists 0%N; by rewrite /findR H. Qed.
Fact findR_ext (P Q : pred R) : P =1 Q -> findR P =1 findR Q.
Proof. move=> PQ n; have -> : P = Q by apply: functional_extensionality. by []. Qed.
Definition R_choiceMixin := Choice.Mixin findR_some findR_ex findR_ext.
Canonical R_choiceType := Eval hnf in ChoiceType R R_choiceMixin.

Fact R_addA : associative Rplus. Proof. move=> *; ring. Qed.
Fact R_addC : commutative Rplus. Proof. move=> *; ring. Qed.
Fact R_add0 : left_id R0 Rplus. Proof. move=> *; ring. Qed.
Fact R_addN : left_inverse R0 Ropp Rplus. Proof. move=> *; ring. Qed.
Definition R_zmodMixin := ZmodMixin R_addA R_addC R_add0 R_addN.
Canonical R_zmodType := Eval hnf in ZmodType R R_zmodMixin.
Fact R_mulA : associative Rmult. Proof. move=> *; ring. Qed.
Fact R_mul1 : left_id R1 Rmult. Proof. move=> *; ring. Qed.
Fact R_mul1r : right_id R1 Rmult. Proof. move=> *; ring. Qed.
Fact R_mulDl : left_distributive Rmult Rplus. Proof. move=> *; ring. Qed.
Fact R_mulDr : right_distributive Rmult Rplus. Proof. move=> *; ring. Qed.
Fact R_one_nz : (R1 : R_zmodType) != (GRing.zero R_zmodType). Proof. apply/eqP; exact R1_neq_R0. Qed.
Definition R_ringMixin := RingMixin R_mulA R_mul1 R_mul1r R_mulDl R_mulDr R_one_nz.
Canonical R_ringType := Eval hnf in RingType R R_ringMixin.
Fact R_mulC : commutative Rmult. Proof. move=> *; ring. Qed.
Canonical R_comRingType := Eval hnf in ComRingType R R_mulC.
Fact R_add0r : right_id R0 Rplus. Proof. move=> *; ring. Qed.
Canonical R_add_monoid := Monoid.Law R_addA R_add0 R_add0r.
Canonical R_add_comoid := Monoid.ComLaw R_addC.
Canonical R_mul_monoid := Monoid.Law R_mulA R_mul1 R_mul1r.
Canonical R_mul_comoid := Monoid.ComLaw R_mulC.


(** The real determinant of the p x p block of a matrix of ZhouLogDet (mat = nat -> nat -> R): mathcomp's
    determinant (Leibniz formula) of the 'M[R]_p with the same entries. *)
Definition mxR (p : nat) (A : mat) : matrix R p p := \matrix_(i < p, j < p) A (nat_of_ord i) (nat_of_ord j).
Definition detR (p : nat) (A : mat) : R := determinant (mxR p A).

Lemma mxR_E : forall p A (i j : 'I_p), mxR p A i j = A (nat_of_ord i) (nat_of_ord j).
Proof. move=> p A i j. rewrite /mxR. exact: mxE. Qed.

Lemma sumn_big : forall (p : nat) (f : nat -> R), sumn p f = (\sum_(i < p) f (nat_of_ord i))%R.
Proof.
  elim=> [|p IH] f; first by rewrite big_ord0.
  rewrite big_ord_recr /= IH. reflexivity.
Qed.

Lemma prodn_big : forall (p : nat) (f : nat -> R), prodn p f = (\prod_(i < p) f (nat_of_ord i))%R.
Proof.
  elim=> [|p IH] f; first by rewrite big_ord0.
  rewrite big_ord_recr /= IH. reflexivity.
Qed.

Lemma detR_mul : forall p A B, detR p (mul p A B) = detR p A * detR p B.
Proof.
  move=> p A B. rewrite /detR.
  transitivity (determinant (mulmx (mxR p A) (mxR p B))); last exact: det_mulmx.
  congr determinant.
  apply/matrixP=> i j. rewrite mxR_E /mul sumn_big /mulmx mxE.
  apply: eq_bigr=> k _. by rewrite !mxR_E.
Qed.

Lemma detR_diag : forall p f, detR p (diagm f) = prodn p f.
Proof.
  move=> p f. rewrite /detR prodn_big.
  have -> : mxR p (diagm f) = diag_mx (\row_(i < p) f (nat_of_ord i)).
  { apply/matrixP=> i j. rewrite mxR_E /diag_mx !mxE /diagm /kron.
    case: (Nat.eq_dec i j)=> [E|E].
    - have Eij : i = j by apply: ord_inj.
      rewrite Eij eqxx mulr1n. simpl. ring.
    - have -> : (i == j) = false by apply/negbTE/eqP=> H; apply: E; rewrite H.
      rewrite mulr0n Rmult_0_l. reflexivity. }
  rewrite det_diag.
  by apply: eq_bigr=> i _; rewrite mxE.
Qed.

Lemma detR_tp : forall p A, detR p (tp A) = detR p A.
Proof.
  move=> p A. rewrite /detR.
  transitivity (determinant (trmx (mxR p A))); last exact: det_tr.
  congr determinant.
  apply/matrixP=> i j. rewrite mxR_E /trmx mxE mxR_E. reflexivity.
Qed.

Lemma detR_ext : forall p A B, meq p A B -> detR p A = detR p B.
Proof.
  move=> p A B H. rewrite /detR. congr determinant.
  apply/matrixP=> i j. rewrite !mxR_E. apply: H; apply/ltP; exact: ltn_ord.
Qed.

Open Scope R_scope.

(** Proposition C.1 with the real determinant (mathcomp's, above) in place of an abstract det with its laws. *)
Theorem zhou_prop_c_1_det : forall (p : nat) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat),
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, lt k p /\ x k <> 0) -> 0 < quad p T2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p T2 S2) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  0 < detR p S1 /\ 0 < detR p S2 /\
  ex_RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
  ln (detR p S2) - ln (detR p S1) =
    RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
    - sumn p (fun i => mul p (fun i j => T2 i j - T1 i j) S1 i i).
Proof.
  intros p T1 T2 S1 S2 M Mi d Bf HMiM HMMi HT1 HG Hpd HS1 HS2 HB.
  exact (zhou_prop_c_1 p (detR p) T1 T2 S1 S2 M Mi d Bf (@detR_mul p) (@detR_diag p) (@detR_tp p) (@detR_ext p)
           HMiM HMMi HT1 HG Hpd HS1 HS2 HB).
Qed.

(** Lemma C.2: its statement does not mention det; with the real determinant the four det hypotheses are discharged. *)
Theorem zhou_lemma_c_2_det : forall (p : nat) (T1 T2 S1 S2 M Mi : mat) (d : nat -> R) (Bf : R -> mat) (l s g : R),
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) ->
  meq p (fun i j => T2 i j - T1 i j) (spec p M d) ->
  (forall x, (exists k, lt k p /\ x k <> 0) -> 0 < quad p T2 x) ->
  meq p (mul p T1 S1) kron -> meq p (mul p T2 S2) kron ->
  (forall v, 0 <= v <= 1 -> meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron) ->
  0 < l -> (forall x, quad p S1 x >= l * sq p x) ->
  (forall x, Rabs (quad p S1 x) <= s * sq p x) ->
  (forall x, Rabs (quad p (fun i j => T2 i j - T1 i j) x) <= g * sq p x) ->
  s * g < 1 ->
  frob2 p (fun i j => T2 i j - T1 i j) * (l * l) / (2 * ((1 + l * g) * (1 + l * g)))
    <= RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1 /\
  RInt (fun v => (1 - v) * kronsum p (fun i j => T2 i j - T1 i j) (Bf v)) 0 1
    <= frob2 p (fun i j => T2 i j - T1 i j) * (s * s) / (2 * ((1 - s * g) * (1 - s * g))).
Proof.
  intros p T1 T2 S1 S2 M Mi d Bf l s g.
  exact (zhou_lemma_c_2 p (detR p) T1 T2 S1 S2 M Mi d Bf l s g (@detR_mul p) (@detR_diag p) (@detR_tp p) (@detR_ext p)).
Qed.
