"""python3 -m rockcreek.bench: the benchmark driver (rck-bench)."""

import sys

from .run import cli

sys.exit(cli())
