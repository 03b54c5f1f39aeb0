"""Moved to :mod:`dpverify.auditing.whitebox.consistency` (the density-sampler check is a white-box stage)."""
from .whitebox.consistency import CONFIRM_SAMPLES  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import CONSISTENCY_ALPHA  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import MASS_TOLERANCE  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import MIN_EVENT_DRAWS  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import confirm_violations  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import describe_failure  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import pair_consistency  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import thresholds_for  # noqa: F401  # seam: moved to whitebox.consistency
from .whitebox.consistency import violation_threshold  # noqa: F401  # seam: moved to whitebox.consistency
