(* zhou-compression Proposition D.1 / Theorem D.2 (binary game), the corrected Frobenius step, for every p.

   x, y in {-1, 1}^p (x_j^2 = y_j^2 = 1 for j < p): the rows that differ between two neighbouring binary
   databases after normalisation, Delta = (x x^T - y y^T)/n. Finite sums (FiniteSums.sumn), p any natural.
   zhou_binary_frobenius: ||x x^T - y y^T||_F^2 = 2 p^2 - 2 (x.y)^2, hence <= 2 p^2, so for n > 0
   ||Delta||_F^2 <= (sqrt 2 p / n)^2 (||Delta||_F <= sqrt(2) p/n: the bound p/n printed in Proposition D.1 is
   false, e.g. p = 2, x = (1, 1), y = (1, -1): ||x x^T - y y^T||_F^2 = 8 > p^2 = 4), and every entry has
   |Delta_jk| <= 2/n (Delta_max <= 2/n, Theorem D.2's proof). *)
Require Import Reals Lra Lia.
From DPVerify Require Import ZhouWeyl ZhouRayleigh.
Open Scope R_scope.

Lemma sumn_outer : forall p (a : nat -> R),
  sumn p (fun j => sumn p (fun k => a j * a k)) = sumn p a * sumn p a.
Proof.
  intros p a.
  rewrite (sumn_ext p _ (fun j => a j * sumn p a)) by (intros j _; apply sumn_scal).
  rewrite (sumn_ext p _ (fun j => sumn p a * a j)) by (intros; ring).
  apply sumn_scal.
Qed.

Theorem zhou_binary_frobenius : forall (p : nat) (x y : nat -> R) (n : R),
  (forall j, (j < p)%nat -> x j * x j = 1) -> (forall j, (j < p)%nat -> y j * y j = 1) -> 0 < n ->
  frob2 p (fun j k => x j * x k - y j * y k) = 2 * (INR p * INR p) - 2 * (dot p x y * dot p x y) /\
  frob2 p (fun j k => (x j * x k - y j * y k) / n) <= (sqrt 2 * INR p / n) * (sqrt 2 * INR p / n) /\
  (forall j k, (j < p)%nat -> (k < p)%nat -> Rabs ((x j * x k - y j * y k) / n) <= 2 / n).
Proof.
  intros p x y n Hx Hy Hn.
  assert (Hid : frob2 p (fun j k => x j * x k - y j * y k) = 2 * (INR p * INR p) - 2 * (dot p x y * dot p x y)).
  { unfold frob2, dot. rewrite <- sumn_outer.
    rewrite (sumn_ext p _ (fun j => sumn p (fun _ => 2) - 2 * sumn p (fun k => (x j * y j) * (x k * y k)))).
    - rewrite sumn_minus, <- sumn_scal, !sumn_const. ring.
    - intros j Hj. rewrite <- sumn_scal, <- sumn_minus. apply sumn_ext. intros k Hk.
      specialize (Hx j Hj) as Hxj. specialize (Hy j Hj) as Hyj. specialize (Hx k Hk) as Hxk. specialize (Hy k Hk) as Hyk.
      replace ((x j * x k - y j * y k) * (x j * x k - y j * y k))
        with ((x j * x j) * (x k * x k) + (y j * y j) * (y k * y k) - 2 * ((x j * y j) * (x k * y k))) by ring.
      rewrite Hxj, Hyj, Hxk, Hyk. ring. }
  split; [exact Hid|]. split.
  - assert (Hs : frob2 p (fun j k => (x j * x k - y j * y k) / n)
                 = frob2 p (fun j k => x j * x k - y j * y k) / (n * n)).
    { unfold frob2. unfold Rdiv at 3. rewrite Rmult_comm, <- sumn_scal. apply sumn_ext. intros j _.
      rewrite <- sumn_scal. apply sumn_ext. intros k _. field. lra. }
    rewrite Hs, Hid.
    replace ((sqrt 2 * INR p / n) * (sqrt 2 * INR p / n)) with ((sqrt 2 * sqrt 2) * (INR p * INR p) / (n * n))
      by (field; lra).
    rewrite sqrt_sqrt by lra.
    apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; nra|].
    pose proof (Rle_0_sqr (dot p x y)). unfold Rsqr in H. lra.
  - intros j k Hj Hk.
    assert (Hb : forall a, a * a = 1 -> Rabs a = 1).
    { intros a Ha. assert (0 <= Rabs a) by apply Rabs_pos.
      assert (Rabs a * Rabs a = 1) by (rewrite <- Rabs_mult, Ha; apply Rabs_R1). nra. }
    unfold Rdiv. rewrite Rabs_mult, (Rabs_pos_eq (/ n)) by (left; apply Rinv_0_lt_compat; lra).
    apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
    eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp, !Rabs_mult.
    rewrite (Hb (x j)), (Hb (x k)), (Hb (y j)), (Hb (y k)) by auto. lra.
Qed.
