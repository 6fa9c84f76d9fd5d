"""fairy-pnp: print-and-play card sheets, boards and booklets from YAML card databases.

Stages, in pipeline order: geometry and engines, data, rules, draw, output, buildplan, cli.
"""

__version__ = "0.1.0"
