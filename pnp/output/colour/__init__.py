"""Print-shop colour: CMYK with an ink limit, and PDF/X files made by Ghostscript.

`icc` builds an ink-limited CMYK output profile with LittleCMS (through
Pillow's ImageCms) from a base press profile; `ghostscript` converts a finished
RGB PDF into a PDF/X-1a file whose output intent is that profile; `ink` reads
back a CMYK rendering of a PDF to measure its total ink. Part of the output
stage; imports nothing from later stages.
"""
