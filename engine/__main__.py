"""``python -m engine``: the engine's command line (see ``engine.cli``)."""

import sys

from engine.cli import main

if __name__ == "__main__":
    sys.exit(main())
