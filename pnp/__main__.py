"""`python -m pnp` runs the command line."""

from pnp.cli import run

run()
