(* Generic consequences of the spectral theorem (Spectral.spectral_exists) for the matrices of ZhouLogDet.v
   (mat = nat -> nat -> R, meq p, mul p, spec p, cospec p, kron):
   - orthonormal eigendecompositions (JiangDavisKahan.orth_eig) in ZhouLogDet's notation: with Q = cols V (Q's k-th
     column is the k-th eigenvector V k), Q^T Q = Q Q^T = I and A = spec p Q lam = Q diag(lam) Q^T;
   - eigenvalues and the Rayleigh quotient: lam_(p-1) |x|^2 <= x^T A x <= lam_0 |x|^2, so |x^T A x| <=
     max(|lam_0|, |lam_(p-1)|) |x|^2, and a positive definite A has positive eigenvalues;
   - inverses of symmetric (positive definite) matrices are symmetric (positive definite);
   - congruence_exists: for Theta_1 symmetric positive definite and Gamma symmetric there are M, Mi (Mi M = M Mi = I)
     and d with Theta_1 = M M^T and Gamma = M diag(d) M^T: Theta_1 = Q diag(t) Q^T (t > 0), L = Q diag(sqrt t) Q^T,
     Li = Q diag(1/sqrt t) Q^T, Li Gamma Li = R diag(d) R^T, M = L R, Mi = R^T Li;
   - inverse_path_exists: then, with Theta_2 = Theta_1 + Gamma positive definite, B(v) = Mi^T diag(1/(1 + v d)) Mi
     inverts Theta_1 + v Gamma for 0 <= v <= 1. *)
From Coq Require Import Reals Lra Lia.
From DPVerify Require Import FiniteSums JiangWeyl JiangDavisKahan.
From DPVerify Require Spectral.
From DPVerify Require Import ZhouWeyl ZhouRayleigh ZhouLogDet.
Open Scope R_scope.

Definition cols (V : mat) : mat := fun i k => V k i.
Definition symm (p : nat) (A : mat) : Prop := forall i j, (i < p)%nat -> (j < p)%nat -> A i j = A j i.
Definition pd (p : nat) (A : mat) : Prop := forall x, (exists k, (k < p)%nat /\ x k <> 0) -> 0 < quad p A x.

Lemma meq_trans : forall p A B C, meq p A B -> meq p B C -> meq p A C.
Proof. intros p A B C H1 H2 i j Hi Hj. rewrite H1 by assumption. apply H2; assumption. Qed.

Lemma meq_sym : forall p A B, meq p A B -> meq p B A.
Proof. intros p A B H i j Hi Hj. symmetry. apply H; assumption. Qed.

Lemma mul_assoc_meq : forall p A B C, meq p (mul p (mul p A B) C) (mul p A (mul p B C)).
Proof. intros p A B C i k _ _. apply mul_assoc. Qed.

Lemma mul_kron_l_meq : forall p A, meq p (mul p kron A) A.
Proof. intros p A i k Hi _. apply mul_kron_l. exact Hi. Qed.

Lemma mul_kron_r_meq : forall p A, meq p (mul p A kron) A.
Proof. intros p A i k _ Hk. apply mul_kron_r. exact Hk. Qed.

Lemma spec_ext : forall p M f g, (forall k, (k < p)%nat -> f k = g k) -> meq p (spec p M f) (spec p M g).
Proof. intros p M f g H i j _ _. unfold spec. apply sumn_ext. intros k Hk. rewrite H by exact Hk. reflexivity. Qed.

(* ------------------------------------------------------------------ orthonormal eigendecompositions *)
Section Orth.
Variable p : nat.
Variables (A V : mat) (lam : nat -> R).
Hypothesis HV : orth_eig p A V lam.

Lemma orth_QtQ : meq p (mul p V (cols V)) kron.
Proof. destruct HV as [_ Hc]. intros i k Hi Hk. exact (Hc i k Hi Hk). Qed.

Lemma orth_QQt : meq p (mul p (cols V) V) kron.
Proof. destruct HV as [[Hr _] _]. intros i k Hi Hk. exact (Hr i k Hi Hk). Qed.

Lemma orth_spec : meq p A (spec p (cols V) lam).
Proof.
  destruct HV as [[_ [HA _]] _]. intros i j Hi Hj. rewrite HA by assumption.
  unfold spec, cols. apply sumn_ext. intros; ring.
Qed.

Lemma orth_sorted : forall j l, (j <= l)%nat -> (l < p)%nat -> lam l <= lam j.
Proof. destruct HV as [[_ [_ Hs]] _]. exact Hs. Qed.

Lemma eig_rayleigh : (1 <= p)%nat -> forall x, lam (p - 1)%nat * sq p x <= quad p A x /\ quad p A x <= lam 0%nat * sq p x.
Proof.
  intros Hp x. destruct HV as [Hs _].
  change (quad p A x) with (JiangWeyl.quad p A x). change (sq p x) with (JiangWeyl.dot p x x).
  rewrite (quad_of_spectral p A V lam x Hs), (norm_of_spectral p A V lam x Hs).
  rewrite <- !sumn_scal. split; apply sumn_le; intros j Hj.
  - assert (lam (p - 1)%nat <= lam j) by (apply orth_sorted; lia).
    assert (0 <= JiangWeyl.dot p (V j) x * JiangWeyl.dot p (V j) x) by apply Rle_0_sqr. nra.
  - assert (lam j <= lam 0%nat) by (apply orth_sorted; lia).
    assert (0 <= JiangWeyl.dot p (V j) x * JiangWeyl.dot p (V j) x) by apply Rle_0_sqr. nra.
Qed.

Lemma sq_nonneg : forall x, 0 <= sq p x.
Proof. intros x. unfold sq. apply sumn_nonneg. intros; apply Rle_0_sqr. Qed.

Lemma eig_opnorm : (1 <= p)%nat ->
  forall x, Rabs (quad p A x) <= Rmax (Rabs (lam 0%nat)) (Rabs (lam (p - 1)%nat)) * sq p x.
Proof.
  intros Hp x. destruct (eig_rayleigh Hp x) as [H1 H2]. pose proof (sq_nonneg x) as Hs.
  set (m := Rmax (Rabs (lam 0%nat)) (Rabs (lam (p - 1)%nat))).
  assert (Hb : lam 0%nat <= m) by (eapply Rle_trans; [apply Rle_abs | apply Rmax_l]).
  assert (Ha : - lam (p - 1)%nat <= m).
  { eapply Rle_trans; [|apply Rmax_r]. rewrite <- Rabs_Ropp. apply Rle_abs. }
  unfold Rabs. destruct (Rcase_abs (quad p A x)); nra.
Qed.

Lemma eig_quad : forall j, (j < p)%nat -> quad p A (V j) = lam j.
Proof.
  intros j Hj. unfold quad. rewrite (sumn_ext p _ (fun a => lam j * (V j a * V j a))).
  - rewrite sumn_scal. destruct HV as [_ Hc]. specialize (Hc j j Hj Hj). unfold JiangWeyl.dot in Hc.
    rewrite Hc. destruct (Nat.eq_dec j j); [ring | congruence].
  - intros a Ha. change (sumn p (fun b => A a b * V j b)) with (mv p A (V j) a).
    rewrite (eigvec p A V lam HV j a Hj Ha). ring.
Qed.

Lemma eig_pos : pd p A -> forall j, (j < p)%nat -> 0 < lam j.
Proof.
  intros Hpd j Hj. rewrite <- (eig_quad j Hj). apply Hpd.
  destruct (all_zero_or_not p (V j)) as [H0|H]; [|exact H].
  exfalso. destruct HV as [_ Hc]. specialize (Hc j j Hj Hj). unfold JiangWeyl.dot in Hc.
  rewrite sumn_zero in Hc by (intros a Ha; rewrite (H0 a Ha); ring).
  destruct (Nat.eq_dec j j); [lra | congruence].
Qed.
End Orth.

(* products of spectral forms in one orthonormal basis *)
Lemma spec_mul_cols : forall p V, meq p (mul p V (cols V)) kron ->
  forall f g i j, mul p (spec p (cols V) f) (spec p (cols V) g) i j = spec p (cols V) (fun k => f k * g k) i j.
Proof. intros p V H f g i j. exact (sandwich1 p (cols V) V H f g i j). Qed.

Lemma spec_one_cols : forall p V, meq p (mul p (cols V) V) kron -> meq p (spec p (cols V) (fun _ => 1)) kron.
Proof.
  intros p V H i j Hi Hj. rewrite <- (H i j Hi Hj). unfold spec, mul, cols. apply sumn_ext. intros; ring.
Qed.

(* ------------------------------------------------------------------ inverses *)
Lemma inv_sym : forall p (S T : mat), symm p S -> meq p (mul p S T) kron -> symm p T.
Proof.
  intros p S T HS HST.
  assert (HtT : meq p (mul p (tp T) S) kron).
  { intros i k Hi Hk. transitivity (mul p S T k i).
    - unfold mul, tp. apply sumn_ext. intros j Hj. rewrite (HS k j Hk Hj). ring.
    - rewrite (HST k i Hk Hi). apply kron_sym. }
  intros i j Hi Hj. pose proof (inverse_unique p (tp T) S T HtT HST i j Hi Hj) as E. unfold tp in E. exact E.
Qed.

Lemma inv_pd : forall p (S T : mat), meq p (mul p S T) kron -> pd p S -> pd p T.
Proof.
  intros p S T HST Hpd x [k [Hk Hx]].
  set (y := fun i => sumn p (fun j => T i j * x j)).
  assert (Sy : forall i, (i < p)%nat -> sumn p (fun j => S i j * y j) = x i).
  { intros i Hi. unfold y.
    rewrite (sumn_ext p _ (fun j => sumn p (fun l => S i j * T j l * x l))).
    2:{ intros j _. rewrite <- sumn_scal. apply sumn_ext. intros; ring. }
    rewrite sumn_swap.
    rewrite (sumn_ext p _ (fun l => kron i l * x l)).
    - apply sumn_kron_l. exact Hi.
    - intros l Hl. rewrite <- (HST i l Hi Hl). unfold mul. rewrite sumn_mult_r. reflexivity. }
  assert (E : quad p S y = quad p T x).
  { unfold quad. rewrite (sumn_ext p (fun i => y i * sumn p (fun j => S i j * y j)) (fun i => y i * x i))
      by (intros i Hi; rewrite Sy by exact Hi; reflexivity).
    apply sumn_ext. intros i _. unfold y. ring. }
  rewrite <- E. apply Hpd.
  destruct (all_zero_or_not p y) as [H0|H]; [|exact H].
  exfalso. apply Hx. rewrite <- (Sy k Hk). apply sumn_zero. intros j Hj. rewrite (H0 j Hj). ring.
Qed.

(* ------------------------------------------------------------------ congruence *)
Lemma sym_sandwich : forall p A B, symm p A -> symm p B -> symm p (mul p (mul p A B) A).
Proof.
  intros p A B HA HB i j Hi Hj. unfold mul.
  transitivity (sumn p (fun l => sumn p (fun a => A i a * B a l * A l j))).
  { apply sumn_ext. intros l _. rewrite sumn_mult_r. reflexivity. }
  symmetry.
  transitivity (sumn p (fun l => sumn p (fun a => A j a * B a l * A l i))).
  { apply sumn_ext. intros l _. rewrite sumn_mult_r. reflexivity. }
  rewrite sumn_swap. apply sumn_ext. intros l Hl. apply sumn_ext. intros a Ha.
  rewrite (HA j l Hj Hl), (HB l a Hl Ha), (HA a i Ha Hi). ring.
Qed.

Lemma spec_mul_left : forall p (L R : mat) f i j,
  spec p (mul p L R) f i j = mul p (mul p L (spec p R f)) (tp L) i j.
Proof.
  intros p L R f i j.
  transitivity (sumn p (fun k => sumn p (fun a => sumn p (fun b => f k * L i a * R a k * L j b * R b k)))).
  { unfold spec, mul. apply sumn_ext. intros k _. rewrite sumn_mul_sumn, sumn_mult_l. apply sumn_ext. intros a _.
    rewrite sumn_mult_l. apply sumn_ext. intros b _. ring. }
  transitivity (sumn p (fun b => sumn p (fun a => sumn p (fun k => f k * L i a * R a k * L j b * R b k)))).
  2:{ unfold mul, spec, tp. apply sumn_ext. intros b _. rewrite sumn_mult_r. apply sumn_ext. intros a _.
      rewrite sumn_mult_l, sumn_mult_r. apply sumn_ext. intros k _. ring. }
  rewrite (sumn_ext p (fun k => sumn p (fun a => sumn p (fun b => f k * L i a * R a k * L j b * R b k)))
                      (fun k => sumn p (fun b => sumn p (fun a => f k * L i a * R a k * L j b * R b k))))
    by (intros k _; apply sumn_swap).
  rewrite sumn_swap. apply sumn_ext. intros b _. apply sumn_swap.
Qed.

Lemma tp_sym_meq : forall p L, symm p L -> meq p (tp L) L.
Proof. intros p L H i j Hi Hj. unfold tp. apply H; assumption. Qed.

Theorem congruence_exists : forall p (T1 G : mat), symm p T1 -> pd p T1 -> symm p G ->
  exists (M Mi : mat) (d : nat -> R),
    meq p (mul p Mi M) kron /\ meq p (mul p M Mi) kron /\
    meq p T1 (spec p M (fun _ => 1)) /\ meq p G (spec p M d).
Proof.
  intros p T1 G Hs1 Hpd HsG.
  destruct (Spectral.spectral_exists p T1 Hs1) as [V [t Ht]].
  pose proof (orth_QtQ p T1 V t Ht) as HQ1. pose proof (orth_QQt p T1 V t Ht) as HQ2.
  pose proof (orth_spec p T1 V t Ht) as HT. pose proof (eig_pos p T1 V t Ht Hpd) as Htp.
  set (Q := cols V) in *.
  set (L := spec p Q (fun k => sqrt (t k))). set (Li := spec p Q (fun k => / sqrt (t k))).
  assert (HLLi : meq p (mul p L Li) kron).
  { intros i j Hi Hj. unfold L, Li, Q. rewrite spec_mul_cols by exact HQ1.
    rewrite (spec_ext p (cols V) _ (fun _ => 1)); [apply spec_one_cols; assumption | | assumption | assumption].
    intros k Hk. apply Rinv_r. apply Rgt_not_eq. apply sqrt_lt_R0. apply Htp. exact Hk. }
  assert (HLiL : meq p (mul p Li L) kron).
  { intros i j Hi Hj. unfold L, Li, Q. rewrite spec_mul_cols by exact HQ1.
    rewrite (spec_ext p (cols V) _ (fun _ => 1)); [apply spec_one_cols; assumption | | assumption | assumption].
    intros k Hk. apply Rinv_l. apply Rgt_not_eq. apply sqrt_lt_R0. apply Htp. exact Hk. }
  assert (HLL : meq p (mul p L L) T1).
  { intros i j Hi Hj. unfold L, Q. rewrite spec_mul_cols by exact HQ1. rewrite (HT i j Hi Hj).
    apply spec_ext; [|assumption|assumption]. intros k Hk. apply sqrt_sqrt. left. apply Htp. exact Hk. }
  assert (HsL : symm p L) by (intros i j _ _; apply spec_sym).
  assert (HsLi : symm p Li) by (intros i j _ _; apply spec_sym).
  set (K := mul p (mul p Li G) Li).
  assert (HsK : symm p K) by (apply sym_sandwich; assumption).
  destruct (Spectral.spectral_exists p K HsK) as [W [dd Hw]].
  pose proof (orth_QtQ p K W dd Hw) as HR1. pose proof (orth_QQt p K W dd Hw) as HR2.
  pose proof (orth_spec p K W dd Hw) as HK.
  set (R := cols W) in *.
  assert (HspecM : forall f, meq p (spec p (mul p L R) f) (mul p (mul p L (spec p R f)) L)).
  { intros f i j Hi Hj. rewrite spec_mul_left. apply mul_meq_r; [apply tp_sym_meq; exact HsL | assumption | assumption]. }
  exists (mul p L R), (mul p W Li), dd. split; [|split; [|split]].
  - (* (W Li)(L R) = W (Li (L R)) = W ((Li L) R) = W R = I *)
    eapply meq_trans; [apply mul_assoc_meq|].
    eapply meq_trans; [apply mul_meq_r; apply meq_sym; apply mul_assoc_meq|].
    eapply meq_trans; [apply mul_meq_r; apply mul_meq_l; exact HLiL|].
    eapply meq_trans; [apply mul_meq_r; apply mul_kron_l_meq|]. exact HR1.
  - (* (L R)(W Li) = L (R (W Li)) = L ((R W) Li) = L Li = I *)
    eapply meq_trans; [apply mul_assoc_meq|].
    eapply meq_trans; [apply mul_meq_r; apply meq_sym; apply mul_assoc_meq|].
    eapply meq_trans; [apply mul_meq_r; apply mul_meq_l; exact HR2|].
    eapply meq_trans; [apply mul_meq_r; apply mul_kron_l_meq|]. exact HLLi.
  - (* L (R R^T) L = L L = T1 *)
    apply meq_sym. eapply meq_trans; [apply HspecM|].
    eapply meq_trans; [apply mul_meq_l; apply mul_meq_r; apply spec_one_cols; exact HR2|].
    eapply meq_trans; [apply mul_meq_l; apply mul_kron_r_meq|]. exact HLL.
  - (* L K L = (L Li) G (Li L) = G *)
    apply meq_sym. eapply meq_trans; [apply HspecM|].
    eapply meq_trans; [apply mul_meq_l; apply mul_meq_r; apply meq_sym; exact HK|].
    unfold K.
    eapply meq_trans; [apply mul_meq_l; apply meq_sym; apply mul_assoc_meq|].
    eapply meq_trans; [apply mul_meq_l; apply mul_meq_l; apply meq_sym; apply mul_assoc_meq|].
    eapply meq_trans; [apply mul_meq_l; apply mul_meq_l; apply mul_meq_l; exact HLLi|].
    eapply meq_trans; [apply mul_meq_l; apply mul_meq_l; apply mul_kron_l_meq|].
    eapply meq_trans; [apply mul_assoc_meq|].
    eapply meq_trans; [apply mul_meq_r; exact HLiL|]. apply mul_kron_r_meq.
Qed.

(* B(v) = Mi^T diag(1/(1 + v d)) Mi inverts Theta_1 + v Gamma on [0, 1] when Theta_2 is positive definite *)
Theorem inverse_path_exists : forall p (T1 T2 M Mi : mat) (d : nat -> R),
  meq p (mul p Mi M) kron -> meq p (mul p M Mi) kron ->
  meq p T1 (spec p M (fun _ => 1)) -> meq p (fun i j => T2 i j - T1 i j) (spec p M d) -> pd p T2 ->
  exists Bf : R -> mat, forall v, 0 <= v <= 1 ->
    meq p (mul p (fun i j => T1 i j + v * (T2 i j - T1 i j)) (Bf v)) kron.
Proof.
  intros p T1 T2 M Mi d HMiM HMMi HT1 HG Hpd.
  pose proof (d_gt_m1 p T1 T2 M Mi d HMiM HT1 HG Hpd) as Hd.
  exists (fun v => cospec p Mi (fun k => / (1 + v * d k))). intros v Hv i j Hi Hj.
  rewrite (mul_meq_l p _ _ _ (Tv_spec p T1 T2 M d HT1 HG v) i j Hi Hj).
  rewrite (sandwich1 p M Mi HMiM).
  rewrite <- (mixed_one p M Mi HMMi i j Hi Hj). unfold mixed. apply sumn_ext. intros k Hk.
  assert (0 < 1 + v * d k) by (apply pos_line; [apply Hd; exact Hk | exact Hv]).
  field. lra.
Qed.
