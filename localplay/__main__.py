"""`python -m localplay`: the local play mode (same as `python -m bot local`)."""

import sys

from localplay.cli import main

sys.exit(main())
