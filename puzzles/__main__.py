"""`python -m puzzles mine ...`: see `puzzles.cli`."""

import sys

from puzzles.cli import main

sys.exit(main())
