"""Seam: the hard deadlines of audits moved to :mod:`dpverify.auditing.deadline` (public, documented)."""
from .deadline import *  # noqa: F401,F403  # seam: moved to dpverify.auditing.deadline
from .deadline import deadline_error  # noqa: F401  # seam: moved to dpverify.auditing.deadline
