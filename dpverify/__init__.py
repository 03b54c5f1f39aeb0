"""dpverify: verify differentially private mechanisms.

The public API is exactly the names re-exported here (see ``docs/api.md``), plus the documented
subpackages. Privacy tests: ``dpverify.testing`` (``assert_private`` and the pytest plugin) and
``dpverify.strategies`` (hypothesis); neither is imported here, so ``import dpverify`` never
loads hypothesis or pytest.

``import dpverify`` loads only numpy and the core values; the calibration, accounting and
mutual-information modules (scipy, sympy, mpmath) load on first use of their names
(``dpverify.calibrate``, ``dpverify.Accountant``, ``dpverify.audit_mutual_information``).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .auditing import AuditResult, audit
from .auditing.domain import InputDomain
from .claims import ClaimForm, NeighbourRelation, PrivacyClaim, Verdict
from .errors import DeadlineExceeded, DPVerifyError, InvalidArgument, MechanismError, NumericalError, UnsupportedEvent
from .mechanism import Mechanism, WhiteBoxMechanism, is_white_box

if TYPE_CHECKING:  # pragma: no cover
    from . import calibrate
    from .accounting import Accountant
    from .auditing.mutual_information import audit_mutual_information

__version__ = "0.1.0"

#: Public names loaded on first use: name -> (module, attribute or None for the module itself).
_LAZY = {
    "calibrate": ("dpverify.calibrate", None),
    "Accountant": ("dpverify.accounting", "Accountant"),
    "audit_mutual_information": ("dpverify.auditing.mutual_information", "audit_mutual_information"),
    "audit_curve": ("dpverify.auditing.curve", "audit_curve"),
}


def __getattr__(name: str) -> Any:
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'dpverify' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Accountant",
    "AuditResult",
    "ClaimForm",
    "DPVerifyError",
    "DeadlineExceeded",
    "InputDomain",
    "InvalidArgument",
    "Mechanism",
    "MechanismError",
    "NeighbourRelation",
    "NumericalError",
    "PrivacyClaim",
    "UnsupportedEvent",
    "Verdict",
    "WhiteBoxMechanism",
    "audit",
    "audit_curve",
    "audit_mutual_information",
    "calibrate",
    "is_white_box",
]
