"""Input, in rooms by job (each imports only the rooms listed before it):

- `format`: the database format as typed dataclasses, its JSON Schema, element kinds, colours, limits, errors;
- `store`: the disk cache of work already done, as plain data rebuilt with the format's own classes;
- `stacking`: stacked-deck selectors and applying a stack's changes to a deck;
- `templating`: the jinja2 sandbox, rendering slots and element values for one card;
- `reading`: safe YAML with line numbers, projects, spreadsheets, variant databases, loading and cross-checks.

Imports only `pnp.geometry` and `pnp.engines` (pure libraries) from outside; everything else builds on this stage.
"""
