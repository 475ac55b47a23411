"""`python -m puzzles mine ...` and `python -m puzzles filter ...`: see `puzzles.cli`."""

import sys

from puzzles.cli import main

sys.exit(main())
