"""Seam: the bound-respecting number formatting moved to :mod:`dpverify.rounding`."""
from .rounding import fmt_lower, fmt_num, fmt_upper  # noqa: F401  # seam: moved to dpverify.rounding
