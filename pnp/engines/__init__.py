"""Game engines: playing cards, Fairy Meat combat, Nasty Hits, the Monte Carlo and exact deck statistics.

Pure game logic on plain values: imports nothing else from `pnp`; game data comes in as arguments.
"""
