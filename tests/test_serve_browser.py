"""`pnp serve` in a real headless browser: contact sheets, live edits, a broken file, the Build button.

Uses Debian's chromium and chromium-driver (installed by .ci/run). The screenshot goes to
the test's temporary folder; with PNP_SCREENSHOT=docs/serve.png it is also written there
(that is how the README's picture is made).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.resolve.cards import printed_cards
from pnp.serve.server import make_server, serve, stop

from conftest import ROOT, assert_quick, make_project, wait_for

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1400,900",
    "--hide-scrollbars",
)
RIN = "tarot/arcana/face/1/1"

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.is_file() and DRIVER.is_file()),
    reason="no headless browser: install Debian's chromium and chromium-driver (.ci/run does)",
)


def wait(condition: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """`wait_for`, with a condition that may raise while the page is between two renders (not yet)."""

    def quietly() -> Any:
        try:
            return condition()
        except Exception:  # noqa: BLE001 - the page is between two renders
            return None

    return wait_for(quietly, what, timeout)


@pytest.fixture
def browser(tmp_path: Path):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    yield driver
    driver.quit()


def js(driver: Any, script: str) -> Any:
    return driver.execute_script(script)


LOADED = """return [...document.querySelectorAll('.tile img')].every(i => i.complete && i.naturalWidth > 0)
                   && document.querySelectorAll('.tile img').length > 0"""
SHEETS = """return [...document.querySelectorAll('.component')].filter(c => c.querySelector('.tile')).map(c =>
  [c.closest('.game').dataset.slug, c.dataset.key, +c.dataset.cards, c.querySelectorAll('.tile').length,
   c.querySelector('.meta').textContent])"""
TILE = "return (t => t && [t.querySelector('.name').textContent, t.dataset.picture])(document.querySelector(`.tile[data-id='%s']`))"
PROBLEMS = "return [...document.querySelectorAll('#problem-list li')].map(li => li.textContent)"


def test_the_page_follows_edits_and_builds(tmp_path: Path, browser: Any) -> None:
    proj = make_project(tmp_path / "proj", ("bargains", "tarot"))
    from pnp.output.prints import print_record, save_tag

    save_tag(proj, "tarot", "round1", print_record(load_game(proj / "card_data" / "tarot.yaml", root=proj)))
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        _session(browser, proj, f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        stop(server, app)


def _session(driver: Any, proj: Path, url: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.get(url)
    wait(lambda: js(driver, "return document.querySelectorAll('.game').length") == 2, "two games")
    js(driver, "document.querySelectorAll('.tile img').forEach(i => i.loading = 'eager')")
    wait(lambda: js(driver, LOADED), "every picture drawn")

    # the contact sheets: every distinct card with its copies, as the database says
    expected = []
    for slug in ("bargains", "tarot"):
        game = load_game(proj / "card_data" / f"{slug}.yaml", root=proj)
        for comp in game.components:
            if comp.is_cards:
                cards = printed_cards(game, comp)
                expected.append([slug, comp.key, sum(p.copies for p in cards), len(cards) + 1])
    sheets = js(driver, SHEETS)
    assert [s[:4] for s in sheets] == expected == [["bargains", "deck", 65, 6], ["tarot", "arcana", 24, 25]]
    assert sheets[0][4].startswith("65 cards · 5 different faces · 1 back · poker 63 x 88 mm")
    copies = js(
        driver,
        "return [...document.querySelectorAll('[data-slug=bargains] .copies')].map(e => e.textContent)",
    )
    assert copies == ["×13"] * 5 + ["×65"]

    # a card opens at 300 dpi with its code, fields and where it is defined; the keyboard does it all
    tile = driver.find_element("css selector", f".tile[data-id='{RIN}']")
    js(driver, f"document.querySelector(`.tile[data-id='{RIN}']`).focus()")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait(
        lambda: js(
            driver,
            "return document.getElementById('card').open && document.getElementById('card-full').naturalWidth",
        ),
        "the 300 dpi view",
    )
    assert js(driver, "return document.getElementById('card-full').naturalWidth") == 827  # 70 mm at 300 dpi
    facts = js(driver, "return document.getElementById('card-facts').textContent")
    assert "TA-1" in facts and "card_data/tarot.yaml:" in facts
    assert "Tohsaka Rin" in js(driver, "return document.getElementById('card-title').textContent")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait(lambda: not js(driver, "return document.getElementById('card').open"), "Escape to close the card")
    assert driver.switch_to.active_element == tile  # focus goes back to the card it came from

    # rename a card in the database: its caption and picture change, nothing else
    database = proj / "card_data" / "tarot.yaml"
    good = database.read_text(encoding="utf-8")
    old_name, old_picture = js(driver, TILE % RIN)
    others = js(driver, "return [...document.querySelectorAll('.tile')].map(t => t.dataset.picture)")
    started = time.monotonic()
    database.write_text(good.replace("name: Tohsaka Rin,", "name: Rin of the Gems,"), encoding="utf-8")
    wait(lambda: js(driver, TILE % RIN)[0] == "Rin of the Gems", "the new name on the page")
    renamed = time.monotonic() - started
    new_picture = js(driver, TILE % RIN)[1]
    assert old_name == "Tohsaka Rin" and new_picture != old_picture
    after = js(driver, "return [...document.querySelectorAll('.tile')].map(t => t.dataset.picture)")
    assert sum(a != b for a, b in zip(others, after)) == 2  # the card and the chart that lists every name
    marked = js(
        driver,
        "return [...document.querySelectorAll('.tile')].filter(t => !t.querySelector('.since').hidden)"
        ".map(t => [t.dataset.id, t.querySelector('.since').textContent])",
    )
    assert marked == [[RIN, "✎ changed"], ["tarot/arcana/face/chart/1", "✎ changed"]], marked  # since the tag
    wait(lambda: js(driver, LOADED), "the new picture drawn")
    assert_quick(renamed, 3.0, "from saving to the page")

    # save a half-written file: its error with file:line, the last good pictures stay
    pictures = js(driver, "return [...document.querySelectorAll('.tile')].map(t => t.dataset.picture)")
    broken = good[: good.index("name: Matou Sakura")] + "name: [Matou"
    database.write_text(broken, encoding="utf-8")
    problem = wait(
        lambda: [p for p in js(driver, PROBLEMS) if "card_data/tarot.yaml:" in p], "the YAML error"
    )
    assert (
        "YAML syntax" in problem[0] and problem[0].split("card_data/tarot.yaml:")[1].split(":")[0].isdigit()
    )
    assert js(driver, "return document.querySelector('[data-slug=tarot] .stale') !== null")
    assert (
        js(driver, "return [...document.querySelectorAll('.tile')].map(t => t.dataset.picture)") == pictures
    )
    assert js(driver, LOADED)

    # fix it: the error clears
    database.write_text(good, encoding="utf-8")
    wait(
        lambda: js(driver, PROBLEMS) == ["No problems: every game loads and every rule holds."],
        "the error to clear",
    )
    assert js(driver, "return document.querySelector('.stale')") is None

    # Build: the PDFs land in the output folder and the page links to them
    driver.find_element("css selector", "#build").click()
    wait(
        lambda: js(driver, "return document.getElementById('build-status').dataset.state") == "done",
        "the build",
        timeout=30,
    )
    links = js(
        driver, "return [...document.querySelectorAll('#build-files a')].map(a => a.getAttribute('href'))"
    )
    assert "/output/bargains/deck.pdf" in links and "/output/tarot/arcana.pdf" in links
    for link in links:
        assert (proj / "output" / link.removeprefix("/output/")).is_file(), link
    assert (proj / "output" / "manifest.json").is_file()
    assert js(driver, "return document.getElementById('build-status').textContent").startswith("Wrote ")

    driver.set_window_size(1400, 1150)
    js(driver, "window.scrollTo(0, 0)")
    shot = proj.parent / "serve.png"
    driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 20_000
    target = os.environ.get("PNP_SCREENSHOT")
    if target:  # the README's copy in 256 colours: a third of the size, no visible loss on this page
        from PIL import Image

        Image.open(shot).convert("RGB").quantize(
            256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        ).save(ROOT / target, optimize=True)


def _project_with_a_spreadsheet(tmp_path: Path) -> Path:
    """Fairy Bargains (cards in YAML) beside the `pnp new` starter (cards in a CSV file)."""
    import shutil

    from conftest import run

    proj = make_project(tmp_path / "proj", ("bargains",))
    assert run("new", str(tmp_path / "starter")).code == 0
    for name in ("lanterns.yaml", "lanterns.csv"):
        shutil.copy(tmp_path / "starter/card_data" / name, proj / "card_data")
    shutil.copytree(tmp_path / "starter/art", proj / "art")
    for booklet in (tmp_path / "starter/templates").glob("rules*.md.j2"):  # English and German
        shutil.copy(booklet, proj / "templates")
    return proj


def _edit(driver: Any, tile: str, values: dict[str, str], meanwhile: Callable[[], None] | None = None) -> str:
    """Open a card, press Edit, fill the form (then run `meanwhile`) and save; the status line it shows."""
    from selenium.webdriver.support.ui import Select

    js(driver, f"document.querySelector(`.tile[data-id='{tile}']`).click()")
    wait(
        lambda: js(
            driver,
            "return document.getElementById('card').open && !document.getElementById('edit-open').hidden",
        ),
        "the card view with its Edit button",
    )
    driver.find_element("css selector", "#edit-open").click()
    wait(lambda: js(driver, "return !document.getElementById('card-edit').hidden"), "the form")
    for name, value in values.items():
        box = driver.find_element("css selector", f"#edit-{name}")
        if box.tag_name == "select":
            Select(box).select_by_value(value)
        else:
            box.clear()
            box.send_keys(value)
    js(driver, "document.getElementById('edit-status').replaceChildren()")
    if meanwhile:
        meanwhile()
    driver.find_element("css selector", "#edit-save").click()
    return wait(lambda: js(driver, "return document.getElementById('edit-status').textContent"), "the answer")


def test_cards_are_edited_in_the_page_and_written_back(tmp_path: Path, browser: Any) -> None:
    from conftest import run

    proj = _project_with_a_spreadsheet(tmp_path)
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        port = server.server_address[1]
        browser.get(f"http://127.0.0.1:{port}/")
        wait(lambda: js(browser, "return document.querySelectorAll('.game').length") == 2, "two games")
        db, sheet = proj / "card_data/bargains.yaml", proj / "card_data/lanterns.csv"
        yaml_before, csv_before = db.read_text(encoding="utf-8"), sheet.read_text(encoding="utf-8")

        # a YAML card: one line of the database changes, comments and every other line stay
        status = _edit(
            browser, "bargains/deck/face/3/", {"text": "An acorn today, an oak of a deal someday."}
        )
        assert status.startswith("Saved: changed 3 in card_data/bargains.yaml"), status
        after = db.read_text(encoding="utf-8")
        old_line = "        text: An acorn today; perhaps an oak of a deal tomorrow.\n"
        assert after == yaml_before.replace(
            old_line, "        text: An acorn today, an oak of a deal someday.\n"
        )
        wait(
            lambda: (
                "an oak of a deal someday"
                in str(
                    js(
                        browser,
                        "return JSON.stringify("
                        "[...document.querySelectorAll('#card-fields td')].map(t => t.textContent))",
                    )
                )
                or js(
                    browser,
                    "return document.querySelector(`.tile[data-id='bargains/deck/face/3/']`).dataset.picture",
                )
                != ""
            ),
            "the preview to follow",
        )

        # a CSV card: its row changes, nothing else in either file
        status = _edit(browser, "lanterns/deck/face/jar/", {"name": "Firefly Lamp", "suit": "star"})
        assert status.startswith("Saved: changed jar in card_data/lanterns.csv"), status
        assert sheet.read_text(encoding="utf-8") == csv_before.replace(
            "jar,Firefly Jar,4,3,star,", "jar,Firefly Lamp,4,3,star,"
        )
        assert db.read_text(encoding="utf-8") == after
        wait(
            lambda: (
                js(
                    browser,
                    "return document.querySelector(`.tile[data-id='lanterns/deck/face/jar/'] .name`)"
                    ".textContent",
                )
                == "Firefly Lamp"
            ),
            "the renamed card on the contact sheet",
        )
        with app.live.cache.drawing:  # PDFium is not thread-safe: the server's threads wait
            assert run("check", "--project", str(proj)).code == 0

        # an invalid edit: refused with pnp check's message, the file untouched
        csv_now = sheet.read_text(encoding="utf-8")
        status = _edit(browser, "lanterns/deck/face/moth/", {"copies": "9"})
        assert "would not pass pnp check" in status and "lanterns.yaml:" in status, status
        assert sheet.read_text(encoding="utf-8") == csv_now

        # undo the last save: the CSV file is as it was before the page touched it
        browser.find_element("css selector", "#edit-undo").click()
        wait(
            lambda: "Undone" in js(browser, "return document.getElementById('edit-status').textContent"),
            "undo",
        )
        assert sheet.read_text(encoding="utf-8") == csv_before

        # the file changed on disk while the form was open: not overwritten; the form shows the file as it is
        def someone_saves() -> None:
            sheet.write_text(
                csv_before.replace("jar,Firefly Jar,", "jar,Jar of Fireflies,"), encoding="utf-8"
            )

        status = _edit(browser, "lanterns/deck/face/jar/", {"name": "Lamp"}, someone_saves)
        assert "changed on disk since the page opened this card" in status, status
        wait(
            lambda: js(browser, "return document.getElementById('edit-name').value") == "Jar of Fireflies",
            "the form reloaded from the file",
        )
        assert "jar,Jar of Fireflies," in sheet.read_text(encoding="utf-8")

        # a card that cannot be drawn any more keeps its last good picture, marked, with the reason
        js(browser, "document.getElementById('card').close()")
        jar = "document.querySelector(`.tile[data-id='lanterns/deck/face/jar/']`)"
        # (the new name is a new picture: wait for the page to show it, not the one from before)
        wait(
            lambda: js(
                browser,
                f"return {jar}.querySelector('.name').textContent === 'Jar of Fireflies' && "
                f"{jar}.querySelector('img').naturalWidth > 0 && "
                f"{jar}.querySelector('img').getAttribute('src') === {jar}.dataset.want",
            ),
            "jar drawn",
        )
        shown = js(browser, f"return {jar}.querySelector('img').getAttribute('src')")
        design = proj / "card_data/lanterns.yaml"
        design.write_text(  # (a missing picture would be a draft's placeholder: an unknown symbol fails)
            design.read_text(encoding="utf-8").replace(
                'symbol: "{{ card.suit }}"', "symbol: \"{{ 'gone' if card.key == 'jar' else card.suit }}\""
            ),
            encoding="utf-8",
        )
        wait(
            lambda: js(browser, f"return {jar}.classList.contains('failed')"), "the failure mark", timeout=15
        )
        assert js(browser, f"return {jar}.querySelector('img').getAttribute('src')") == shown
        assert js(
            browser,
            f"return !{jar}.querySelector('.warn').hidden && {jar}.querySelector('img').naturalWidth > 0",
        )
        assert "unknown symbol 'gone'" in js(browser, f"return {jar}.dataset.error")
        others = js(
            browser, "return [...document.querySelectorAll('[data-slug=lanterns] .tile.failed')].length"
        )
        assert others == 1
    finally:
        stop(server, app)


def test_the_language_switch_shows_each_game_in_the_language_chosen(tmp_path: Path, browser: Any) -> None:
    """Feenbalz is written in English and German: the switch shows its German cards, Bargains (English
    only) stays as it is, and the Build button builds the German folder."""
    proj = make_project(tmp_path / "proj", ("bargains", "feenbalz"))
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        wait(lambda: js(browser, "return !document.querySelector('#language-switch').hidden"), "the switch")
        slugs = "return [...document.querySelectorAll('section.game')].map(s => s.dataset.slug)"
        assert js(browser, slugs) == ["bargains", "feenbalz"]
        assert js(browser, "return [...document.querySelectorAll('#language option')].map(o => o.value)") == [
            "",
            "en",
            "de",
        ]
        js(
            browser,
            "const s = document.querySelector('#language'); s.value = 'de';"
            "s.dispatchEvent(new Event('change'))",
        )
        wait(lambda: js(browser, slugs) == ["bargains", "feenbalz/de"], "the German Feenbalz")
        name, picture = wait(lambda: js(browser, TILE % "feenbalz/de/fairies/face/F11/"), "a German fairy")
        assert name == "Spinnweb" and picture
        assert picture not in {
            t.picture
            for g in app.live.snapshot.games
            if g.slug == "feenbalz"
            for c in g.components
            for t in c.tiles
        }  # its own pictures, not the English
        built = "return [...document.querySelectorAll('#build-games input')].map(i => i.value)"
        assert js(browser, built) == ["bargains", "feenbalz/de"]
        js(
            browser,
            "document.querySelector('#build-games input[value=bargains]').click();"
            "document.querySelector('#build').click()",
        )
        wait(lambda: (proj / "output" / "feenbalz" / "de" / "fairies.pdf").is_file(), "the German build", 120)
        assert not (proj / "output" / "bargains").exists()
    finally:
        stop(server, app)


def test_the_vision_switch_shows_the_cards_as_simulated(tmp_path: Path, browser: Any) -> None:
    """Seen with tritanopia, a card's (the first, yellow) picture on the page is what the simulation makes
    of it as printed (the page's SVG filter and `pnp preview --vision` share one model); the access
    panel checks a game."""
    import io

    import numpy as np
    from PIL import Image

    from pnp.output.access.vision import simulate_image

    proj = make_project(tmp_path / "proj", ("bargains",))
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        wait(lambda: js(browser, LOADED), "the card pictures")
        box = js(
            browser,
            "const i = document.querySelector('.tile img'); i.scrollIntoView();"
            "const r = i.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]",
        )
        crop = tuple(round(v) + d for v, d in zip(box, (2, 2, -2, -2), strict=True))

        def shot() -> Image.Image:
            return Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB").crop(crop)

        printed = shot()
        js(
            browser,
            "const s = document.querySelector('#vision'); s.value = 'tritanopia';"
            "s.dispatchEvent(new Event('change'))",
        )
        assert "vision-tritanopia" in js(
            browser, "return getComputedStyle(document.querySelector('.tile img')).filter"
        )
        seen = np.asarray(shot(), dtype=int)
        expected = np.asarray(simulate_image(printed, "tritanopia"), dtype=int)
        assert np.abs(np.asarray(printed, dtype=int) - expected).mean() > 5  # the card looks different ...
        assert np.abs(seen - expected).mean() < 3  # ... as the model says
        # the access panel runs `pnp check --access` on the game: Bargains reads for everyone
        js(browser, "document.querySelector('#access-games button[value=bargains]').click()")
        said = "return document.querySelector('#access-status').textContent"
        wait(lambda: "every card reads" in js(browser, said), "the access check", 120)
    finally:
        stop(server, app)


@pytest.mark.slow
def test_stack_view_shows_the_comparison_when_a_variant_is_chosen(tmp_path: Path, browser: Any) -> None:
    """Choosing a stacked variant in the page fills the comparison table, significant rows marked."""
    from pnp.serve.compare import Comparisons

    proj = make_project(tmp_path / "proj", ("fairy-meat",))
    (proj / "card_data" / "variants").mkdir()
    text = "variant:\n  name: wild\n  base: fairy-meat\n  remove:\n  - '3-8'\n"
    (proj / "card_data" / "variants" / "wild.yaml").write_text(text, encoding="utf-8")
    server, app = make_server(Project.at(proj), proj / "output", 0, eager=False)
    app.comparisons = Comparisons(Project.at(proj), games=100)
    serve(server, app)
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        options = "return [...document.querySelectorAll('#stack-variant option')].map(o => o.value)"
        wait(lambda: js(browser, options) == ["", "wild"], "the variant listed")
        js(
            browser,
            "const s = document.querySelector('#stack-variant'); s.value = 'wild'; s.dispatchEvent(new Event('change'))",
        )
        shown = "return !document.querySelector('#stack-table').hidden"
        wait(lambda: js(browser, shown), "the comparison table", 60)
        rows = js(
            browser,
            "return [...document.querySelectorAll('#stack-table tbody tr')].map(r => [r.className, r.cells[0].textContent])",
        )
        marked = [name for cls, name in rows if cls == "significant"]
        assert "damage per combat *" in marked and all(name.endswith(" *") for name in marked)
        assert any(cls == "" for cls, _ in rows)  # not every figure differs
        status = js(browser, "return document.querySelector('#stack-status').textContent")
        assert "wild against fairy-meat" in status and "pnp simulate wild --against fairy-meat" in status
    finally:
        stop(server, app)
