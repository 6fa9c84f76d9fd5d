"""The words of `pnp stack` that its command line shows: selector forms and the default mark colour.

Apart from `stacking` so the command line can show them without importing the model.
"""

from __future__ import annotations

DEFAULT_COLOR = "#8c2f39"

FORMS = (
    "a value or its plural: trumps, jokers, queens, 10s, red, hearts (or a card name)",
    "a number range: 4-6",
    "alternatives joined by commas: clubs,diamonds",
    "narrowing words joined by 'of' or spaces: 2-10 of clubs,diamonds; trumps of hearts; ace of spades; red trumps",
    "an explicit field=value: value=10, rank=Q",
    "a card key as printed, in capitals: AS, 10H",
)
