"""The ``dpverify`` command. One module per subcommand; each has ``register`` and ``run``.

Exit codes: 0 when the run completed (whatever the verdicts, unless ``--fail-on`` says otherwise),
3 when a verdict matched ``--fail-on`` (``check``, ``audit``, ``prove``), 2 for usage errors and
invalid arguments (one line on stderr), 1 when a mechanism under test misbehaved.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from ..errors import DPVerifyError, InvalidArgument

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
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"dpverify {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"{__name__}.{name}")
        p = module.register(sub)
        p.set_defaults(_run=module.run)
    return parser


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
        print(f"dpverify {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except DPVerifyError as exc:
        print(f"dpverify {args.command}: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C in any command: one line, no traceback (audit pools stop their workers)
        print(f"dpverify {args.command}: interrupted (Ctrl-C); no result.", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
