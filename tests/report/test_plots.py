"""Every figure of a real run is drawn with all its text inside the figure and no two labels on
top of each other; the figures that carry the answers show them."""

from __future__ import annotations

import itertools

import matplotlib
import pytest

from simstats.report.plots import FIGURES, key_comparisons, save_figure
from simstats.report.summary import collect

matplotlib.use("Agg")

GAMES = ("tournament", "napoleons-flank", "cicely")
POLICIES = ("foundation-only", "dig", "lookahead", "oracle[budget=2e4]")


@pytest.fixture(scope="module")
def run_data(tmp_path_factory):
    from simstats.cli import main

    out = tmp_path_factory.mktemp("plots") / "run"
    args = ["run", "--games", "150", "--workers", "2", "--out", str(out), "-q"]
    for game in GAMES:
        args += ["--game", game]
    for policy in POLICIES:
        args += ["--policy", policy]
    try:
        main(args)
    except SystemExit as done:
        assert done.code in (0, None)
    return collect(out)


def text_problems(fig) -> list[str]:
    """Texts that stick out of the figure, and pairs of texts that overlap."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    texts = list(fig.texts)
    for ax in fig.axes:  # what each axes draws (tick labels only of the ticks it draws)
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label,
                  *ax.texts]
        for axis in (ax.xaxis, ax.yaxis):
            texts += [label for tick in axis._update_ticks()
                      for label in (tick.label1, tick.label2)]
        legend = ax.get_legend()
        if legend is not None:
            texts += [legend.get_title(), *legend.get_texts()]
    texts += [t for artist in fig.artists + fig.legends for t in artist.findobj(
        matplotlib.text.Text)]
    texts = [t for t in texts if t.get_visible() and t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    problems = [f"{text!r} outside the figure" for text, box in boxes
                if box.x0 < page.x0 - 1 or box.y0 < page.y0 - 1 or box.x1 > page.x1 + 1
                or box.y1 > page.y1 + 1]
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        if box_a.width and box_b.width and box_a.overlaps(box_b):
            overlap = (min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)) * (
                min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0))
            if overlap > 2:  # touching edges of neighbouring ticks are not an overlap
                problems.append(f"{a!r} overlaps {b!r}")
    return problems


@pytest.mark.parametrize("name", list(FIGURES))
def test_no_text_is_cut_off_or_overlaps(run_data, name, tmp_path):
    fig = FIGURES[name](run_data)
    assert fig is not None
    save_figure(fig, tmp_path, name)  # lays it out as the report does
    assert text_problems(fig) == []
    assert (tmp_path / f"{name}.png").stat().st_size > 10_000


def test_the_check_finds_a_label_cut_off(run_data):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_xlabel("a label far too long for so small a figure, which it cannot hold")
    ax.text(0.5, 0.5, "here")
    ax.text(0.5, 0.5, "here too")
    problems = text_problems(fig)
    assert any("outside" in p for p in problems) and any("overlaps" in p for p in problems)


def test_the_strength_figure_has_a_panel_per_game_with_the_oracle_band(run_data):
    fig = FIGURES["strength"](run_data)
    panels = [ax for ax in fig.axes if ax.get_title(loc="left")]
    assert [ax.get_title(loc="left") for ax in panels] == list(GAMES)
    for ax in panels:
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert sorted(labels) == sorted(POLICIES[:3])  # the oracle is the band, not a row
        assert any("oracle" in t.get_text() for t in ax.get_legend().get_texts())


def test_the_comparisons_figure_keeps_the_pairs_that_matter(run_data):
    kept = key_comparisons(run_data)
    assert len(kept) < len(run_data.comparisons)
    assert set(kept.comparison) == {"policies", "oracle minus best policy",
                                    "seeing buried cards",
                                    "seeing buried cards, best against best"}
    assert (kept.pairing == "paired").all()  # the games on other decks: in the tables only
    assert (kept.comparison == "policies").sum() == 2 * len(GAMES)  # neighbours in strength
