"""Shared test helpers: throwaway project folders, the CLI in-process, and PDF inspection."""

from __future__ import annotations

import atexit
import hashlib
import inspect
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings
from pypdf import PdfReader

from pnp.cli import main
from pnp.geometry.sizes import MM

ROOT = Path(__file__).resolve().parent.parent


def _own_cache() -> None:
    """pnp's disk cache for this test process (each xdist worker its own): made empty here and
    removed at exit, so no test reads or fills the user's cache or whatever the environment's
    PNP_CACHE_DIR holds. Subprocesses inherit it."""
    if os.environ.get("PNP_TEST_CACHE_OWNER") == str(os.getpid()):
        return  # this process made it already (conftest imported twice)
    folder = tempfile.mkdtemp(prefix="pnp-test-cache-")
    os.environ["PNP_CACHE_DIR"], os.environ["PNP_TEST_CACHE_OWNER"] = folder, str(os.getpid())
    atexit.register(shutil.rmtree, folder, ignore_errors=True)


_own_cache()

# Timing bounds are asserted only when asked for (PNP_TIMING=1), as fpdf2 does with
# CHECK_EXEC_TIME: a busy machine must not fail a test. Bounds that tell a hang from
# finished work are counted in this process's CPU time, which other processes do not change.
TIMING = os.environ.get("PNP_TIMING") == "1"


@dataclass
class Took:
    """How long the work inside `timed()` took: wall-clock and this process's CPU seconds."""

    wall: float = 0.0
    cpu: float = 0.0


@contextmanager
def timed() -> Iterator[Took]:
    took = Took()
    wall, cpu = time.monotonic(), time.process_time()
    try:
        yield took
    finally:
        took.wall, took.cpu = time.monotonic() - wall, time.process_time() - cpu


def assert_quick(seconds: float, limit: float, what: str) -> None:
    """A wall-clock bound, checked only when PNP_TIMING=1 opts in; otherwise nothing."""
    if TIMING and seconds >= limit:
        pytest.fail(f"{what}: {seconds:.2f} s, over {limit:g} s (PNP_TIMING=1)")


def start_server(
    project: Path, env: dict[str, str] | None = None, encoding: str | None = None
) -> tuple[subprocess.Popen[str], str, int]:
    """`pnp serve` on a free port in a process of its own, once it has read the project: the process,
    the lines it printed (its address, then what it read), its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pnp", "serve", "--project", str(project), "--port", "0"],
        env={**(env or os.environ), "PYTHONFAULTHANDLER": "1"},  # stop_server's SIGABRT shows where it hangs
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding=encoding,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        process.kill()
        pytest.fail(f"pnp serve printed no address: {line}{process.communicate()[1]}")
    line += process.stdout.readline()  # "Read N games: ..." once the background reading is done
    return process, line, int(found.group(1))


def stop_server(process: subprocess.Popen[str], how: int = signal.SIGINT) -> tuple[str, str]:
    """Stop a server with `how` and return what it printed (stdout, stderr). One still running after
    60 s is aborted, and the failure shows every thread's traceback (faulthandler)."""
    process.send_signal(how)
    try:
        return process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        pytest.fail("pnp serve did not stop:\n" + process.communicate(timeout=30)[1])
    finally:
        if process.poll() is None:
            process.kill()


def links_or_store(out: Path) -> list[Path]:
    """What keeps `out` from holding plain files only: every link in it, and pnp's store `.pnp`."""
    found = [out / ".pnp"] if (out / ".pnp").exists() else []
    for base, dirs, files in os.walk(out):
        found += [Path(base, name) for name in dirs + files if Path(base, name).is_symlink()]
    return found


def wait_for(
    condition: Callable[[], object], what: str, timeout: float = 30.0, every: float = 0.05
) -> object:
    """Poll `condition` until it is true (returned) or `timeout` seconds pass (a failure naming `what`)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout:g} s"
        time.sleep(every)
    return value


# Hypothesis profiles. "ci" (the default) is derandomized with a fixed example count, so a
# commit's test result never depends on luck; PNP_FUZZ=deep explores far more (and randomly).
_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}
settings.register_profile("ci", derandomize=True, max_examples=100, print_blob=True, **_COMMON)
settings.register_profile("deep", derandomize=False, max_examples=6000, print_blob=True, **_COMMON)
settings.load_profile(os.environ.get("PNP_FUZZ", "ci"))


# Modules whose tests meet a library's behaviour (adapters, pictures, fonts, PDF/X, rasters, exports,
# spreadsheets, SVG, serve): the minimums pass of CI runs these (`-m libraries`).
LIBRARY_BOUNDARY = {
    "test_adapters", "test_speedups", "test_pictures_embed", "test_artwork", "test_characters",
    "test_k_text", "test_print_shop", "test_rasters", "test_exports", "test_cutter", "test_cut_files",
    "test_spreadsheet", "test_symbols", "test_shapes", "test_serve", "test_serve_editor",
    "test_serve_safety", "test_reference_pdfs",
}  # fmt: skip


# CMYK and print-shop output uses Ghostscript's press profile; where Ghostscript is missing (a
# Windows or macOS machine without it) those tests skip and say what to install.
GHOSTSCRIPT = shutil.which("gs") or shutil.which("gswin64c")
_NEEDS_GHOSTSCRIPT = pytest.mark.skip(
    reason="needs Ghostscript (CMYK output): apt-get install ghostscript, brew install ghostscript, "
    "or Ghostscript's Windows installer"
)


# Tests that use what only POSIX systems have (SIGKILL, fork, resource, links without rights): they
# skip on Windows, saying why; the foreign-system profile covers pnp itself there.
posix_only = pytest.mark.skipif(
    sys.platform == "win32", reason="uses SIGKILL, fork, resource or symbolic links, which Windows lacks"
)


def _prints_cmyk(item: pytest.Item) -> bool:
    module = getattr(item, "module", None)
    if module is not None and module.__name__ in ("test_print_shop", "test_k_text"):
        return True
    try:
        source = inspect.getsource(item.function)  # type: ignore[attr-defined]
    except (AttributeError, OSError, TypeError):
        return False
    return "--cmyk" in source or '"pod"' in source


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.module is not None and item.module.__name__ in LIBRARY_BOUNDARY:
            item.add_marker(pytest.mark.libraries)
        if not GHOSTSCRIPT and _prints_cmyk(item):
            item.add_marker(_NEEDS_GHOSTSCRIPT)


def make_project(dest: Path, games: tuple[str, ...] = ("bargains",)) -> Path:
    """A project folder holding copies of some of the repository's games."""
    (dest / "card_data").mkdir(parents=True)
    for game in games:
        shutil.copy(ROOT / "card_data" / f"{game}.yaml", dest / "card_data")
    shutil.copytree(ROOT / "fonts", dest / "fonts")
    if (ROOT / "templates").is_dir():
        shutil.copytree(ROOT / "templates", dest / "templates")
    return dest


def shown(out: Path, suffix: str = "") -> list[Path]:
    """Every file an output folder shows a person (through its links; not pnp's own .pnp store or
    .pnp.lock), those ending in `suffix` when given."""
    found = []
    for base, dirs, files in os.walk(out, followlinks=True):
        if Path(base) == out:
            dirs[:] = [d for d in dirs if d != ".pnp"]
            files = [f for f in files if f != ".pnp.lock"]
        found += [Path(base) / f for f in files if f.endswith(suffix)]
    return sorted(found)


def run(*args: str) -> CliResult:
    """Run `pnp ARGS` in-process; stdout and stderr kept apart."""
    runner = CliRunner()
    result = runner.invoke(main, list(args), catch_exceptions=False)
    return CliResult(result.exit_code, result.stdout, result.stderr)


@dataclass
class CliResult:
    code: int
    out: str
    err: str


def assert_check_names(tmp_path: Path, filename: str, text: str, rules: list[str]) -> None:
    """Write a broken copy of a database; `pnp check` must exit 1 and name every rule in `rules`."""
    broken = tmp_path / filename
    broken.write_text(text, encoding="utf-8")
    r = run("check", str(broken), "--project", str(ROOT))
    assert r.code == 1, r.out + r.err
    for rule in rules:
        assert rule in r.out, (rule, r.out)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture(scope="session")
def shared_build(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """`shared_build(*options)`: the repository's five games built with `pnp build OPTIONS` once per
    test run, into one folder that every module and every xdist worker reads (a file lock makes the
    others wait for the first). Read it; never change it."""
    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    base = base / "shared-builds"
    base.mkdir(exist_ok=True)

    def build(*options: str) -> Path:
        options = _without_defaults(options)  # `--paper a4 --sheet duplex` is the default build
        name = hashlib.sha256("\0".join(options).encode()).hexdigest()[:16]
        out, done = base / name, base / f"{name}.done"
        with FileLock(base / f"{name}.lock"):
            if not done.exists():
                shutil.rmtree(out, ignore_errors=True)
                r = run("build", *options, "--project", str(ROOT), "--out", str(out))
                assert r.code == 0, r.err
                done.write_text(" ".join(options), encoding="utf-8")
        return out

    return build


def _without_defaults(options: tuple[str, ...]) -> tuple[str, ...]:
    """Build options without those that name pnp's defaults (A4 paper, duplex sheets)."""
    out: list[str] = []
    pairs = iter(options)
    for option in pairs:
        if option in ("--paper", "--sheet"):
            value = next(pairs)
            if (option, value) not in (("--paper", "a4"), ("--sheet", "duplex")):
                out += [option, value]
        else:
            out.append(option)
    return tuple(out)


def page_itself(reader: Any, index: int) -> io.BytesIO:
    """Page `index` of a pypdf reader (or of a PDF file) alone, every form it draws emptied: what the
    page draws itself (crop marks, target, footer), which pdfplumber reads in a tenth of a second
    rather than parsing every card's own drawing for ten seconds."""
    from pypdf import PdfWriter
    from pypdf.generic import NameObject

    if not isinstance(reader, PdfReader):
        reader = PdfReader(str(reader))
    writer = PdfWriter()
    page = writer.add_page(reader.pages[index])
    for ref in page["/Resources"].get("/XObject", {}).values():
        xo = ref.get_object()
        if xo.get("/Subtype") == "/Form":
            xo.set_data(b"")
            xo[NameObject("/Resources")] = type(page["/Resources"])()
    data = io.BytesIO()
    writer.write(data)
    data.seek(0)
    return data


@dataclass(frozen=True)
class Placed:
    """A form XObject drawn on a page: its name and where its origin landed (mm)."""

    name: str
    x: float
    y: float
    bbox: tuple[float, float, float, float]  # form bounding box, mm, relative to its origin


def _mul(a: list[float], b: list[float]) -> list[float]:
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return [
        a0 * b0 + a1 * b2,
        a0 * b1 + a1 * b3,
        a2 * b0 + a3 * b2,
        a2 * b1 + a3 * b3,
        a4 * b0 + a5 * b2 + b4,
        a4 * b1 + a5 * b3 + b5,
    ]


def with_ctm(contents, pdf, ctm: list[float] | None = None):
    """Each content-stream operation with the transformation matrix in force (q/Q/cm followed)."""
    from pypdf.generic import ContentStream

    ctm = ctm or [1.0, 0, 0, 1.0, 0, 0]
    stack: list[list[float]] = []
    for operands, op in ContentStream(contents, pdf).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        yield operands, op, ctm


def placements(page) -> list[Placed]:
    """Every form drawn directly on a page, with its transformed origin (mm)."""
    xobjects = page["/Resources"].get("/XObject", {})
    out = []
    for operands, op, ctm in with_ctm(page.get_contents(), page.pdf):
        if op == b"Do":
            name = str(operands[0])
            xo = xobjects[name].get_object()
            if xo.get("/Subtype") == "/Form":
                bbox = tuple(float(v) / MM for v in xo["/BBox"])
                out.append(Placed(name, ctm[4] / MM, ctm[5] / MM, bbox))
    return out


def page_size_mm(page) -> tuple[float, float]:
    box = page.mediabox
    return float(box.width) / MM, float(box.height) / MM


CODE = re.compile(r"\b([A-Z]{2}-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)\b")


def page_texts(pdf_path: Path) -> list[str]:
    """The text of every page, extracted by pypdfium2 (fast even on symbol-heavy cards)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def codes_in(pdf: Path, fronts_only: bool = True) -> dict[str, int]:
    """Collation codes found by text extraction (pypdfium2), counted; backs pages skipped."""
    import pypdfium2 as pdfium

    reader = PdfReader(str(pdf))
    doc = pdfium.PdfDocument(str(pdf))
    counts: dict[str, int] = {}
    for i, page in enumerate(reader.pages):
        if fronts_only and any("back" in p.name for p in placements(page)):
            continue  # a backs page: its forms are card backs, which carry no codes
        for code in CODE.findall(doc[i].get_textpage().get_text_range()):
            counts[code] = counts.get(code, 0) + 1
    doc.close()
    return counts
