"""dpverify: verify differentially private mechanisms.

The public API is exactly the names re-exported here (see ``docs/api.md``).
"""
from __future__ import annotations

from . import calibrate
from .accounting import Accountant
from .audit import AuditResult, audit
from .audit.mutual_information import audit_mutual_information
from .claims import NeighbourRelation, PrivacyClaim, Verdict
from .errors import DPVerifyError, InvalidArgument, MechanismError, NumericalError, UnsupportedEvent
from .mechanism import Mechanism, WhiteBoxMechanism, is_white_box

__version__ = "0.1.0"

__all__ = [
    "Accountant",
    "AuditResult",
    "DPVerifyError",
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
    "audit_mutual_information",
    "calibrate",
    "is_white_box",
]
