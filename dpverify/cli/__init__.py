"""The ``dpverify`` command. One module per subcommand; each has ``register`` and ``run``.

Exit codes: 0 when the run completed (whatever the verdicts, unless ``--fail-on`` says otherwise),
3 when a verdict matched ``--fail-on`` (``check``, ``audit``, ``prove``), 2 for usage errors and
invalid arguments (one line on stderr), 1 when a mechanism under test misbehaved.
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from .. import __version__
from ..errors import DPVerifyError, InvalidArgument
from ._common import EXIT_FAIL_ON

__all__ = ["main", "build_parser", "EXIT_FAIL_ON"]

#: Subcommand modules in ``dpverify.cli``, in the order ``--help`` lists them.
SUBCOMMANDS = ("check", "audit", "calibrate", "prove", "account")


DESCRIPTION = """Verify differentially private mechanisms: machine-checked proofs of the source
papers' claims (prove), noise calibration from checked lemmas (calibrate), empirical privacy
audits (audit, check) and certified accounting (account)."""
EPILOG = """exit status:
  0  the run completed (whatever the verdicts, unless --fail-on says otherwise)
  3  a verdict matched --fail-on (check, audit, prove)
  2  usage error or invalid argument (one line on stderr)
  1  a mechanism under test misbehaved

`dpverify COMMAND --help` describes each command; --json prints one JSON document and nothing else."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dpverify", description=DESCRIPTION, epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)

    parser.add_argument("--version", action="version", version=f"dpverify {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"{__name__}.{name}")
        p = module.register(sub)
        p.set_defaults(_run=module.run, _options=frozenset(p._option_string_actions))
    return parser


_API_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")


def _as_typed(message: str, options: frozenset) -> str:
    """An error about an API argument (``time_budget=nan must ...``) raised for a command-line option:
    name the option as the user typed it (``argument --time-budget: time_budget=nan must ...``)."""
    m = _API_NAME.match(message)
    if m:
        for flag in (f"--{m.group(1).replace('_', '-')}", f"--{m.group(1)}"):
            if flag in options:
                return f"argument {flag}: {message}"
    return message


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except BrokenPipeError:  # e.g. `dpverify ... | head`: the reader left; not an error of ours
        sys.stderr.close()
        try:
            sys.stdout = open(os.devnull, "w")  # silence the flush at exit
        except OSError:  # pragma: no cover
            pass
        return 0
    except InvalidArgument as exc:
        print(f"dpverify {args.command}: error: {_as_typed(str(exc), getattr(args, '_options', frozenset()))}",
              file=sys.stderr)
        return 2
    except DPVerifyError as exc:
        print(f"dpverify {args.command}: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C in any command: one line, no traceback (audit pools stop their workers)
        print(f"dpverify {args.command}: interrupted (Ctrl-C); no result.", file=sys.stderr)
        _close_dask_quietly()
        return 130


def _close_dask_quietly() -> None:
    """After Ctrl-C: close the local Dask clusters still open (e.g. interrupted while starting) now,
    with Dask's logging silenced, so that no log lines or atexit traceback follow the one line."""
    spec = sys.modules.get("distributed.deploy.spec")
    if spec is None:
        return
    import atexit
    import logging

    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    for cluster in list(getattr(spec.SpecCluster, "_instances", ())):
        try:
            cluster.close(timeout=10)
        except BaseException:  # noqa: BLE001 -- a half-started cluster may fail to close; we are exiting
            pass
    try:
        atexit.unregister(spec.close_clusters)
    except AttributeError:  # pragma: no cover - another Dask version
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
