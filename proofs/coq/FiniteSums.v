(* Finite sums over the indices 0 .. p-1 (vectors and matrices as functions on the indices), shared by the
   matrix proofs (JiangWeyl.v, ShowkatbakhshRidge.v, ZhouWeyl.v, ZhouRayleigh.v). The standard library only. *)
From Coq Require Import Reals Lra Lia.
Open Scope R_scope.

Fixpoint sumn (p : nat) (f : nat -> R) : R :=
  match p with O => 0 | S k => sumn k f + f k end.

Lemma sumn_ext : forall p f g, (forall i, (i < p)%nat -> f i = g i) -> sumn p f = sumn p g.
Proof.
  induction p as [|k IH]; intros f g H; simpl; [reflexivity|].
  rewrite (IH f g) by (intros i Hi; apply H; lia).
  rewrite (H k) by lia. reflexivity.
Qed.

Lemma sumn_plus : forall p f g, sumn p (fun i => f i + g i) = sumn p f + sumn p g.
Proof. induction p as [|k IH]; intros f g; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma sumn_minus : forall p f g, sumn p (fun i => f i - g i) = sumn p f - sumn p g.
Proof. induction p as [|k IH]; intros f g; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma sumn_scal : forall p c f, sumn p (fun i => c * f i) = c * sumn p f.
Proof. induction p as [|k IH]; intros c f; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma sumn_zero : forall p f, (forall i, (i < p)%nat -> f i = 0) -> sumn p f = 0.
Proof.
  induction p as [|k IH]; intros f H; simpl; [reflexivity|].
  rewrite IH by (intros i Hi; apply H; lia). rewrite (H k) by lia. lra.
Qed.

Lemma sumn_le : forall p f g, (forall i, (i < p)%nat -> f i <= g i) -> sumn p f <= sumn p g.
Proof.
  induction p as [|k IH]; intros f g H; simpl; [lra|].
  assert (sumn k f <= sumn k g) by (apply IH; intros i Hi; apply H; lia).
  assert (f k <= g k) by (apply H; lia). lra.
Qed.

Lemma sumn_nonneg : forall p f, (forall i, (i < p)%nat -> 0 <= f i) -> 0 <= sumn p f.
Proof.
  induction p as [|k IH]; intros f H; simpl; [lra|].
  assert (0 <= sumn k f) by (apply IH; intros i Hi; apply H; lia).
  assert (0 <= f k) by (apply H; lia). lra.
Qed.

Lemma sumn_pos : forall p f k, (forall i, (i < p)%nat -> 0 <= f i) -> (k < p)%nat -> 0 < f k -> 0 < sumn p f.
Proof.
  induction p as [|q IH]; intros f k H Hk Hf; [lia|]. simpl.
  destruct (Nat.eq_dec k q) as [->|Hne].
  - assert (0 <= sumn q f) by (apply sumn_nonneg; intros i Hi; apply H; lia). lra.
  - assert (0 < sumn q f) by (apply (IH f k); [intros i Hi; apply H; lia | lia | exact Hf]).
    assert (0 <= f q) by (apply H; lia). lra.
Qed.

Lemma sumn_swap : forall n d (f : nat -> nat -> R),
  sumn n (fun i => sumn d (fun j => f i j)) = sumn d (fun j => sumn n (fun i => f i j)).
Proof.
  induction n as [|k IH]; intros d f; simpl.
  - symmetry. apply sumn_zero. intros; reflexivity.
  - rewrite IH. rewrite <- sumn_plus. reflexivity.
Qed.

(* the triangle inequality over a finite sum *)
Lemma sumn_abs : forall p f, Rabs (sumn p f) <= sumn p (fun i => Rabs (f i)).
Proof.
  induction p as [|k IH]; intros f; simpl.
  - rewrite Rabs_R0. lra.
  - eapply Rle_trans; [apply Rabs_triang|]. specialize (IH f). lra.
Qed.
