"""report.html, opened from disk in a real headless browser: it loads with no console error,
shows the run's status, every table and every figure, filters its rows, and stays usable with a
thousand rows."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest
from browser import console_errors, headless_chromium, screenshot_is_not_blank

from simstats.report.page import report_page
from simstats.report.plots import FIGURES
from simstats.report.summary import collect

GAMES = ("tournament", "napoleons-flank")
POLICIES = ("foundation-only", "dig", "oracle[budget=1e4]")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    from simstats.cli import main

    out = tmp_path_factory.mktemp("page") / "run"
    args = ["run", "--games", "120", "--workers", "2", "--chunk-size", "60", "--out", str(out),
            "-q"]
    for game in GAMES:
        args += ["--game", game]
    for policy in POLICIES:
        args += ["--policy", policy]
    try:
        main(args)
    except SystemExit as done:
        assert done.code in (0, None)
    return out


@pytest.fixture(scope="module")
def driver():
    browser = headless_chromium()
    yield browser
    browser.quit()


def test_the_report_page_shows_the_run(driver, run_dir):
    from selenium.webdriver.common.by import By

    page = run_dir / "report.html"
    assert b"http://" not in page.read_bytes() and b"https://" not in page.read_bytes()
    driver.get(page.as_uri())
    assert console_errors(driver) == []
    assert driver.title == "simstats run run"
    text = driver.find_element(By.TAG_NAME, "body").text
    assert "complete (12 of 12 chunks done)" in text  # 2 games x 3 policies x 2 chunks
    assert "seed\n0" in text and "deals per game\n120" in text
    data = collect(run_dir)
    rows = driver.find_elements(By.CSS_SELECTOR, "#summary tbody tr")
    assert len(rows) == len(data.summary) == len(GAMES) * len(POLICIES)
    assert "perfect-information oracle" in rows[2].text
    assert len(driver.find_elements(By.CSS_SELECTOR, "#comparisons tbody tr")) == len(
        data.comparisons)
    drawn = [name for name in FIGURES if (run_dir / "plots" / f"{name}.png").is_file()]
    assert {"strength", "strength_cost", "comparisons"} <= set(drawn)
    for name in drawn:
        image = driver.find_element(By.CSS_SELECTOR, f"#figure-{name} img")
        assert driver.execute_script("return arguments[0].complete && "
                                     "arguments[0].naturalWidth", image) > 300
    assert screenshot_is_not_blank(driver)


def test_typing_in_the_filter_keeps_the_matching_rows(driver, run_dir):
    from selenium.webdriver.common.by import By

    driver.get((run_dir / "report.html").as_uri())
    driver.find_element(By.CSS_SELECTOR, "input[data-filter=summary]").send_keys("tournament dig")
    shown = [r for r in driver.find_elements(By.CSS_SELECTOR, "#summary tbody tr")
             if r.is_displayed()]
    assert [r.text.split()[:2] for r in shown] == [["tournament", "dig"]]
    assert driver.find_element(By.ID, "summary-count").text == "1"


def test_a_thousand_rows_scroll_under_a_header_that_stays(driver, tmp_path):
    from selenium.webdriver.common.by import By

    summary = pd.DataFrame({"game": [f"game-{i // 10}" for i in range(1000)],
                            "policy": [f"policy-{i % 10}" for i in range(1000)],
                            "win rate": [f"{i / 10:.1f}%" for i in range(1000)]})
    data = SimpleNamespace(run_dir=tmp_path, status="running", manifest={
        "command": ["simstats", "run"], "options": {"games": 10, "chunk_size": 5,
                                                    "game_ids": ["x"], "policies": ["y"]},
        "chunks": {}})
    page = tmp_path / "report.html"
    page.write_text(report_page(data, tmp_path / "plots", summary, None,
                                {"summary": "A note.", "oracle": None, "comparisons": None}))
    driver.get(page.as_uri())
    assert console_errors(driver) == []
    wrap = driver.find_element(By.CSS_SELECTOR, ".table-wrap")
    assert driver.execute_script("return arguments[0].scrollHeight > "
                                 "2 * arguments[0].clientHeight", wrap)
    header = driver.find_element(By.CSS_SELECTOR, "#summary thead th")
    top = header.location["y"]
    driver.execute_script("arguments[0].scrollTop = 5000", wrap)
    assert driver.find_element(By.CSS_SELECTOR, "#summary thead th").location["y"] == top
    assert len(driver.find_elements(By.CSS_SELECTOR, "#summary tbody tr")) == 1000
