"""fairy-pnp benchmark: one command, one table.

    python bench/run.py [--repeat N] [--quick | --smoke] [--protograf-python PY | --no-protograf]

Measures whole processes (interpreter start, imports, work, exit) with wall
time and peak resident memory (from wait4), and prints a Markdown table:

- `pnp build` of each game and of all games;
- the Fairy Bargains deck: pnp against bare ReportLab replaying the very same
  drawing calls (bench/floor.py, the floor of this stack) and against protograf
  drawing the same deck (bench/protograf_deck.py), as medians of ratios from
  alternating runs;
- synthetic decks of 1,000 and 10,000 distinct cards (time, memory, bytes/card);
- PNG export at 300 dpi in cards per second;
- `pnp preview`, `pnp export tts` and `pnp serve`'s first page (bench/serve_first_page.py) of every
  game, with every picture drawn afresh and with nothing changed;
- full-art decks (bench/fullart.py): 300 cards each with its own PNG picture, and 300 with JPEG
  pictures, against bare ReportLab placing the same pictures (alternating runs), with PDF bytes per
  picture byte, and the peak memory of a 1,000-card full-art deck.

Children run with bytecode caching on (as an installed package has it) and a
private, warmed pnp disk cache (pnp.data.store.cache); each measurement is
preceded by one untimed run. `--smoke` runs everything once on tiny inputs
and exits 1 if the floor's PDF differs from pnp's (tests/test_bench.py).

Nothing is installed here; see bench/README.md for protograf.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
import fullart  # noqa: E402
from synthetic import csv_project, make_project  # noqa: E402

DEFAULT_PROTOGRAF = Path.home() / ".cache" / "fairy-pnp-bench" / "protograf" / "bin" / "python"


@dataclass(frozen=True)
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds, the process and the children it waited for
    peak_mb: float  # largest resident set of the process or any waited-for child


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # children keep their .pyc


def measure(cmd: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> Run:
    """Run a command to completion; fail loudly if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env or ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait4 = getattr(os, "wait4", None)  # CPU time and peak memory where the system reports them (POSIX)
    if wait4 is not None:
        _, status, usage = wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu, peak = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
    else:  # Windows: wall time only
        proc.wait()
        cpu, peak = 0.0, 0.0
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.stderr and proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}\n{err}")
    return Run(wall, cpu, peak)


def cores() -> int:
    """The cores this process may use."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def load_average() -> float:
    """The one-minute load average (0 where the system has none: Windows)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0


def pnp_cmd() -> list[str]:
    """This interpreter running pnp (not a `pnp` found on PATH, which may be a slow shim or another install)."""
    return [sys.executable, "-m", "pnp"]


def timed(cmd: list[str], repeat: int, cwd: Path = ROOT, warm: bool = True) -> list[Run]:
    """One untimed run (bytecode and the pnp cache warm), then `repeat` measured runs."""
    if warm:
        measure(cmd, cwd)
    return [measure(cmd, cwd) for _ in range(repeat)]


def med(values: list[float]) -> float:
    return statistics.median(values)


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def add(self, what: str, result: str, target: str = "", verdict: str = "") -> None:
        self.rows.append((what, result, target, verdict))
        print(
            f"  {what}: {result}" + (f"  (target {target}: {verdict})" if target else ""),
            file=sys.stderr,
            flush=True,
        )

    def markdown(self) -> str:
        lines = ["| measurement | result | target | met |", "|---|---|---|---|"]
        lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in self.rows]
        return "\n".join(lines)


def ok(flag: bool) -> str:
    return "yes" if flag else "**no**"


def _result(runs: list[Run]) -> str:
    return (
        f"{med([r.wall for r in runs]):.2f} s (CPU {med([r.cpu for r in runs]):.2f} s), "
        f"{max(r.peak_mb for r in runs):.0f} MB"
    )


def bench_builds(t: Table, tmp: Path, repeat: int, smoke: bool) -> None:
    """Real builds (--clean: every PDF drawn), a build with nothing changed, and one after an edit."""
    games = sorted(p.stem for p in (ROOT / "card_data").glob("*.yaml"))
    out = str(tmp / "out")
    if smoke:  # one real build and one with nothing to do: enough to prove the commands still run
        t.add(
            "`pnp build bargains --clean`",
            _result(timed(pnp_cmd() + ["build", "bargains", "--clean", "--out", out], 1, warm=False)),
        )
        t.add(
            "`pnp build bargains`, nothing changed",
            _result(timed(pnp_cmd() + ["build", "bargains", "--out", out], 1, warm=False)),
        )
        return
    for game in games:
        t.add(
            f"`pnp build {game} --clean`",
            _result(timed(pnp_cmd() + ["build", game, "--clean", "--out", out], repeat)),
        )
    t.add(
        "`pnp build feenbalz --clean --lang all` (English and German)",
        _result(timed(pnp_cmd() + ["build", "feenbalz", "--clean", "--lang", "all", "--out", out], repeat)),
    )
    runs = timed(pnp_cmd() + ["build", "--clean", "--out", out], repeat)
    wall = med([r.wall for r in runs])
    t.add(f"`pnp build --clean` (all {len(games)} games)", _result(runs), "< 1 s on 2 cores", ok(wall < 1.0))
    spawned = {**ENV, "PNP_START_METHOD": "spawn"}  # as on Windows and macOS
    cmd = pnp_cmd() + ["build", "--clean", "--out", out]
    runs = [measure(cmd, env=spawned) for _ in range(repeat + 1)][1:]
    t.add(f"`pnp build --clean` (all {len(games)} games), workers spawned", _result(runs))
    runs = timed(pnp_cmd() + ["build", "--out", out], repeat)
    wall = med([r.wall for r in runs])
    t.add(
        f"`pnp build` (all {len(games)} games), nothing changed since the last build",
        _result(runs),
        "< 0.3 s",
        ok(wall < 0.3),
    )
    proj = tmp / "edited"
    shutil.copytree(ROOT / "card_data", proj / "card_data")
    for folder in ("templates", "fonts"):
        shutil.copytree(ROOT / folder, proj / folder)
    cmd = pnp_cmd() + ["build", "--project", str(proj), "--out", str(proj / "out")]
    measure(cmd)
    db = proj / "card_data" / f"{games[0]}.yaml"
    text = db.read_text(encoding="utf-8")
    runs = []
    for i in range(repeat):  # a different comment each time: the database changes, its cards do not
        db.write_text(text + f"# edit {i}\n", encoding="utf-8")
        runs.append(measure(cmd))
    t.add(f"`pnp build` after editing {games[0]}.yaml (only that game rebuilt)", _result(runs))


def protograf_python(arg: str | None) -> tuple[str | None, str]:
    """An interpreter that can import protograf, or None and the reason."""
    candidates = (
        [arg] if arg else [os.environ.get("PNP_PROTOGRAF_PYTHON"), sys.executable, str(DEFAULT_PROTOGRAF)]
    )
    for py in filter(None, candidates):
        if not Path(py).exists() and not shutil.which(py):
            continue
        probe = subprocess.run([py, "-c", "import protograf"], capture_output=True, text=True)
        if probe.returncode == 0:
            return py, ""
    return None, "protograf is not installed (see bench/README.md); no protograf number was measured"


def bench_peers(
    t: Table, tmp: Path, repeat: int, pg_python: str | None, pg_reason: str, pg_repeat: int
) -> bool:
    """pnp against the floor and protograf; returns whether the floor's PDF is pnp's, byte for byte."""
    game = ROOT / "card_data" / "bargains.yaml"
    log, pdf = tmp / "bargains.calls", tmp / "deck.pdf"
    deck = [sys.executable, str(BENCH / "deck.py"), str(game), "deck"]
    measure(deck + [str(pdf), "--record", str(log)])  # untimed: the calls the floor replays
    floor = [sys.executable, str(BENCH / "floor.py"), str(log), str(tmp / "floor.pdf")]
    measure(floor)
    built = (tmp / "out" / "bargains" / "deck.pdf").read_bytes()  # bench_builds' `pnp build`, default options
    same = (tmp / "floor.pdf").read_bytes() == pdf.read_bytes() == built
    ratios, pnp_t, floor_t = [], [], []
    for _ in range(repeat):
        a = measure(deck + [str(tmp / "deck2.pdf")]).wall
        b = measure(floor).wall
        pnp_t.append(a)
        floor_t.append(b)
        ratios.append(a / b)
    r = med(ratios)
    t.add(
        "Fairy Bargains deck: pnp / bare ReportLab",
        f"{r:.2f}x ({med(pnp_t):.2f} s vs {med(floor_t):.2f} s; "
        f"{'byte-identical PDFs' if same else 'PDFs differ'})",
        "<= 1.3x",
        ok(r <= 1.3),
    )
    if pg_python is None:
        t.add("Fairy Bargains deck: protograf / pnp", f"not measured: {pg_reason}", ">= 3x", "n/a")
        return same
    pg_ratios, pg_t = [], []
    env = {**os.environ, "PNP_BENCH_OUT": str(tmp / "protograf.pdf")}
    for _ in range(pg_repeat):
        a = measure(deck + [str(tmp / "deck2.pdf")]).wall
        b = measure([pg_python, str(BENCH / "protograf_deck.py")], cwd=tmp, env=env).wall
        pg_t.append(b)
        pg_ratios.append(b / a)
    r = med(pg_ratios)
    t.add(
        "Fairy Bargains deck: protograf / pnp",
        f"{r:.1f}x faster ({med(pg_t):.1f} s for protograf)",
        ">= 3x",
        ok(r >= 3),
    )
    return same


def bench_synthetic(t: Table, tmp: Path, sizes: list[int], repeat: int) -> dict[int, Path]:
    projects = {}
    per_card = {}
    for n in sizes:
        proj = make_project(tmp / f"syn{n}", n, ROOT)
        projects[n] = proj
        cmd = pnp_cmd() + [
            "build",
            "synthetic",
            "--clean",
            "--project",
            str(proj),
            "--out",
            str(proj / "out"),
        ]
        # the untimed run fills the cache (validated database, rendered slots), as any earlier build would
        runs = timed(cmd, repeat if n <= 1000 else 1, warm=n >= 100)
        wall, peak = med([r.wall for r in runs]), max(r.peak_mb for r in runs)
        size = sum(
            p.stat().st_size for p in (proj / "out" / "synthetic").glob("deck*.pdf")
        )  # parts of a huge deck
        per_card[n] = (wall, peak)
        target, verdict = ("", "")
        if n == 10_000:
            target, verdict = "peak < 150 MB", ok(peak < 150)
        t.add(
            f"synthetic deck, {n:,} distinct cards",
            f"{wall:.1f} s ({wall / n * 1000:.2f} ms/card), {peak:.0f} MB peak",
            target,
            verdict,
        )
        kb = size / n / 1024
        t.add(
            f"PDF bytes per card ({n:,}-card deck, every card distinct)",
            f"{kb:.2f} KB",
            *(("< 2 KB", ok(kb < 2)) if n >= 1000 else ("", "")),
        )
    if len(per_card) >= 2:
        (n0, (w0, m0)), (n1, (w1, m1)) = sorted(per_card.items())[:2]
        t.add(
            f"growth from {n0:,} to {n1:,} cards",
            f"time x{w1 / w0:.1f}, memory x{m1 / m0:.1f} (cards x{n1 / n0:.0f})",
        )
    if 10_000 in sizes:  # the same print run as a real deck would be: many copies of fewer designs
        proj = make_project(tmp / "syn10000x100", 10_000, ROOT, distinct=100)
        run = measure(
            pnp_cmd() + ["build", "synthetic", "--clean", "--project", str(proj), "--out", str(proj / "out")]
        )
        size = sum(p.stat().st_size for p in (proj / "out" / "synthetic").glob("deck*.pdf"))
        t.add(
            "synthetic deck, 10,000 cards in 100 designs",
            f"{run.wall:.1f} s, {run.peak_mb:.0f} MB peak, {size / 10_000 / 1024:.2f} KB per card",
            "peak < 150 MB",
            ok(run.peak_mb < 150),
        )
    return projects


def bench_check(t: Table, tmp: Path, repeat: int, n: int) -> None:
    """`pnp check` of the bundled games and of an n-card CSV deck (starter project), with the cache
    empty (cold) and filled by the run before (warm)."""
    cache = tmp / "check-cache"

    def runs(cmd: list[str], cold: bool) -> list[Run]:
        env = {**ENV, "PNP_CACHE_DIR": str(cache)}
        out = []
        for _ in range(repeat):
            if cold:
                shutil.rmtree(cache, ignore_errors=True)
            else:
                measure(cmd, env=env)
            out.append(measure(cmd, env=env))
        return out

    big = csv_project(tmp / f"csv{n}", n)
    for what, cmd, goal in (
        ("`pnp check`, the five bundled games", pnp_cmd() + ["check"], None),
        (
            f"`pnp check`, a {n:,}-card CSV deck in two languages",
            pnp_cmd() + ["check", "--project", str(big)],
            3.0 if n >= 1000 else None,
        ),
    ):
        for cold in (True, False):
            found = runs(cmd, cold)
            wall = med([r.wall for r in found])
            target = f"< {goal:g} s" if goal else ""
            t.add(
                f"{what}, {'cold' if cold else 'warm'} cache",
                _result(found),
                target,
                ok(wall < goal) if goal else "",
            )


def bench_png(t: Table, tmp: Path, n: int, warm: bool = True) -> None:
    proj = make_project(tmp / f"png{n}", n, ROOT)
    out = proj / "out"
    cmd = pnp_cmd() + [
        "export",
        "png",
        "synthetic",
        "--project",
        str(proj),
        "--out",
        str(out),
        "--dpi",
        "300",
        "--profile",
        "tgc",
    ]
    run = timed(cmd, 1, warm=warm)[0]  # the untimed run warms the cache, as for the builds
    pictures = len(list((out / "synthetic" / "png").rglob("*.png")))
    rate = pictures / run.wall
    workers = cores()
    t.add(
        f"PNG export, 300 dpi (tgc, {pictures} pictures, {workers} workers)",
        f"{rate:.0f} cards/s ({run.cpu / pictures * 1000:.0f} ms CPU per card)",
        *((">= 50 cards/s", ok(rate >= 50)) if warm else ("", "")),
    )


def bench_fullart(t: Table, tmp: Path, n: int, repeat: int, big: int) -> None:
    """Full-art decks, PNG and JPEG: pnp against bare ReportLab placing the same pictures, alternating."""
    targets = {"png": 0.5, "jpeg": 1.3}
    for kind, limit in targets.items():
        proj = fullart.make(tmp / f"fullart-{kind}", n, kind)
        pictures = sum(p.stat().st_size for p in (proj / "art").iterdir())
        build = pnp_cmd() + [
            "build",
            "fullart",
            "--clean",
            "--project",
            str(proj),
            "--out",
            str(proj / "out"),
        ]
        bare = [sys.executable, str(BENCH / "fullart.py"), "bare", str(proj), str(tmp / f"bare-{kind}.pdf")]
        measure(build)  # untimed: bytecode and the picture cache warm, as after any earlier build
        measure(bare)
        ratios, ours, theirs = [], [], []
        for _ in range(repeat):
            a, b = measure(build).wall, measure(bare).wall
            ours.append(a)
            theirs.append(b)
            ratios.append(a / b)
        r = med(ratios)
        pdf = (proj / "out" / "fullart" / "deck.pdf").stat().st_size
        t.add(
            f"full-art deck, {n} cards with {kind.upper()} pictures: pnp / bare ReportLab",
            f"{r:.2f}x ({med(ours):.2f} s vs {med(theirs):.2f} s)",
            f"<= {limit}x",
            ok(r <= limit),
        )
        t.add(
            f"full-art deck, {kind.upper()}: PDF bytes per picture byte",
            f"{pdf / pictures:.2f}",
            "<= 1.1",
            ok(pdf / pictures <= 1.1),
        )
    if big:
        proj = fullart.make(tmp / "fullart-big", big, "png")
        run = measure(
            pnp_cmd() + ["build", "fullart", "--clean", "--project", str(proj), "--out", str(proj / "out")]
        )
        t.add(
            f"full-art deck, {big:,} cards with PNG pictures",
            f"{run.wall:.1f} s, {run.peak_mb:.0f} MB peak",
            "peak < 300 MB",
            ok(run.peak_mb < 300),
        )


def bench_screens(t: Table, tmp: Path, repeat: int, smoke: bool) -> None:
    """`pnp preview`, `pnp export tts` and `pnp serve`'s first page for every game: with every picture drawn
    afresh (the cache of rasterised pages emptied first) and with nothing changed since the last run."""
    games = ["bargains"] if smoke else []
    cache = Path(ENV["PNP_CACHE_DIR"])
    out = str(tmp / "screens")
    label = "Fairy Bargains" if smoke else "all games"
    for name, cmd, limit in (("pnp preview", ["preview"], 3.0), ("pnp export tts", ["export", "tts"], 10.0)):
        full = pnp_cmd() + cmd + games + ["--out", out]
        measure(full)  # untimed: bytecode and the games' cache warm
        fresh, again = [], []
        for _ in range(repeat):
            shutil.rmtree(cache / "rasters", ignore_errors=True)
            fresh.append(measure(full))
            again.append(measure(full))
        wall = med([r.wall for r in fresh])
        t.add(f"`{name}` ({label}), every picture drawn", _result(fresh), f"< {limit:g} s", ok(wall < limit))
        t.add(f"`{name}` ({label}), nothing changed", _result(again))
    if smoke:
        project = tmp / "serve-smoke"
        shutil.copytree(
            ROOT / "card_data",
            project / "card_data",
            ignore=lambda d, names: [n for n in names if n.endswith(".yaml") and n != "bargains.yaml"],
        )
        for folder in ("templates", "fonts"):
            shutil.copytree(ROOT / folder, project / folder)
    else:
        project = ROOT
    serve = [
        sys.executable,
        str(BENCH / "serve_first_page.py"),
        "--project",
        str(project),
        "--cache",
        str(cache),
    ]
    subprocess.run(serve, check=True, capture_output=True, env=ENV)  # untimed, as above
    fresh_s, again_s = [], []
    for _ in range(repeat):
        shutil.rmtree(cache / "thumbnails", ignore_errors=True)
        fresh_s.append(json.loads(subprocess.run(serve, check=True, capture_output=True, env=ENV).stdout))
        again_s.append(json.loads(subprocess.run(serve, check=True, capture_output=True, env=ENV).stdout))
    n = fresh_s[0]["thumbnails"]
    for what, runs in (("every thumbnail drawn", fresh_s), ("thumbnails drawn before", again_s)):
        page, screen = med([r["seconds"] for r in runs]), med([r["first_screen"] for r in runs])
        address = med([r["address"] for r in runs])
        t.add(
            f"`pnp serve` first page ({n} cards), {what}",
            f"{address:.2f} s address, {screen:.2f} s first screen, {page:.2f} s whole page",
            "< 2 s",
            ok(page < 2.0) if what.endswith("before") else ok(screen < 2.0) + " (first screen)",
        )


def _eager_imports(*commands: str) -> str:
    """Python that imports the command modules named (all when none) and every stage they import
    inside a function: what `pnp` would load at start without those lazy imports."""
    cli = ROOT / "pnp" / "cli"
    paths = [cli / f"{c}.py" for c in commands] or [p for p in cli.glob("*.py") if p.stem != "__main__"]
    modules = {f"pnp.cli.{p.stem}" for p in paths}
    for path in paths:
        modules |= set(re.findall(r"^\s+from (pnp[\w.]*) import", path.read_text(encoding="utf-8"), re.M))
    return "import " + ", ".join(sorted(modules))


def bench_startup(t: Table, tmp: Path, repeat: int) -> None:
    """Start-up: the interpreter alone, `pnp --help`, `pnp build` with nothing to do, and the same
    start with every command's stages imported (what the lazy command registry saves)."""
    out = str(tmp / "startup-out")
    measure(pnp_cmd() + ["build", "bargains", "--out", out])
    runs = max(5, repeat * 5)
    rows = [
        ("`python -c pass` (the interpreter alone)", [sys.executable, "-c", "pass"]),
        ("`pnp --help`", pnp_cmd() + ["--help"]),
        ("`pnp build bargains`, up to date", pnp_cmd() + ["build", "bargains", "--out", out]),
        ("`pnp build`'s drawing stages imported at start", [sys.executable, "-c", _eager_imports("build")]),
        ("every command's stages imported at start", [sys.executable, "-c", _eager_imports()]),
    ]
    for what, cmd in rows:
        t.add(f"start-up: {what}", _result(timed(cmd, runs)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per measurement (median)")
    ap.add_argument("--quick", action="store_true", help="3 runs, no 10,000-card deck")
    ap.add_argument(
        "--smoke",
        action="store_true",
        help="once each on tiny inputs, no protograf (a test, not a benchmark)",
    )
    ap.add_argument("--protograf-python", help="interpreter with protograf installed")
    ap.add_argument("--no-protograf", action="store_true")
    ap.add_argument("--protograf-repeat", type=int, default=3)
    ap.add_argument("--png-cards", type=int, default=300)
    ap.add_argument("--fullart-cards", type=int, default=300)
    args = ap.parse_args()
    repeat = 1 if args.smoke else 3 if args.quick else args.repeat
    sizes = [20] if args.smoke else [1000] if args.quick else [1000, 10_000]
    if args.no_protograf or args.smoke:
        pg, reason = None, "skipped (--no-protograf)"
    else:
        pg, reason = protograf_python(args.protograf_python)
    load = load_average()
    print(
        f"fairy-pnp benchmark: Python {platform.python_version()}, {cores()} cores, "
        f"load average {load:.2f} at start",
        file=sys.stderr,
    )
    t = Table()
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as name:
        tmp = Path(name)
        ENV["PNP_CACHE_DIR"] = str(tmp / "cache")  # private, so the user's cache neither helps nor suffers
        bench_startup(t, tmp, repeat)
        bench_builds(t, tmp, repeat, args.smoke)
        same = bench_peers(t, tmp, repeat, pg, reason, args.protograf_repeat)
        bench_synthetic(t, tmp, sizes, repeat)
        bench_check(t, tmp, repeat, 20 if args.smoke else 1000)
        bench_png(t, tmp, 10 if args.smoke else args.png_cards, warm=not args.smoke)
        bench_screens(t, tmp, repeat, args.smoke)
        bench_fullart(
            t, tmp, 6 if args.smoke else args.fullart_cards, repeat, 0 if args.smoke or args.quick else 1000
        )
    print(
        f"\nPython {platform.python_version()} on {platform.machine()}, {cores()} cores, "
        f"load average {load:.2f} at start, {load_average():.2f} at the end; medians of {repeat} runs.\n"
    )
    print(t.markdown())
    if not same:
        sys.exit(
            "the floor's PDF is not pnp's PDF byte for byte: bench/deck.py or bench/floor.py has drifted"
        )


if __name__ == "__main__":
    main()
