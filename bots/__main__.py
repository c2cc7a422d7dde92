"""``python -m bots`` is the ``copsolver`` command."""

import sys

from bots.cli import main

sys.exit(main())
