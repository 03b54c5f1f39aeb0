"""``dpverify audit MODULE:ATTR [--pairs MODULE:ATTR]``: audit one mechanism on given pairs, or search for the pair."""
from __future__ import annotations

import logging
import os
import sys

from .. import audit as _audit
from ..auditing import DEFAULT_SAMPLES
from ..auditing.distributed import connect
from ..auditing.domain import InputDomain
from ..auditing.result import jsonable
from ..auditing.unaided.derive import domain_like
from ..claims import PrivacyClaim
from ..errors import InvalidArgument
from ..registry import load_entries
from .. import report  # the plot savers are looked up on their modules when called (tests replace them)
from ..report import blackbox_plots
from ..report.check_table import report_histogram
from ..report.html import audit_report
from . import _close_dask_quietly, _common


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
            "`dpverify check`), whose default pairs are used unless --pairs or --search is given. --pairs "
            "names one pair (a tuple), a list of pairs, or a zero-argument callable returning either. Without "
            "--pairs, MODULE:ATTR is audited without pairs: the audit searches the mechanism's input_domain() "
            "(or --domain) for the violating pair and certifies it on fresh draws."
        ),
    )
    p.add_argument("mechanism", metavar="MECHANISM", help="MODULE:ATTR or a registered mechanism's name")
    p.add_argument("--pairs", metavar="MODULE:ATTR", help="the pairs to audit (default: search for the pair; a "
                                                          "registered name: its default pairs)")
    p.add_argument("--search", action="store_true",
                   help="a registered name: search for the violating pair in the domain its neighbourhood implies "
                        "instead of auditing its default pairs")
    p.add_argument("--domain", metavar="MODULE:ATTR",
                   help="the InputDomain to search (or a zero-argument callable returning one); default: the "
                        "mechanism's input_domain()")
    p.add_argument("--epsilon", type=_common.nonnegative_arg, help="claimed epsilon (default: the mechanism's claim)")
    p.add_argument("--delta", type=_common.delta_arg, help="claimed delta (default: the mechanism's claim, or 0 with --epsilon)")
    p.add_argument("--samples", type=_common.count_arg, default=DEFAULT_SAMPLES,
                   help="outputs per direction of each pair (e.g. 200000 or 2e5)")
    p.add_argument("--seed", type=_common.seed_arg, help="seed >= 0 (default: a fresh one, printed so the run can be repeated)")
    p.add_argument("--confidence", type=_common.open_unit_arg, default=0.95)
    p.add_argument("--delta-resolution", type=_common.positive_arg, metavar="R",
                   help="choose the samples per direction so the delta lower bound is within about R of the estimate")
    p.add_argument("--mode", choices=("grey-box", "auto"),
                   help="grey-box: replay every pair with the draws of D frozen first; an exact finding is the verdict, "
                        "else the statistical audit runs (auto: the same)")
    p.add_argument("--sequential", action="store_true",
                   help="black-box: an anytime-valid test that stops as soon as it certifies a violation (--samples "
                        "is then the most draws per dataset); vectors, structured outputs and curve claims bet on "
                        "events learned from the draws so far")
    p.add_argument("--plot", metavar="FILE",
                   help="save a plot (needs extra `plot`): white-box, the loss distribution and delta(eps); black-box, "
                        "each event's frequency on D and D' with confidence intervals")
    p.add_argument("--progress", action="store_true",
                   help="show progress on stderr (white-box: a progress bar, needs extra `progress`; black-box: "
                        "the elapsed time every 5 s)")
    _common.add_fail_on(p, ("never", "violated"), "never", "violated: the verdict is violated.")
    _common.add_report(p)
    p.add_argument("--time-budget", type=_common.positive_arg, metavar="SECONDS",
                   help="a hard deadline: the audit (every call of the mechanism included) is stopped after SECONDS + 5 "
                        "with an error; white-box audits also stop drawing at SECONDS and report the bounds so far")
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    cluster = p.add_mutually_exclusive_group()
    cluster.add_argument("--scheduler", metavar="ADDRESS", type=_common.scheduler_arg,
                         help="run the batches on the Dask cluster whose scheduler is at ADDRESS (e.g. "
                              "tcp://10.0.0.5:8786; needs extra `dask`); same result as a local run")
    cluster.add_argument("--workers", type=_common.workers_arg, metavar="N",
                         help="run the batches on a local Dask cluster of N one-thread worker processes "
                              "(needs extra `dask`)")
    return p


def _mechanism_and_pairs(args):
    """(mechanism, pairs, domain): a registered name (default pairs unless --pairs or --search) or MODULE:ATTR
    (--pairs, else None: the audit searches --domain or the mechanism's input_domain())."""
    if args.pairs is not None and (args.search or args.domain is not None):
        raise InvalidArgument(f"--pairs {args.pairs} with {'--search' if args.search else '--domain'}: a search "
                              "chooses the pairs itself. Drop --pairs, or drop --search/--domain.")
    domain = None
    if args.domain is not None:
        domain = _common.load_object(args.domain, "--domain", call=lambda o: callable(o) and not isinstance(o, InputDomain))
    if ":" not in args.mechanism:
        entry = _registered(args.mechanism)
        mech = entry.factory()
        if args.search or domain is not None:
            return mech, None, domain if domain is not None else _entry_domain(args.mechanism, entry, mech)
        pairs = entry.pairs() if args.pairs is None else None
    else:
        mech = _common.load_object(args.mechanism, "MECHANISM",
                                   call=lambda o: not hasattr(o, "sample") and callable(o))
        if args.pairs is None:
            return mech, None, domain
        pairs = None
    if pairs is None:
        pairs = _common.load_object(args.pairs, "--pairs",
                                    call=lambda o: callable(o) and not isinstance(o, (tuple, list)))
    return mech, pairs, None


def _entry_domain(name, entry, mech):
    """The domain a registered mechanism's neighbourhood implies on its default pairs' shape."""
    pairs = entry.pairs()
    first = pairs[0] if isinstance(pairs, list) else pairs
    domain = domain_like(mech, first[0])
    if domain is None:
        raise InvalidArgument(f"--search: {name!r} states no query-answer neighbourhood from which a domain to "
                              "search follows (its records are rows, columns or checked by its own rule). Give "
                              "--domain MODULE:ATTR (an InputDomain), or audit its default pairs (drop --search).")
    return domain


def _claim(args, mech) -> PrivacyClaim | None:
    """The claim --epsilon / --delta state (None: the mechanism's own)."""
    if args.epsilon is None and args.delta is None:
        return None
    base = getattr(mech, "claim", None)
    eps = args.epsilon if args.epsilon is not None else getattr(base, "epsilon", None)
    if eps is None:
        raise InvalidArgument("--delta was given without --epsilon and the mechanism has no claim; add --epsilon.")
    delta = args.delta if args.delta is not None else (base.delta if base is not None and args.epsilon is None else 0.0)
    return PrivacyClaim(eps, delta)


def _audit_options(args, white_box: bool):
    """(keyword options of the audit, a Heartbeat or None) from --delta-resolution, --plot/--report,
    --progress and --time-budget."""
    extra = {}
    if args.delta_resolution is not None:
        extra["delta_resolution"] = args.delta_resolution
    if (args.plot or args.report) and white_box:
        extra["profile"] = True
    heartbeat = None
    if args.progress and not args.json:
        if white_box:
            extra["progress"] = True
        else:  # the black-box engine reports no progress: say that it is alive, and for how long
            heartbeat = _common.Heartbeat(f"black-box audit of {args.mechanism}")
    if args.time_budget is not None:
        extra["time_budget"] = args.time_budget
    if args.mode is not None:
        extra["mode"] = args.mode
    if args.sequential:
        extra["sequential"] = True
    return extra, heartbeat


def _connect(args):
    """(client, cluster) of --scheduler / --workers, or (None, None)."""
    if not (getattr(args, "scheduler", None) or getattr(args, "workers", None)):
        return None, None
    if args.workers:  # a local cluster's workers log to this terminal: errors only (Ctrl-C stays one line)
        os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
        logging.getLogger("distributed").setLevel(logging.ERROR)
    try:
        return connect(args.scheduler, args.workers)
    except (ValueError, TypeError) as exc:  # an address Dask cannot parse (the form was checked up front)
        raise InvalidArgument(f"--scheduler {args.scheduler!r}: {exc}") from None


def _run_audit(args, mech, pairs, claim, seed, extra, heartbeat):
    """The audit (on the Dask cluster of --scheduler / --workers if given); None after Ctrl-C."""
    client = cluster = None
    try:
        client, cluster = _connect(args)
        if client is not None:
            extra["executor"] = client
        if heartbeat is not None:
            with heartbeat:
                return _audit(mech, pairs, claim=claim, samples=args.samples, confidence=args.confidence,
                              rng=seed, **extra)
        return _audit(mech, pairs, claim=claim, samples=args.samples, confidence=args.confidence, rng=seed,
                      **extra)
    except KeyboardInterrupt:  # Ctrl-C: the workers are already stopped (dpverify.auditing.executor)
        print(f"dpverify audit: interrupted (Ctrl-C); no result. Repeat with --seed {seed}.", file=sys.stderr)
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        if client is not None:
            try:
                client.close()
            except BaseException:  # noqa: BLE001 -- exiting after Ctrl-C
                pass
        client = cluster = None
        _close_dask_quietly()  # the local cluster, also when Ctrl-C came while it was starting
        return None
    finally:
        if client is not None:  # a cluster started here stops with the audit; a remote one keeps running
            client.close()
            if cluster is not None:
                cluster.close()


def run(args) -> int:
    mech, pairs, domain = _mechanism_and_pairs(args)
    claim = _claim(args, mech)
    seed = args.seed if args.seed is not None else _common.new_seed()
    white_box = callable(getattr(mech, "log_density", None))
    if args.plot is not None:
        _common.check_plot_target(args.plot)
    _common.check_report_target(args.report)
    extra, heartbeat = _audit_options(args, white_box)
    if domain is not None:
        extra["domain"] = domain
    result = _run_audit(args, mech, pairs, claim, seed, extra, heartbeat)
    if result is None:
        return 130
    code = _common.EXIT_FAIL_ON if args.fail_on == "violated" and result.verdict.value in ("violated", "inconsistent") else 0
    code = max(code, _report_now(result, args, claim, seed))
    if args.report:
        doc = jsonable(result.to_dict())
        doc.update(seed=seed, mechanism=args.mechanism)
        if white_box:
            doc["plain_loss_histogram"] = report_histogram(mech, result, seed)
        command = "dpverify " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["audit"] else f"dpverify audit {args.mechanism}"
        code = max(code, _common.write_report(args.report, audit_report(doc, command=command)))
    if args.plot:  # after the verdict is printed: a failing plot never throws the verdict away
        try:
            if white_box:  # the loss histogram from a separate plain sample (seeded by the audit's seed)
                report.save_audit_plot(result, args.plot, mechanism=mech, seed=seed)
            else:  # no loss distribution: the events' frequencies on D and D'
                blackbox_plots.save_blackbox_plot(result, args.plot)
        except (OSError, ImportError) as exc:
            print(f"dpverify audit: the verdict above stands, but the plot was not saved: {exc}", file=sys.stderr)
            return 1
    return code


def _report_now(result, args, claim, seed) -> int:
    if args.json:
        doc = result.to_dict()
        doc["seed"] = seed
        doc["mechanism"] = args.mechanism
        _common.print_json(doc)
    else:
        print(result)
        pairs_opt = (f" --pairs {args.pairs}" if args.pairs else "") + (" --search" if args.search else "") + (
            f" --domain {args.domain}" if args.domain else "")
        size = (f"--delta-resolution {args.delta_resolution!r}" if args.delta_resolution is not None
                else f"--samples {args.samples}")
        print(f"reproduce with: dpverify audit {args.mechanism}{pairs_opt} "
              f"{size} --seed {seed}"
              + (f" --epsilon {claim.epsilon} --delta {claim.delta}" if claim is not None else "")
              + (f" --confidence {args.confidence!r}" if args.confidence != 0.95 else "")
              + (f" --time-budget {args.time_budget!r}" if args.time_budget is not None else "")
              + (f" --mode {args.mode}" if args.mode else "") + (" --sequential" if args.sequential else ""))
    return 0
