"""A deal you can watch: `play --html`, `solve --html` and `replay TRACE --html` write a page that
a real headless browser steps through to the end of a real game, with the arrow keys too; the
cards it shows at the end are the final position of the trace. Bad traces are refused in one
line naming the line."""

from __future__ import annotations

import json

import pytest
import reference_rules as ref
from browser import console_errors, headless_chromium, screenshot_is_not_blank

from simstats.engine.deals import deal_deck
from simstats.engine.games import get_game
from simstats.run.move_by_move import DealInPlay


@pytest.fixture(scope="module")
def driver():
    browser = headless_chromium()
    yield browser
    browser.quit()


def final_position(trace_lines: list[str], everything: bool = False):
    header = json.loads(trace_lines[0])
    game = get_game(header["game"])
    deck, _ = deal_deck(game.array, header["seed"], header["deal"])
    table = DealInPlay(game, deck, header.get("reshuffles", 0))
    for line in trace_lines[1:-1]:
        table.play(json.loads(line)["move"])
    return table.observation(everything)


def shown_places(driver) -> dict[str, list[str | None]]:
    """Every place the page draws, with its cards bottom first (None: face down)."""
    from selenium.webdriver.common.by import By

    places = {}
    for pile in driver.find_elements(By.CSS_SELECTOR, ".pile"):
        cards = pile.find_elements(By.CSS_SELECTOR, ".card")
        places[pile.get_attribute("data-place")] = [
            None if "down" in c.get_attribute("class") else c.get_attribute("data-card")
            for c in cards]
    return places


@pytest.mark.parametrize("game_id, policy", [("napoleons-flank", "dig"),
                                             ("tournament", "lookahead")])
def test_the_page_steps_through_every_move_to_the_final_position(driver, cli, tmp_path,
                                                                 game_id, policy):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    trace, page = tmp_path / "t.jsonl", tmp_path / "deal.html"
    result = cli("play", "--game", game_id, "--deal", "4", "--policy", policy, "--trace", trace,
                 "--html", page)
    assert result.code == 0, result.stderr
    lines = trace.read_text().splitlines()
    outcome = ref.check_trace(lines)
    moves = len(lines) - 2
    driver.get(page.as_uri())
    assert console_errors(driver) == []
    step = driver.find_element(By.ID, "step")
    assert step.text == f"move 0 of {moves}"
    body = driver.find_element(By.TAG_NAME, "body")
    for k in range(1, moves + 1):  # every move, one key press each
        body.send_keys(Keys.ARROW_RIGHT)
        if k % 25 == 0 or k == moves:
            assert step.text == f"move {k} of {moves}"
    body.send_keys(Keys.ARROW_RIGHT)  # past the end it stays at the end
    assert step.text == f"move {moves} of {moves}"
    current = driver.find_elements(By.CSS_SELECTOR, "#moves li.current")
    assert [li.text for li in current] == [json.loads(lines[-2])["move"]]
    assert int(driver.find_element(By.ID, "home-count").text) == outcome["foundation_cards"]
    final = final_position(lines)
    places = shown_places(driver)
    for r, pile in enumerate(final.reserve):
        assert places[f"R{r}"] == list(pile)
    for c, column in enumerate(final.tableau):
        assert places[f"T{c}"] == list(column)  # Napoleon's Flank: buried cards face down
    assert "not won" in driver.find_element(By.ID, "outcome").text or outcome["won"]
    body.send_keys(Keys.ARROW_LEFT)
    assert step.text == f"move {moves - 1} of {moves}"
    driver.find_element(By.ID, "first").click()
    assert step.text == f"move 0 of {moves}"
    assert screenshot_is_not_blank(driver)


def test_replay_of_a_trace_draws_the_same_page(cli, tmp_path):
    trace, played, replayed = tmp_path / "t.jsonl", tmp_path / "a.html", tmp_path / "b.html"
    assert cli("play", "--game", "cicely", "--deal", "1", "--policy", "dig", "--trace", trace,
               "--html", played).code == 0
    assert cli("replay", trace, "--html", replayed).code == 0
    frames = [line for line in played.read_text().splitlines() if line.startswith("const")]
    assert frames == [line for line in replayed.read_text().splitlines()
                      if line.startswith("const")]


def test_the_oracles_page_shows_every_card_and_says_so(driver, cli, tmp_path):
    from selenium.webdriver.common.by import By

    page = tmp_path / "oracle.html"
    assert cli("solve", "--game", "napoleons-flank", "--deal", "0", "--budget", "2e4",
               "--html", page).code == 0
    driver.get(page.as_uri())
    assert console_errors(driver) == []
    assert "sees every card" in driver.find_element(By.ID, "view").text
    assert driver.find_elements(By.CSS_SELECTOR, ".card.down") == []


def one_line_refusal(result, *fragments):
    assert result.code == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr


def test_bad_traces_are_refused_in_one_line_naming_the_line(cli, tmp_path):
    trace = tmp_path / "t.jsonl"
    assert cli("play", "--game", "tournament", "--deal", "2", "--policy", "dig",
               "--trace", trace).code == 0
    lines = trace.read_text().splitlines()
    page = tmp_path / "page.html"
    cases = {
        "missing.jsonl": (None, "no such file"),
        "empty.jsonl": ("", "empty trace"),
        "truncated.jsonl": ("\n".join(lines[:-3]), "without its result line"),
        "garbled.jsonl": ("\n".join([lines[0], "{not json", *lines[1:]]), "line 2: not JSON"),
        "illegal.jsonl": ("\n".join([lines[0], json.dumps({"move": "R0>T3"}), *lines[1:]]),
                          "line 2: 'R0>T3' is not a legal move"),
    }
    for name, (text, fragment) in cases.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        one_line_refusal(cli("replay", path, "--html", page), fragment)
        assert not page.exists()
