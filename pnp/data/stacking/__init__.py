"""Stacked decks: the selector words and applying a stack's changes to a deck (reading a variant
database is `pnp.data.reading.variants`)."""
