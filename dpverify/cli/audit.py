"""``dpverify audit MODULE:ATTR --pairs MODULE:ATTR``: audit one mechanism on given pairs."""
from __future__ import annotations

from .. import audit as _audit
from ..audit import DEFAULT_SAMPLES
from ..claims import PrivacyClaim
from . import _common


def register(sub):
    p = sub.add_parser(
        "audit",
        help="audit one mechanism on neighbouring pairs",
        description=(
            "Audit a mechanism on neighbouring pairs. MODULE:ATTR names a mechanism or a zero-argument "
            "callable returning one; --pairs names one pair (a tuple), a list of pairs, or a "
            "zero-argument callable returning either."
        ),
    )
    p.add_argument("mechanism", metavar="MODULE:ATTR")
    p.add_argument("--pairs", required=True, metavar="MODULE:ATTR")
    p.add_argument("--epsilon", type=float, help="claimed epsilon (default: the mechanism's claim)")
    p.add_argument("--delta", type=float, help="claimed delta (default: the mechanism's claim, or 0 with --epsilon)")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="outputs per direction of each pair")
    p.add_argument("--seed", type=int, help="seed (default: a fresh one, printed so the run can be repeated)")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    return p


def run(args) -> int:
    mech = _common.load_object(args.mechanism, "mechanism", call=lambda o: not hasattr(o, "sample") and callable(o))
    pairs = _common.load_object(args.pairs, "--pairs", call=lambda o: callable(o) and not isinstance(o, (tuple, list)))
    claim = None
    if args.epsilon is not None or args.delta is not None:
        base = getattr(mech, "claim", None)
        eps = args.epsilon if args.epsilon is not None else getattr(base, "epsilon", None)
        if eps is None:
            from ..errors import InvalidArgument

            raise InvalidArgument("--delta was given without --epsilon and the mechanism has no claim; add --epsilon.")
        delta = args.delta if args.delta is not None else (base.delta if base is not None and args.epsilon is None else 0.0)
        claim = PrivacyClaim(eps, delta)
    seed = args.seed if args.seed is not None else _common.new_seed()
    result = _audit(mech, pairs, claim=claim, samples=args.samples, confidence=args.confidence, rng=seed)
    if args.json:
        doc = result.to_dict()
        doc["seed"] = seed
        doc["mechanism"] = args.mechanism
        _common.print_json(doc)
    else:
        print(result)
        print(f"reproduce with: dpverify audit {args.mechanism} --pairs {args.pairs} "
              f"--samples {args.samples} --seed {seed}"
              + (f" --epsilon {claim.epsilon} --delta {claim.delta}" if claim is not None else ""))
    return 0
