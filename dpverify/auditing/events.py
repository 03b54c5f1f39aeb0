from .blackbox.event_families import *  # noqa: F401,F403  # seam: moved to dpverify.auditing.blackbox.event_families
