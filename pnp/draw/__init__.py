"""Drawing: fonts, vector symbols, card context and helpers, layouts, faces as form XObjects, markup.

May import `pnp.data`, `pnp.rules` and the pure stages; knows nothing of files written or commands.
"""
