"""``dpverify account --event SPEC [--event SPEC ...] --delta D [--delta D ...] [--method M|all] [--json]``.

Each SPEC is ``kind:key=value:...`` with an optional ``count=N``, e.g.
``gaussian:sigma=10:count=100``, ``laplace:scale=5:sensitivity=2``,
``subsampled-gaussian:sigma=1:rate=0.01:count=1000``, ``dpsgd:q=0.01:sigma=1:steps=1000``,
``random-allocation:sigma=1:steps=1000:count=5`` (each record in one of 1000 steps, five epochs; add/remove),
``zcdp:rho=0.5``. ``--delta`` is repeatable (or comma-separated): epsilon(delta) is reported at
each. Every epsilon printed is a certified upper bound (rounded up); for the PLD method the
optimistic lower bound (the true epsilon is at least this) and the numerical slack of the upper
bound are printed beside it.
"""
from __future__ import annotations

import math
import time

from ..validation import open_unit
from ..accounting import Accountant, Method, events as ev
from ..accounting.curves import dpsgd, epsilon_curve
from ..accounting.events import Composed, SelfComposed
from ..accounting.pld import PLDComposition
from ..claims import NeighbourRelation
from ..errors import InvalidArgument, UnsupportedEvent
from ..report import accounting_plots  # the plot saver is looked up when called (tests replace it)
from ..report.html import account_report
from ..rounding import fmt_lower, fmt_upper
from ..tables import StreamTable
from . import _common

_KINDS = {
    "gaussian": (ev.Gaussian, {"sigma": float, "sensitivity": float}),
    "laplace": (ev.Laplace, {"scale": float, "sensitivity": float}),
    "randomized-response": (ev.RandomizedResponse, {"epsilon": float, "categories": int}),
    "discrete-laplace": (ev.DiscreteLaplace, {"scale": float, "sensitivity": int}),
    "discrete-gaussian": (ev.DiscreteGaussian, {"sigma": float, "sensitivity": int}),
    "pure": (ev.PureDP, {"epsilon": float}),
    "approx": (ev.ApproxDP, {"epsilon": float, "delta": float}),
    "subsampled-gaussian": (ev.Gaussian, {"sigma": float, "sensitivity": float, "rate": float}),
    "subsampled-laplace": (ev.Laplace, {"scale": float, "sensitivity": float, "rate": float}),
    "dpsgd": (None, {"q": float, "sigma": float, "steps": int}),
    "random-allocation": (ev.Gaussian, {"sigma": float, "sensitivity": float, "steps": int, "participations": int}),
    "zcdp": (ev.ZCDP, {"rho": float}),
}


def parse_event(spec: str, relation: NeighbourRelation) -> tuple[ev.DpEvent, int]:
    """``kind:key=value:...`` -> (event, count); InvalidArgument with a one-line message."""
    parts = spec.split(":")
    kind = parts[0].strip().lower()
    if kind not in _KINDS:
        raise InvalidArgument(f"--event {spec!r}: unknown kind {kind!r}; use one of {', '.join(_KINDS)}.")
    cls, allowed = _KINDS[kind]
    kwargs: dict = {}
    count = 1
    seen: set = set()
    for item in parts[1:]:
        if "=" not in item:
            raise InvalidArgument(f"--event {spec!r}: {item!r} must be key=value (e.g. sigma=10).")
        key, _, raw = item.partition("=")
        key = key.strip()
        if not key:
            raise InvalidArgument(f"--event {spec!r}: {item!r} has no key; write key=value (e.g. sigma=10).")
        if key in seen:
            raise InvalidArgument(f"--event {spec!r}: duplicate key {key!r}; give each key once.")
        seen.add(key)
        conv = int if key == "count" else allowed.get(key)
        if conv is None:
            raise InvalidArgument(f"--event {spec!r}: unknown key {key!r} for {kind}; "
                                  f"use {', '.join(list(allowed) + ['count'])}.")
        try:
            value = conv(raw)
        except ValueError:
            raise InvalidArgument(f"--event {spec!r}: {key}={raw!r} is not a valid {conv.__name__}.") from None
        if conv is float and not math.isfinite(value):
            raise InvalidArgument(f"--event {spec!r}: {key}={raw!r} must be a finite number (NaN and infinity are "
                                  "refused).")
        if key == "count":
            if value < 1:
                raise InvalidArgument(f"--event {spec!r}: count={raw!r} must be a whole number >= 1.")
            count = value
        else:
            kwargs[key] = value
    try:
        return _build_event(spec, kind, cls, kwargs, relation), count
    except InvalidArgument as exc:
        if str(exc).startswith("--event"):
            raise
        raise InvalidArgument(f"--event {spec!r}: {exc}") from None


def _build_event(spec: str, kind: str, cls, kwargs: dict, relation: NeighbourRelation):
    rate = kwargs.pop("rate", None)
    if kind == "dpsgd":
        missing = [k for k in ("q", "sigma", "steps") if k not in kwargs]
        if missing:
            raise InvalidArgument(f"--event {spec!r}: dpsgd needs q=RATE:sigma=NOISE_MULTIPLIER:steps=N "
                                  f"(missing {', '.join(missing)}).")

        return dpsgd(kwargs["q"], kwargs["sigma"], kwargs["steps"])
    if kind == "random-allocation":  # balls in bins: each record in `participations` of `steps` Gaussian steps
        if "steps" not in kwargs:
            raise InvalidArgument(f"--event {spec!r}: random-allocation needs steps=T (and sigma=NOISE_MULTIPLIER; "
                                  "participations=K is 1 by default).")
        steps, k = kwargs.pop("steps"), kwargs.pop("participations", 1)
        try:
            return ev.RandomAllocation(cls(**kwargs, relation=NeighbourRelation.ADD_REMOVE_ONE), steps, k)
        except TypeError as exc:
            raise InvalidArgument(f"--event {spec!r}: {exc}; give every key the kind needs.") from None
    if kind.startswith("subsampled-"):
        if rate is None:
            raise InvalidArgument(f"--event {spec!r}: {kind} needs rate=Q (the Poisson sampling rate).")
    try:
        if kind.startswith("subsampled-"):
            return ev.PoissonSubsampled(cls(**kwargs, relation=NeighbourRelation.ADD_REMOVE_ONE), rate)
        return cls(**kwargs, relation=relation)
    except TypeError as exc:  # a required key is missing (e.g. gaussian without sigma)
        raise InvalidArgument(f"--event {spec!r}: {exc}; give every key the kind needs.") from None


def register(sub):
    p = sub.add_parser(
        "account",
        help="compose privacy events and print certified (epsilon, delta)",
        description=__doc__.splitlines()[0] + " Kinds: " + ", ".join(_KINDS) + ".",
    )
    p.add_argument("--event", action="append", required=True, metavar="SPEC",
                   help="kind:key=value[:count=N], repeatable")
    p.add_argument("--delta", action="append", required=True,
                   help="target delta in (0, 1); repeatable or comma-separated (e.g. 1e-5,1e-10)")
    p.add_argument("--method", default="pld", choices=[m.value for m in Method] + ["all"])
    p.add_argument("--relation", default=None, choices=[r.value for r in NeighbourRelation],
                   help="neighbour relation of the non-subsampled events (default: replace-one, or "
                        "add-remove-one when a subsampled or random-allocation event is given)")
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    _common.add_report(p)
    p.add_argument("--plot", metavar="FILE.png",
                   help="save a plot of epsilon(delta) per method, the PLD's upper and lower bounds together "
                        "(needs extra `plot`)")
    return p


def _deltas(raw: list[str]) -> list[float]:
    out = []
    for item in raw:
        for part in str(item).split(","):
            try:
                value = float(part)
            except ValueError:
                raise InvalidArgument(f"--delta={part!r} is not a number; give e.g. 1e-5.") from None
            out.append(open_unit("--delta", value, fix="Give a delta strictly between 0 and 1, e.g. 1e-5."))
    return out


def run(args) -> int:
    deltas = _deltas(args.delta)
    _common.check_report_target(args.report)
    if args.plot is not None:
        _common.check_plot_target(args.plot)
    if args.relation is not None:
        relation = NeighbourRelation(args.relation)
    elif any(s.strip().lower().startswith(("subsampled-", "dpsgd", "random-allocation")) for s in args.event):
        relation = NeighbourRelation.ADD_REMOVE_ONE
    else:
        relation = NeighbourRelation.REPLACE_ONE
    parsed = [parse_event(s, relation) for s in args.event]
    methods = list(Method) if args.method == "all" else [Method(args.method)]
    results = []
    for m in methods:
        acc = Accountant(m)
        t0 = time.perf_counter()
        try:
            for event, count in parsed:
                acc.compose(event, count)
            row = {"method": m.value}
            if isinstance(acc.method, PLDComposition):
                b = acc.method.bounds(acc.ledger, deltas)
                eps = [float(x) for x in b.upper]
                row.update({"lower": [float(x) for x in b.lower],
                            "numerical_slack": [float(x) for x in b.numerical_slack], "grid_step": b.h})
            else:
                eps = [float(x) for x in epsilon_curve(acc.ledger, deltas, acc.method)]
            if args.method != "all":
                # the other certified methods too (issue 32): when one is tighter, say which
                answers = [acc.epsilon_answer(d) for d in deltas]
                if any(a.method != m.value for a in answers):
                    row["tightest"] = [a.to_dict() for a in answers]
            row.update({"epsilon": eps[0], "epsilons": eps, "seconds": time.perf_counter() - t0})
            results.append(row)
        except UnsupportedEvent as exc:
            if args.method != "all":
                raise
            results.append({"method": m.value, "epsilon": None, "epsilons": None,
                            "seconds": time.perf_counter() - t0, "unsupported": str(exc)})
    code = _print(args, deltas, results)
    if args.report or args.plot:
        code = max(code, _curves_out(args, deltas, parsed, results))
    return code


def _curves_out(args, deltas, parsed, results) -> int:
    """The --report page and the --plot picture: every method's epsilon(delta) curve (after the
    table is printed, so a failing plot never throws the numbers away)."""
    import sys

    parts = [e if c == 1 else SelfComposed(e, c) for e, c in parsed]
    event = parts[0] if len(parts) == 1 else Composed(tuple(parts))
    curves = accounting_plots.account_curves(event, deltas)
    code = 0
    if args.report:

        command = "dpverify " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["account"] else \
            "dpverify account " + " ".join(f"--event {s}" for s in args.event)
        code = max(code, _common.write_report(args.report, account_report(curves, args.event, command=command, results=results)))
    if args.plot:

        try:
            accounting_plots.save_account_plot(curves, args.plot)
        except (OSError, ImportError) as exc:
            print(f"dpverify account: the results above stand, but the plot was not saved: {exc}", file=sys.stderr)
            return 1
        print(f"plot written to {args.plot}", file=sys.stderr)
    return code


def _print(args, deltas, results) -> int:
    if args.json:
        _common.print_json({"delta": deltas[0], "deltas": deltas, "results": results})
        return 0
    rows = []
    for r in results:
        if r["epsilon"] is None:
            rows.append([r["method"]] + ["unsupported"] * len(deltas) + [f"{r['seconds']:.3f}", r["unsupported"]])
            continue
        rows.append([r["method"]] + [fmt_upper(e, 10) for e in r["epsilons"]]
                    + [f"{r['seconds']:.3f}", "certified upper bound"])
        if "tightest" in r:
            rows.append(["tightest"] + [fmt_upper(a["value"], 10) for a in r["tightest"]]
                        + ["", "certified upper bound from " + ", ".join(
                            sorted({a["method"] for a in r["tightest"]})) + f" (tighter than {r['method']})"])
        if "lower" in r:
            rows.append([r["method"] + " lower"] + [fmt_lower(x, 10) for x in r["lower"]]
                        + ["", "true epsilon is at least this (optimistic PLD)"])
            rows.append([r["method"] + " slack"] + [f"{x:.2g}" for x in r["numerical_slack"]]
                        + ["", "round-off share of the upper bound"])
    print("epsilon(delta); upper bounds are certified (rounded up)")
    heads = ["method"] + [f"delta={d:g}" for d in deltas] + ["seconds", "note"]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    cols = [(h, w, False) for h, w in zip(heads[:-1], widths[:-1])] + [("note", 20, True)]
    table = StreamTable(cols)  # fits the terminal: the note wraps instead of running off
    table.header()
    for r in rows:
        table.row(r)
    return 0
