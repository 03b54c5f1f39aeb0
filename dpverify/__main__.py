"""``python -m dpverify`` is the ``dpverify`` command."""
import sys

from .cli import main

sys.exit(main())
