"""Pillow's internals: one colour through a LittleCMS transform without copying its profile.

`ImageCms.applyTransform` (and `ImageCmsTransform.apply`) copy the output profile
(190 KB) into every result's info: 2.4 ms per colour against 5 us for the
conversion alone, measured. CMYK output converts every distinct colour a build
draws, so the adapter calls the transform's core directly where tested.
"""

from __future__ import annotations

from typing import Any

import PIL
from PIL import Image, ImageCms

from pnp.adapters import Gate

GATE = Gate("pillow", PIL.__version__, ("13.0",))
ACTIVE = GATE.active


def apply_transform(transform: Any, image: Image.Image, mode: str) -> bytes:
    """The raw bytes of `image` converted by an ImageCms transform to `mode`."""
    core = getattr(transform, "transform", None)
    if not ACTIVE or core is None:
        converted = ImageCms.applyTransform(image, transform)
        assert converted is not None  # only None when converting in place
        return converted.tobytes()
    out = Image.new(mode, image.size)
    core.apply(image.getim(), out.getim())
    return out.tobytes()
