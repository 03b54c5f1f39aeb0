"""Two more curve-claim cases of issue 30, 20 seeds each, black-box, 100,000 samples per side.

Usage: python benchmarks/bench_curve_cases.py

* A Gaussian calibrated with log10 instead of ln at (1, 1e-5) (sigma = sqrt(2 log10(1.25/delta))), audited against the
  (1, 1e-5) Gaussian curve stated as a GDP claim (mu such that the GDP curve gives delta(1) = 1e-5): one trade-off test
  of the whole curve (dpverify.auditing.tradeoff).
* A zCDP claim four times too small (rho 0.5 claimed, sigma halved: rho 2 true), and the correct sigma, through the
  curve audit at five points (dpverify.auditing.curve).
Seeds are 0..19; nothing is tuned on them.
"""
import math, time, numpy as np, dpverify, os
from dpverify import PrivacyClaim
class G:
    def __init__(self, s, claim): self.s, self.claim = s, claim
    def sample(self, data, size, rng): return float(data) + self.s * rng.standard_normal(size)
lo, hi = 1e-3, 10.0
for _ in range(100):
    mid = (lo + hi) / 2
    lo, hi = (lo, mid) if PrivacyClaim.gdp(mid).delta_at(1.0) > 1e-5 else (mid, hi)
mu = lo
s10 = math.sqrt(2 * math.log10(1.25 / 1e-5))
print(f"load {os.getloadavg()[0]:.2f}; GDP mu for (1,1e-5) = {mu:.5f}; log10 sigma = {s10:.4f} (mu {1/s10:.4f})")
hits = sum(dpverify.audit(G(s10, PrivacyClaim.gdp(mu)), (0.0, 1.0), samples=100_000, rng=s).verdict.value == "violated" for s in range(20))
print(f"log10 Gaussian vs the (1,1e-5) Gaussian curve (GDP), 100,000 per side: violated {hits}/20")
rho = 0.5; sigma = 1 / math.sqrt(2 * rho)
t = time.time()
hits = sum(dpverify.audit(G(sigma / 2, PrivacyClaim.zcdp(rho)), (0.0, 1.0), samples=100_000, rng=s).verdict.value == "violated" for s in range(20))
print(f"zCDP claim rho=0.5, true rho 2 (sigma halved), black-box at 5 points, 100,000 per side: violated {hits}/20 ({time.time()-t:.0f} s)")
hits = sum(dpverify.audit(G(sigma, PrivacyClaim.zcdp(rho)), (0.0, 1.0), samples=100_000, rng=s).verdict.value == "violated" for s in range(20))
print(f"  the correct sigma: violated {hits}/20; load at end {os.getloadavg()[0]:.2f}")
