"""An OpenDP polars measurement (make_private_lazyframe): records become a LazyFrame, the OnceFrame is collected."""
import opendp.prelude as dp; import polars as pl; import dpverify; from dpverify.adapters import opendp as adapter
dp.enable_features("contrib"); frame = dp.lazyframe_domain([dp.series_domain("x", dp.atom_domain(T=float, nan=False))])
plan = pl.LazyFrame({"x": [0.0]}).select(pl.col("x").fill_null(0.0).dp.sum((0.0, 5.0)))
meas = dp.m.make_private_lazyframe(dp.with_margin(frame, dp.polars.Margin(max_length=1000)), dp.symmetric_distance(), dp.max_divergence(), plan, global_scale=1.0)
print(dpverify.audit(adapter.measurement(meas, d_in=1), samples=2000, rng=1))
