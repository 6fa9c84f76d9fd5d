"""Resolve: from the loaded model to what drawing needs, every question about the user's input answered.

For each distinct card face and back this stage evaluates the design's slot
templates and its layout's elements, fits every text to its box, checks glyphs,
inline icons, symbols, pictures, colours and numbers, and hands drawing typed
elements in millimetres with their sizes and lines decided (`pnp.resolve.sides`).
A problem is found here, with its source: the design's file and line, the layout
element, or the spreadsheet cell a value came from. `pnp check` is this stage
over the whole project; drawing (`pnp.draw`) takes its output and meets nothing
a user could get wrong.

Modules: `fonts` (the project's fonts and their metrics), `inline_markup` and
`text` (marked-up text read, measured, wrapped and fitted), `pictures` (picture
files checked and placed), `measures` and `charting` (what layout expressions may
measure), `layout` (a layout's elements for one card), `fitting` (an element made
ready to draw), `sides` (one card side, start to end) and `reads` (which spreadsheet
cells a value read).
"""
