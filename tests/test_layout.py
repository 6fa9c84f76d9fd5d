"""The package layout holds: imports point down the pipeline, no cycles, small modules."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

PNP = Path(__file__).resolve().parent.parent / "pnp"

# Lower numbers sit further up the pipeline; a module may import its own level or lower.
# The input stage's rooms have an order of their own (see pnp/data/__init__.py).
LEVELS = {
    "adapters": 0,
    "geometry": 0,
    "engines": 0,
    "data": 1,
    "rules": 2,
    "resolve": 2.5,
    "draw": 3,
    "output": 4,
    "simulate": 4.5,
    "buildplan": 5,
    "serve": 5,
    "cli": 6,
    "__main__": 7,
}
DATA_ROOMS = {"format": 0.1, "store": 0.2, "stacking": 0.3, "templating": 0.4, "reading": 0.5, "editing": 0.6}
# Sizes are counted in statements (logical lines, docstrings included), which the formatter's
# wrapping does not change: 320 statements is about 400 lines of this code.
MAX_STATEMENTS = 320
MAX_FUNCTION = 60  # statements


def _modules() -> dict[str, Path]:
    out = {}
    for path in PNP.rglob("*.py"):
        parts = list(path.relative_to(PNP.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every pnp module `name` imports, at the top or inside a function."""
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        for t in targets:
            if t in known and t != name:
                found.add(t)
    return found


def _level(module: str) -> float:
    parts = module.split(".")
    if len(parts) == 1:
        return -1  # the root package (its version) is free for all
    if parts[1] == "data" and len(parts) > 2:
        return LEVELS["data"] + DATA_ROOMS[parts[2]]
    return LEVELS[parts[1]]


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    # a package's __init__ importing a submodule is not an upward step
    return {m: {t for t in _imports(m, p, known) if t not in ("pnp",)} for m, p in mods.items()}


def test_every_stage_is_known() -> None:
    for module in _modules():
        parts = module.split(".")
        assert len(parts) == 1 or parts[1] in LEVELS, f"{module}: add its stage to LEVELS"
        assert parts[1:2] != ["data"] or len(parts) == 2 or parts[2] in DATA_ROOMS, (
            f"{module}: add its room to DATA_ROOMS"
        )


def test_imports_point_down_the_pipeline() -> None:
    upward = [f"{m} -> {t}" for m, targets in _graph().items() for t in targets if _level(t) > _level(m)]
    assert not upward, "imports against the pipeline:\n" + "\n".join(sorted(upward))


def test_no_import_cycles() -> None:
    graph = _graph()
    # a package importing its own submodules (registries) is fine; a submodule importing
    # its package then counts only when the package does not import it back
    state: dict[str, int] = {}
    cycles: list[str] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(stack[stack.index(nxt) :] + [nxt]))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def _statement_ends(source: str) -> list[int]:
    """The line on which each statement of `source` ends (one per logical line)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return sorted({t.start[0] for t in tokens if t.type == tokenize.NEWLINE})


def test_modules_are_small() -> None:
    big = {
        m: n
        for m, p in _modules().items()
        if (n := len(_statement_ends(p.read_text(encoding="utf-8")))) > MAX_STATEMENTS
    }
    assert not big, f"modules over {MAX_STATEMENTS} statements: {big}"


def test_functions_are_small() -> None:
    big = []
    for module, path in _modules().items():
        source = path.read_text(encoding="utf-8")
        ends = _statement_ends(source)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                last = node.end_lineno or node.lineno
                length = sum(1 for end in ends if node.lineno <= end <= last)
                if length > MAX_FUNCTION:
                    big.append(f"{module}.{node.name}: {length} statements")
    assert not big, f"functions over {MAX_FUNCTION} statements:\n" + "\n".join(big)


def test_every_subpackage_says_what_it_holds() -> None:
    for init in PNP.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.splitlines()) >= 2, (
            f"{init}: needs a docstring of what it holds and may import"
        )


def test_the_checker_finds_an_upward_import(tmp_path: Path) -> None:
    """The import reader sees function-local imports, so a dodged cycle cannot hide."""
    mod = tmp_path / "m.py"
    mod.write_text("def f():\n    from pnp.cli import main\n    return main\n")
    assert _imports("pnp.data.format.m", mod, {"pnp.cli", "pnp.data.format.m"}) == {"pnp.cli"}


def test_catalog_matches_the_drawing_code() -> None:
    """The loader checks databases against the layouts' declared slots; the drawing stage draws exactly those."""
    from pnp.data.format.catalog import FREE_SLOTS, SYMBOLS
    from pnp.data.reading.layouts import builtin, layout_slots
    from pnp.draw.symbols import SYMBOLS as DRAWN

    assert set(layout_slots()) == set(builtin()) | FREE_SLOTS
    assert set(builtin()) >= {"arcana", "back", "chart", "mat", "playing", "portrait", "reference", "value"}
    assert set(SYMBOLS) == set(DRAWN)
    assert not list((PNP / "draw").glob("layouts")), "layouts are data in pnp/layouts/, not Python code"


def test_every_built_in_expression_compiles() -> None:
    """pnp reads its own layouts without compiling every expression (a run compiles those a card
    uses), so a broken one in pnp/layouts/ is caught here, named by file and line."""
    from pnp.data.reading.layouts import _read_all, builtin

    assert set(_read_all(expressions=True)) == set(builtin())


def test_every_declared_slot_is_typed_documented_and_read_by_its_layout() -> None:
    """Each layout reads exactly the slots it declares, each with a type and meaning."""
    import re

    from pnp.data.format.catalog import FREE_SLOTS, SLOT_TYPES
    from pnp.data.reading.layouts import layout_file, layout_slots

    for name, slots in layout_slots().items():
        if name in FREE_SLOTS:
            continue  # a custom design names its own slots
        for slot, spec in slots.items():
            assert spec.type in SLOT_TYPES and len(spec.meaning) > 5, (name, slot, spec)
        source = layout_file(name).read_text(encoding="utf-8").split("\nlet:", 1)[1]
        read = set(re.findall(r"\bslots(?:\.get\('|\.)(\w+)", source)) - {"get"}
        assert read == set(slots), (name, sorted(read ^ set(slots)))
