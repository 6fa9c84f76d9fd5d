"""Cards everyone can read: colour vision, contrast and type size checked on the drawn cards.

`vision` (simulated colour vision, CIEDE2000, WCAG contrast), `faces` (each distinct
side drawn as pixels, whole and without its text), `telling` (fields told apart by
colour alone), `reading` (contrast and type size of each text) and `report`
(`pnp check --access` over a game).
"""

VISIONS = ("protanopia", "deuteranopia", "tritanopia", "achromatopsia")  # the colour visions simulated
