"""A PDF as comparable text: what each page draws, with what pnp does not decide taken out.

Two PDFs with the same normal form draw the same pages: the same boxes, the same operators with
their numbers to 0.01 pt (0.004 mm), the same text bytes, each form's content once, each image's
size and colour space. Left out: object numbers, compression, resource names (renamed in order
of first use), font programs and image bytes (a library release may encode them differently).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, IndirectObject, NameObject

_BOXES = ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox")
_NAMED = {b"Do", b"Tf", b"gs", b"sh", b"cs", b"CS", b"scn", b"SCN", b"BDC", b"DP"}


class _Normaliser:
    def __init__(self, reader: PdfReader) -> None:
        self.reader = reader
        self.aliases: dict[tuple[str, int], str] = {}  # (kind, object id) -> stable name
        self.lines: list[str] = []

    def alias(self, kind: str, obj: Any, name: str) -> str:
        key = (kind, obj.idnum if isinstance(obj, IndirectObject) else id(obj))
        if key not in self.aliases:
            self.aliases[key] = f"{kind}{len([k for k in self.aliases if k[0] == kind]) + 1}"
            self.describe(kind, self.aliases[key], obj)
        return self.aliases[key]

    def describe(self, kind: str, alias: str, obj: Any) -> None:
        obj = obj.get_object() if obj is not None else None
        if kind == "X" and obj is not None and obj.get("/Subtype") == "/Form":
            self.lines.append(
                f"form {alias} bbox {_value(obj.get('/BBox'))} matrix {_value(obj.get('/Matrix'))}"
            )
            self.stream(obj, obj.get("/Resources"), "  ")
            self.lines.append(f"end {alias}")
        elif kind == "X" and obj is not None:
            keys = ("/Width", "/Height", "/BitsPerComponent", "/ColorSpace", "/ImageMask")
            fields = " ".join(f"{k[1:]}={_value(obj.get(k))}" for k in keys if k in obj)
            self.lines.append(f"image {alias} {fields} smask={'/SMask' in obj}")
        elif kind == "F" and obj is not None:
            base = str(obj.get("/BaseFont", ""))
            self.lines.append(f"font {alias} {base.split('+', 1)[-1]} {obj.get('/Subtype')}")
        elif kind == "G" and obj is not None:
            fields = {k: _value(v) for k, v in obj.items() if k not in ("/Type", "/SMask")}
            self.lines.append(f"state {alias} {sorted(fields.items())}")

    def stream(self, contents: Any, resources: Any, indent: str) -> None:
        resources = resources.get_object() if resources is not None else {}
        for operands, op in ContentStream(contents, self.reader).operations:
            if op == b"INLINE IMAGE":
                self.lines.append(f"{indent}inline image {_value(operands.get('settings'))}")
                continue
            shown = [self.name(op, o, resources) for o in operands]
            self.lines.append(indent + " ".join([*shown, op.decode("latin-1")]))

    def name(self, op: bytes, operand: Any, resources: Any) -> str:
        if not (op in _NAMED and isinstance(operand, NameObject)):
            return _value(operand)
        for kind, group in (("X", "/XObject"), ("F", "/Font"), ("G", "/ExtGState"), ("S", "/Shading")):
            entries = resources.get(group)
            entries = entries.get_object() if entries is not None else {}
            if operand in entries:
                return "/" + self.alias(kind, entries.raw_get(operand), str(operand))
        return str(operand)  # a device colour space or a marked-content tag: kept as it is


def _value(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)) or type(value).__name__ in ("FloatObject", "NumberObject"):
        number = round(float(value), 2)
        return f"{number:g}" if number != 0 else "0"
    if isinstance(value, ArrayObject | list):
        return "[" + " ".join(_value(v) for v in value) + "]"
    if isinstance(value, bytes | str) and type(value).__name__ in ("ByteStringObject", "TextStringObject"):
        data = value.original_bytes if hasattr(value, "original_bytes") else bytes(value, "latin-1")
        return "<" + data.hex() + ">"
    if isinstance(value, dict):
        return "{" + " ".join(f"{k}:{_value(v)}" for k, v in sorted(value.items())) + "}"
    return str(value)


def normal_form(pdf: Path) -> list[str]:
    """The PDF's pages as lines of text (see the module's docstring)."""
    reader = PdfReader(str(pdf))
    norm = _Normaliser(reader)
    for number, page in enumerate(reader.pages, 1):
        norm.lines.append(f"page {number}")
        norm.lines += [f"  {box} {_value(page[box])}" for box in _BOXES if box in page]
        norm.stream(page.get_contents(), page.get("/Resources"), "  ")
    return norm.lines
