"""`pnp build`: every component of the chosen games into PDFs, a checklist each, and a manifest.

In rooms by job: `steps` says what each kind of component becomes (a step that
draws one PDF); `plan` turns the chosen games into the list of steps, checked
before anything is drawn; `run` runs the steps on the workers in a staging
folder and publishes what they made (files, manifest, freshness record).
"""
