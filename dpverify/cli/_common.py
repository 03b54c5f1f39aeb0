"""Helpers shared by the subcommands (internal)."""
from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import secrets
import sys
from typing import Any

from ..auditing.result import jsonable
from ..errors import InvalidArgument


def load_object(spec: str, what: str, *, call: bool) -> Any:
    """``MODULE:ATTR`` (ATTR may be dotted). A zero-argument callable is called when ``call`` says so.

    MODULE is imported from the installed packages or, failing those, from the current directory
    (appended to ``sys.path``, so that a local file never shadows an installed package)."""
    form = f"{what} {spec!r} must be written MODULE:ATTR, e.g. mypkg.mechs:my_laplace"
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise InvalidArgument(f"{form}.")
    mod_name, attr = (x.strip() for x in spec.split(":"))
    if not mod_name or not attr or any(not p.isidentifier() for p in mod_name.split(".") + attr.split(".")):
        raise InvalidArgument(f"{form} (MODULE a dotted module name, ATTR a dotted attribute name).")
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:  # modules of the current directory, after installed ones
        sys.path.append(cwd)
    try:
        obj = importlib.import_module(mod_name)
    except ImportError as exc:
        raise InvalidArgument(f"{what} {spec!r}: cannot import module {mod_name!r} ({exc}).") from None
    except Exception as exc:  # the module itself failed (a syntax error, an exception at import)
        raise InvalidArgument(f"{what} {spec!r}: importing module {mod_name!r} raised "
                              f"{type(exc).__name__}: {exc}.") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidArgument(f"{what} {spec!r}: module {mod_name!r} has no attribute {attr!r}.") from None
    if call(obj) if callable(call) else (call and callable(obj)):
        try:
            obj = obj()
        except Exception as exc:
            raise InvalidArgument(f"{what} {spec!r}: calling {attr}() to build it raised "
                                  f"{type(exc).__name__}: {exc}.") from None
    return obj


def seed_arg(text: str) -> int:
    """argparse type of ``--seed``: an integer >= 0 (the message names the option, not an API argument)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer; give a seed >= 0, e.g. --seed 1") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a seed must be >= 0, e.g. --seed 1")
    return value


def count_arg(text: str) -> int:
    """argparse type of a count such as ``--samples``: a whole number >= 1, written ``1000000`` or ``1e6``."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (math.isfinite(value) and 1 <= value < 2**63 and value == int(value)):  # NaN and inf refused first
        raise argparse.ArgumentTypeError(f"{text!r} must be a whole number >= 1, written as digits or in e-notation (e.g. 2, 200000 or 2e5)")
    return int(value)


def _number(text: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def real_type(rule: str, ok, example: str):
    """An argparse type: a finite float satisfying ``ok`` (NaN and inf refused explicitly). argparse
    names the option as typed: ``argument --epsilon: 'nan' must be ...``."""

    def parse(text: str) -> float:
        value = _number(text)
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text!r} must be a finite number {rule} (NaN and infinity are "
                                             f"refused), e.g. {example}")
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{text!r} must be {rule}, e.g. {example}")
        return value

    parse.__name__ = "number"
    return parse


#: argparse types of the common numeric options.
nonnegative_arg = real_type(">= 0", lambda x: x >= 0, "1.0")
positive_arg = real_type("> 0", lambda x: x > 0, "60")
delta_arg = real_type("in [0, 1)", lambda x: 0 <= x < 1, "1e-5")
open_unit_arg = real_type("strictly between 0 and 1", lambda x: 0 < x < 1, "0.95")

#: Most local Dask workers ``--workers`` starts (each is a process).
MAX_WORKERS = 256


def workers_arg(text: str) -> int:
    """argparse type of ``--workers``: a whole number from 1 to :data:`MAX_WORKERS`."""
    value = count_arg(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"{text!r}: at most {MAX_WORKERS} local worker processes; for more, start "
                                         "a Dask cluster and give its --scheduler address")
    return value


def scheduler_arg(text: str) -> str:
    """argparse type of ``--scheduler``: [SCHEME://]HOST[:PORT] (checked before anything runs)."""
    import re

    # Dask's in-process transport names a scheduler as inproc://HOST/PID/N (distributed.comm.inproc)
    inproc = re.fullmatch(r"inproc://[A-Za-z0-9_.-]+(?:/[0-9]+)+", text or "")
    if not inproc and not re.fullmatch(r"(?:[a-z][a-z0-9+.-]*://)?(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?",
                                       text or ""):
        raise argparse.ArgumentTypeError(f"{text!r} is not a scheduler address; give [SCHEME://]HOST[:PORT], e.g. "
                                         "tcp://10.0.0.5:8786 (`dask scheduler` prints it)")
    return text


def new_seed() -> int:
    """A fresh seed that the output prints, so that any run can be reproduced."""
    return secrets.randbits(63)


def print_json(doc: Any) -> None:
    json.dump(jsonable(doc), sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def progress(message: str) -> None:
    """One line of progress on stderr (flushed at once)."""
    print(message, file=sys.stderr, flush=True)


#: Exit status when a verdict matches ``--fail-on`` (0: done, 1: a mechanism misbehaved, 2: usage).
EXIT_FAIL_ON = 3


def add_fail_on(parser, choices: tuple[str, ...], default: str, help_text: str) -> None:
    parser.add_argument("--fail-on", choices=choices, default=default, metavar="{" + ",".join(choices) + "}",
                        help=help_text + f" Exit status {EXIT_FAIL_ON} when it applies (default: {default}).")


class Heartbeat:
    """Progress for work that reports none (e.g. a black-box audit): a line on stderr every
    ``every`` seconds with the elapsed time, and one at the end."""

    def __init__(self, what: str, every: float = 5.0):
        import threading

        self.what, self.every = what, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, daemon=True)

    def _beat(self) -> None:
        import time

        start = time.perf_counter()
        while not self._stop.wait(self.every):
            progress(f"  {self.what}: {time.perf_counter() - start:.0f} s")

    def __enter__(self):
        import time

        self._start = time.perf_counter()
        progress(f"  {self.what} ...")
        self._thread.start()
        return self

    def __exit__(self, *exc):
        import time

        self._stop.set()
        self._thread.join()
        progress(f"  {self.what}: done in {time.perf_counter() - self._start:.1f} s")
        return False


def check_report_target(path: str | None) -> None:
    """Refuse a ``--report`` path that is not FILE.html or whose folder does not exist, before any work is done."""
    if path is None:
        return
    if not path.lower().endswith((".html", ".htm")):
        raise InvalidArgument(f"--report={path!r}: the report is one HTML page; give a file name ending in .html, "
                              "e.g. --report audit.html.")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidArgument(f"--report={path!r}: the folder {folder!r} does not exist; create it or choose another path.")


#: Picture formats ``--plot`` accepts (matplotlib's savefig formats, chosen by the file name's extension).
PLOT_FORMATS = frozenset({"png", "pdf", "svg", "svgz", "jpg", "jpeg", "eps", "ps", "tif", "tiff", "webp", "pgf", "gif",
                          "avif", "raw", "rgba"})


def check_plot_target(path: str) -> None:
    """Refuse a ``--plot`` that cannot be written (missing folder, no matplotlib) before any work is done."""
    import importlib.util

    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in PLOT_FORMATS:
        raise InvalidArgument(f"--plot={path!r}: the file name must end in the picture format, one of "
                              f"{', '.join('.' + f for f in sorted(PLOT_FORMATS))} (e.g. --plot audit.png).")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidArgument(f"--plot={path!r}: the folder {folder!r} does not exist; create it or choose another path.")
    if importlib.util.find_spec("matplotlib") is None:
        raise InvalidArgument(f"--plot={path!r} needs matplotlib, the optional extra `plot`: "
                              "pip install '/path/to/dpverify[plot]' (or pip install matplotlib).")


def write_report(path: str, page: str) -> int:
    """Write the HTML report; on failure say so on stderr (the results printed stand) and return 1."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as exc:
        print(f"dpverify: the results above stand, but the report was not written: {exc}", file=sys.stderr)
        return 1
    print(f"report written to {path}", file=sys.stderr)
    return 0


def add_report(parser) -> None:
    parser.add_argument("--report", metavar="FILE.html",
                        help="also write one self-contained HTML report (tables, plots, evidence, reproduce "
                             "commands; no network needed to view it)")
