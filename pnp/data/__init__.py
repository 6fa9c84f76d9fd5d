"""Input: safe YAML with line numbers, the database model and schema, loading and cross-checks, projects, variants.

Imports only `pnp.geometry` and `pnp.engines` (pure libraries); everything else builds on this stage.
"""
