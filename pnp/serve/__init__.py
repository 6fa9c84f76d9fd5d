"""`pnp serve`: a live preview of a project in the browser that follows the files as they are edited.

`state` takes a snapshot of the project (games, distinct cards, problems), `pictures` renders
cards on demand with a cache keyed by their content, `live` watches the folders and pushes
changes, `builds` runs `pnp build` from the page, `server` and `page` speak HTTP to the
browser. May import every stage up to and including `pnp.buildplan`; only the CLI imports it.
"""
