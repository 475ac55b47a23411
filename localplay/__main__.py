"""`python -m localplay [options]`: local play (the same as `dama-bot local [options]`)."""

import sys

from localplay.cli import main

sys.exit(main())
