"""``dpverify calibrate MECHANISM --epsilon E [--delta D --sensitivity S --method M ...] [--json]``.

Prints the noise parameter (rounded UP: a noise parameter must not shrink), the method, the
provenance (claim, lemmas, steps), the verdict of the claim a lemma-derived value rests on (from
the proof runner, cached; a refuted claim makes the value UNSAFE unless the exact profile
certifies it), the achieved delta(eps) (rounded up), the exact minimum and the
tightness. Options that do not apply to the mechanism are rejected, not ignored.
"""
from __future__ import annotations

import numpy as np

from ..calibrate import CALIBRATORS, Calibration
from ..calibrate.check_section import premise_flag, premise_of
from ..calibrate.premises import is_refuted
from ..errors import InvalidArgument
from ..rounding import fmt_lower, fmt_upper
from . import _common

#: For each mechanism: the options it accepts (argparse dest -> keyword of the calibrator).
OPTIONS = {
    "gaussian": {"delta": "delta", "sensitivity": "sensitivity", "method": "method"},
    "laplace": {"delta": "delta", "sensitivity": "sensitivity", "method": "method"},
    "random-projection": {"delta": "delta", "method": "method", "k": "k", "B": "B", "sigma_p": "sigma_p",
                          "reading": "reading", "P": "P", "z": "z", "rtol": "rtol"},
    "wishart": {"n": "n", "d": "d"},
    "covariance-laplace": {"n": "n", "d": "d"},
    "mi-additive-noise": {},
    "mi-random-projection": {"n_prime": "n_prime", "f2": "f2"},
}

_FLAG = {"delta": "--delta", "sensitivity": "--sensitivity", "method": "--method", "k": "--k", "B": "--B",
         "sigma_p": "--sigma-p", "reading": "--reading", "P": "--P", "z": "--z", "rtol": "--rtol", "n": "--n",
         "d": "--d", "n_prime": "--n-prime", "f2": "--f2"}

_DIGITS = 6


def register(sub):
    p = sub.add_parser(
        "calibrate",
        help="derive a noise parameter (lemma-derived or exact, on the safe side)",
        description=(
            "Derive the noise parameter of a mechanism for a privacy target, with the lemmas that justify "
            "it and its tightness against the exact minimum. Mechanisms: " + ", ".join(OPTIONS) + "."
        ),
    )
    p.add_argument("mechanism", choices=list(OPTIONS), metavar="MECHANISM",
                   help="one of: " + ", ".join(OPTIONS))
    p.add_argument("--epsilon", type=float, required=True,
                   help="target epsilon (in bits for the MI-DP mechanisms mi-additive-noise, mi-random-projection)")
    p.add_argument("--delta", type=float, help="target delta (gaussian, random-projection: required; laplace: default 0)")
    p.add_argument("--sensitivity", type=float, help="l2 (gaussian) or l1 (laplace) sensitivity (default 1)")
    p.add_argument("--method", help="exact | classical | kenthapadi (gaussian); exact | lemma (laplace); "
                                    "exact | theorem-1 | theorem-2 (random-projection)")
    g = p.add_argument_group("random-projection (tu-projections)")
    g.add_argument("--k", type=int, help="projection dimension k")
    g.add_argument("--B", type=float, help="bound B on ||X_i - X'_i||")
    g.add_argument("--sigma-p", dest="sigma_p", type=float, help="standard deviation of P's entries (default 1)")
    g.add_argument("--reading", help="fresh (average over P, default) | fixed (needs --P)")
    g.add_argument("--P", dest="P", metavar="FILE", help="the d x k matrix P, a .npy file or a text file (numpy.loadtxt)")
    g.add_argument("--z", dest="z", help="a pair difference z = X_i - X'_i, comma-separated")
    g.add_argument("--rtol", type=float, help="relative width of the fresh-P delta bracket (default 1e-3)")
    h = p.add_argument_group("jiang-wishart, showkatbakhsh-regression")
    h.add_argument("--n", type=int, help="number of data points n")
    h.add_argument("--d", type=int, help="data dimension d")
    h.add_argument("--n-prime", dest="n_prime", type=int, help="projection rows n' (mi-random-projection)")
    h.add_argument("--f2", type=float, help="f^2(X) (mi-random-projection)")
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    return p


def _load_matrix(path: str) -> np.ndarray:
    try:
        return np.load(path) if path.endswith(".npy") else np.loadtxt(path, ndmin=2)
    except (OSError, ValueError) as exc:
        raise InvalidArgument(f"--P={path!r}: cannot read a matrix ({exc}); pass a .npy file or a text table.") from None


def _parse_vector(text: str) -> np.ndarray:
    try:
        return np.array([float(x) for x in text.split(",")], dtype=float)
    except ValueError:
        raise InvalidArgument(f"--z={text!r} must be comma-separated numbers, e.g. --z 1,0,0.5.") from None


def calibration_from_args(args) -> Calibration:
    name = args.mechanism
    allowed = OPTIONS[name]
    kwargs = {}
    for dest, flag in _FLAG.items():
        value = getattr(args, dest, None)
        if value is None:
            continue
        if dest not in allowed:
            ok = ", ".join(_FLAG[d] for d in allowed) or "none besides --epsilon"
            raise InvalidArgument(f"{flag}={value!r} does not apply to {name}; its options are: {ok}.")
        if dest == "P":
            value = _load_matrix(value)
        elif dest == "z":
            value = _parse_vector(value)
        kwargs[allowed[dest]] = value
    if name in ("gaussian", "random-projection") and "delta" not in kwargs:
        raise InvalidArgument(f"--delta is required for {name} (a target 0 < delta < 1, e.g. --delta 1e-6).")
    if name in ("wishart", "covariance-laplace") and "n" not in kwargs:
        raise InvalidArgument(f"--n is required for {name} (the number of data points).")
    if name == "covariance-laplace" and "d" not in kwargs:
        raise InvalidArgument("--d is required for covariance-laplace (the data dimension).")
    if name == "mi-random-projection" and not ("n_prime" in kwargs and "f2" in kwargs):
        raise InvalidArgument("--n-prime and --f2 are required for mi-random-projection.")
    if name == "random-projection" and "k" not in kwargs and "P" not in kwargs:
        raise InvalidArgument("--k is required for random-projection (or --P with --reading fixed).")

    return CALIBRATORS[name](args.epsilon, **kwargs)


def render(cal: Calibration, premise: dict | None = None) -> str:
    up = lambda x: fmt_upper(x, _DIGITS)  # noqa: E731 - noise parameters and delta bounds round up
    lines = []
    if premise is not None and is_refuted(premise.get("verdict")) and cal.safe is None:
        lines.append(f"UNSAFE: this value rests on {premise['claim']}, which dpverify prove REFUTES "
                     f"({premise['source']}); it does not guarantee the target.")
        evidence = " ".join(premise["evidence"].split()).split(" | ")[0]  # the conclusion's counterexample
        lines.append(f"  evidence: {evidence}")
    ins = ", ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v:g}" for k, v in cal.inputs)
    lines.append(f"mechanism: {cal.mechanism}   ({ins})")
    lines.append(f"{cal.parameter_name} = {up(cal.value)}   (method: {cal.method.value}; rounded up; "
                 f"exact float {cal.value!r})")
    pv = cal.provenance
    lines.append(f"provenance: {pv.claim}" + (f"  [derivation {pv.derivation}]" if pv.derivation else ""))
    if pv.lemmas:
        lines.append("  lemmas: " + ", ".join(pv.lemmas))
    for i, step in enumerate(pv.steps, 1):
        lines.append(f"  {i}. {step}")
    if cal.achieved_delta is not None:
        lines.append(f"achieved delta(eps) <= {up(cal.achieved_delta)}   (high-precision re-check; "
                     f"evaluation error <= {up(cal.tolerance) if cal.tolerance else 0})")
    else:
        lines.append(f"achieved delta(eps): not available -- {cal.achieved_delta_reason}")
    if premise is not None:
        verdict = premise.get("verdict") or "not known"
        lines.append(f"claim {premise['claim']}: {verdict}" + (f" ({premise['source']})" if premise["source"] else ""))
        if is_refuted(verdict) and cal.safe is True:
            lines.append("  (refuted as stated, but the exact privacy profile certifies this value safe: see tightness)")
    if cal.exact_value is not None:
        br = ""
        if cal.exact_bracket is not None:
            br = (f"; the true minimum lies in [{fmt_lower(cal.exact_bracket[0], _DIGITS)}, "
                  f"{up(cal.exact_bracket[1])}]")
        lines.append(f"exact minimal {cal.parameter_name} <= {up(cal.exact_value)}{br}")
        tight = f"{cal.tightness:.6g}"
        if cal.safe is False:
            verdict = "BELOW the exact minimum: does NOT meet the target (unsafe)"
        elif cal.safe is True:
            verdict = "meets the target" + ("" if cal.tightness <= 1 else f"; {100 * (cal.tightness - 1):.3g}% more noise than needed")
        else:
            verdict = "undecided within the evaluation error"
        lines.append(f"tightness {cal.parameter_name}/exact = {tight}   ({verdict})")
    else:
        lines.append(f"tightness: not available -- {cal.exact_reason}")
    if cal.comparisons:
        lines.append("compare:")
        width = max(len(label) for label, _ in cal.comparisons)
        for label, value in cal.comparisons:
            lines.append(f"  {label.ljust(width)}  {up(value)}")
    for note in cal.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def run(args) -> int:
    cal = calibration_from_args(args)
    premise = premise_of(cal, announce=not args.json)
    if args.json:
        doc = cal.to_dict()
        doc["premise"] = premise
        doc["flag"] = premise_flag(cal, premise).value
        _common.print_json(doc)
    else:
        print(render(cal, premise))
    return 0
