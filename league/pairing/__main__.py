"""``python -m league.pairing``: see ``league.pairing.cli``."""

import sys

from league.pairing.cli import main

sys.exit(main())
