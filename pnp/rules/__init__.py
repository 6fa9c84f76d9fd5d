"""Checks: the declarative composition rules that `pnp check` evaluates over a loaded game.

May import `pnp.data` (and the pure `pnp.geometry`, `pnp.engines`); nothing that draws.
"""
