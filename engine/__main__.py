"""`python -m engine`: the engine's command line (see `engine.cli`)."""

from __future__ import annotations

import os
import sys

from engine.cli import main


def run() -> None:
    """Run the command line and exit with its status; Ctrl-C and a closed pipe end quietly."""
    try:
        status = main()
        sys.stdout.flush()
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:
        # The reader (e.g. `head`) stopped reading: not an error of ours. Point stdout at
        # devnull so the interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = 0
    sys.exit(status)


if __name__ == "__main__":
    run()
