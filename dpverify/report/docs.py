"""Generated regions of the documentation: ``python -m dpverify.report.docs [--check] [--cheap]``.

A region sits between two markers in a Markdown file::

    <!-- dpverify:generated NAME -->
    ... (rewritten by this module) ...
    <!-- dpverify:end NAME -->

Regions (see :data:`REGIONS`):

* ``controls-registry`` (cheap): the controls of the ``faulty`` section with the verdict each is
  expected to get (``dpverify check``'s ``expected`` column);
* ``calibration-classical-eps10-*`` (deterministic, a few seconds each: the exact minimum at 50
  digits): the classical Gaussian formula against the exact minimum at eps = 10
  (docs/calibration.md's prose);
* ``allocation-gaussian`` (deterministic, about half a minute): random allocation of a Gaussian in the PLD
  accountant against Poisson sampling and no amplification (docs/accounting.md);
* ``check-mechanisms`` and ``check-faulty`` (expensive: every audit of ``dpverify check --no-proofs
  --no-calibrations``, seed 0, default samples, neighbour search on): the two tables, without the
  per-row seconds (timings vary between runs and machines), the footer saying at which per-row
  confidence the verdicts are (the main job's family-wise control, :func:`dpverify.report.check_table.family_note`),
  and a ``Timing:`` line with the CPU and wall time of the run that wrote them, which ``--check``
  does not compare. The run's sources (the modules it imported, and their digest) go to
  :data:`SOURCES_FILE`; :func:`sources_are_current` is the cheap test that they have not changed since.

Without options every region is rewritten in place; ``--check`` rewrites nothing and exits 1
listing the regions whose text differs from a fresh run (the test suite runs ``--check --cheap``
by default and the expensive regions in a slow test); ``--cheap`` restricts to the cheap regions.

``--images [NAME ...]`` regenerates the pictures in ``docs/img`` instead (see :data:`IMAGES`; PNG
bytes vary with the matplotlib and Chromium versions, so they are not compared by ``--check``):

* ``audit_gaussian_eps10.png``: ``dpverify audit`` of ClassicalGaussian(10, 1e-5) on (0, 1), 100000
  samples, seed 1, ``--plot`` (the loss histogram from a separate plain sample);
* ``report.png``: ``dpverify check --seed 0 --samples-scale 0.2 --report``, every section pictured by
  headless Chromium at half scale (the top of each section, then one white-box and one black-box
  audit's evidence: :func:`screenshot_sections`).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import __version__
from ..rounding import fmt_lower, fmt_upper
from .._sources import files_digest, imported_files
from ..tables import table
from ..auditing import audit
from ..auditing.result import jsonable
from ..calibrate import gaussian
from ..claims import NeighbourRelation
from ..registry import load_entries
from .check_table import (
    FAMILY_ALPHA,
    entry_row,
    expected_verdict,
    family_note,
    mechanism_table,
    ordered,
    row_confidence,
)
from .plots import save_audit_plot

__all__ = ["REGIONS", "Region", "IMAGES", "generate", "generate_images", "main", "sources_are_current",
           "SOURCES_FILE"]

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 120
_TIMING = "Timing:"
#: The sources behind the expensive (check) regions: ``{"digest", "files"}`` -- the dpverify and
#: dpverify_mechanisms modules the generating run imported, and their SHA-256
#: (:mod:`dpverify._sources`). A cheap test compares it with the installed sources, so that a code
#: change that can move a number of the documented run is caught without re-running it.
SOURCES_FILE = "docs/generated-sources.json"
#: The command that regenerates the regions (and SOURCES_FILE).
REGENERATE = "python -m dpverify.report.docs"


def check_sources(files: list[str] | None = None) -> dict:
    """``{"digest", "files"}`` of the modules imported so far (or of ``files``)."""
    files = imported_files() if files is None else list(files)
    return {"digest": files_digest(files, salt=f"dpverify {__version__}"), "files": files}


def sources_are_current(root: Path = ROOT) -> tuple[bool, str]:
    """(True, "") when SOURCES_FILE's digest matches the installed sources, else (False, why)."""
    try:
        doc = json.loads((root / SOURCES_FILE).read_text())
        files = doc["files"]
        recorded = doc["digest"]
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"{SOURCES_FILE} is missing or malformed; regenerate with {REGENERATE}"
    now = check_sources(files)["digest"]
    if now != recorded:
        return False, (f"the sources behind the generated check tables changed since they were written "
                       f"({SOURCES_FILE}); regenerate with {REGENERATE} (the documented dpverify check run, "
                       "minutes of CPU) and commit the docs")
    return True, ""


@dataclass(frozen=True)
class Region:
    name: str
    path: str  # relative to the repository root
    cheap: bool
    produce: Callable[["Run"], str]


class Run:
    """Shared expensive work of one generation (the check is run at most once)."""

    def __init__(self):
        self._check = None
        self.sources: dict | None = None  # the sources the check run imported (SOURCES_FILE)

    def check(self) -> tuple[dict, float, float]:
        """The document of ``dpverify check --no-proofs --no-calibrations --seed 0 --json`` (its
        sections, ``seed`` and ``family``), built in this process from the same rows
        (:mod:`dpverify.report.check_table`), with the wall and CPU seconds it took."""
        if self._check is None:
            wall, cpu = time.perf_counter(), time.process_time()
            doc = check_document(seed=0)
            self._check = (doc, time.perf_counter() - wall, time.process_time() - cpu)
            self.sources = check_sources()
        return self._check


def check_document(seed: int = 0) -> dict:
    """What ``dpverify check --no-proofs --no-calibrations --seed SEED --json`` prints, less ``fail_on``:
    every registered entry audited (:func:`~dpverify.report.check_table.entry_row`, default samples,
    neighbour search on), rows grouped by section, and the family-wise ``family`` note. Passed through
    JSON as the command's output is."""
    entries = load_entries()
    m = len(entries)
    rows = [entry_row(e, seed=seed, family_size=m)[0] for e in ordered(entries)]
    doc: dict = {"seed": seed}
    sections: dict[str, list] = {}
    for r in rows:
        sections.setdefault(r["section"], []).append(r)
    doc["mechanisms"] = sections.pop("mechanisms", [])
    doc.update(sections)
    doc["family"] = {"alpha": FAMILY_ALPHA, "audits": m, "confidence_per_row": row_confidence(m),
                     "method": "Bonferroni", "note": family_note(m)}
    return json.loads(json.dumps(jsonable(doc), allow_nan=False))


def _table(rows: list[dict]) -> str:
    return mechanism_table(rows, width=WIDTH, seconds=False)


def _check_region(section: str) -> Callable[[Run], str]:
    def produce(run: Run) -> str:
        doc, wall, cpu = run.check()
        rows = doc.get(section, [])
        note = textwrap.fill(doc["family"]["note"], WIDTH, break_on_hyphens=False)
        return ("```\n" + _table(rows) + "\n" + note + "\n```\n\n" +
                f"{_TIMING} the whole `dpverify check --no-proofs --no-calibrations` run that wrote these tables "
                f"took {wall:.0f} s wall, {cpu:.0f} s CPU ({len(doc.get('mechanisms', []))} + "
                f"{sum(len(v) for k, v in doc.items() if isinstance(v, list) and k != 'mechanisms')} audits; "
                "seed 0, default samples, neighbour search on).")
    return produce


def _controls_registry(run: Run) -> str:
    rows = [[e.name, e.paper, e.description or "-", expected_verdict(e) or "-"]
            for e in load_entries() if e.section == "faulty"]
    text = table(["control", "reference", "kind", "expected verdict"], rows)
    return "```\n" + "\n".join(line.rstrip() for line in text.splitlines()) + "\n```"


def _classical_eps10(delta: float) -> Callable[[Run], str]:
    """One sentence on the classical Gaussian formula at eps = 10 (deterministic, cheap)."""
    def produce(run: Run) -> str:
        c = gaussian(10.0, delta, 1.0, method="classical")
        return (f"at ε = 10, δ = {delta:g} its σ = {fmt_upper(c.value, 4)} is {fmt_lower(c.tightness, 3)} × the "
                f"minimum {fmt_upper(c.exact_value, 4)}, and its true δ(ε) is {fmt_upper(c.achieved_delta, 3)} "
                f"({'UNSAFE' if not c.safe else 'safe'}).")
    return produce


#: (sigma, steps, participations, epochs) of the random-allocation table (docs/accounting.md), delta 1e-6
ALLOCATION_CASES = ((1.0, 1000, 1, 1), (0.7, 1000, 1, 1), (1.0, 1000, 1, 5), (1.0, 1000, 2, 1), (2.0, 1000, 1, 1))


def _allocation_table(run: Run) -> str:
    """Random allocation of a Gaussian (add/remove): the PLD accountant's certified upper bound, its certified lower
    bound, Poisson sampling at the same expected rate over the same steps, and no amplification (deterministic)."""
    from ..accounting import (Gaussian, PLDComposition, PoissonSubsampled,  # deferred: only this region needs them
                              RandomAllocation, SelfComposed)

    ar = NeighbourRelation.ADD_REMOVE_ONE
    pld = PLDComposition()
    rows = []
    for sigma, t, k, epochs in ALLOCATION_CASES:
        g = Gaussian(sigma, relation=ar)
        ra = RandomAllocation(g, t, k)
        ev = ra if epochs == 1 else SelfComposed(ra, epochs)
        b = pld.bounds(ev, [1e-6])
        poisson = pld.epsilon(SelfComposed(PoissonSubsampled(g, k / t), t * epochs), 1e-6)
        plain = pld.epsilon(SelfComposed(g, k * epochs), 1e-6)
        lower = fmt_lower(float(b.lower[0]), 5) if b.lower[0] > 0 else "-"
        rows.append([f"{sigma:g}", str(t), str(k), str(epochs), fmt_upper(float(b.upper[0]), 5), lower,
                     fmt_upper(poisson, 5), fmt_upper(plain, 5)])
    text = table(["sigma", "steps t", "participations k", "epochs", "random allocation: upper", "lower",
                  "Poisson k/t, t steps per epoch: upper", "no amplification: upper"], rows)
    return ("```\n" + "\n".join(line.rstrip() for line in text.splitlines()) + "\n```\n\n"
            "delta = 1e-6, add/remove, sensitivity 1; `lower` is the certified maximum-statistic bound (1-out-of-t "
            "allocation, every epoch; '-' where none is computed).")


REGIONS: tuple[Region, ...] = (
    Region("controls-registry", "docs/faulty.md", True, _controls_registry),
    Region("calibration-classical-eps10-delta1e-6", "docs/calibration.md", False, _classical_eps10(1e-6)),
    Region("calibration-classical-eps10-delta1e-5", "docs/calibration.md", False, _classical_eps10(1e-5)),
    Region("check-mechanisms", "docs/mechanisms.md", False, _check_region("mechanisms")),
    Region("check-faulty", "docs/mechanisms.md", False, _check_region("faulty")),
    Region("allocation-gaussian", "docs/accounting.md", False, _allocation_table),
)


def region_pattern(name: str) -> re.Pattern:
    return re.compile(rf"(<!-- dpverify:generated {re.escape(name)} -->\n)(.*?)(<!-- dpverify:end {re.escape(name)} -->)",
                      re.S)


def comparable(text: str) -> str:
    return "\n".join(line for line in text.strip().splitlines() if not line.startswith(_TIMING))


def generate(*, check: bool = False, cheap_only: bool = False, root: Path = ROOT) -> list[str]:
    """Rewrite (or, with ``check``, compare) the regions; returns the names of regions that differ."""
    run = Run()
    drift = []
    if not cheap_only:  # the check first, so that SOURCES_FILE lists what it imported, not the other regions'
        run.check()
    for region in REGIONS:
        if cheap_only and not region.cheap:
            continue
        path = root / region.path
        text = path.read_text()
        m = region_pattern(region.name).search(text)
        if m is None:
            raise RuntimeError(f"{region.path} has no markers for region {region.name!r}")
        fresh = region.produce(run).strip() + "\n"
        if comparable(m.group(2)) != comparable(fresh):
            drift.append(region.name)
        if not check:
            text = text[:m.start(2)] + fresh + text[m.end(2):]
            path.write_text(text)
    if not check and run.sources is not None:
        (root / SOURCES_FILE).write_text(json.dumps(run.sources, indent=1) + "\n")
    return drift


#: The registry entry whose mechanism class the audit picture uses (at eps = 10, delta = 1e-5).
GAUSSIAN_ENTRY = "gaussian-classical"


def _image_gaussian(path: Path) -> None:
    """``dpverify audit`` of ClassicalGaussian(10, 1e-5) on (0, 1) with ``--plot``: the class is the one
    registry entry :data:`GAUSSIAN_ENTRY` builds (loaded through the registries' entry points)."""
    entry = next((e for e in load_entries() if e.name == GAUSSIAN_ENTRY), None)
    if entry is None:
        raise RuntimeError(f"audit_gaussian_eps10.png needs registry entry {GAUSSIAN_ENTRY!r} (pip install the "
                           "project's mechanisms)")
    mech = type(entry.factory())(10, 1e-5)
    result = audit(mech, (0.0, 1.0), samples=100_000, rng=1, profile=True)
    save_audit_plot(result, path, mechanism=mech, seed=1)


#: The command whose --report the screenshot shows (every section; a fifth of the default samples so
#: that the picture is regenerated in minutes; the verdicts shown are that run's).
REPORT_COMMAND = ["dpverify", "check", "--seed", "0", "--samples-scale", "0.2"]


def _image_report(path: Path, page: Path | None = None) -> None:
    """Run :data:`REPORT_COMMAND` with ``--report`` (unless ``page``, a report it wrote, is given)
    and picture every section of the page: :func:`screenshot_sections`."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        if page is None:  # the command itself, in a child process (the toolkit does not import the CLI)
            page = Path(tmp) / "report.html"
            with open(Path(tmp) / "stdout.txt", "w") as out:
                code = subprocess.run([sys.executable, "-m", "dpverify", *REPORT_COMMAND[1:], "--report", str(page)],
                                      stdout=out, check=False).returncode
            if code != 0:
                raise RuntimeError(f"dpverify check exited {code}")
        screenshot_sections(page.read_text(), path, Path(tmp))


#: Height (CSS pixels) of each section's panel in report.png, and the device scale of the picture.
PANEL_HEIGHT, PANEL_SCALE = 1300, 0.5


def screenshot_sections(html: str, path: Path, workdir: Path) -> None:
    """One picture of a long report page: for each section (each ``<h2>``), the top
    :data:`PANEL_HEIGHT` CSS pixels of a page holding the page's header and that section alone; then
    the evidence of the first white-box audit (delta(eps) and loss histogram) and of the first
    black-box audit (event frequencies). Panels rendered by headless Chromium, stacked top to
    bottom with a grey rule between them."""
    import re
    import shutil
    import subprocess

    import matplotlib.image as mpimg
    import numpy as np

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise RuntimeError("report.png needs chromium (apt-get install chromium)")
    body_at = html.index("<h2")
    head, rest = html[:body_at], html[body_at:].replace("</body></html>", "")
    sections = [m.group(0) for m in re.finditer(r"<h2.*?(?=<h2|$)", rest, re.S)]
    blocks = [m.group(0) for m in re.finditer(r"<h3>.*?(?=<h3>|<h2|$)", rest, re.S)]
    white = next((b for b in blocks if "privacy-loss distribution" in b), None)
    black = next((b for b in blocks if "event frequencies" in b), None)
    panels = sections + [b for b in (white, black) if b is not None]
    images = []
    for k, panel in enumerate(panels):
        page = workdir / f"panel{k}.html"
        top = head if k == 0 else head[: head.index("<body>") + len("<body>")]  # the title once
        page.write_text(top + panel + "</body></html>\n")
        shot = workdir / f"panel{k}.png"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--force-device-scale-factor={PANEL_SCALE}", f"--window-size=1280,{PANEL_HEIGHT}",
                        f"--screenshot={shot}", page.as_uri()], check=True, capture_output=True, timeout=300)
        px = mpimg.imread(str(shot))[..., :3]
        rows = np.where((px < 0.98).any(axis=(1, 2)))[0]
        images.append(px[: int(rows.max()) + 12 if rows.size else px.shape[0]])
    width = max(im.shape[1] for im in images)
    rule = np.full((6, width, 3), 0.6)
    stack = []
    for im in images:
        pad = np.ones((im.shape[0], width, 3))
        pad[:, : im.shape[1]] = im
        stack += [pad, rule]
    mpimg.imsave(str(path), np.clip(np.concatenate(stack[:-1]), 0, 1))


#: The pictures of the docs and how each is made (``python -m dpverify.report.docs --images``).
IMAGES: dict[str, Callable[[Path], None]] = {
    "audit_gaussian_eps10.png": _image_gaussian,
    "report.png": _image_report,
}


def generate_images(names: list[str] | None = None, root: Path = ROOT) -> list[str]:
    """Regenerate ``docs/img/NAME`` for each name (default: all); returns the names written."""
    names = list(IMAGES) if not names else names
    unknown = [n for n in names if n not in IMAGES]
    if unknown:
        raise SystemExit(f"unknown image(s) {unknown}; known: {sorted(IMAGES)}")
    for n in names:
        IMAGES[n](root / "docs" / "img" / n)
        print(f"wrote docs/img/{n}", file=sys.stderr)
    return names


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m dpverify.report.docs", description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="compare only; exit 1 when a region drifted")
    p.add_argument("--cheap", action="store_true", help="only the cheap regions")
    p.add_argument("--images", nargs="*", metavar="NAME", help="regenerate the pictures in docs/img instead "
                   f"(default: all of {', '.join(IMAGES)})")
    args = p.parse_args(argv)
    if args.images is not None:
        generate_images(args.images)
        return 0
    drift = generate(check=args.check, cheap_only=args.cheap)
    if args.check and drift:
        print("generated regions out of date: " + ", ".join(drift) + " (run python -m dpverify.report.docs)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
