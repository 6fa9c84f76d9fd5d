"""`pnp simulate`: every bundled game played by bots, its figures with 95 % intervals, variants compared.

`registry` maps a game's database to its engine in `pnp.engines` (the engine reads the same facts the
booklet prints), `run` plays the games on every core, `stats` turns the outcomes into figures and
compares two runs, `report` prints them.
"""
