"""Rule option shapes and template limits, checked directly (fast, no CLI)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import jinja2
import pytest

from pnp.data.format.errors import InputError
from pnp.data.reading.loader import load_game
from pnp.data.templating.engine import render_value

from conftest import ROOT, assert_quick, posix_only, timed

RULES = (ROOT / "card_data" / "bargains.yaml").read_text(encoding="utf-8")
TOTAL = "      - id: deck-size\n        check: total\n        expected: 65\n"


def load_with_rule(tmp_path: Path, rule: str) -> InputError | None:
    path = tmp_path / "bargains.yaml"
    path.write_text(RULES.replace(TOTAL, rule), encoding="utf-8")
    try:
        load_game(path, "bargains.yaml", ROOT)
    except InputError as exc:
        return exc
    return None


@pytest.mark.parametrize(
    "rule,message",
    [
        ("check: total\n        expected: {a: 1}", "expected a card count"),
        ("check: total\n        expected: true", "expected a card count"),
        ("check: total\n        expected: -1", "expected a card count"),
        ("check: total", "rule 'total' needs 'expected' or 'min' or 'max'"),
        ("check: total\n        expected: 65\n        min: 1", "not both"),
        ("check: count\n        expected: 3", "rule 'count' needs 'where'"),
        (
            "check: count\n        where: {value: {a: 1}}\n        expected: 3",
            "expected a value or a list of values",
        ),
        ("check: count\n        where: {valu: 1}\n        expected: 3", "unknown field 'valu'"),
        ("check: count_by\n        field: value\n        expected: [13]", "mapping of value to card count"),
        ("check: count_by\n        field: value\n        expected: {1: 1.5}", "1: expected a card count"),
        ("check: unique\n        fields: {value: [1]}", "list of field names"),
        ("check: unique\n        fields: [nope]", "unknown field 'nope'"),
        ("check: each_once\n        fields: [value]", "mapping of field name to its values"),
        ("check: each_once\n        fields: {value: 3}", "list of values of value"),
        ("check: balance\n        field: value\n        fields: [[1]]", "list of values of value"),
        ("check: links\n        field: value\n        inverse: nope", "unknown field 'nope'"),
        ("check: expr\n        expr: 'deck.count() >'", "expression syntax"),
        ("check: expr\n        expr: 'deck.__class__'", "sandboxed"),
        ("check: expr\n        expr: 'true'\n        params: {n: [[1]]}", "list of values of n"),
        (
            "check: expr\n        expr: 'true'\n        params: {a: [0,1,2,3,4,5,6,7,8,9], b: [0,1,2,3,4,5,6,7,8,9],"
            " c: [0,1,2,3,4,5,6,7,8,9], d: [0,1,2,3,4,5,6,7,8,9], e: [0,1]}",
            "the limit is 10000",
        ),
        (
            "check: unique\n        fields: [value]\n        expected: 3",
            "rule 'unique' does not use 'expected'",
        ),
    ],
)
def test_rule_shapes(tmp_path: Path, rule: str, message: str) -> None:
    exc = load_with_rule(tmp_path, f"      - id: shaped\n        {rule}\n")
    assert exc is not None, rule
    text = "\n".join(str(p) for p in exc.problems)
    assert message in text and "bargains.yaml:" in text, text


def test_well_shaped_rules_load(tmp_path: Path) -> None:
    assert (
        load_with_rule(
            tmp_path, "      - id: shaped\n        check: total\n        min: 60\n        max: 70\n"
        )
        is None
    )


@pytest.mark.parametrize(
    "text,message",
    [
        ("{{ range(10**9)|list|length }}", "at most 100000"),
        ("{{ 'x' * 10**9 }}", "repeating a value"),
        ("{{ [0] * 10**9 }}", "repeating a value"),
        ("{{ 9 ** 9999999 }}", "too large"),
        ("{{ '{:>999999999}'.format(1) }}", "format width"),
        ("{{ '%999999999d' % 1 }}", "format width"),
        ("{{ 'x'|center(999999999) }}", "wider than"),
        ("{{ card.__class__.__mro__ }}", "sandboxed"),
        ("{{ card['__class__'] }}", "sandboxed"),
        ("{{ _private }}", "sandboxed"),
        (
            "{% for i in range(100000) %}{% for j in range(100) %}xxxxxxxxxxx{% endfor %}{% endfor %}",
            "output goes over",
        ),
    ],
)
def test_template_limits(text: str, message: str) -> None:
    with timed() as took, pytest.raises(jinja2.TemplateError, match=message.replace("(", r"\(")):
        render_value(text, {"card": {"name": "x"}, "_private": 1})
    assert took.cpu < 5.0  # generous: refused at once, not after the 1 s limit's work


def test_ordinary_templates_still_work() -> None:
    assert (
        render_value("{{ card.name|upper }} {{ '%03d' % 7 }} {{ range(3)|list }}", {"card": {"name": "a"}})
        == "A 007 [0, 1, 2]"
    )
    assert render_value({"expr": "[1, 2] * 2"}, {}) == [1, 2, 1, 2]


DOUBLING = (
    "{% set s = 'x' * 999990 %}{% set ns = namespace(l=[]) %}"
    "{% for i in range(100000) %}{% set ns.l = ns.l + [s ~ i] %}{% endfor %}{{ ns.l|length }}"
)  # each step passes the size checks (a new string of a million characters); together, 100 GB
FOREVER = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"


def _stopped(text: str, seconds: float = 1.0) -> tuple[str, float]:
    """Render `text` (within a time limit of `seconds`); what stopped it and after how long."""
    from pnp.data.templating.sandbox import time_limit

    started = time.monotonic()
    try:
        with time_limit(seconds):
            render_value(text, {})
    except jinja2.TemplateError as exc:
        return str(exc), time.monotonic() - started
    return "", time.monotonic() - started


@pytest.mark.parametrize("on", ["main thread", "another thread"])
def test_template_work_has_a_memory_and_a_time_limit_on_every_thread(on: str) -> None:
    """A template whose every step passes the size checks is stopped by the memory limit, and an
    endless one by the time limit, on the main thread and on any other (pnp serve renders there)."""
    results: list[tuple[str, float]] = []

    def both() -> None:  # a template of its own per case: one that overran is not run again for a while
        results.extend(
            [
                _stopped(DOUBLING + f"{{# {on} #}}", seconds=60),  # memory, however loaded the machine
                _stopped(FOREVER + f"{{# {on} #}}"),
            ]
        )

    if on == "main thread":
        both()
    else:
        worker = threading.Thread(target=both)
        worker.start()
        worker.join(timeout=30)
        assert not worker.is_alive(), "the limits did not stop the thread's template work"
    (memory, memory_s), (forever, forever_s) = results
    assert "more than 256 MB of memory" in memory, memory
    assert "longer than 1 s" in forever and forever_s > 0.9, forever  # 1 s of CPU takes at least 1 s
    assert_quick(memory_s, 20.0, "the memory limit")
    assert_quick(forever_s, 10.0, "the time limit")


def test_a_runaway_template_costs_its_limit_once_not_once_per_card() -> None:
    """The second card that renders a template which overran is refused at once, saying why; a changed
    template runs again (pnp serve shows a runaway loop in about a second, not a second per card)."""
    text = FOREVER + "{# once #}"
    first, first_s = _stopped(text)
    again, again_s = _stopped(text)
    assert "longer than 1 s" in first and first_s > 0.9
    assert "longer than 1 s" in again and "not run again" in again
    assert_quick(again_s, 0.1, "refusing a template that overran")
    assert _stopped("{{ 1 + 1 }}" + "{# once #}")[0] == ""


def test_a_limit_on_another_thread_leaves_no_stray_error_behind() -> None:
    """Work that ends just as the watchdog looks never gets its error later, outside the limit."""
    done: list[str] = []

    def many() -> None:
        for _ in range(300):
            _stopped("{% for i in range(2000) %}{{ i }}{% endfor %}")
        time.sleep(0.05)  # a stray error would be raised here, outside any limit
        done.append("ok")

    worker = threading.Thread(target=many)
    worker.start()
    worker.join(timeout=60)
    assert done == ["ok"]


@posix_only
def test_a_worker_forked_while_the_watchdog_is_busy_still_has_limits() -> None:
    """A process forked while the watchdog held its lock (a build worker) gets a watchdog of its own,
    instead of a copy of a lock nobody will release."""
    import os

    from pnp.data.templating import sandbox

    worker = threading.Thread(target=lambda: render_value("{{ 1 }}", {}))
    worker.start()
    worker.join()
    with sandbox._WATCHDOG._lock:
        pid = os.fork()
        if pid == 0:  # the child: template work on a thread, under the limits, must still finish
            out: list = []
            inner = threading.Thread(target=lambda: out.append(render_value("{{ 2 + 2 }}", {})))
            inner.start()
            inner.join(60)
            os._exit(0 if out == ["4"] else 3)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


PEAK = """
import resource, sys
import jinja2
from pnp.data.templating.engine import render_value

before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    render_value(sys.argv[1], {})
    print("rendered")
except jinja2.TemplateError as exc:
    print(str(exc).splitlines()[0])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""
MILLION = "{% set s = 'x' * 999990 %}"


@posix_only
@pytest.mark.parametrize(
    "text,says",
    [
        (MILLION + "{{ ([s] * 1000)|join|length }}", "joined text"),
        (MILLION + "{{ ''.join([s] * 1000)|length }}", "joined text"),
        (MILLION + "{{ ('{0}' * 1000).format(s)|length }}", "formatted text"),
        (MILLION + "{{ ('%s' * 1000) % ((s,) * 1000) }}", "formatted text"),
        (MILLION + "{{ s|replace('x', s)|length }}", "replaced text"),
        (MILLION + "{{ s.replace('x', s)|length }}", "replaced text"),
        (MILLION + "{{ [s] * 1000 }}", "written out"),
        (MILLION + "{{ ([s] * 1000)|tojson|length }}", "tojson"),
        (MILLION + "{{ (s ~ s)|length }}", "joined text (~)"),
        (MILLION + "{{ (s + s)|length }}", "joined value (+)"),
        (DOUBLING, "more than 256 MB of memory"),
    ],
    ids=[
        "join",
        "str.join",
        "format",
        "percent",
        "replace",
        "str.replace",
        "list",
        "tojson",
        "concat",
        "plus",
        "list growth",
    ],
)
def test_a_template_building_a_huge_value_stops_near_the_memory_limit(text: str, says: str) -> None:
    """Each way of making a huge value in one step is sized before it allocates and refused in one line;
    many values each within the limit are stopped by the memory limit close to its 256 MB (before, one
    `join` or `format` reached about 1 GB between two looks at the process's size)."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, text], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    message, grown = done.stdout.splitlines()
    assert says in message and "\n" not in message, message
    assert int(grown) < 300 * 1024, (message, grown)  # KiB: the limit, plus a few MB made between looks
