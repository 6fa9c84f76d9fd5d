"""Game engines: the Fairy Meat combat system, Nasty Hits and exact deck statistics.

Pure game logic on plain values: imports nothing else from `pnp`; game data comes in as arguments.
"""
