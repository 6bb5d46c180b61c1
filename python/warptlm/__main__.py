"""Entry point of ``python3 -m warptlm`` (see warptlm.cli)."""

import sys

from .cli import main

sys.exit(main())
