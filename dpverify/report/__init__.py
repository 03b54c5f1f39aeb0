"""Reports and plots of audit results (``plot_audit`` needs the optional extra ``plot``: matplotlib).

matplotlib is imported lazily, inside the functions, and always with the headless Agg backend
when no backend has been chosen, so importing :mod:`dpverify.report` costs nothing.
"""
from __future__ import annotations

from .plots import plot_audit, save_audit_plot

__all__ = ["plot_audit", "save_audit_plot"]
