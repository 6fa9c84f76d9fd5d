"""The layout editor of `pnp serve` in headless Chromium: an element of the `pnp new` starter dragged
5 mm right lands in the YAML as exactly that number and in the PDF 5 mm right (measured with
pdfplumber); an element of a built-in layout nudged with the arrow keys lands as an override in the
user's design, never in pnp's own layout file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_serve_browser import browser, js, wait  # noqa: F401 - the browser fixture
from test_serve_editor import changed_lines

from pnp.data.reading.project import Project
from pnp.serve.server import make_server, serve, stop

from conftest import ROOT, run

MM = 72 / 25.4  # points per mm
MOTH = "lanterns/deck/face/moth/"


def _value_x(proj: Path) -> float:
    """The left edge, in points, of the first card's value (its only 18 pt characters) on the sheet."""
    import pdfplumber

    with pdfplumber.open(proj / "output" / "lanterns" / "deck.pdf") as pdf:
        return min(c["x0"] for c in pdf.pages[0].chars if c["size"] > 17)


def _build(proj: Path) -> None:
    assert run("build", "--project", str(proj), "--lang", "en", "-j", "1").code == 0


def _open_layout(driver: Any, tile: str) -> None:
    js(driver, f"document.querySelector(`.tile[data-id='{tile}']`).click()")
    wait(
        lambda: (
            js(driver, "return opened && opened.picture")
            and js(driver, "return document.querySelector('#card').open")
        ),
        "the card view",
    )
    js(driver, "document.querySelector('#layout-open').click()")
    wait(lambda: js(driver, "return lay.on && lay.data.elements.length > 0"), "the outlines")


@pytest.mark.slow
def test_dragging_and_nudging_write_numbers_back(
    tmp_path: Path,
    browser: Any,  # noqa: F811 - the fixture imported above
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    proj = tmp_path / "proj"
    assert run("new", str(proj)).code == 0
    _build(proj)
    before_x = _value_x(proj)
    db = proj / "card_data" / "lanterns.yaml"
    before = db.read_text(encoding="utf-8")
    shipped = (ROOT / "pnp" / "layouts" / "back.yaml").read_bytes()
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        wait(
            lambda: js(browser, f"return !!document.querySelector(`.tile[data-id='{MOTH}']`)"),
            "the starter's cards",
        )
        _open_layout(browser, MOTH)
        ident = js(browser, "return lay.data.elements.find(e => e.ref && e.ref.index === 3).id")
        scale = js(
            browser,
            "return document.querySelector('#layout-overlay').getBoundingClientRect().width / lay.data.trim.w",
        )
        picture = js(browser, "return opened.picture")
        box = browser.find_element(By.CSS_SELECTOR, f"#layout-overlay rect.box[data-id='{ident}']")
        ActionChains(browser).move_to_element(box).click_and_hold().move_by_offset(
            round(5 * scale), 0
        ).release().perform()
        wait(lambda: db.read_text(encoding="utf-8") != before, "the drop to be saved")
        after = db.read_text(encoding="utf-8")
        diff = changed_lines(before, after)
        assert (
            len(diff) == 2
            and "x: 2.5, y: 2.5," in diff[0]
            and diff[1] == diff[0].replace("x: 2.5,", "x: 7.5,").replace("-", "+", 1)
        ), diff
        wait(lambda: js(browser, "return opened.picture") != picture, "the preview to redraw")
        wait(
            lambda: (
                "saved in card_data/lanterns.yaml"
                in js(browser, "return document.querySelector('#layout-status').textContent")
            ),
            "the status",
        )

        # undo puts the number back; redo moves it again
        js(browser, "document.querySelector('#layout-undo').click()")
        wait(lambda: db.read_text(encoding="utf-8") == before, "undo to be saved")
        wait(lambda: js(browser, "return !lay.busy && !lay.queued"), "undo's save")
        js(browser, "document.querySelector('#layout-redo').click()")
        wait(lambda: db.read_text(encoding="utf-8") == after, "redo to be saved")

        # the back's title, from the built-in `back` layout, nudged down twice: an override in the design
        js(browser, "document.querySelector('#card').close()")
        _open_layout(browser, "lanterns/deck/back/night/")
        title = js(browser, "return lay.data.elements.find(e => e.ref && e.ref.name === 'title').id")
        js(browser, f"lay.chosen = {title}; layoutDraw(); document.querySelector('#layout-overlay').focus()")
        ActionChains(browser).send_keys(Keys.ARROW_DOWN).perform()
        wait(lambda: "extends: back" in db.read_text(encoding="utf-8"), "the override")
        text = db.read_text(encoding="utf-8")
        assert "    layout: custom" in text and "      - {name: title, y: " in text
        assert (ROOT / "pnp" / "layouts" / "back.yaml").read_bytes() == shipped
    finally:
        stop(server, app)
    _build(proj)
    assert _value_x(proj) - before_x == pytest.approx(5 * MM, abs=0.05)
