"""`python -m renderer`: see renderer.cli."""

import sys

from renderer.cli import main

sys.exit(main())
