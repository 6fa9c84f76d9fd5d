"""Geometry: units, paper and card sizes, sheet grids, duplex mirroring, booklet and board imposition.

Pure arithmetic: imports nothing else from `pnp`.
"""
