"""fairy-pnp: print-and-play card sheets, boards and booklets from YAML card databases."""

__version__ = "0.1.0"
