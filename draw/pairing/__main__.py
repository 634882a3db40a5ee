"""``python -m draw.pairing``: see ``draw.pairing.cli``."""

import sys

from draw.pairing.cli import main

sys.exit(main())
