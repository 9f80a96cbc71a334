"""Slides from the lessons: reveal.js through nbconvert, no extra service.

Every lesson cell can carry Jupyter's standard slide metadata, ``cell.metadata["slideshow"] =
{"slide_type": ...}`` (``slide``, ``subslide``, ``fragment``, ``-`` to continue, ``skip``,
``notes``), which ``course notebooks clean`` preserves. Where a cell has none, the type is
derived from the lesson's structure, so a lesson is presentable the moment it is written:

* the first cell (the title card) and every ``#``/``##`` section heading start a **slide**;
* a ``###`` heading starts a **subslide** (reveal.js: down arrow);
* a code cell that only calls ``stop_all()`` (the lesson's clean-up) is **skipped**;
* everything else continues the current slide (reveal.js scrolls a tall slide).

``course slides NN`` writes ``_build/slides/NN_name.slides.html`` from the saved notebook
(with its stored outputs; ``--execute`` runs it first to include the outputs of cells marked
``NBVAL_IGNORE_OUTPUT``). Open the file in a browser: reveal.js, require.js and jQuery come
from a CDN, as with every nbconvert slide deck, unless a local copy sits beside the decks
(:data:`OFFLINE_HINT` puts one there once; the decks then work with no network).
``course slides --tag NN`` writes the derived metadata into a lesson, for hand-tuning; it first
cuts a markdown cell before a section heading that sits in its middle (:func:`split_at_headings`),
so that every section starts a slide of its own.
"""
from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, NamedTuple

import nbformat

from .notebooks import ROOT, WIDGET_MIME

OUT_DIR = ROOT / "_build" / "slides"
SLIDE_TYPES = ("slide", "subslide", "fragment", "-", "skip", "notes")
_CLEANUP = re.compile(r"^\s*(?:from\s+course_lib\.servers\s+import\s+stop_all\s*\n)?\s*(?:_\s*=\s*)?stop_all\(\)\s*$")


def derived_slide_type(cell: Any, index: int) -> str:
    """The slide type a cell gets when it has no ``slideshow`` metadata (rules in the module docstring).

    Example:
        >>> derived_slide_type(nbformat.v4.new_markdown_cell("## 2. Parallel calls"), 5)
        'slide'
        >>> derived_slide_type(nbformat.v4.new_markdown_cell("### Step 1"), 6)
        'subslide'
        >>> derived_slide_type(nbformat.v4.new_code_cell("print(1)"), 7)
        '-'
    """
    if index == 0:
        return "slide"
    source = cell.source.lstrip()
    if cell.cell_type == "markdown":
        if re.match(r"#{1,2}\s", source):
            return "slide"
        if re.match(r"###\s", source):
            return "subslide"
    if cell.cell_type == "code" and _CLEANUP.match(cell.source):
        return "skip"
    return "-"


def slide_type(cell: Any, index: int) -> str:
    """The cell's own ``slideshow.slide_type`` if it has one, else :func:`derived_slide_type`."""
    given = cell.metadata.get("slideshow", {}).get("slide_type")
    return given if given in SLIDE_TYPES else derived_slide_type(cell, index)


def with_slide_metadata(nb: Any, *, overwrite: bool = False) -> Any:
    """A copy of ``nb`` where every cell has ``slideshow`` metadata (derived where missing, or everywhere
    with ``overwrite``)."""
    nb = copy.deepcopy(nb)
    for i, cell in enumerate(nb.cells):
        kind = derived_slide_type(cell, i) if overwrite else slide_type(cell, i)
        cell.metadata["slideshow"] = {"slide_type": kind}
    return nb


_HEADING = re.compile(r"#{1,3}\s")
_FENCE = re.compile(r"\s*(```|~~~)")


def hidden_headings(cell: Any) -> list[int]:
    """Line numbers of the ``#``/``##``/``###`` headings a markdown cell holds *after* its first line.

    A slide starts at a cell, so such a heading does not start one: its section runs on at the bottom
    of the previous slide. Headings in code fences do not count, nor a heading that only follows other
    headings (``## 1. Steps`` directly over ``### Step 1`` is one title slide, as intended).

    Example:
        >>> hidden_headings(nbformat.v4.new_markdown_cell("Some prose.\\n\\n## 3. Next section\\nMore."))
        [2]
        >>> hidden_headings(nbformat.v4.new_markdown_cell("## 1. Steps\\n\\n### Step 1\\nText."))
        []
    """
    if cell.cell_type != "markdown":
        return []
    found, fenced, only_headings = [], False, True
    for number, line in enumerate(cell.source.splitlines()):
        if _FENCE.match(line):
            fenced = not fenced
        is_heading = not fenced and bool(_HEADING.match(line))
        if is_heading and number > 0 and not only_headings:
            found.append(number)
        if line.strip() and not is_heading:
            only_headings = False
    return found


def split_at_headings(nb: Any) -> tuple[Any, int]:
    """A copy of ``nb`` where every markdown cell is cut before each of its :func:`hidden_headings`.

    The first part keeps the cell's id and metadata; each new part gets the id ``<id>-<n>`` (stable,
    so splitting the same notebook twice gives the same file) and no metadata. Text is not changed,
    only divided. Returns ``(the copy, how many cells were added)``.
    """
    nb = copy.deepcopy(nb)
    cells, added = [], 0
    for cell in nb.cells:
        cuts = hidden_headings(cell)
        if not cuts:
            cells.append(cell)
            continue
        lines = cell.source.splitlines()
        bounds = [0, *cuts, len(lines)]
        parts = ["\n".join(lines[a:b]).strip("\n") for a, b in zip(bounds, bounds[1:])]
        cell.source = parts[0]
        cells.append(cell)
        for n, part in enumerate(parts[1:], start=1):
            new = nbformat.v4.new_markdown_cell(part)
            if cell.get("id"):
                new.id = f"{cell.id}-{n}"
            cells.append(new)
            added += 1
    nb.cells = cells
    return nb, added


class Tagging(NamedTuple):
    """What :func:`tag_notebook` did: ``split`` cells added at hidden headings, ``tagged`` cells given metadata."""

    split: int
    tagged: int


def tag_notebook(path: Path | str, *, overwrite: bool = False, split: bool = True) -> Tagging:
    """Write slide metadata into a lesson notebook (derived where missing), after cutting its markdown
    cells at hidden section headings (``split``; see :func:`split_at_headings`).

    Outputs and code are untouched, so the lesson's stored outputs stay valid (nbval).

    Returns:
        :class:`Tagging`: how many cells were added by splitting and how many got new slide metadata.
    """
    from .notebooks import read, write

    path = Path(path)
    nb = read(path)
    cut, added = split_at_headings(nb) if split else (nb, 0)
    tagged = with_slide_metadata(cut, overwrite=overwrite)
    changed = sum(a.metadata.get("slideshow") != b.metadata.get("slideshow") for a, b in zip(cut.cells, tagged.cells))
    if changed or added:
        write(tagged, path)
    return Tagging(added, changed)


def outline(nb: Any) -> list[tuple[str, str]]:
    """``(slide type, first line)`` of every cell that starts a slide or subslide: the deck's outline."""
    out = []
    for i, cell in enumerate(nb.cells):
        kind = slide_type(cell, i)
        if kind in ("slide", "subslide"):
            out.append((kind, cell.source.strip().splitlines()[0] if cell.source.strip() else ""))
    return out


def _strip_widget_views(nb: Any) -> None:
    # A widget view without saved state renders as "Error displaying widget": keep its text fallback.
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data and WIDGET_MIME in data:
                del data[WIDGET_MIME]


def build_slides(path: Path | str, out_dir: Path | str = OUT_DIR, *, execute: bool = False,
                 reveal_prefix: str | None = None, timeout: int = 180) -> Path:
    """Build a reveal.js deck of one lesson with nbconvert's ``SlidesExporter``.

    Args:
        path: the lesson notebook.
        out_dir: where to write ``<stem>.slides.html`` (created if missing).
        execute: run the notebook first (fresh kernel) so every output is on the slides.
        reveal_prefix: URL or relative path of reveal.js (default: nbconvert's CDN address).
        timeout: seconds per cell when executing.

    Returns:
        The HTML file written.

    Raises:
        FileNotFoundError: no such notebook.
    """
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    from .notebooks import execute as run_notebook
    from .notebooks import read

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no notebook {path}")
    nb = run_notebook(path, timeout=timeout) if execute else read(path)
    nb = with_slide_metadata(nb)
    _strip_widget_views(nb)
    nb.metadata.pop("widgets", None)
    config = Config()
    config.SlidesExporter.reveal_scroll = True
    config.SlidesExporter.reveal_theme = "simple"
    config.SlidesExporter.reveal_transition = "none"
    config.SlidesExporter.reveal_number = "c/t"
    config.SlidesExporter.exclude_input_prompt = True
    config.SlidesExporter.exclude_output_prompt = True
    out = Path(out_dir)
    local = offline_assets(out)
    if reveal_prefix:
        config.SlidesExporter.reveal_url_prefix = reveal_prefix
    elif local:
        config.SlidesExporter.reveal_url_prefix = local["reveal"]
    if local:  # present without a network: scripts from <out>/node_modules, relative to the deck
        config.SlidesExporter.require_js_url = local["require"]
        config.SlidesExporter.jquery_url = local["jquery"]
    body, _ = SlidesExporter(config=config).from_notebook_node(
        nb, resources={"metadata": {"name": _deck_title(nb, path)}})
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{path.stem}.slides.html"
    target.write_text(body, encoding="utf-8")
    return target


#: what ``npm install --prefix <out> reveal.js@4 requirejs jquery@2`` puts beside the decks
OFFLINE_ASSETS = {"reveal": "node_modules/reveal.js", "require": "node_modules/requirejs/require.js",
                  "jquery": "node_modules/jquery/dist/jquery.min.js"}
OFFLINE_HINT = "npm install --prefix _build/slides reveal.js@4 requirejs jquery@2"


def offline_assets(out_dir: Path) -> dict[str, str] | None:
    """Relative paths of a local reveal.js, require.js and jQuery in ``out_dir/node_modules``, or None.

    With them the decks work with no network (conference Wi-Fi); get them once with
    :data:`OFFLINE_HINT` (the npm registry), then build the slides again.
    """
    files = [OFFLINE_ASSETS["reveal"] + "/dist/reveal.js", OFFLINE_ASSETS["require"], OFFLINE_ASSETS["jquery"]]
    return dict(OFFLINE_ASSETS) if all((out_dir / f).exists() for f in files) else None


def _deck_title(nb: Any, path: Path) -> str:
    first = nb.cells[0].source.strip().splitlines()[0] if nb.cells and nb.cells[0].source.strip() else ""
    return first.lstrip("# ").strip() or path.stem


def find_lesson(number: str, root: Path = ROOT) -> Path:
    """The lesson notebook ``notebooks/NN_*.ipynb`` for ``"1"``/``"01"``, or a path.

    Raises:
        FileNotFoundError: with the list of lessons.
    """
    p = Path(number)
    if p.suffix == ".ipynb":
        return p
    hits = sorted((root / "notebooks").glob(f"{number.zfill(2)}_*.ipynb"))
    if not hits:
        from .course_map import numbered

        have = ", ".join(x.stem for x in numbered(root / "notebooks")) or "none"
        raise FileNotFoundError(f"no lesson {number!r} (lessons: {have})")
    return hits[0]


def slide_count(nb: Any) -> int:
    """How many slides (top-level ``<section>``s) the deck of ``nb`` has."""
    return sum(slide_type(c, i) == "slide" for i, c in enumerate(nb.cells))

