"""Reference implementation of the rules (rules version 1), used as a test oracle.

Written for clarity, not speed, and independently of the ``simstats`` package.

Conventions where docs/rules.md leaves room (the real engine follows them too):

1. Precedence of ``end``: won, then no_moves, then move_limit (the game stops after the
   2000th move), then resigned.
2. Foundation transfer: the top card of F(s) may go onto F(s+4) and back whenever it fits
   there, also a card leaving a full foundation; never in kingsdown-eights.  Cards never
   leave the foundations otherwise.
3. In cicely and kingsdown-eights any available card may go to an empty column (even a
   column's only card).  Reserve cards never go to another reserve place.  Only a column
   top may fill an empty reserve cell (tournament, napoleons-flank, cicely); nothing is
   ever placed on a kingsdown-eights reserve pile by a move.
4. ``deal`` is legal whenever the stock has cards.  Tournament ``redeal``: stock empty,
   tableau not empty, fewer than 2 redeals made; it deals at once (not counted in deals).
5. A column emptied by a move in tournament / napoleons-flank is refilled at once with up
   to 4 stock cards, dealt one at a time (the 4th on top).
6. Stacking: the card dealt first is at the bottom of its pile (lists are bottom first).
"""

from __future__ import annotations

import json

GAMES = ("tournament", "napoleons-flank", "cicely", "kingsdown-eights")
ALIASES = {
    "marechal-saxe": "tournament",
    "la-nivernaise": "napoleons-flank",
    "nivernaise": "napoleons-flank",
}

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED_SUITS = "DH"
ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]

MOVE_LIMIT = 2000
MAX_REDEALS = 2
END_VALUES = ("won", "no_moves", "move_limit", "resigned")
RESULT_KEYS = ("won", "foundation_cards", "moves", "deals", "redeals", "end")


# ---------------------------------------------------------------------------
# Cards and decks
# ---------------------------------------------------------------------------


def rank_of(card: str) -> int:
    """Rank as a number: A=1 .. K=13."""
    return RANKS.index(card[0]) + 1


def suit_of(card: str) -> int:
    """Suit as a number: C=0, D=1, H=2, S=3."""
    return SUITS.index(card[1])


def is_red(card: str) -> bool:
    return card[1] in RED_SUITS


def normalize_card(token: str) -> str:
    """Return the card written by ``token`` ("10H" -> "TH"); ValueError if unknown."""
    text = token
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"unknown card token {token!r}")
    return text


def parse_deck(text: str) -> list[str]:
    """Parse a deck text: 104 cards separated by white space, each card exactly twice."""
    tokens = text.split()
    cards = [normalize_card(token) for token in tokens]
    if len(cards) != 104:
        raise ValueError(f"a deck needs 104 cards, got {len(cards)}")
    counts = {card: 0 for card in ALL_CARDS}
    for card in cards:
        counts[card] += 1
    for card in ALL_CARDS:
        if counts[card] != 2:
            raise ValueError(f"card {card} appears {counts[card]} times, expected exactly 2")
    return cards


def canonical_game(game: str) -> str:
    """Resolve an alias; ValueError for an unknown game id."""
    game = ALIASES.get(game, game)
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    return game


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


class RefGame:
    """One game in progress.  All piles are lists with the bottom card first."""

    def __init__(self, game: str, deck: list[str]):
        self.game = canonical_game(game)
        deck = parse_deck(" ".join(deck))  # validates and normalizes ("10H" -> "TH")
        self.moves = 0
        self.deals = 0
        self.redeals = 0
        self.foundations: list[list[str]] = [[] for _ in range(8)]
        self.reserve: list[list[str]]
        self.tableau: list[list[str]]
        self.stock: list[str]

        if self.is_tournament_like():
            first_eight = deck[:8]
            if not any(card[0] in "AK" for card in first_eight):
                raise ValueError(
                    "no ace or king among the first 8 cards: this deck needs a reshuffle"
                )
            self.reserve = [[card] for card in first_eight]
            # Column by column: cards 9-12 to T0 (the 12th on top), 13-16 to T1, ...
            self.tableau = [deck[8 + 4 * col: 12 + 4 * col] for col in range(6)]
            self.stock = deck[32:]
        elif self.game == "cicely":
            self.reserve = [[card] for card in deck[:8]]
            # Row by row: one card to each of T0..T7, four times.
            self.tableau = [[] for _ in range(8)]
            for index, card in enumerate(deck[8:40]):
                self.tableau[index % 8].append(card)
            self.stock = deck[40:]
        else:  # kingsdown-eights
            self.tableau = [[card] for card in deck[:8]]
            # Pile by pile: cards 9-12 to R0 (the 12th on top), 13-16 to R1, ...
            self.reserve = [deck[8 + 4 * pile: 12 + 4 * pile] for pile in range(8)]
            self.stock = deck[40:]

    # -- small helpers -------------------------------------------------------

    def is_tournament_like(self) -> bool:
        return self.game in ("tournament", "napoleons-flank")

    @property
    def foundation_cards(self) -> int:
        return sum(len(pile) for pile in self.foundations)

    @property
    def won(self) -> bool:
        return self.foundation_cards == 104

    def all_cards(self) -> list[str]:
        """Every card of the game, wherever it is (for conservation checks)."""
        cards = list(self.stock)
        for group in (self.reserve, self.tableau, self.foundations):
            for pile in group:
                cards.extend(pile)
        return cards

    def pile(self, place: str) -> list[str]:
        """The pile named by a place such as "T3"; ValueError if it does not exist."""
        if len(place) != 2 or place[0] not in "RTF" or not place[1].isdigit():
            raise ValueError(f"unknown place {place!r}")
        group = {"R": self.reserve, "T": self.tableau, "F": self.foundations}[place[0]]
        index = int(place[1])
        if index >= len(group):
            raise ValueError(f"no place {place!r} in {self.game}")
        return group[index]

    # -- what fits where -----------------------------------------------------

    def fits_foundation(self, card: str, index: int) -> bool:
        """May ``card`` go onto foundation F<index>?"""
        pile = self.foundations[index]
        if suit_of(card) != index % 4:
            return False
        builds_up = self.game == "kingsdown-eights" or index < 4
        if builds_up:
            if not pile:
                return rank_of(card) == 1
            return rank_of(card) == rank_of(pile[-1]) + 1
        if not pile:
            return rank_of(card) == 13
        return rank_of(card) == rank_of(pile[-1]) - 1

    def fits_column(self, card: str, index: int) -> bool:
        """May ``card`` go onto column T<index> (the card comes from elsewhere)?"""
        if self.is_tournament_like():
            return False  # no building, and a reserve card goes only to a foundation
        pile = self.tableau[index]
        if not pile:
            return True
        top = pile[-1]
        if self.game == "cicely":
            return suit_of(card) == suit_of(top) and abs(rank_of(card) - rank_of(top)) == 1
        # kingsdown-eights: down in alternating colour
        return is_red(card) != is_red(top) and rank_of(card) == rank_of(top) - 1

    # -- legal moves ---------------------------------------------------------

    def legal_moves(self) -> list[str]:
        """Every legal move, in a fixed order: sources R, T, F; destinations F, T, R."""
        moves: list[str] = []
        n_columns = len(self.tableau)
        # Reserve tops: to foundations; in cicely / kingsdown also to the tableau.
        for r in range(8):
            if not self.reserve[r]:
                continue
            card = self.reserve[r][-1]
            for f in range(8):
                if self.fits_foundation(card, f):
                    moves.append(f"R{r}>F{f}")
            for t in range(n_columns):
                if self.fits_column(card, t):
                    moves.append(f"R{r}>T{t}")
        # Column tops: to foundations, to other columns, to empty reserve cells.
        for c in range(n_columns):
            if not self.tableau[c]:
                continue
            card = self.tableau[c][-1]
            for f in range(8):
                if self.fits_foundation(card, f):
                    moves.append(f"T{c}>F{f}")
            for t in range(n_columns):
                if t != c and self.fits_column(card, t):
                    moves.append(f"T{c}>T{t}")
            if self.game != "kingsdown-eights":
                for r in range(8):
                    if not self.reserve[r]:
                        moves.append(f"T{c}>R{r}")
        # Foundation transfers between F(s) and F(s+4).
        if self.game != "kingsdown-eights":
            for f in range(8):
                if not self.foundations[f]:
                    continue
                other = (f + 4) % 8
                if self.fits_foundation(self.foundations[f][-1], other):
                    moves.append(f"F{f}>F{other}")
        if self.stock:
            moves.append("deal")
        if self.redeal_allowed():
            moves.append("redeal")
        return moves

    def redeal_allowed(self) -> bool:
        return (
            self.is_tournament_like()
            and not self.stock
            and any(self.tableau)
            and self.redeals < MAX_REDEALS
        )

    # -- applying moves ------------------------------------------------------

    def apply(self, move: str) -> str | None:
        """Apply a legal move; return the card moved, or None for deal / redeal."""
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move!r} in {self.game}")
        self.moves += 1
        if move == "deal":
            self.deals += 1
            self.deal_from_stock()
            return None
        if move == "redeal":
            self.redeals += 1
            # The new stock deals T0's cards bottom to top, then T1's, ..., then T5's.
            new_stock: list[str] = []
            for column in self.tableau:
                new_stock.extend(column)
                column.clear()
            self.stock = new_stock
            self.deal_from_stock()  # the deal inside a redeal is not counted in deals
            return None
        source, destination = move.split(">")
        card = self.pile(source).pop()
        self.pile(destination).append(card)
        if source[0] == "T" and self.is_tournament_like():
            column = self.pile(source)
            if not column:
                self.fill_column(column)
        return card

    def fill_column(self, column: list[str]) -> None:
        """Deal up to 4 stock cards onto a column, one at a time (the 4th on top)."""
        for _ in range(4):
            if self.stock:
                column.append(self.stock.pop(0))

    def deal_from_stock(self) -> None:
        """The game's ``deal``: stops when the stock runs out."""
        if self.is_tournament_like():
            for column in self.tableau:  # 4 on T0, then 4 on T1, ...
                self.fill_column(column)
        elif self.game == "cicely":
            for _ in range(4):  # one card onto each of T0..T7, four times
                for column in self.tableau:
                    if self.stock:
                        column.append(self.stock.pop(0))
        else:  # kingsdown-eights: 4 onto R0, then 4 onto R1, ...
            for pile in self.reserve:
                for _ in range(4):
                    if self.stock:
                        pile.append(self.stock.pop(0))

    # -- end of game -----------------------------------------------------------

    def end_reason(self) -> str | None:
        """The forced end of the game now, or None if a policy may still choose a move.

        Precedence: won, no_moves, move_limit.  A policy that stops while None is
        returned has ``resigned``.
        """
        if self.won:
            return "won"
        if not self.legal_moves():
            return "no_moves"
        if self.moves >= MOVE_LIMIT:
            return "move_limit"
        return None

    def result(self, end: str) -> dict:
        return {
            "won": self.won,
            "foundation_cards": self.foundation_cards,
            "moves": self.moves,
            "deals": self.deals,
            "redeals": self.redeals,
            "end": end,
        }


# ---------------------------------------------------------------------------
# The canonical foundation-only policy (docs/rules.md section 9)
# ---------------------------------------------------------------------------


def foundation_only_choice(game: RefGame) -> str | None:
    """The move the foundation-only policy makes, or None if it stops."""
    legal = game.legal_moves()
    sources = [f"R{r}" for r in range(8)] + [f"T{t}" for t in range(len(game.tableau))]
    for source in sources:
        pile = game.pile(source)
        if not pile:
            continue
        suit = suit_of(pile[-1])
        for f in (suit, suit + 4):
            move = f"{source}>F{f}"
            if move in legal:
                return move
    if "deal" in legal:
        return "deal"
    if "redeal" in legal:
        return "redeal"
    return None


def foundation_only_moves(game: str, deck: list[str]) -> tuple[list[str], dict]:
    """Play the foundation-only policy to the end; return (moves, result dict)."""
    state = RefGame(game, deck)
    made: list[str] = []
    while True:
        end = state.end_reason()
        if end is not None:
            break
        move = foundation_only_choice(state)
        if move is None:
            end = "resigned"
            break
        state.apply(move)
        made.append(move)
    return made, state.result(end)


# ---------------------------------------------------------------------------
# Trace checking (docs/rules.md section 10)
# ---------------------------------------------------------------------------


def check_trace(lines: list[str]) -> dict:
    """Replay a JSON Lines trace and check every move and the result.

    Raises AssertionError naming the line (1-based) and move on any mismatch; returns
    the result dict.
    """
    numbered = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    assert numbered, "empty trace"

    records = []
    for number, line in numbered:
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise AssertionError(f"line {number}: not valid JSON: {error}") from None
        assert isinstance(record, dict), f"line {number}: expected a JSON object"
        records.append((number, record))

    number, header = records[0]
    assert "game" in header and "deck" in header, f"line {number}: header needs game and deck"
    try:
        deck = parse_deck(header["deck"])
        state = RefGame(header["game"], deck)
    except ValueError as error:
        raise AssertionError(f"line {number}: bad header: {error}") from None

    assert len(records) >= 2, "trace has no result line"
    for number, record in records[1:-1]:
        assert "move" in record, f"line {number}: expected a move line, got {record}"
        move = record["move"]
        assert state.moves < MOVE_LIMIT, f"line {number}: move {move!r} beyond {MOVE_LIMIT} moves"
        try:
            card = state.apply(move)
        except ValueError:
            raise AssertionError(
                f"line {number}: illegal move {move!r}; legal: {state.legal_moves()}"
            ) from None
        if card is None:
            assert "card" not in record, (
                f"line {number}: move {move!r} must carry no card, got {record['card']!r}"
            )
        else:
            assert record.get("card") == card, (
                f"line {number}: move {move!r} moved {card}, trace says {record.get('card')!r}"
            )

    number, last = records[-1]
    assert "result" in last, f"line {number}: last line must be the result, got {last}"
    result = last["result"]
    assert isinstance(result, dict), f"line {number}: result must be an object"
    for key in RESULT_KEYS:
        assert key in result, f"line {number}: result lacks {key!r}"
    for key in ("won", "foundation_cards", "moves", "deals", "redeals"):
        expected = getattr(state, key)
        assert result[key] == expected and type(result[key]) is type(expected), (
            f"line {number}: result {key} is {result[key]!r}, replay gives {expected!r}"
        )

    end = result["end"]
    assert end in END_VALUES, f"line {number}: unknown end {end!r}"
    expected_end = state.end_reason() or "resigned"
    assert end == expected_end, (
        f"line {number}: end is {end!r}, replay gives {expected_end!r} "
        f"(won={state.won}, moves={state.moves}, legal={state.legal_moves()})"
    )
    return state.result(end)
