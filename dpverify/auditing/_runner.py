"""Moved: the executor to :mod:`dpverify.auditing.executor`, draws and sample plans to
:mod:`dpverify.auditing.draws`, ``describe`` to :mod:`dpverify.auditing._describe`. Only seams remain
here, for modules and tests outside the white-box/executor area; nothing in that area imports it."""
from ._describe import describe  # noqa: F401  # seam: moved to _describe
from .draws import BATCH_ELEMENTS  # noqa: F401  # seam: moved to draws (a copy: patch draws.BATCH_ELEMENTS)
from .draws import DEFAULT_MAX_SAMPLES  # noqa: F401  # seam: moved to draws (a copy: patch draws.DEFAULT_MAX_SAMPLES)
from .draws import SamplesPlan  # noqa: F401  # seam: moved to draws
from .draws import check_outputs  # noqa: F401  # seam: moved to draws
from .draws import honours_rng  # noqa: F401  # seam: moved to draws
from .draws import plan_samples  # noqa: F401  # seam: moved to draws
from .draws import root_seed  # noqa: F401  # seam: moved to draws
from .draws import validate_samples  # noqa: F401  # seam: moved to draws
from .executor import AUTO_POOL_MIN_OUTPUTS  # noqa: F401  # seam: moved to executor
from .executor import InlineExecutor  # noqa: F401  # seam: moved to executor
from .executor import auto_executor  # noqa: F401  # seam: moved to executor
from .executor import auto_pool  # noqa: F401  # seam: moved to executor
from .executor import run_batches  # noqa: F401  # seam: moved to executor
from .executor import stop_executor  # noqa: F401  # seam: moved to executor
from .pairs import normalise_pairs  # noqa: F401  # seam: was a forwarder; use pairs.normalise_pairs
