"""Exports beyond the home-printing PDFs: PNGs for print shops, Tabletop Simulator
decks, print-on-demand PDFs and contact-sheet previews.

Every picture is the same vector drawing the sheets use (`pnp.draw.faces.FormCache`),
drawn one card per page into an in-memory PDF and rasterised with PDFium, so a
PNG never differs from the PDF. Part of the output stage: imports only what it may.
"""
