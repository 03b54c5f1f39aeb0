"""``dpverify audit MODULE:ATTR --pairs MODULE:ATTR``: audit one mechanism on given pairs."""
from __future__ import annotations

import sys

from .. import audit as _audit
from ..auditing import DEFAULT_SAMPLES
from ..claims import PrivacyClaim
from ..errors import InvalidArgument
from ..registry import load_entries
from . import _common


def _registered(name: str):
    entries = {e.name: e for e in load_entries()}
    if name not in entries:
        raise InvalidArgument(f"MECHANISM={name!r} is neither MODULE:ATTR nor a registered mechanism; "
                              f"registered: {sorted(entries)}.")
    return entries[name]


def register(sub):
    p = sub.add_parser(
        "audit",
        help="audit one mechanism on neighbouring pairs",
        description=(
            "Audit a mechanism on neighbouring pairs. MECHANISM is MODULE:ATTR, naming a mechanism or a "
            "zero-argument callable returning one, or the name of a registered mechanism (see "
            "`dpverify check`), whose default pairs are used unless --pairs is given. --pairs names "
            "one pair (a tuple), a list of pairs, or a zero-argument callable returning either."
        ),
    )
    p.add_argument("mechanism", metavar="MECHANISM", help="MODULE:ATTR or a registered mechanism's name")
    p.add_argument("--pairs", metavar="MODULE:ATTR", help="required unless MECHANISM is a registered name")
    p.add_argument("--epsilon", type=float, help="claimed epsilon (default: the mechanism's claim)")
    p.add_argument("--delta", type=float, help="claimed delta (default: the mechanism's claim, or 0 with --epsilon)")
    p.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="outputs per direction of each pair")
    p.add_argument("--seed", type=int, help="seed (default: a fresh one, printed so the run can be repeated)")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--delta-resolution", type=float, metavar="R",
                   help="choose the samples per direction so the delta lower bound is within about R of the estimate")
    p.add_argument("--plot", metavar="FILE", help="save the loss distribution and delta(eps) plot (needs extra `plot`)")
    p.add_argument("--progress", action="store_true", help="show a progress bar (needs extra `progress`)")
    p.add_argument("--time-budget", type=float, metavar="SECONDS",
                   help="stop drawing after SECONDS and report the bounds reached so far (white-box audits)")
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    return p


def run(args) -> int:
    if ":" not in args.mechanism:
        entry = _registered(args.mechanism)
        mech = entry.factory()
        pairs = entry.pairs() if args.pairs is None else None
    else:
        mech = _common.load_object(args.mechanism, "mechanism",
                                   call=lambda o: not hasattr(o, "sample") and callable(o))
        if args.pairs is None:
            raise InvalidArgument(f"--pairs is required when MECHANISM={args.mechanism!r} is MODULE:ATTR "
                                  "(only registered mechanisms have default pairs).")
        pairs = None
    if pairs is None:
        pairs = _common.load_object(args.pairs, "--pairs",
                                    call=lambda o: callable(o) and not isinstance(o, (tuple, list)))
    claim = None
    if args.epsilon is not None or args.delta is not None:
        base = getattr(mech, "claim", None)
        eps = args.epsilon if args.epsilon is not None else getattr(base, "epsilon", None)
        if eps is None:
            raise InvalidArgument("--delta was given without --epsilon and the mechanism has no claim; add --epsilon.")
        delta = args.delta if args.delta is not None else (base.delta if base is not None and args.epsilon is None else 0.0)
        claim = PrivacyClaim(eps, delta)
    seed = args.seed if args.seed is not None else _common.new_seed()
    extra = {}
    if args.delta_resolution is not None:
        extra["delta_resolution"] = args.delta_resolution
    if args.plot:
        extra["profile"] = True
    if args.progress and not args.json:
        extra["progress"] = True
    if args.time_budget is not None:
        extra["time_budget"] = args.time_budget
    try:
        result = _audit(mech, pairs, claim=claim, samples=args.samples, confidence=args.confidence, rng=seed,
                        **extra)
    except KeyboardInterrupt:  # Ctrl-C: the workers are already stopped (dpverify.auditing._runner)
        print(f"dpverify audit: interrupted (Ctrl-C); no result. Repeat with --seed {seed}.", file=sys.stderr)
        return 130
    if args.plot:
        from ..report import save_audit_plot

        save_audit_plot(result, args.plot)
    if args.json:
        doc = result.to_dict()
        doc["seed"] = seed
        doc["mechanism"] = args.mechanism
        _common.print_json(doc)
    else:
        print(result)
        pairs_opt = f" --pairs {args.pairs}" if args.pairs else ""
        print(f"reproduce with: dpverify audit {args.mechanism}{pairs_opt} "
              f"--samples {args.samples} --seed {seed}"
              + (f" --epsilon {claim.epsilon} --delta {claim.delta}" if claim is not None else ""))
    return 0
