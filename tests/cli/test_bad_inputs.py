"""A table of bad inputs (issue 27 item 7): each gets a clear error naming the argument as the user
typed it; the CLI exits 2 (1 when the mechanism under test misbehaves), one line, no traceback.

API cases: (id, call, expected error class, text the message must contain).
CLI cases: (id, argv, expected exit code, text stderr must contain). The CLI runs in-process
(``dpverify.cli.main``): an uncaught exception fails the case (it would be a traceback). Sample
sizes are tiny and every case is meant to fail before any real work; the table runs in seconds.
MODULE:ATTR cases use ``_bad_input_mechs`` (this folder, on sys.path under pytest).
"""
from __future__ import annotations


import numpy as np
import pytest

import dpverify
from dpverify import InvalidArgument, MechanismError, PrivacyClaim
from dpverify.accounting import Accountant, events as ev
from dpverify.auditing.neighbours import search_for
from dpverify.cli import main
from dpverify_mechanisms.lecture21_dp import ScalarLaplace

import _bad_input_mechs as bm

NAN, INF = float("nan"), float("inf")
AR = dpverify.NeighbourRelation.ADD_REMOVE_ONE
LAP = bm.Laplace()
M = "_bad_input_mechs"


def _audit(mech=LAP, pairs=(0.0, 1.0), **kw):
    kw.setdefault("samples", 200)
    kw.setdefault("rng", 0)
    return lambda: dpverify.audit(mech, pairs, **kw)


def _cal(name, *a, **kw):
    return lambda: getattr(dpverify.calibrate, name)(*a, **kw)


def _acc_compose(event, count=1):
    return lambda: Accountant().compose(event, count)


def _acc(method="pld"):
    from dpverify.accounting import Method

    return Accountant(Method(method)) if method in [m.value for m in Method] else Accountant(method)


IA, ME = InvalidArgument, MechanismError


class _RaisingScalar(ScalarLaplace):
    def log_density(self, outputs, data):
        raise ZeroDivisionError("boom")


class _StringScalar(ScalarLaplace):
    def log_density(self, outputs, data):
        return ["x"] * len(outputs)

API = [
    # -- audit: pairs ------------------------------------------------------------------------
    ("audit-pairs-strings-declared-space", _audit(mech=ScalarLaplace(1.0), pairs=("a", "b")), IA, "pairs[0]"),
    ("audit-pairs-strings-sampler-refuses", _audit(pairs=("a", "b")), ME, "data='a'"),
    ("audit-pairs-empty-list", _audit(pairs=[]), IA, "pairs"),
    ("audit-pairs-int", _audit(pairs=5), IA, "pairs"),
    ("audit-pairs-str", _audit(pairs="ab"), IA, "pairs"),
    ("audit-pairs-one-element", _audit(pairs=[(0.0,)]), IA, "pairs"),
    ("audit-pairs-triple", _audit(pairs=[(0.0, 1.0, 2.0)]), IA, "pairs"),
    ("audit-pairs-equal", _audit(pairs=(1.0, 1.0)), IA, "pairs"),
    ("audit-pairs-list-of-ints", _audit(pairs=[1, 2]), IA, "pairs"),
    ("audit-pairs-dict", _audit(pairs={"a": 1}), IA, "pairs"),
    ("audit-pairs-none-pair", _audit(pairs=(None, None)), IA, "pairs"),
    ("audit-pairs-nested-str", _audit(mech=ScalarLaplace(1.0), pairs=[("a", "b")]), IA, "pairs[0]"),
    ("audit-pairs-array-strings", _audit(mech=ScalarLaplace(1.0), pairs=(np.array(["x"]), np.array(["y"]))), IA,
     "pairs[0]"),
    # -- audit: samples ----------------------------------------------------------------------
    ("audit-samples-nan", _audit(samples=NAN), IA, "samples"),
    ("audit-samples-inf", _audit(samples=INF), IA, "samples"),
    ("audit-samples-negative", _audit(samples=-1), IA, "samples"),
    ("audit-samples-zero", _audit(samples=0), IA, "samples"),
    ("audit-samples-fraction", _audit(samples=1.5), IA, "samples"),
    ("audit-samples-str", _audit(samples="10"), IA, "samples"),
    ("audit-samples-bool", _audit(samples=True), IA, "samples"),
    ("audit-samples-none", _audit(samples=None), IA, "samples"),
    # -- audit: confidence, rng, claim, options ----------------------------------------------
    ("audit-confidence-nan", _audit(confidence=NAN), IA, "confidence"),
    ("audit-confidence-zero", _audit(confidence=0.0), IA, "confidence"),
    ("audit-confidence-one", _audit(confidence=1.0), IA, "confidence"),
    ("audit-confidence-above-one", _audit(confidence=1.5), IA, "confidence"),
    ("audit-confidence-negative", _audit(confidence=-0.5), IA, "confidence"),
    ("audit-confidence-str", _audit(confidence="0.9"), IA, "confidence"),
    ("audit-confidence-inf", _audit(confidence=INF), IA, "confidence"),
    ("audit-rng-str", _audit(rng="x"), IA, "rng"),
    ("audit-rng-negative", _audit(rng=-1), IA, "rng"),
    ("audit-rng-float", _audit(rng=1.5), IA, "rng"),
    ("audit-rng-object", _audit(rng=object()), IA, "rng"),
    ("audit-claim-str", _audit(claim="1-DP"), IA, "claim"),
    ("audit-claim-float", _audit(claim=1.0), IA, "claim"),
    ("audit-claim-tuple", _audit(claim=(1.0, 0.0)), IA, "claim"),
    ("audit-time-budget-nan", _audit(time_budget=NAN), IA, "time_budget"),
    ("audit-time-budget-negative", _audit(time_budget=-1), IA, "time_budget"),
    ("audit-time-budget-zero", _audit(time_budget=0), IA, "time_budget"),
    ("audit-time-budget-str", _audit(time_budget="10"), IA, "time_budget"),
    ("audit-time-budget-inf", _audit(time_budget=INF), IA, "time_budget"),
    ("audit-consistency-str", _audit(consistency="yes"), IA, "consistency"),
    ("audit-consistency-none", _audit(consistency=None), IA, "consistency"),
    ("audit-proposal-bogus", _audit(proposal="bogus"), IA, "proposal"),
    ("audit-delta-resolution-nan", _audit(delta_resolution=NAN), IA, "delta_resolution"),
    ("audit-delta-resolution-zero", _audit(delta_resolution=0.0), IA, "delta_resolution"),
    ("audit-delta-resolution-negative", _audit(delta_resolution=-1e-3), IA, "delta_resolution"),
    ("audit-delta-resolution-inf", _audit(delta_resolution=INF), IA, "delta_resolution"),
    ("audit-max-samples-zero", _audit(max_samples=0), IA, "max_samples"),
    ("audit-max-samples-fraction", _audit(max_samples=1.5), IA, "max_samples"),
    ("audit-max-samples-nan", _audit(max_samples=NAN), IA, "max_samples"),
    ("audit-precision-str", _audit(precision="high"), IA, "precision"),
    ("audit-executor-str", _audit(executor="pool"), IA, "executor"),
    ("audit-blackbox-option-on-whitebox", _audit(stop_early=True), IA, "stop_early"),
    ("audit-unknown-option", _audit(bogus_option=1), IA, "bogus_option"),
    # -- audit: the mechanism ----------------------------------------------------------------
    ("audit-mechanism-object", _audit(mech=object()), IA, "mechanism"),
    ("audit-mechanism-none", _audit(mech=None), IA, "mechanism"),
    ("audit-mechanism-no-claim", _audit(mech=bm.NoClaim()), IA, "claim"),
    ("audit-mechanism-no-sample", _audit(mech=bm.NoSample()), IA, "sample"),
    ("audit-mechanism-class-not-instance", _audit(mech=bm.Laplace), ME, "sample"),
    ("audit-log-density-raises", _audit(mech=bm.RaisingDensity()), ME, "log_density"),
    ("audit-log-density-strings", _audit(mech=bm.StringDensity()), ME, "log_density"),
    ("audit-log-density-none", _audit(mech=bm.NoneDensity()), ME, "log_density"),
    ("audit-log-density-objects", _audit(mech=bm.ObjectDensity()), ME, "log_density"),
    ("audit-log-density-scalar", _audit(mech=bm.ScalarDensity()), ME, "log_density"),
    ("audit-search-log-density-raises",
     lambda: dpverify.audit(_RaisingScalar(1.0), search_for(_RaisingScalar(1.0), (0.0, 1.0)), samples=200, rng=0),
     ME, "raised ZeroDivisionError"),
    ("audit-search-log-density-strings",
     lambda: dpverify.audit(_StringScalar(1.0), search_for(_StringScalar(1.0), (0.0, 1.0)), samples=200, rng=0),
     ME, "not an array of numbers"),
    # -- PrivacyClaim ------------------------------------------------------------------------
    ("claim-epsilon-nan", lambda: PrivacyClaim(NAN), IA, "epsilon"),
    ("claim-epsilon-inf", lambda: PrivacyClaim(INF), IA, "epsilon"),
    ("claim-epsilon-negative", lambda: PrivacyClaim(-1.0), IA, "epsilon"),
    ("claim-epsilon-str", lambda: PrivacyClaim("1"), IA, "epsilon"),
    ("claim-epsilon-none", lambda: PrivacyClaim(None), IA, "epsilon"),
    ("claim-epsilon-bool", lambda: PrivacyClaim(True), IA, "epsilon"),
    ("claim-epsilon-complex", lambda: PrivacyClaim(1j), IA, "epsilon"),
    ("claim-delta-nan", lambda: PrivacyClaim(1.0, NAN), IA, "delta"),
    ("claim-delta-negative", lambda: PrivacyClaim(1.0, -0.1), IA, "delta"),
    ("claim-delta-one", lambda: PrivacyClaim(1.0, 1.0), IA, "delta"),
    ("claim-delta-above-one", lambda: PrivacyClaim(1.0, 1.5), IA, "delta"),
    ("claim-delta-str", lambda: PrivacyClaim(1.0, "0"), IA, "delta"),
    ("claim-delta-inf", lambda: PrivacyClaim(1.0, INF), IA, "delta"),
    ("claim-relation-str", lambda: PrivacyClaim(1.0, 0.0, "replace-one"), IA, "relation"),
    ("claim-relation-int", lambda: PrivacyClaim(1.0, 0.0, 1), IA, "relation"),
    ("claim-zcdp-negative", lambda: PrivacyClaim.zcdp(-1.0), IA, "rho"),
    ("claim-zcdp-nan", lambda: PrivacyClaim.zcdp(NAN), IA, "rho"),
    ("claim-zcdp-inf", lambda: PrivacyClaim.zcdp(INF), IA, "rho"),
    ("claim-zcdp-str", lambda: PrivacyClaim.zcdp("0.5"), IA, "rho"),
    ("claim-renyi-order-one", lambda: PrivacyClaim.renyi([1.0], [0.1]), IA, "order"),
    ("claim-renyi-length-mismatch", lambda: PrivacyClaim.renyi([2.0, 4.0], [0.1]), IA, "epsilons"),
    ("claim-renyi-nan-value", lambda: PrivacyClaim.renyi([2.0], [NAN]), IA, "epsilons"),
    ("claim-renyi-empty", lambda: PrivacyClaim.renyi([], []), IA, "orders"),
    ("claim-profile-delta-above-one", lambda: PrivacyClaim.profile([(1.0, 2.0)]), IA, "delta"),
    ("claim-profile-nan", lambda: PrivacyClaim.profile([(NAN, 1e-5)]), IA, "eps"),
    ("claim-profile-empty", lambda: PrivacyClaim.profile([]), IA, "points"),
    ("claim-profile-str", lambda: PrivacyClaim.profile("x"), IA, "points"),
    # -- accounting events and the accountant ------------------------------------------------
    ("event-gaussian-sigma-negative", lambda: ev.Gaussian(-1.0), IA, "sigma"),
    ("event-gaussian-sigma-zero", lambda: ev.Gaussian(0.0), IA, "sigma"),
    ("event-gaussian-sigma-nan", lambda: ev.Gaussian(NAN), IA, "sigma"),
    ("event-gaussian-sigma-inf", lambda: ev.Gaussian(INF), IA, "sigma"),
    ("event-gaussian-sigma-str", lambda: ev.Gaussian("1"), IA, "sigma"),
    ("event-gaussian-sensitivity-negative", lambda: ev.Gaussian(1.0, sensitivity=-1.0), IA, "sensitivity"),
    ("event-laplace-scale-zero", lambda: ev.Laplace(0.0), IA, "scale"),
    ("event-laplace-scale-nan", lambda: ev.Laplace(NAN), IA, "scale"),
    ("event-rr-epsilon-negative", lambda: ev.RandomizedResponse(-1.0), IA, "epsilon"),
    ("event-rr-categories-one", lambda: ev.RandomizedResponse(1.0, categories=1), IA, "categories"),
    ("event-rr-categories-fraction", lambda: ev.RandomizedResponse(1.0, categories=2.5), IA, "categories"),
    ("event-discrete-laplace-scale-negative", lambda: ev.DiscreteLaplace(-1.0), IA, "scale"),
    ("event-discrete-laplace-sensitivity-fraction", lambda: ev.DiscreteLaplace(1.0, sensitivity=1.5), IA,
     "sensitivity"),
    ("event-discrete-gaussian-sigma-zero", lambda: ev.DiscreteGaussian(0.0), IA, "sigma"),
    ("event-pure-nan", lambda: ev.PureDP(NAN), IA, "epsilon"),
    ("event-approx-delta-one", lambda: ev.ApproxDP(1.0, 1.0), IA, "delta"),
    ("event-approx-delta-negative", lambda: ev.ApproxDP(1.0, -1e-5), IA, "delta"),
    ("event-zcdp-negative", lambda: ev.ZCDP(-1.0), IA, "rho"),
    ("event-zcdp-inf", lambda: ev.ZCDP(INF), IA, "rho"),
    ("event-subsampled-rate-zero", lambda: ev.PoissonSubsampled(ev.Gaussian(1.0, relation=AR), 0.0), IA, "rate"),
    ("event-subsampled-rate-above-one", lambda: ev.PoissonSubsampled(ev.Gaussian(1.0, relation=AR), 1.5), IA, "rate"),
    ("event-subsampled-rate-nan", lambda: ev.PoissonSubsampled(ev.Gaussian(1.0, relation=AR), NAN), IA, "rate"),
    ("event-subsampled-not-an-event", lambda: ev.PoissonSubsampled("gaussian", 0.1), IA, "event"),
    ("event-self-composed-count-zero", lambda: ev.SelfComposed(ev.Gaussian(1.0), 0), IA, "count"),
    ("event-self-composed-count-fraction", lambda: ev.SelfComposed(ev.Gaussian(1.0), 1.5), IA, "count"),
    ("event-composed-not-events", lambda: ev.Composed(("x",)), IA, "event"),
    ("accountant-method-str", lambda: Accountant("pld"), IA, "method"),
    ("accountant-method-int", lambda: Accountant(5), IA, "method"),
    ("compose-not-an-event", _acc_compose("gaussian"), IA, "event"),
    ("compose-count-zero", _acc_compose(ev.Gaussian(1.0), 0), IA, "count"),
    ("compose-count-negative", _acc_compose(ev.Gaussian(1.0), -3), IA, "count"),
    ("compose-count-fraction", _acc_compose(ev.Gaussian(1.0), 2.5), IA, "count"),
    ("compose-count-nan", _acc_compose(ev.Gaussian(1.0), NAN), IA, "count"),
    ("epsilon-delta-zero", lambda: Accountant().compose(ev.Gaussian(1.0)).epsilon(0.0), IA, "delta"),
    ("epsilon-delta-one", lambda: Accountant().compose(ev.Gaussian(1.0)).epsilon(1.0), IA, "delta"),
    ("epsilon-delta-nan", lambda: Accountant().compose(ev.Gaussian(1.0)).epsilon(NAN), IA, "delta"),
    ("epsilon-delta-str", lambda: Accountant().compose(ev.Gaussian(1.0)).epsilon("1e-5"), IA, "delta"),
    ("delta-epsilon-negative", lambda: Accountant().compose(ev.Gaussian(1.0)).delta(-1.0), IA, "epsilon"),
    ("delta-epsilon-nan", lambda: Accountant().compose(ev.Gaussian(1.0)).delta(NAN), IA, "epsilon"),
    # -- calibrate ---------------------------------------------------------------------------
    ("calibrate-gaussian-epsilon-nan", _cal("gaussian", NAN, 1e-5), IA, "epsilon"),
    ("calibrate-gaussian-epsilon-negative", _cal("gaussian", -1.0, 1e-5), IA, "epsilon"),
    ("calibrate-gaussian-epsilon-inf", _cal("gaussian", INF, 1e-5), IA, "epsilon"),
    ("calibrate-gaussian-delta-zero", _cal("gaussian", 1.0, 0.0), IA, "delta"),
    ("calibrate-gaussian-delta-one", _cal("gaussian", 1.0, 1.0), IA, "delta"),
    ("calibrate-gaussian-delta-nan", _cal("gaussian", 1.0, NAN), IA, "delta"),
    ("calibrate-gaussian-sensitivity-negative", _cal("gaussian", 1.0, 1e-5, sensitivity=-1.0), IA, "sensitivity"),
    ("calibrate-gaussian-sensitivity-zero", _cal("gaussian", 1.0, 1e-5, sensitivity=0.0), IA, "sensitivity"),
    ("calibrate-gaussian-method-bogus", _cal("gaussian", 1.0, 1e-5, method="bogus"), IA, "method"),
    ("calibrate-laplace-epsilon-zero", _cal("laplace", 0.0), IA, "epsilon"),
    ("calibrate-laplace-sensitivity-nan", _cal("laplace", 1.0, sensitivity=NAN), IA, "sensitivity"),
    ("calibrate-laplace-delta-negative", _cal("laplace", 1.0, delta=-0.1), IA, "delta"),
    ("calibrate-laplace-method-bogus", _cal("laplace", 1.0, method="bogus"), IA, "method"),
    ("calibrate-gaussian-delta-fn-sigma-negative", _cal("gaussian_delta", 1.0, -1.0), IA, "sigma"),
    ("calibrate-laplace-delta-fn-scale-zero", _cal("laplace_delta", 1.0, 0.0), IA, "scale"),
    ("calibrate-wishart-n-zero", _cal("wishart", 1.0, n=0), IA, "n"),
    ("calibrate-wishart-n-fraction", _cal("wishart", 1.0, n=1.5), IA, "n"),
    ("calibrate-wishart-epsilon-nan", _cal("wishart", NAN, n=10), IA, "epsilon"),
    ("calibrate-covariance-laplace-d-zero", _cal("covariance_laplace", 1.0, n=10, d=0), IA, "d"),
    ("calibrate-projection-k-zero", _cal("random_projection", 1.0, 1e-5, k=0, B=1.0), IA, "k"),
    ("calibrate-projection-reading-bogus", _cal("random_projection", 1.0, 1e-5, k=5, B=1.0, reading="bogus"), IA,
     "reading"),
    ("calibrate-mi-additive-negative", _cal("mi_additive_noise", -1.0), IA, "epsilon"),
    ("calibrate-mi-projection-n-prime-zero", _cal("mi_random_projection", 1.0, n_prime=0, f2=1.0), IA, "n_prime"),
    ("calibrate-mi-projection-f2-nan", _cal("mi_random_projection", 1.0, n_prime=5, f2=NAN), IA, "f2"),
]


A = ["audit", "laplace-scalar", "--samples", "100", "--seed", "0"]
AM = ["audit", f"{M}:LAPLACE", "--pairs", f"{M}:PAIR", "--samples", "100", "--seed", "0"]
CHK = ["check", "--no-proofs", "--no-calibrations", "--no-search", "--only", "laplace-scalar"]
ACC = ["account", "--delta", "1e-5", "--event"]
CALG = ["calibrate", "gaussian", "--delta", "1e-5", "--epsilon"]

CLI = [
    # -- top level ---------------------------------------------------------------------------
    ("no-command", [], 2, "COMMAND"),
    ("unknown-command", ["bogus"], 2, "bogus"),
    ("unknown-global-option", ["--bogus"], 2, "COMMAND"),
    ("unknown-option-after-command", ["prove", "--bogus"], 2, "--bogus"),
    # -- audit: MECHANISM and --pairs --------------------------------------------------------
    ("audit-colon-only", ["audit", ":"], 2, "MECHANISM"),
    ("audit-double-colon", ["audit", "a:b:c", "--pairs", f"{M}:PAIR"], 2, "MECHANISM"),
    ("audit-empty-module", ["audit", ":LAPLACE", "--pairs", f"{M}:PAIR"], 2, "MECHANISM"),
    ("audit-empty-attr", ["audit", f"{M}:", "--pairs", f"{M}:PAIR"], 2, "MECHANISM"),
    ("audit-missing-module", ["audit", "no_such_module_xyz:m", "--pairs", f"{M}:PAIR"], 2, "MECHANISM"),
    ("audit-missing-attr", ["audit", f"{M}:nope", "--pairs", f"{M}:PAIR"], 2, "MECHANISM"),
    ("audit-factory-raises", ["audit", f"{M}:make_raises", "--pairs", f"{M}:PAIR"], 2, "MECHANISM"),
    ("audit-not-a-mechanism", ["audit", f"{M}:PAIR", "--pairs", f"{M}:PAIR"], 2, "mechanism"),
    ("audit-no-sample", ["audit", f"{M}:NoSample", "--pairs", f"{M}:PAIR"], 2, "sample"),
    ("audit-unregistered-name", ["audit", "no-such-mechanism"], 2, "MECHANISM"),
    ("audit-empty-name", ["audit", ""], 2, "MECHANISM"),
    ("audit-no-pairs", ["audit", f"{M}:LAPLACE"], 2, "--pairs"),
    ("audit-pairs-colon", AM[:3] + [":"], 2, "--pairs"),
    ("audit-pairs-missing-module", AM[:3] + ["no_such_module_xyz:p"], 2, "--pairs"),
    ("audit-pairs-missing-attr", AM[:3] + [f"{M}:nope"], 2, "--pairs"),
    ("audit-pairs-strings-sampler-refuses", AM[:3] + [f"{M}:STRING_PAIR"], 1, "data='a'"),
    ("audit-pairs-strings-registered", ["audit", "laplace-scalar", "--pairs", f"{M}:STRING_PAIR"], 2, "pairs[0]"),
    ("audit-pairs-empty", AM[:3] + [f"{M}:EMPTY_PAIRS"], 2, "pairs"),
    ("audit-pairs-int", AM[:3] + [f"{M}:NOT_A_PAIR"], 2, "pairs"),
    ("audit-pairs-triple", AM[:3] + [f"{M}:TRIPLE"], 2, "pairs"),
    ("audit-pairs-none", AM[:3] + [f"{M}:NONE"], 2, "pairs"),
    ("audit-pairs-factory-raises", AM[:3] + [f"{M}:pairs_raise"], 2, "--pairs"),
    ("audit-log-density-raises", ["audit", f"{M}:RAISING_DENSITY", "--pairs", f"{M}:PAIR", "--samples", "100"], 1,
     "log_density"),
    ("audit-log-density-strings", ["audit", f"{M}:STRING_DENSITY", "--pairs", f"{M}:PAIR", "--samples", "100"], 1,
     "log_density"),
    # -- audit: numbers ----------------------------------------------------------------------
    *[(f"audit-samples-{k}", A[:2] + ["--samples", v], 2, "--samples")
      for k, v in [("inf", "inf"), ("nan", "nan"), ("negative", "-1"), ("zero", "0"), ("fraction", "1.5"),
                   ("word", "abc"), ("huge", "1e30"), ("empty", ""), ("minus-inf", "-inf")]],
    *[(f"audit-seed-{k}", A[:4] + ["--seed", v], 2, "--seed")
      for k, v in [("negative", "-1"), ("word", "abc"), ("fraction", "1.5"), ("inf", "inf"), ("empty", "")]],
    *[(f"audit-epsilon-{k}", A + ["--epsilon", v], 2, "--epsilon")
      for k, v in [("nan", "nan"), ("inf", "inf"), ("negative", "-1"), ("word", "abc"), ("empty", "")]],
    *[(f"audit-delta-{k}", A + ["--epsilon", "1", "--delta", v], 2, "--delta")
      for k, v in [("nan", "nan"), ("negative", "-0.1"), ("one", "1"), ("above-one", "1.5"), ("word", "abc"),
                   ("inf", "inf")]],
    *[(f"audit-confidence-{k}", A + ["--confidence", v], 2, "--confidence")
      for k, v in [("nan", "nan"), ("zero", "0"), ("one", "1"), ("above-one", "1.5"), ("negative", "-0.5"),
                   ("word", "abc"), ("inf", "inf")]],
    *[(f"audit-delta-resolution-{k}", A + ["--delta-resolution", v], 2, "--delta-resolution")
      for k, v in [("nan", "nan"), ("zero", "0"), ("negative", "-1"), ("inf", "inf"), ("word", "abc")]],
    *[(f"audit-time-budget-{k}", A + ["--time-budget", v], 2, "--time-budget")
      for k, v in [("nan", "nan"), ("zero", "0"), ("negative", "-1"), ("inf", "inf"), ("word", "abc")]],
    *[(f"audit-workers-{k}", A + ["--workers", v], 2, "--workers")
      for k, v in [("zero", "0"), ("negative", "-2"), ("inf", "inf"), ("word", "abc"), ("huge", "1e9")]],
    # -- audit: files, addresses, choices ----------------------------------------------------
    ("audit-plot-bad-extension", A + ["--plot", "x.xyz"], 2, "--plot"),
    ("audit-plot-no-extension", A + ["--plot", "plotfile"], 2, "--plot"),
    ("audit-plot-missing-folder", A + ["--plot", "/no/such/folder/x.png"], 2, "--plot"),
    ("audit-plot-empty", A + ["--plot", ""], 2, "--plot"),
    ("audit-report-missing-folder", A + ["--report", "/no/such/folder/r.html"], 2, "--report"),
    ("audit-report-empty", A + ["--report", ""], 2, "--report"),
    ("audit-report-bad-extension", A + ["--report", "r.png"], 2, "--report"),
    ("audit-scheduler-not-url", A + ["--scheduler", "not a url"], 2, "--scheduler"),
    ("audit-scheduler-empty", A + ["--scheduler", ""], 2, "--scheduler"),
    ("audit-scheduler-no-port", A + ["--scheduler", "tcp://"], 2, "--scheduler"),
    ("audit-scheduler-bad-scheme", A + ["--scheduler", "http//x:1"], 2, "--scheduler"),
    ("audit-scheduler-and-workers", A + ["--scheduler", "tcp://127.0.0.1:1", "--workers", "2"], 2, "--workers"),
    ("audit-fail-on-bogus", A + ["--fail-on", "bogus"], 2, "--fail-on"),
    ("audit-unknown-option", A + ["--bogus"], 2, "--bogus"),
    ("audit-option-missing-value", A + ["--epsilon"], 2, "--epsilon"),
    # -- check -------------------------------------------------------------------------------
    *[(f"check-samples-scale-{k}", CHK + ["--samples-scale", v], 2, "--samples-scale")
      for k, v in [("inf", "inf"), ("nan", "nan"), ("negative", "-1"), ("zero", "0"), ("word", "abc"),
                   ]],
    *[(f"check-seed-{k}", CHK + ["--seed", v], 2, "--seed") for k, v in [("negative", "-1"), ("word", "x")]],
    ("check-only-unknown", ["check", "--no-proofs", "--no-calibrations", "--only", "no-such-mechanism"], 2,
     "--only"),
    ("check-only-empty", ["check", "--no-proofs", "--no-calibrations", "--only", ""], 2, "--only"),
    ("check-fail-on-bogus", CHK + ["--fail-on", "bogus"], 2, "--fail-on"),
    ("check-report-missing-folder", CHK + ["--report", "/no/such/folder/r.html"], 2, "--report"),
    ("check-unknown-option", ["check", "--bogus"], 2, "--bogus"),
    # -- calibrate ---------------------------------------------------------------------------
    ("calibrate-unknown-mechanism", ["calibrate", "bogus", "--epsilon", "1"], 2, "MECHANISM"),
    ("calibrate-no-epsilon", ["calibrate", "gaussian", "--delta", "1e-5"], 2, "--epsilon"),
    *[(f"calibrate-epsilon-{k}", CALG + [v], 2, "--epsilon")
      for k, v in [("nan", "nan"), ("inf", "inf"), ("negative", "-1"), ("zero", "0"), ("word", "abc")]],
    *[(f"calibrate-delta-{k}", ["calibrate", "gaussian", "--epsilon", "1", "--delta", v], 2, "--delta")
      for k, v in [("zero", "0"), ("one", "1"), ("nan", "nan"), ("word", "abc")]],
    *[(f"calibrate-sensitivity-{k}", CALG + ["1", "--sensitivity", v], 2, "--sensitivity")
      for k, v in [("negative", "-1"), ("nan", "nan"), ("zero", "0")]],
    ("calibrate-method-bogus", CALG + ["1", "--method", "bogus"], 2, "--method"),
    ("calibrate-option-not-applicable", ["calibrate", "laplace", "--epsilon", "1", "--k", "3"], 2, "--k"),
    ("calibrate-wishart-n-zero", ["calibrate", "wishart", "--epsilon", "1", "--n", "0"], 2, "--n"),
    ("calibrate-wishart-n-word", ["calibrate", "wishart", "--epsilon", "1", "--n", "abc"], 2, "--n"),
    ("calibrate-wishart-d-negative", ["calibrate", "wishart", "--epsilon", "1", "--n", "10", "--d", "-2"], 2, "--d"),
    ("calibrate-projection-P-missing-file",
     ["calibrate", "random-projection", "--epsilon", "1", "--delta", "1e-5", "--k", "5", "--B", "1", "--reading",
      "fixed", "--P", "/no/such/P.npy", "--z", "1,0"], 2, "--P"),
    ("calibrate-projection-z-words",
     ["calibrate", "random-projection", "--epsilon", "1", "--delta", "1e-5", "--k", "5", "--B", "1", "--z", "a,b"],
     2, "--z"),
    ("calibrate-projection-rtol-nan",
     ["calibrate", "random-projection", "--epsilon", "1", "--delta", "1e-5", "--k", "5", "--B", "1", "--rtol", "nan"],
     2, "--rtol"),
    ("calibrate-projection-reading-bogus",
     ["calibrate", "random-projection", "--epsilon", "1", "--delta", "1e-5", "--k", "5", "--B", "1", "--reading",
      "bogus"], 2, "--reading"),
    ("calibrate-mi-projection-f2-nan", ["calibrate", "mi-random-projection", "--epsilon", "1", "--n-prime", "5",
                                        "--f2", "nan"], 2, "--f2"),
    # -- prove -------------------------------------------------------------------------------
    ("prove-unknown-option", ["prove", "--bogus"], 2, "--bogus"),
    # -- account -----------------------------------------------------------------------------
    ("account-duplicate-key", ACC + ["gaussian:sigma=1:sigma=2"], 2, "sigma"),
    ("account-duplicate-count", ACC + ["gaussian:sigma=1:count=1:count=2"], 2, "count"),
    ("account-empty-event", ACC + [""], 2, "--event"),
    ("account-unknown-kind", ACC + ["bogus:x=1"], 2, "--event"),
    ("account-missing-key", ACC + ["gaussian"], 2, "sigma"),
    *[(f"account-sigma-{k}", ACC + [f"gaussian:sigma={v}"], 2, "sigma")
      for k, v in [("nan", "nan"), ("inf", "inf"), ("negative", "-1"), ("zero", "0"), ("word", "abc"),
                   ("empty", "")]],
    *[(f"account-count-{k}", ACC + [f"gaussian:sigma=1:count={v}"], 2, "count")
      for k, v in [("zero", "0"), ("negative", "-1"), ("fraction", "1.5"), ("word", "abc"), ("inf", "inf")]],
    ("account-unknown-key", ACC + ["gaussian:sigma=1:bogus=2"], 2, "bogus"),
    ("account-item-without-value", ACC + ["gaussian:sigma=1:novalue"], 2, "novalue"),
    ("account-empty-key", ACC + ["gaussian:=1"], 2, "--event"),
    ("account-laplace-scale-zero", ACC + ["laplace:scale=0"], 2, "scale"),
    ("account-rr-epsilon-negative", ACC + ["randomized-response:epsilon=-1"], 2, "epsilon"),
    ("account-rr-categories-one", ACC + ["randomized-response:epsilon=1:categories=1"], 2, "categories"),
    ("account-discrete-laplace-sensitivity-fraction", ACC + ["discrete-laplace:scale=1:sensitivity=1.5"], 2,
     "sensitivity"),
    ("account-pure-nan", ACC + ["pure:epsilon=nan"], 2, "epsilon"),
    ("account-approx-delta-one", ACC + ["approx:epsilon=1:delta=1"], 2, "delta"),
    ("account-subsampled-no-rate", ACC + ["subsampled-gaussian:sigma=1"], 2, "rate"),
    ("account-subsampled-rate-zero", ACC + ["subsampled-gaussian:sigma=1:rate=0"], 2, "rate"),
    ("account-subsampled-rate-above-one", ACC + ["subsampled-gaussian:sigma=1:rate=1.5"], 2, "rate"),
    ("account-subsampled-rate-nan", ACC + ["subsampled-gaussian:sigma=1:rate=nan"], 2, "rate"),
    ("account-dpsgd-missing-steps", ACC + ["dpsgd:q=0.01:sigma=1"], 2, "steps"),
    ("account-dpsgd-q-above-one", ACC + ["dpsgd:q=2:sigma=1:steps=10"], 2, "q"),
    ("account-dpsgd-steps-zero", ACC + ["dpsgd:q=0.01:sigma=1:steps=0"], 2, "steps"),
    ("account-dpsgd-sigma-nan", ACC + ["dpsgd:q=0.01:sigma=nan:steps=10"], 2, "sigma"),
    ("account-zcdp-negative", ACC + ["zcdp:rho=-1"], 2, "rho"),
    *[(f"account-delta-{k}", ["account", "--event", "gaussian:sigma=1", "--delta", v], 2, "--delta")
      for k, v in [("zero", "0"), ("one", "1"), ("nan", "nan"), ("word", "abc"), ("negative", "-1"),
                   ("trailing-comma", "1e-5,")]],
    ("account-method-bogus", ["account", "--event", "gaussian:sigma=1", "--delta", "1e-5", "--method", "bogus"], 2,
     "--method"),
    ("account-relation-bogus", ["account", "--event", "gaussian:sigma=1", "--delta", "1e-5", "--relation", "x"], 2,
     "--relation"),
    ("account-plot-bad-extension", ["account", "--event", "gaussian:sigma=1", "--delta", "1e-5", "--plot", "x.xyz"],
     2, "--plot"),
    ("account-plot-missing-folder",
     ["account", "--event", "gaussian:sigma=1", "--delta", "1e-5", "--plot", "/no/such/folder/x.png"], 2, "--plot"),
    ("account-report-missing-folder",
     ["account", "--event", "gaussian:sigma=1", "--delta", "1e-5", "--report", "/no/such/folder/r.html"], 2,
     "--report"),
    ("account-no-event", ["account", "--delta", "1e-5"], 2, "--event"),
    ("account-no-delta", ["account", "--event", "gaussian:sigma=1"], 2, "--delta"),
]


@pytest.mark.parametrize("call,error,text", [c[1:] for c in API], ids=[c[0] for c in API])
def test_api_bad_input(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert text.lower() in str(info.value).lower(), str(info.value)


@pytest.mark.parametrize("argv,code,text", [c[1:] for c in CLI], ids=[c[0] for c in CLI])
def test_cli_bad_input(argv, code, text, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        got = main(list(argv))
    except SystemExit as exc:  # argparse
        got = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    assert got == code, (got, err[-2000:])
    assert text.lower() in err.lower(), err[-2000:]
    assert err.strip(), "an error must say what was wrong"


def test_the_table_is_large():
    assert len(API) + len(CLI) >= 150
