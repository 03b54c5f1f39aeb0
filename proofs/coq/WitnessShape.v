(** The hypotheses of a theorem, as one proposition: [hyps_of T] turns the type
    [forall x1, H1 -> forall x2, H2 -> ... -> C] into [exists x1, H1 /\ exists x2, H2 /\ ... ]
    (the conclusion [C] dropped; [True] when nothing is left). A premise that is a proposition and
    that nothing after it mentions becomes a conjunct; every other binder an existential. *)
Ltac hyps_of T :=
  lazymatch T with
  | ?P -> ?C =>
      lazymatch type of P with
      | Prop =>
          lazymatch C with
          | _ -> _ => let r := hyps_of C in constr:(P /\ r)
          | forall _, _ => let r := hyps_of C in constr:(P /\ r)
          | _ => constr:(P)
          end
      | _ => let r := hyps_of C in constr:(exists _ : P, r)
      end
  | forall x : ?A, @?B x =>
      constr:(exists x : A, ltac:(let b := eval cbv beta in (B x) in
                                  let r := hyps_of b in exact r))
  | _ => constr:(True)
  end.

(** [check_witness thm w]: the statement of [w] is, syntactically (up to the names of bound
    variables), the hypotheses of [thm] as [hyps_of] writes them. *)
Ltac check_witness thm w :=
  let T := type of thm in
  let G := hyps_of T in
  let W := type of w in
  constr_eq W G.

Ltac show_hyps thm := let T := type of thm in let G := hyps_of T in idtac G.
