(** * Pure differential privacy on finite output spaces: basic composition and post-processing.

    A mechanism's output distribution on a dataset is a mass function [p : A -> R] (p >= 0) on
    the outputs listed in [l]; an event is a predicate [E : A -> bool] and its probability is
    [mass l p E].  (p, q) -- the output distributions on two neighbouring datasets -- is
    eps-DP when P(E) <= e^eps Q(E) for every event E ([pure_dp]); a mechanism is eps-DP when
    this holds for every neighbouring pair (and both orders), so every theorem below is stated
    for one pair and applies to all of them.

    - [dp_of_pointwise] / [pointwise_of_dp]: eps-DP <-> p(y) <= e^eps q(y) at every output.
    - [basic_composition]: (A1(S), A2(A1(S), S)) is (eps1 + eps2)-DP when A1 is eps1-DP and A2 is
      eps2-DP for every value of its first input (adaptive; independent randomness is the case
      where A2 ignores it: [basic_composition_independent]).
    - [post_processing]: a randomized post-processing K (a nonnegative kernel, e.g. a Markov
      kernel) keeps eps; [post_processing_deterministic]: g(A(S)) keeps eps. *)
From Coq Require Import Reals Lra List.
Import ListNotations.
Open Scope R_scope.

Fixpoint mass {A : Type} (l : list A) (p : A -> R) (E : A -> bool) : R :=
  match l with
  | [] => 0
  | y :: l' => (if E y then p y else 0) + mass l' p E
  end.

Definition pure_dp {A : Type} (l : list A) (eps : R) (p q : A -> R) : Prop :=
  forall E : A -> bool, mass l p E <= exp eps * mass l q E.

Lemma dp_of_pointwise : forall {A : Type} (l : list A) eps (p q : A -> R),
  (forall y, In y l -> p y <= exp eps * q y) -> pure_dp l eps p q.
Proof.
  intros A l eps p q H E. induction l as [|y l IH]; simpl.
  - lra.
  - assert (Hy : p y <= exp eps * q y) by (apply H; left; reflexivity).
    assert (Hl : mass l p E <= exp eps * mass l q E) by (apply IH; intros z Hz; apply H; right; exact Hz).
    destruct (E y); lra.
Qed.

Definition singleton {A : Type} (dec : forall x y : A, {x = y} + {x <> y}) (y : A) : A -> bool :=
  fun z => if dec z y then true else false.

Lemma mass_singleton_out : forall {A : Type} dec (l : list A) p y, ~ In y l -> mass l p (singleton dec y) = 0.
Proof.
  intros A dec l p y H. induction l as [|a l IH]; simpl; [reflexivity|].
  unfold singleton at 1. destruct (dec a y) as [E|E].
  - exfalso. apply H. left. exact E.
  - rewrite IH; [ring|]. intro Hin. apply H. right. exact Hin.
Qed.

Lemma mass_singleton : forall {A : Type} dec (l : list A) p y, NoDup l -> In y l ->
  mass l p (singleton dec y) = p y.
Proof.
  intros A dec l p y Hnd Hin. induction l as [|a l IH]; simpl; [destruct Hin|].
  inversion Hnd as [|a' l' Hna Hnd']; subst.
  unfold singleton at 1. destruct (dec a y) as [E|E].
  - subst. rewrite mass_singleton_out by exact Hna. ring.
  - destruct Hin as [Hay|Hin]; [contradiction|]. rewrite IH by assumption. ring.
Qed.

Lemma pointwise_of_dp : forall {A : Type} (dec : forall x y : A, {x = y} + {x <> y}) (l : list A) eps p q,
  NoDup l -> pure_dp l eps p q -> forall y, In y l -> p y <= exp eps * q y.
Proof.
  intros A dec l eps p q Hnd H y Hy.
  pose proof (H (singleton dec y)) as Hs.
  rewrite !mass_singleton in Hs by assumption. exact Hs.
Qed.

(** Basic (adaptive) composition. *)
Theorem basic_composition : forall {A B : Type}
  (decA : forall x y : A, {x = y} + {x <> y}) (decB : forall x y : B, {x = y} + {x <> y})
  (l1 : list A) (l2 : list B) (eps1 eps2 : R)
  (p1 q1 : A -> R) (p2 q2 : A -> B -> R),
  NoDup l1 -> NoDup l2 ->
  (forall a, 0 <= p1 a) -> (forall a b, 0 <= p2 a b) ->
  pure_dp l1 eps1 p1 q1 -> (forall a, pure_dp l2 eps2 (p2 a) (q2 a)) ->
  pure_dp (list_prod l1 l2) (eps1 + eps2)
    (fun ab => p1 (fst ab) * p2 (fst ab) (snd ab))
    (fun ab => q1 (fst ab) * q2 (fst ab) (snd ab)).
Proof.
  intros A B decA decB l1 l2 eps1 eps2 p1 q1 p2 q2 Hn1 Hn2 Hp1 Hp2 H1 H2.
  apply dp_of_pointwise. intros [a b] Hab. simpl.
  apply in_prod_iff in Hab. destruct Hab as [Ha Hb].
  pose proof (pointwise_of_dp decA l1 eps1 p1 q1 Hn1 H1 a Ha) as Pa.
  pose proof (pointwise_of_dp decB l2 eps2 (p2 a) (q2 a) Hn2 (H2 a) b Hb) as Pb.
  rewrite exp_plus.
  replace (exp eps1 * exp eps2 * (q1 a * q2 a b)) with ((exp eps1 * q1 a) * (exp eps2 * q2 a b)) by ring.
  apply Rmult_le_compat; auto.
Qed.

Corollary basic_composition_independent : forall {A B : Type}
  (decA : forall x y : A, {x = y} + {x <> y}) (decB : forall x y : B, {x = y} + {x <> y})
  (l1 : list A) (l2 : list B) (eps1 eps2 : R) (p1 q1 : A -> R) (p2 q2 : B -> R),
  NoDup l1 -> NoDup l2 -> (forall a, 0 <= p1 a) -> (forall b, 0 <= p2 b) ->
  pure_dp l1 eps1 p1 q1 -> pure_dp l2 eps2 p2 q2 ->
  pure_dp (list_prod l1 l2) (eps1 + eps2)
    (fun ab => p1 (fst ab) * p2 (snd ab)) (fun ab => q1 (fst ab) * q2 (snd ab)).
Proof.
  intros A B decA decB l1 l2 eps1 eps2 p1 q1 p2 q2 Hn1 Hn2 Hp1 Hp2 H1 H2.
  apply (basic_composition decA decB l1 l2 eps1 eps2 p1 q1 (fun _ => p2) (fun _ => q2)); auto.
Qed.

(** The output distribution of K(A(S)): b |-> sum over a of p(a) K(a, b). *)
Fixpoint push {A B : Type} (lA : list A) (p : A -> R) (K : A -> B -> R) (b : B) : R :=
  match lA with
  | [] => 0
  | a :: l => p a * K a b + push l p K b
  end.

Theorem post_processing : forall {A B : Type} (decA : forall x y : A, {x = y} + {x <> y})
  (lA : list A) (lB : list B) (eps : R) (p q : A -> R) (K : A -> B -> R),
  NoDup lA -> (forall a b, 0 <= K a b) ->
  pure_dp lA eps p q -> pure_dp lB eps (push lA p K) (push lA q K).
Proof.
  intros A B decA lA lB eps p q K Hnd HK H.
  pose proof (pointwise_of_dp decA lA eps p q Hnd H) as Hpt.
  apply dp_of_pointwise. intros b _.
  clear H Hnd. induction lA as [|a l IH]; simpl.
  - lra.
  - assert (Ha : p a <= exp eps * q a) by (apply Hpt; left; reflexivity).
    assert (Hl : push l p K b <= exp eps * push l q K b) by (apply IH; intros y Hy; apply Hpt; right; exact Hy).
    assert (Hk : p a * K a b <= exp eps * q a * K a b) by (apply Rmult_le_compat_r; auto).
    lra.
Qed.

Corollary post_processing_deterministic : forall {A B : Type}
  (decA : forall x y : A, {x = y} + {x <> y}) (decB : forall x y : B, {x = y} + {x <> y})
  (lA : list A) (lB : list B) (eps : R) (p q : A -> R) (g : A -> B),
  NoDup lA -> pure_dp lA eps p q ->
  pure_dp lB eps (push lA p (fun a b => if decB (g a) b then 1 else 0))
                 (push lA q (fun a b => if decB (g a) b then 1 else 0)).
Proof.
  intros A B decA decB lA lB eps p q g Hnd H.
  apply (post_processing decA); auto.
  intros a b. destruct (decB (g a) b); lra.
Qed.
