"""An ink-limited CMYK output profile, built from a press profile with LittleCMS.

The new profile keeps the base profile's description of the press (its
CMYK -> Lab tables, white point and header) and replaces the Lab -> CMYK
tables with ones whose every entry stays under the ink limit. Entries the base
separates within the limit are kept as they are; for the others the profile
trades coloured ink for black (grey component replacement) and, if that is not
enough, thins the coloured inks, choosing among a few such candidates the one
whose printed colour (through the base profile) lies closest to the wanted one.

Any interpolation between table entries that are all within the limit is
within it too, so everything converted with this profile respects the limit.
"""

from __future__ import annotations

import glob
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

GRID = 33  # table points per Lab axis (the base Ghostscript profile uses 33 as well)
BASE_PROFILE = "default_cmyk.icc"
SEARCH = (
    "/usr/share/color/icc/ghostscript",
    "/usr/share/ghostscript/*/iccprofiles",
    "/usr/local/share/ghostscript/*/iccprofiles",
    "/opt/homebrew/share/ghostscript/*/iccprofiles",
)
GCR_STEPS = 8  # candidate amounts of grey replacement tried per over-limit colour
B2A_TAGS = (b"B2A0", b"B2A1", b"B2A2")
DROPPED = B2A_TAGS + (b"gamt", b"desc")


class ProfileError(Exception):
    """The base profile is missing or is not a CMYK output profile this module can rework."""


@dataclass(frozen=True)
class InkLimit:
    """Total ink allowed, in percent (four inks at 100 % each would be 400 %)."""

    percent: float = 240.0

    @property
    def units(self) -> int:
        """The table's limit in 8-bit units (100 % of one ink is 255).

        Two units under the limit, so rounding where the PDF writes ink values
        and where a press's RIP reads them can never tip a colour over it.
        """
        return int(self.percent * 255 / 100) - 2


def find_base_profile() -> Path:
    """Ghostscript's own CMYK press profile (installed with Ghostscript)."""
    for pattern in SEARCH:
        for hit in sorted(glob.glob(f"{pattern}/{BASE_PROFILE}")):
            return Path(hit)
    raise ProfileError(f"cannot find Ghostscript's {BASE_PROFILE}; is Ghostscript installed?")


def read_tags(data: bytes) -> dict[bytes, bytes]:
    """Tag signature -> tag bytes of an ICC profile."""
    if len(data) < 132 or data[36:40] != b"acsp":
        raise ProfileError("not an ICC profile")
    count = struct.unpack(">I", data[128:132])[0]
    tags = {}
    for i in range(count):
        sig, off, size = struct.unpack(">4sII", data[132 + 12 * i : 144 + 12 * i])
        tags[sig] = data[off : off + size]
    return tags


def write_profile(header: bytes, tags: list[tuple[bytes, bytes]]) -> bytes:
    """An ICC profile from a 128-byte header and tags (identical tag data is stored once)."""
    table_len = 4 + 12 * len(tags)
    offset = 128 + table_len
    entries, blobs, placed = [], [], {}
    for sig, blob in tags:
        if blob not in placed:
            placed[blob] = offset
            padded = blob + b"\0" * (-len(blob) % 4)
            blobs.append(padded)
            offset += len(padded)
        entries.append(struct.pack(">4sII", sig, placed[blob], len(blob)))
    body = struct.pack(">I", len(tags)) + b"".join(entries) + b"".join(blobs)
    size = 128 + len(body)
    return struct.pack(">I", size) + header[4:128] + body


def text_description(text: str) -> bytes:
    """A version 2 `desc` tag holding ASCII text."""
    ascii_ = text.encode("ascii") + b"\0"
    return (
        b"desc"
        + b"\0" * 4
        + struct.pack(">I", len(ascii_))
        + ascii_
        + struct.pack(">II", 0, 0)
        + struct.pack(">HB", 0, 0)
        + b"\0" * 67
    )


def lut8(clut: bytes, inputs: int, outputs: int, grid: int) -> bytes:
    """A `mft1` (lut8Type) tag: identity matrix and curves around a colour table."""
    one = 1 << 16
    matrix = struct.pack(">9i", one, 0, 0, 0, one, 0, 0, 0, one)
    ramp = bytes(range(256))
    assert len(clut) == grid**inputs * outputs
    return (
        b"mft1"
        + b"\0" * 4
        + bytes([inputs, outputs, grid, 0])
        + matrix
        + ramp * inputs
        + clut
        + ramp * outputs
    )


def lab_grid(grid: int = GRID) -> list[tuple[int, int, int]]:
    """Table points as Pillow's LAB pixels, L slowest.

    The table's 8-bit Lab (ICC version 2) puts a* = 0 at 128; Pillow stores a*
    and b* as signed bytes (a* = 0 at 0), hence the shift.
    """
    axis = [round(255 * i / (grid - 1)) for i in range(grid)]
    return [(lum, (a - 128) & 0xFF, (b - 128) & 0xFF) for lum in axis for a in axis for b in axis]


def _transform(pixels: Sequence[tuple[int, ...]], src_mode: str, dst_mode: str, src, dst) -> bytes:
    """Run pixels through a LittleCMS transform (Pillow's ImageCms); the result's raw bytes, in order."""
    from PIL import Image, ImageCms  # lazy: only print-shop exports convert colour

    image = Image.new(src_mode, (len(pixels), 1))
    image.frombytes(b"".join(bytes(p) for p in pixels))
    transform = ImageCms.buildTransform(
        src, dst, src_mode, dst_mode, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
    )
    converted = ImageCms.applyTransform(image, transform)
    assert converted is not None  # only None when converting in place
    return converted.tobytes()


def lab_values(raw: bytes) -> list[tuple[float, int, int]]:
    """(L*, a*, b*) of each of Pillow's LAB pixels in `raw`."""
    signed = memoryview(raw).cast("b")
    return [(raw[i] * 100 / 255, signed[i + 1], signed[i + 2]) for i in range(0, len(raw), 3)]


def candidates(cmyk: tuple[int, ...], limit: int) -> list[tuple[int, int, int, int]]:
    """Ways to print an over-limit colour within the limit: more black for less C, M, Y, then thinner C, M, Y."""
    c, m, y, k = cmyk
    most = min(c, m, y, 255 - k)
    out = []
    for step in range(GCR_STEPS + 1):
        x = most * step // GCR_STEPS
        cc, mm, yy, kk = c - x, m - x, y - x, k + x
        chroma = cc + mm + yy
        room = limit - kk
        if room < 0:
            continue
        if chroma > room:
            f = room / chroma
            cc, mm, yy = int(cc * f), int(mm * f), int(yy * f)
        out.append((cc, mm, yy, kk))
    return out or [(0, 0, 0, min(k, limit))]


def _signed(v: int) -> int:
    return v - 256 if v > 127 else v


def delta_e(p: tuple[int, ...], q: tuple[int, ...]) -> float:
    """CIE76 colour difference between two of Pillow's LAB pixels."""
    dl = (p[0] - q[0]) * 100 / 255
    da, db = _signed(p[1]) - _signed(q[1]), _signed(p[2]) - _signed(q[2])
    return (dl * dl + da * da + db * db) ** 0.5


def limited_table(base_path: Path, limit: InkLimit, grid: int = GRID) -> bytes:
    """The Lab -> CMYK colour table: the base separation, brought within `limit` where needed."""
    from PIL import ImageCms  # lazy: only print-shop exports convert colour

    lab = ImageCms.createProfile("LAB")
    base = ImageCms.getOpenProfile(str(base_path))
    points = lab_grid(grid)
    raw = _transform(points, "LAB", "CMYK", lab, base)
    cmyk = [tuple(raw[i : i + 4]) for i in range(0, len(raw), 4)]
    units = limit.units
    over = [i for i, p in enumerate(cmyk) if sum(p) > units]
    options = [candidates(cmyk[i], units) for i in over]
    flat = [c for group in options for c in group]
    printed = iter(lab_values(_transform(flat, "CMYK", "LAB", base, lab)) if flat else [])
    wanted = lab_values(b"".join(bytes(points[i]) for i in over))
    for i, group, want in zip(over, options, wanted):
        best: tuple[float, tuple[int, ...]] | None = None
        for choice in group:  # the candidate printing closest to the wanted colour (first on a tie)
            got = next(printed)
            d = (got[0] - want[0]) ** 2 + (got[1] - want[1]) ** 2 + (got[2] - want[2]) ** 2
            if best is None or d < best[0]:
                best = (d, choice)
        assert best is not None
        cmyk[i] = best[1]
    return b"".join(bytes(p) for p in cmyk)


def ink_limited_profile(limit: InkLimit = InkLimit(), base_path: Path | None = None) -> bytes:
    """An output profile like the base one whose separations never exceed `limit`."""
    base_path = base_path or find_base_profile()
    data = base_path.read_bytes()
    if len(data) < 132 or data[12:24] != b"prtrCMYKLab ":
        raise ProfileError("not a CMYK printer (output) profile with a Lab connection space")
    tags = read_tags(data)
    if b"A2B0" not in tags:
        raise ProfileError("the profile has no CMYK -> Lab table")
    table = lut8(limited_table(base_path, limit), 3, 4, GRID)
    name = f"{description_of(data) or base_path.stem}, ink limited to {limit.percent:g} %"
    kept = [(sig, blob) for sig, blob in tags.items() if sig not in DROPPED]
    header = data[:128]
    return write_profile(header, [(b"desc", text_description(name))] + kept + [(s, table) for s in B2A_TAGS])


def description_of(data: bytes) -> str:
    """A profile's name as its `desc` tag gives it ("" when it has none)."""
    blob = read_tags(data).get(b"desc", b"")
    if blob[:4] != b"desc" or len(blob) < 12:
        return ""
    n = struct.unpack(">I", blob[8:12])[0]
    return blob[12 : 12 + n].rstrip(b"\0").decode("ascii", "replace").strip()
