"""The disk cache: work already done, kept between runs and keyed by its input and by
pnp's code, so a changed program or library never reads an old entry."""
