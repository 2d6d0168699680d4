"""A run's report as one self-contained web page (report.html): the command and its options, the
run's status, the summary and comparison tables and every figure, inlined, so that the file
opens from disk with no network and no other file."""

from __future__ import annotations

import base64
import html
import math
from pathlib import Path

import pandas as pd

from .plots import FIGURES

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 75em; padding: 0 1em;
       color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
code { background: #f3f3f3; padding: 0 .2em; }
dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dt { font-weight: 600; }
.table-wrap { max-height: 70vh; overflow: auto; border: 1px solid #ddd; }
table { border-collapse: collapse; font-size: .9em; width: 100%; }
th, td { padding: .25em .6em; border-bottom: 1px solid #eee; text-align: left;
         white-space: nowrap; }
thead th { position: sticky; top: 0; background: #f7f7f7; }
tbody tr:nth-child(even) { background: #fafafa; }
input[type=search] { margin: .5em 0; padding: .3em; width: 20em; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; height: auto; }
.status-complete { color: #176d2c; } .status-running, .status-interrupted { color: #9a6700; }
.status-failed { color: #b42318; }
"""

# Filters a table's rows by the text typed above it (tables of 1,000 rows stay usable).
SCRIPT = """
for (const box of document.querySelectorAll('input[data-filter]')) {
  const rows = document.querySelectorAll('#' + box.dataset.filter + ' tbody tr');
  box.addEventListener('input', () => {
    const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let shown = 0;
    for (const row of rows) {
      const text = row.textContent.toLowerCase();
      const keep = words.every(w => text.includes(w));
      row.hidden = !keep; shown += keep;
    }
    document.getElementById(box.dataset.filter + '-count').textContent = shown;
  });
}
"""


def _table(frame: pd.DataFrame, table_id: str) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = "\n".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                     for row in frame.itertuples(index=False))
    return (f'<input type="search" placeholder="filter rows (e.g. tournament dig)" '
            f'data-filter="{table_id}" aria-label="filter {table_id}"> '
            f'<span id="{table_id}-count">{len(frame)}</span> rows'
            f'<div class="table-wrap"><table id="{table_id}"><thead><tr>{head}</tr></thead>'
            f"<tbody>\n{body}\n</tbody></table></div>")


def _markdown_emphasis(text: str) -> str:
    """The notes' *emphasis* as HTML, the rest escaped."""
    parts = html.escape(text).split("*")
    return "".join(f"<em>{p}</em>" if i % 2 else p for i, p in enumerate(parts))


def deals_text(identity: dict) -> str:
    """'100,000', or '100,000 (planner 5,000)' where policies were given counts of their own."""
    own = ", ".join(f"{p} {n:,}" for p, n in (identity.get("policy_deals") or {}).items())
    return f"{identity.get('games', 0):,}" + (f" ({own})" if own else "")


def chunk_progress(manifest: dict) -> tuple[int, int]:
    """(chunks finished, chunks the run has in all) from its manifest."""
    options = manifest.get("options", {})
    if "chunks_total" in manifest:
        return len(manifest.get("chunks", {})), int(manifest["chunks_total"])
    per_pair = math.ceil(options.get("games", 0) / max(options.get("chunk_size", 1), 1))
    total = per_pair * len(options.get("game_ids", [])) * len(options.get("policies", []))
    return len(manifest.get("chunks", {})), total


def report_page(data, plots_folder: Path, summary: pd.DataFrame,
                comparisons: pd.DataFrame | None, notes: dict[str, str | None]) -> str:
    """The whole page of a run (report.RunData), its tables and notes as the report words them
    (report.summary_view, comparisons_view; notes "summary", "oracle", "comparisons"), its
    figures read from `plots_folder` (PNG, inlined)."""
    m = data.manifest
    options = m.get("options", {})
    done, total = chunk_progress(m)
    title = f"simstats run {Path(data.run_dir).name}"
    facts = {
        "status": f'<span class="status-{html.escape(data.status)}">'
                  f"{html.escape(data.status)}</span> ({done:,} of {total:,} chunks done)",
        "command": f"<code>{html.escape(' '.join(m.get('command', [])))}</code>",
        "games": html.escape(", ".join(options.get("game_ids", []))),
        "policies": html.escape(", ".join(options.get("policies", []))),
        "deals per game": html.escape(deals_text(m.get("identity", {}))),
        "seed": html.escape(str(m.get("seed"))),
        "started": html.escape(str(m.get("started"))),
        "ended": html.escape(str(m.get("ended"))),
        "simstats, rules, deal stream": html.escape(
            f"{m.get('simstats_version')}, {m.get('rules_version')}, "
            f"{m.get('deal_stream_version')}"),
    }
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        "<dl>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts.items()) + "</dl>",
        "<h2>Summary</h2>",
        _table(summary, "summary"),
        f"<p>{_markdown_emphasis(notes['summary'])}</p>",
    ]
    if notes.get("oracle"):
        parts.append(f"<p>{_markdown_emphasis(notes['oracle'])}</p>")
    if comparisons is not None:
        parts += ["<h2>Comparisons</h2>",
                  f"<p>{_markdown_emphasis(notes['comparisons'])}</p>",
                  _table(comparisons, "comparisons")]
    figures = [name for name in FIGURES if (plots_folder / f"{name}.png").is_file()]
    if figures:
        parts.append("<h2>Figures</h2>")
    for name in figures:
        png = base64.b64encode((plots_folder / f"{name}.png").read_bytes()).decode("ascii")
        caption = (FIGURES[name].__doc__ or name).strip().split("\n\n")[0]
        caption = " ".join(caption.split())
        parts.append(f'<figure id="figure-{name}"><img alt="{html.escape(name)}" '
                     f'src="data:image/png;base64,{png}"><figcaption>{html.escape(caption)}'
                     "</figcaption></figure>")
    parts += [f"<script>{SCRIPT}</script>", "</body></html>"]
    return "\n".join(parts) + "\n"
