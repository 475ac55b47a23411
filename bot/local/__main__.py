"""`python -m bot.local`: the local play mode (same as `python -m bot local`)."""

import sys

from bot.local.cli import main

sys.exit(main())
