(** * The Laplace mechanism's privacy-loss bound, with its scale.

    Claims: lecture21-dp/lemma-1 (f(S) + (M/eps) Laplace(0,1)), lecture21-dp/lemma-2
    (F(S) + (B/eps)(X_1..X_K), B the l1 sensitivity), jiang-wishart/theorem-1
    (M(D) + Lap(0, lam) per coordinate, lam > s1(M)/eps).

    The density of the output is derived here from the Laplace density
    p(x; mu, b) = exp(-|x - mu|/b) / (2b) (a product over the K coordinates), and the
    privacy loss ln p(x; mu, b) - ln p(x; mu', b) is bounded by eps at EVERY output x,
    for every pair of means with ||mu - mu'||_1 <= B.  (Integrating this pointwise bound
    over an event gives P(M(S) in E) <= e^eps P(M(S') in E); that measure-theoretic step
    is not formalised here; its finite-space form is [FiniteDP.dp_of_pointwise].) *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** The Laplace density with location [mu] and scale [b]. *)
Definition lap_density (b mu x : R) : R := exp (- Rabs (x - mu) / b) / (2 * b).

Fixpoint sumn (f : nat -> R) (n : nat) : R :=
  match n with O => 0 | S m => sumn f m + f m end.

Fixpoint prodn (f : nat -> R) (n : nat) : R :=
  match n with O => 1 | S m => prodn f m * f m end.

(** The density on R^K of mu + b (X_1, ..., X_K), X_i i.i.d. Laplace(0, 1). *)
Definition lap_vec_density (K : nat) (b : R) (mu x : nat -> R) : R :=
  prodn (fun i => lap_density b (mu i) (x i)) K.

Lemma lap_density_pos : forall b mu x, 0 < b -> 0 < lap_density b mu x.
Proof.
  intros b mu x Hb. unfold lap_density. unfold Rdiv.
  apply Rmult_lt_0_compat; [apply exp_pos | apply Rinv_0_lt_compat; lra].
Qed.

Lemma ln_lap_density : forall b mu x, 0 < b ->
  ln (lap_density b mu x) = - Rabs (x - mu) / b - ln (2 * b).
Proof.
  intros b mu x Hb. unfold lap_density.
  assert (H2b : 0 < 2 * b) by lra.
  replace (exp (- Rabs (x - mu) / b) / (2 * b)) with (exp (- Rabs (x - mu) / b) * / (2 * b)) by reflexivity.
  rewrite (ln_mult (exp _) (/ (2 * b))); [| apply exp_pos | apply Rinv_0_lt_compat; exact H2b].
  rewrite ln_exp, ln_Rinv by exact H2b. ring.
Qed.

Lemma prodn_pos : forall f n, (forall i, (i < n)%nat -> 0 < f i) -> 0 < prodn f n.
Proof.
  intros f n. induction n as [|n IH]; intros H; simpl.
  - lra.
  - apply Rmult_lt_0_compat; [apply IH; intros i Hi; apply H; auto | apply H; auto].
Qed.

Lemma ln_prodn : forall f n, (forall i, (i < n)%nat -> 0 < f i) ->
  ln (prodn f n) = sumn (fun i => ln (f i)) n.
Proof.
  intros f n. induction n as [|n IH]; intros H; simpl.
  - apply ln_1.
  - rewrite ln_mult; [rewrite IH; auto | apply prodn_pos; auto | apply H; auto].
Qed.

Lemma sumn_le : forall f g n, (forall i, (i < n)%nat -> f i <= g i) -> sumn f n <= sumn g n.
Proof.
  intros f g n. induction n as [|n IH]; intros H; simpl.
  - lra.
  - apply Rplus_le_compat; [apply IH; auto | apply H; auto].
Qed.

Lemma sumn_minus : forall f g n, sumn f n - sumn g n = sumn (fun i => f i - g i) n.
Proof. intros f g n. induction n as [|n IH]; simpl; [ring | rewrite <- IH; ring]. Qed.

Lemma sumn_scal : forall f c n, sumn (fun i => f i / c) n = sumn f n / c.
Proof.
  intros f c n. induction n as [|n IH]; simpl.
  - unfold Rdiv. ring.
  - rewrite IH. unfold Rdiv. ring.
Qed.

(** One coordinate: |x - mu'| - |x - mu| <= |mu - mu'| (the triangle inequality). *)
Lemma coordinate_loss : forall b mu mu' x, 0 < b ->
  ln (lap_density b mu x) - ln (lap_density b mu' x) = (Rabs (x - mu') - Rabs (x - mu)) / b.
Proof.
  intros b mu mu' x Hb. rewrite !ln_lap_density by lra. field. lra.
Qed.

Lemma abs_diff_le : forall mu mu' x, Rabs (x - mu') - Rabs (x - mu) <= Rabs (mu - mu').
Proof.
  intros mu mu' x.
  unfold Rabs; destruct (Rcase_abs (x - mu')), (Rcase_abs (x - mu)), (Rcase_abs (mu - mu')); lra.
Qed.

(** The general bound: any scale b > 0 with B <= eps * b (i.e. b >= B / eps). *)
Theorem laplace_loss_vector_scale : forall (K : nat) (eps B b : R) (mu mu' x : nat -> R),
  0 < eps -> 0 < b -> B <= eps * b ->
  sumn (fun i => Rabs (mu i - mu' i)) K <= B ->
  ln (lap_vec_density K b mu x) - ln (lap_vec_density K b mu' x) <= eps.
Proof.
  intros K eps B b mu mu' x He Hb HB Hsens.
  unfold lap_vec_density.
  rewrite !ln_prodn by (intros; apply lap_density_pos; lra).
  rewrite sumn_minus.
  assert (Hc : sumn (fun i => ln (lap_density b (mu i) (x i)) - ln (lap_density b (mu' i) (x i))) K
             = sumn (fun i => Rabs (x i - mu' i) - Rabs (x i - mu i)) K / b).
  { rewrite <- sumn_scal. induction K as [|K IH]; simpl; [reflexivity|].
    rewrite coordinate_loss by lra. f_equal. apply IH.
    simpl in Hsens. pose proof (Rabs_pos (mu K - mu' K)). lra. }
  rewrite Hc.
  apply Rle_trans with (B / b).
  - unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
    apply Rle_trans with (sumn (fun i => Rabs (mu i - mu' i)) K); [|exact Hsens].
    apply sumn_le. intros i _. apply abs_diff_le.
  - apply Rmult_le_reg_r with b; [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

(** lecture21-dp/lemma-2: scale B/eps, B the l1 sensitivity of F : S -> R^K. *)
Theorem laplace_loss_vector : forall (K : nat) (eps B : R) (mu mu' x : nat -> R),
  0 < eps -> 0 < B ->
  sumn (fun i => Rabs (mu i - mu' i)) K <= B ->
  ln (lap_vec_density K (B / eps) mu x) - ln (lap_vec_density K (B / eps) mu' x) <= eps.
Proof.
  intros K eps B mu mu' x He HB Hsens.
  apply (laplace_loss_vector_scale K eps B); try assumption.
  - unfold Rdiv. apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat; lra].
  - right. field. lra.
Qed.

(** lecture21-dp/lemma-1: one coordinate, f(S) + (M/eps) Laplace(0,1), |f(S) - f(S')| <= M. *)
Theorem laplace_loss_scalar : forall (eps M mu mu' x : R),
  0 < eps -> 0 < M -> Rabs (mu - mu') <= M ->
  ln (lap_density (M / eps) mu x) - ln (lap_density (M / eps) mu' x) <= eps.
Proof.
  intros eps M mu mu' x He HM Hs.
  pose proof (laplace_loss_vector 1 eps M (fun _ => mu) (fun _ => mu') (fun _ => x) He HM) as H.
  unfold lap_vec_density in H. simpl in H. rewrite !Rmult_1_l in H. apply H. lra.
Qed.

(** jiang-wishart/theorem-1: lam > s1/eps, s1 the l1 sensitivity. *)
Theorem laplace_loss_jiang : forall (K : nat) (eps s1 lam : R) (mu mu' x : nat -> R),
  0 < eps -> 0 < s1 -> lam > s1 / eps ->
  sumn (fun i => Rabs (mu i - mu' i)) K <= s1 ->
  ln (lap_vec_density K lam mu x) - ln (lap_vec_density K lam mu' x) <= eps.
Proof.
  intros K eps s1 lam mu mu' x He Hs Hlam Hsens.
  assert (Hpos : 0 < s1 / eps) by (unfold Rdiv; apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat; lra]).
  apply (laplace_loss_vector_scale K eps s1 lam); try assumption; [lra|].
  apply Rmult_lt_compat_l with (r := eps) in Hlam; [|lra].
  left. replace (eps * (s1 / eps)) with s1 in Hlam by (field; lra). lra.
Qed.
