"""A deal you can watch: one self-contained web page that replays a game move by move.

The page draws the foundations, the reserve, the columns and the stock as cards (by itself: no
image files, no network), the cards the player could not see face down (the oracle's page shows
every card, and says so), the move list with the current move marked, buttons and the arrow
keys to step, and the outcome. `replay_trace` reads any trace of docs/rules.md section 10 and
checks every move against the rules while it builds the frames.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ..engine.cards import DeckError, parse_deck
from ..engine.games import UnknownGame, get_game
from ..run.move_by_move import DealInPlay
from ..run.playthrough import Playthrough


class TraceError(ValueError):
    """A trace that cannot be replayed; the message names the line."""


def frame_of(obs) -> dict:
    """What one position shows: foundation tops and sizes, reserve and columns bottom first
    (None for a card face down), stock size, redeals left, moves made."""
    return {"foundations": list(obs.foundations), "sizes": list(obs.foundation_sizes),
            "reserve": [list(pile) for pile in obs.reserve],
            "tableau": [list(column) for column in obs.tableau],
            "stock": obs.stock_size, "redeals": obs.redeals_left, "moves": obs.moves_made}


def frames(game, deck, reshuffles: int, moves: list[str], everything: bool = False,
           lines: list[int] | None = None) -> list[dict]:
    """The position before the first move and after each move. `everything`: buried cards face
    up (the oracle's view). A move the rules refuse raises TraceError, naming its trace line
    when `lines` (one per move) are given."""
    table = DealInPlay(game, deck, reshuffles)
    obs = table.observation(everything)  # its legal moves are the player's: tops always show
    shown = [frame_of(obs)]
    for i, move in enumerate(moves):
        if move not in obs.legal_moves:
            where = f"line {lines[i]}: " if lines is not None else ""
            raise TraceError(f"{where}{move!r} is not a legal move here (move {i + 1})")
        table.play(move)
        obs = table.observation(everything)
        shown.append(frame_of(obs))
    return shown


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1em; color: #222; background: #f4f7f4; }}
h1 {{ font-size: 1.3em; margin: .2em 0; }}
#layout {{ display: flex; gap: 1.5em; align-items: flex-start; }}
#table {{ background: #2f6b3f; padding: .8em; border-radius: .5em; min-width: 40em; }}
.row {{ display: flex; gap: .4em; margin-bottom: .6em; align-items: flex-start; }}
.label {{ color: #e8f3e8; width: 4.5em; font-size: .85em; padding-top: .5em; }}
.pile {{ width: 3.4em; min-height: 4.6em; border: 1px dashed #8fbf9a; border-radius: .3em;
         position: relative; }}
.pile .name {{ color: #cfe6d3; font-size: .7em; text-align: center; }}
.card {{ width: 3.2em; height: 4.4em; border-radius: .3em; background: #fff;
         border: 1px solid #333; font-weight: 600; font-size: .95em; padding: .15em .25em;
         box-sizing: border-box; }}
.column .card + .card {{ margin-top: -3.2em; }}
.card.red {{ color: #c0162c; }} .card.black {{ color: #111; }}
.card.down {{ background: repeating-linear-gradient(45deg, #1c3f8c, #1c3f8c 4px, #2d57b0 4px,
              #2d57b0 8px); }}
#side {{ min-width: 16em; }}
#moves {{ max-height: 60vh; overflow: auto; background: #fff; border: 1px solid #ccc;
          padding: 0; margin: .5em 0; list-style: none; }}
#moves li {{ padding: .1em .5em; font-family: monospace; }}
#moves li.current {{ background: #ffe08a; }}
button {{ font-size: 1em; margin-right: .3em; }}
</style></head><body>
<h1>{title}</h1>
<p id="view">{view}</p>
<div id="layout"><div id="table"></div>
<div id="side"><div><button id="first">&#x23EE;</button><button id="prev">&#x25C0;</button>
<button id="next">&#x25B6;</button><button id="last">&#x23ED;</button></div>
<p id="step"></p><p id="status"></p><ol id="moves"></ol>
<p id="outcome">{outcome}</p></div></div>
<script>
const FRAMES = {frames};
const MOVES = {moves};
let at = 0;
function card(text) {{
  const div = document.createElement('div');
  if (text === null) {{ div.className = 'card down'; div.title = 'face down'; return div; }}
  const suit = text[1];
  div.className = 'card ' + ('DH'.includes(suit) ? 'red' : 'black');
  div.dataset.card = text;
  div.textContent = (text[0] === 'T' ? '10' : text[0]) + {{C: '\\u2663', D: '\\u2666',
    H: '\\u2665', S: '\\u2660'}}[suit];
  return div;
}}
function pile(name, cards, kind) {{
  const div = document.createElement('div');
  div.className = 'pile ' + kind; div.dataset.place = name;
  const label = document.createElement('div'); label.className = 'name';
  label.textContent = name; div.appendChild(label);
  for (const c of cards) div.appendChild(card(c));
  return div;
}}
function row(label, piles) {{
  const div = document.createElement('div'); div.className = 'row';
  const l = document.createElement('div'); l.className = 'label'; l.textContent = label;
  div.appendChild(l); for (const p of piles) div.appendChild(p); return div;
}}
function draw() {{
  const f = FRAMES[at], table = document.getElementById('table');
  table.replaceChildren();
  table.appendChild(row('home', f.foundations.map((top, i) =>
    pile('F' + i, top === null ? [] : [top], 'foundation'))));
  table.appendChild(row('reserve', f.reserve.map((cards, i) => pile('R' + i, cards, 'reserve'))));
  table.appendChild(row('columns', f.tableau.map((cards, i) => pile('T' + i, cards, 'column'))));
  const home = f.sizes.reduce((a, b) => a + b, 0);
  document.getElementById('step').textContent = 'move ' + at + ' of ' + MOVES.length;
  document.getElementById('status').innerHTML = '<span id="home-count">' + home +
    '</span> cards home; stock ' + f.stock + '; redeals left ' + f.redeals;
  const items = document.querySelectorAll('#moves li');
  items.forEach((li, i) => li.classList.toggle('current', i === at - 1));
  if (at > 0) items[at - 1].scrollIntoView({{block: 'nearest'}});
}}
function go(to) {{ at = Math.max(0, Math.min(MOVES.length, to)); draw(); }}
const list = document.getElementById('moves');
MOVES.forEach((m, i) => {{ const li = document.createElement('li'); li.textContent = m;
  li.addEventListener('click', () => go(i + 1)); list.appendChild(li); }});
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(at - 1);
document.getElementById('next').onclick = () => go(at + 1);
document.getElementById('last').onclick = () => go(MOVES.length);
document.addEventListener('keydown', e => {{
  if (e.key === 'ArrowRight') go(at + 1); else if (e.key === 'ArrowLeft') go(at - 1);
  else if (e.key === 'Home') go(0); else if (e.key === 'End') go(MOVES.length);
}});
draw();
</script></body></html>
"""


def replay_page(title: str, shown: list[dict], moves: list[str], outcome: str,
                everything: bool) -> str:
    view = ("The oracle's view: it sees every card, the stock's order included; buried cards "
            "are shown face up." if everything else
            "The player's view: cards the player cannot see are face down.")
    return PAGE.format(title=html.escape(title), view=html.escape(view),
                       outcome=html.escape(outcome),
                       frames=json.dumps(shown).replace("</", "<\\/"),
                       moves=json.dumps(moves).replace("</", "<\\/"))


def outcome_text(result: dict) -> str:
    return (f"{'won' if result['won'] else 'not won'}: {result['foundation_cards']} cards home, "
            f"{result['moves']} moves, {result['deals']} deals, {result['redeals']} redeals, "
            f"end {result['end']}")


def playthrough_page(game, play: Playthrough, everything: bool = False) -> str:
    moves = [m for m, _ in play.moves]
    shown = frames(game, play.deck, play.outcome.reshuffles if play.outcome else 0, moves,
                   everything)
    where = f"deal {play.deal} of seed {play.seed}" if play.deal is not None else "a deck"
    return replay_page(f"{game.id}, {play.policy}, {where}", shown, moves,
                       outcome_text(play.outcome.result()), everything)


def replay_trace(path: Path) -> str:
    """The page of a trace file (docs/rules.md section 10); TraceError names the line of the
    first problem: not JSON, no header, an unknown game, a bad deck, a move the rules refuse,
    or no result line at the end."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise TraceError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise TraceError(f"{path}: cannot read it ({error})") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise TraceError(f"{path}, line {number}: not JSON") from None
        if not isinstance(record, dict):
            raise TraceError(f"{path}, line {number}: not a JSON object")
        records.append((number, record))
    if not records:
        raise TraceError(f"{path}: empty trace")
    number, header = records[0]
    if "game" not in header or "deck" not in header:
        raise TraceError(f"{path}, line {number}: the header needs a game and a deck")
    try:
        game = get_game(str(header["game"]))
        deck = parse_deck(str(header["deck"]))
    except (UnknownGame, DeckError) as error:
        raise TraceError(f"{path}, line {number}: {error}") from None
    body = records[1:]
    if not body or "result" not in body[-1][1]:
        raise TraceError(f"{path}, line {len(lines)}: the trace ends without its result line "
                         "(truncated?)")
    moves, numbers = [], []
    for number, record in body[:-1]:
        if "move" not in record:
            raise TraceError(f"{path}, line {number}: a move line needs a move")
        moves.append(str(record["move"]))
        numbers.append(number)
    try:
        shown = frames(game, deck, int(header.get("reshuffles", 0)), moves, lines=numbers)
    except TraceError as error:
        raise TraceError(f"{path}, {error}") from None
    result = body[-1][1]["result"]
    try:
        outcome = outcome_text(result)
    except (KeyError, TypeError):
        raise TraceError(f"{path}, line {body[-1][0]}: an incomplete result") from None
    policy = header.get("policy", "?")
    return replay_page(f"{game.id}, {policy}, replayed from {Path(path).name}", shown, moves,
                       outcome, False)
