"""Print-shop grade files read back: the CMYK PDF/X-1a a shop's preflight checks, the
ink-limited profile behind it, `pnp build --cmyk`, shop PNGs that keep the card's
proportions, and the MakePlayingCards upload layout.

One small, dark game keeps these fast and makes the ink limit matter: its colours
would need close to 300 % ink if converted without a limit.
"""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageCms, ImageStat
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.geometry.sizes import card_size
from pnp.output.colour.convert import CmykColours, PrintColour
from pnp.output.colour.icc import GRID, InkLimit, delta_e, find_base_profile, read_tags
from pnp.output.colour.ink import max_ink
from pnp.output.exports.profiles import PROFILES, profile_frame

from conftest import make_project, run

DUSK = """
game: {name: Dusk Test, tag: DK, players: {min: 1, max: 2}}
style: {ink: "#000000", paper: "#1f1a2b", accent: "#3f2d66"}
palettes:
  hue: {1: "#1b1230", 2: "#2f5a3a", 3: "#24456b"}
faces:
  plain:
    layout: value
    slots: {value: "{{ card.value }}", title: "{{ card.name }}", color: "{{ palettes.hue[card.value] }}",
            emblem: leaf, text: "a dark card for ink tests"}
backs:
  night: {layout: back, slots: {title: Dusk, color: "#1b1230", emblem: shell}}
components:
  - key: deck
    kind: deck
    name: Dusk deck
    card_size: "62.6x89.8"
    face: plain
    back: night
    fields: {value: {type: int}}
    cards:
      - {key: a, name: Owl, value: 1, copies: 2}
      - {key: b, name: Moth, value: 2, copies: 1}
      - {key: c, name: Bat, value: 3, copies: 1}
"""
COPIES = 4
LIMIT = 240.0


@pytest.fixture(scope="module")
def dusk(tmp_path_factory) -> Path:
    root = make_project(tmp_path_factory.mktemp("dusk") / "proj", ())
    (root / "card_data" / "dusk.yaml").write_text(DUSK, encoding="utf-8")
    return root


def _run(project: Path, *args: str) -> Path:
    out = project / "out"
    r = run(*args, "--project", str(project), "--out", str(out))
    assert r.code == 0, r.err
    return out


@pytest.fixture(scope="module")
def pod(dusk: Path) -> Path:
    return _run(dusk, "export", "pod", "dusk", "--jobs", "1") / "dusk" / "pod" / "drivethru" / "deck.pdf"


@pytest.fixture(scope="module")
def rgb_sheet(dusk: Path, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rgb")
    assert run("build", "dusk", "--project", str(dusk), "--out", str(out), "--jobs", "1").code == 0
    return out / "dusk" / "deck.pdf"


def colour_operators(reader: PdfReader) -> set[str]:
    """Every colour-setting operator in every page and (nested) form XObject."""
    found: set[str] = set()
    seen: set[int] = set()

    def walk(stream, resources) -> None:
        for _, op in ContentStream(stream, reader).operations:
            if op in (b"rg", b"RG", b"k", b"K", b"g", b"G", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"):
                found.add(op.decode())
        xobjects = (resources or {}).get("/XObject") or {}
        for ref in xobjects.values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            assert obj["/Subtype"] == "/Form", "a print file of vector cards holds no images"
            walk(obj, obj.get("/Resources"))

    for page in reader.pages:
        walk(page.get_contents(), page.get("/Resources"))
    return found


# -- the PDF/X-1a file ---------------------------------------------------------------


def test_pod_is_pdfx_1a(pod: Path) -> None:
    data = pod.read_bytes()
    assert data.startswith(b"%PDF-1.4")  # PDF/X-1a:2003 is built on PDF 1.4
    reader = PdfReader(str(pod))
    info = reader.trailer["/Info"].get_object()
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert info["/Trapped"] == "/False"
    assert info["/Title"] and info["/CreationDate"] and info["/ModDate"]
    assert len(reader.trailer["/ID"]) == 2
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1
    intent = intents[0].get_object()
    assert (intent["/Type"], intent["/S"]) == ("/OutputIntent", "/GTS_PDFX")
    assert intent["/OutputConditionIdentifier"] and "ink limited to 240 %" in intent["/OutputCondition"]
    profile = intent["/DestOutputProfile"].get_object()
    icc = profile.get_data()
    assert profile["/N"] == 4 and icc[36:40] == b"acsp" and icc[12:20] == b"prtrCMYK"
    assert len(reader.pages) == 2 * COPIES  # back 1, front 1, back 2, ...
    for page in reader.pages:
        media, bleed, trim = ([float(v) for v in box] for box in (page.mediabox, page.bleedbox, page.trimbox))
        assert media == bleed == [0, 0, 198, 270]  # 2.75 x 3.75 in: the size it always had
        assert trim == [9, 9, 189, 261]  # 2.5 x 3.5 in cut, 1/8 in bleed
        assert "/Group" not in page  # no transparency
    fonts = [f.get_object() for p in reader.pages for f in (p["/Resources"].get("/Font") or {}).values()]
    for form in (
        x.get_object() for p in reader.pages for x in (p["/Resources"].get("/XObject") or {}).values()
    ):
        fonts += [f.get_object() for f in ((form.get("/Resources") or {}).get("/Font") or {}).values()]
    assert fonts
    for font in fonts:  # every font embedded
        desc = font["/FontDescriptor"].get_object()
        assert any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")), font["/BaseFont"]
    assert b"/SMask" not in data and b"/DeviceRGB" not in data


def test_pod_holds_cmyk_only(pod: Path, rgb_sheet: Path) -> None:
    ops = colour_operators(PdfReader(str(pod)))
    assert "k" in ops and ops <= {"k", "K", "g", "G"}, ops
    # the same walk finds the RGB of an ordinary build, so it is looking in the right places
    assert "rg" in colour_operators(PdfReader(str(rgb_sheet)))


def test_pod_ink_stays_within_the_limit(pod: Path, rgb_sheet: Path) -> None:
    """Rendered to CMYK by Ghostscript: at most 240 %, yet dark enough that the limit was needed."""
    ink = max_ink(pod)
    assert 225 < ink <= LIMIT, ink
    assert max_ink(rgb_sheet) > 280  # the RGB drawing converted without a limit


# -- the ink-limited profile -------------------------------------------------------------


@pytest.fixture(scope="module")
def colour() -> PrintColour:
    return PrintColour.build()


def test_profile_keeps_the_press_and_limits_every_separation(colour: PrintColour) -> None:
    tags, base = read_tags(colour.profile), read_tags(find_base_profile().read_bytes())
    assert tags[b"A2B0"] == base[b"A2B0"]  # the same press description
    assert tags[b"B2A0"] == tags[b"B2A1"] == tags[b"B2A2"] != base[b"B2A0"]
    lut = tags[b"B2A0"]
    assert lut[:4] == b"mft1" and lut[8:11] == bytes([3, 4, GRID])
    clut = lut[48 + 3 * 256 : 48 + 3 * 256 + GRID**3 * 4]
    totals = [sum(clut[i : i + 4]) for i in range(0, len(clut), 4)]
    assert max(totals) <= InkLimit(LIMIT).units < 2.4 * 255
    base_lut = base[b"B2A0"]
    base_totals = [sum(base_lut[48 + 768 + i : 48 + 768 + i + 4]) for i in range(0, GRID**3 * 4, 4)]
    assert max(base_totals) > 2.6 * 255  # the press profile alone goes well over
    assert struct.unpack(">I", colour.profile[:4])[0] == len(colour.profile)


def test_colours_keep_their_look(colour: PrintColour) -> None:
    """Light colours separate as the press profile does; dark ones move little in colour."""
    srgb, lab = ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB")
    press = ImageCms.getOpenProfile(io.BytesIO(colour.profile))
    base = ImageCms.getOpenProfile(str(find_base_profile()))
    colours = {"#f0cf63": 2.5, "#8dbf6e": 2.5, "#4f93c9": 2.5, "#1f1a2b": 4.0, "#2f5a3a": 5.0, "#3f2d66": 3.0}
    rgb = [tuple(int(h[i : i + 2], 16) for i in (1, 3, 5)) for h in colours]
    image = Image.new("RGB", (len(rgb), 1))
    image.putdata(rgb)
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
    limited = ImageCms.applyTransform(
        image, ImageCms.buildTransform(srgb, press, "RGB", "CMYK", renderingIntent=intent)
    )
    plain = ImageCms.applyTransform(
        image, ImageCms.buildTransform(srgb, base, "RGB", "CMYK", renderingIntent=intent)
    )
    to_lab = ImageCms.buildTransform(base, lab, "CMYK", "LAB", renderingIntent=intent)
    a, b = (ImageCms.applyTransform(im, to_lab).tobytes() for im in (limited, plain))
    for n, (hex_, most) in enumerate(colours.items()):
        assert delta_e(a[3 * n : 3 * n + 3], b[3 * n : 3 * n + 3]) <= most, hex_
        assert sum(limited.tobytes()[4 * n : 4 * n + 4]) <= InkLimit(LIMIT).units, hex_


def test_greys_print_on_black_ink_alone(colour: PrintColour) -> None:
    hook = CmykColours(colour)
    assert hook.cmyk((0, 0, 0)) == (0, 0, 0, 255)
    c, m, y, k = hook.cmyk((128, 128, 128))
    assert (c, m, y) == (0, 0, 0) and 120 < k < 200
    assert hook.cmyk((255, 255, 255)) == (0, 0, 0, 0)
    dark = hook("#1f1a2b")
    assert sum((dark.cyan, dark.magenta, dark.yellow, dark.black)) <= LIMIT / 100


# -- pnp build --cmyk ----------------------------------------------------------------------


def test_build_cmyk_makes_pdfx_sheets_and_records_options(
    dusk: Path, rgb_sheet: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    r = run(
        "build",
        "dusk",
        "--cmyk",
        "--paper",
        "letter",
        "--duplex",
        "short",
        "--bleed",
        "2",
        "--crop-marks",
        "corner",
        "--back-offset",
        "0.5,-1",
        "--jobs",
        "1",
        "--project",
        str(dusk),
        "--out",
        str(out),
    )
    assert r.code == 0, r.err
    sheet = out / "dusk" / "deck.pdf"
    reader = PdfReader(str(sheet))
    assert reader.trailer["/Info"]["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert reader.trailer["/Root"]["/OutputIntents"][0]["/S"] == "/GTS_PDFX"
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        assert [float(v) for v in page.trimbox] == [float(v) for v in page.bleedbox] == media
        assert sorted(media[2:]) == [612, 792]  # Letter, whichever way round
    assert colour_operators(reader) <= {"k", "K", "g", "G"}
    assert max_ink(sheet) <= LIMIT
    assert "/OutputIntents" not in PdfReader(str(rgb_sheet)).trailer["/Root"]  # without --cmyk: as before
    build = json.loads((out / "manifest.json").read_text())["builds"]["dusk"]
    assert build == {
        "paper": {"name": "letter", "mm": [215.9, 279.4]},
        "sheet": "duplex",
        "duplex": "short",
        "bleed_mm": 2.0,
        "margin_mm": 5.0,
        "corner_radius_mm": 0.0,
        "cut_files": False,
        "crop_marks": "corner",
        "back_offset_mm": [0.5, -1.0],
        "board_paper": None,
        "counts": {},
        "cmyk": True,
        "ink_limit_percent": LIMIT,
        "press_profile": "Artifex CMYK SWOP Profile, ink limited to 240 %",
        "max_dpi": None,
        "tuckbox": False,
        "card_thickness_mm": None,
        "sleeved": False,
        "ink": "full",
        "language": "en",
    }


# -- shop PNGs keep the card's proportions ---------------------------------------------------


def test_shop_png_is_the_plain_png_scaled_evenly(dusk: Path) -> None:
    """62.6 x 89.8 mm snaps to the shops' 2.5 x 3.5 in: 1.4 % wider but 1 % shorter.

    The card must be scaled by one factor (then centred, bleed art at the sides),
    so the shop picture matches the plain picture resampled evenly, and matches a
    stretched resampling much worse.
    """
    dpi = 150
    out = _run(dusk, "export", "png", "dusk", "--profile", "tgc", "--dpi", str(dpi), "--jobs", "1")
    _run(dusk, "export", "png", "dusk", "--profile", "plain", "--dpi", str(dpi), "--jobs", "1")
    size = card_size("62.6x89.8")
    frame = profile_frame(size, PROFILES["tgc"], dpi)
    x, y, s, _ = frame.placement(size)
    with (
        Image.open(out / "dusk" / "png" / f"tgc-{dpi}" / "deck" / "DK-b.png") as shop,
        Image.open(out / "dusk" / "png" / f"plain-{dpi}" / "deck" / "DK-b.png") as plain,
    ):
        k = dpi / 72
        drawn = (
            x * k,
            frame.height - y * k - plain.height * s,
            x * k + plain.width * s,
            frame.height - y * k,
        )
        even = ImageStat.Stat(
            ImageChops.difference(
                shop.crop(tuple(round(v) for v in drawn)).resize((150, 215)), plain.resize((150, 215))
            )
        ).mean
        left, bottom, w, h = frame.trim
        trim = (left, frame.height - bottom - h, left + w, frame.height - bottom)
        stretched = ImageStat.Stat(
            ImageChops.difference(
                shop.crop(tuple(round(v) for v in trim)).resize((150, 215)), plain.resize((150, 215))
            )
        ).mean
    assert s == pytest.approx(3.5 / (89.8 / 25.4), rel=2e-3)  # the height sets the one scale
    assert max(even) < 6, even
    assert min(stretched) > 2 * max(even), (even, stretched)


# -- MakePlayingCards ------------------------------------------------------------------------


def test_mpc_upload_layout(dusk: Path) -> None:
    out = _run(dusk, "export", "pod", "dusk", "--profile", "mpc", "--dpi", "60", "--jobs", "1")
    deck = out / "dusk" / "pod" / "mpc-60" / "deck"
    fronts = sorted(p.name for p in (deck / "front").iterdir())
    assert fronts == ["001-DK-a.png", "002-DK-a.png", "003-DK-b.png", "004-DK-c.png"]
    assert sorted(p.name for p in (deck / "back").iterdir()) == ["back.png"]
    assert (deck / "front" / "001-DK-a.png").read_bytes() == (deck / "front" / "002-DK-a.png").read_bytes()
    frame = profile_frame(card_size("62.6x89.8"), PROFILES["mpc"], 60)
    for p in [*(deck / "front").iterdir(), deck / "back" / "back.png"]:
        with Image.open(p) as im:
            assert im.size == (frame.width, frame.height) == (round(2.74 * 60), round(3.74 * 60))
    order = json.loads((deck / "order.json").read_text())
    assert (order["cards"], order["same_back"], order["picture_px"]) == (
        COPIES,
        True,
        [frame.width, frame.height],
    )
    assert [s["front"] for s in order["slots"]] == [f"front/{n}" for n in fronts]
    assert {s["back"] for s in order["slots"]} == {"back/back.png"}
    assert not (out / "dusk" / ".drawn").exists()
    entry = {e["folder"]: e for e in json.loads((out / "manifest.json").read_text())["exports"]}[
        "dusk/pod/mpc-60"
    ]
    assert entry["profile"] == "mpc" and len(entry["files"]) == COPIES + 2


def test_other_limits_and_press_profiles(dusk: Path, tmp_path: Path) -> None:
    """--ink-limit moves the limit (and the manifest says so); a press profile pnp cannot use stops cleanly."""
    out = tmp_path / "out"
    press = find_base_profile()
    r = run(
        "export",
        "pod",
        "dusk",
        "--ink-limit",
        "300",
        "--press-profile",
        str(press),
        "--jobs",
        "1",
        "--project",
        str(dusk),
        "--out",
        str(out),
    )
    assert r.code == 0, r.err
    pdf = out / "dusk" / "pod" / "drivethru" / "deck.pdf"
    assert LIMIT + 10 < max_ink(pdf) <= 300
    assert (
        "ink limited to 300 %"
        in PdfReader(str(pdf)).trailer["/Root"]["/OutputIntents"][0]["/OutputCondition"]
    )
    entry = json.loads((out / "manifest.json").read_text())["exports"][0]
    assert (entry["ink_limit_percent"], entry["press_profile"]) == (
        300,
        "Artifex CMYK SWOP Profile, ink limited to 300 %",
    )
    rgb_profile = press.with_name("default_rgb.icc")  # a display profile, not a press
    r = run(
        "export",
        "pod",
        "dusk",
        "--press-profile",
        str(rgb_profile),
        "--project",
        str(dusk),
        "--out",
        str(out),
    )
    assert r.code == 2 and "--press-profile: not a CMYK printer" in r.err
    assert max_ink(pdf) > LIMIT + 10  # the failed export left the earlier file alone
