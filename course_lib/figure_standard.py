"""The figure standard: every picture the course shows can be read, at the size a notebook shows it.

A figure is measured the way it will be seen: drawn with matplotlib's Agg renderer, every text's and
mark's extent taken with ``get_window_extent`` (pixels), and the whole picture scaled as JupyterLab
scales an image wider than its output area (down to :data:`DISPLAY_WIDTH_PX`). Then:

1. **no two texts overlap** (titles, labels, tick labels, legend entries, annotations; a text drawn
   in a box counts with its box);
2. **no text leaves the figure** (nor the axes that clip it: "finance_r" instead of "finance_rates");
3. **no text is smaller than** :data:`MIN_FONT_PT` points as displayed (CSS points: 1/72 in at 96 px per in);
4. **no mark runs through a text, no text is hidden or faint**: a line, arrow or box edge crossing a label
   makes it unreadable (labels go beside bars and above arrows); a text drawn under a mark is hidden by it; a text drawn on a filled
   mark needs a contrast ratio of at least :data:`MIN_CONTRAST` (WCAG 2.1 §1.4.3's 4.5 for normal text,
   3 for large or bold text);
5. **every Chinese character is drawn as itself** (no tofu boxes): a CJK glyph that matplotlib reports
   missing from every font it tried ("Glyph ... missing from font(s) ...") is a problem when this
   machine has a CJK font (:func:`course_lib.diagrams.installed_cjk_fonts`; without one the glyphs cannot
   be drawn here, which ``tests/test_cjk_figures.py`` says when it skips);
6. **every mark that carries meaning is explained**: a bar, line, box, band, tick or arrow has a legend
   entry, a text beside it (within :data:`LABEL_REACH_PX`) or a tick label naming its row; and it is
   big enough to see (a zero-width bar is a defect: draw a tick and label it instead).

A mark that only decorates (a frame, a grid band) says so with :func:`decoration`.

:func:`audit` returns the problems found; :func:`assert_legible` raises :class:`FigureStandardError`.
``CourseFigure`` records an audit of every figure a notebook displays when ``COURSE_FIGURE_AUDIT``
names a folder (the test suite sets it: a notebook cell whose figure breaks the standard fails).
"""
from __future__ import annotations

import itertools
import json
import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

#: The widest a figure is shown unscaled: a JupyterLab output area on a 1280-px-wide laptop screen (px).
DISPLAY_WIDTH_PX = 1000
#: The smallest text allowed, in CSS points as displayed.
MIN_FONT_PT = 9.0
#: WCAG contrast ratios: normal text, and large (>= 14 pt bold or 18 pt) text.
MIN_CONTRAST, MIN_CONTRAST_LARGE = 4.5, 3.0
#: How far (px) a text may be from the mark it labels.
LABEL_REACH_PX = 30.0
#: Overlaps smaller than this (px, both ways) are anti-aliasing, not collisions.
TOLERANCE_PX = 1.0
#: Smallest visible extent of a mark (px).
MIN_MARK_PX = 2.0
DECORATION = "course:decoration"
#: matplotlib's warning for a character no font of the text's family list has (it draws a box instead).
_MISSING_GLYPH = re.compile(r"Glyph (\d+) \(.*?\) missing from font\(s\) (.+?)\.?$")
AUDIT_ENV = "COURSE_FIGURE_AUDIT"


class FigureStandardError(AssertionError):
    """A figure breaks the standard; ``problems`` lists what, and where."""

    def __init__(self, problems: list["Problem"], title: str = "") -> None:
        self.problems = problems
        head = f"figure {title!r}" if title else "a figure"
        super().__init__(f"{head} breaks the course's figure standard:\n" + "\n".join(f"  - {p}" for p in problems))


@dataclass(frozen=True)
class Problem:
    """One breach of the standard.

    Attributes:
        rule: ``overlap``, ``outside``, ``font``, ``glyph``, ``crossing``, ``hidden``, ``contrast``,
            ``unlabelled`` or ``invisible``.
        message: what a designer reads, naming the texts or marks involved.
    """

    rule: str
    message: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"


def decoration(artist: Any) -> Any:
    """Mark ``artist`` as decoration (a frame, a background band): the label rule skips it. Returns it."""
    artist.set_gid(DECORATION)
    return artist


# ------------------------------------------------------------------------------------------ geometry
def _overlap(a: Any, b: Any, tol: float = TOLERANCE_PX) -> bool:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w > tol and h > tol


def _distance(a: Any, b: Any) -> float:
    dx = max(0.0, max(a.x0, b.x0) - min(a.x1, b.x1))
    dy = max(0.0, max(a.y0, b.y0) - min(a.y1, b.y1))
    return (dx * dx + dy * dy) ** 0.5


def _inside(inner: Any, outer: Any, tol: float = TOLERANCE_PX) -> bool:
    return (inner.x0 >= outer.x0 - tol and inner.y0 >= outer.y0 - tol and inner.x1 <= outer.x1 + tol
            and inner.y1 <= outer.y1 + tol)


# ------------------------------------------------------------------------------------------ colour
def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: Any, bg: Any) -> float:
    """WCAG 2.1 contrast ratio of two matplotlib colours (1 … 21), each blended over white by its alpha.

    Example:
        >>> round(contrast_ratio("black", "white"), 1), round(contrast_ratio("#777777", "white"), 1)
        (21.0, 4.5)
    """
    from matplotlib.colors import to_rgba

    def flat(c: Any) -> tuple[float, float, float]:
        r, g, b, a = to_rgba(c)
        return (r * a + (1 - a), g * a + (1 - a), b * a + (1 - a))
    la, lb = sorted((_luminance(flat(fg)), _luminance(flat(bg))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# ------------------------------------------------------------------------------------------ collection
@dataclass
class _Text:
    artist: Any
    box: Any          # the text's extent, with its bbox patch if it has one
    glyphs: Any       # the text's own extent
    name: str
    tick: bool = False  # a tick label (names a row or a value, not a mark beside it)


def _label(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= n else text[: n - 1] + "…")


def _texts(fig: Any, renderer: Any) -> list[_Text]:
    from matplotlib.text import Annotation, Text

    found: list[Any] = []
    seen: set[int] = set()
    ticks: set[int] = set()

    def add(t: Any) -> None:
        if id(t) in seen or not isinstance(t, Text):
            return
        seen.add(id(t))
        if t.get_visible() and t.get_text().strip() and t.get_alpha() != 0:
            found.append(t)

    for t in fig.texts:
        add(t)
    if getattr(fig, "_suptitle", None) is not None:
        add(fig._suptitle)
    for legend in list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]:
        if legend.get_visible():
            for t in legend.get_texts():
                add(t)
            add(legend.get_title())
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for t in (ax.title, ax._left_title, ax._right_title):
            add(t)
        for t in ax.texts:
            add(t)
        if ax.axison:
            for axis in (ax.xaxis, ax.yaxis):
                add(axis.label)
                add(axis.get_offset_text())
                lo, hi = sorted(axis.get_view_interval())
                span = (hi - lo) or 1.0
                for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                    loc = tick.get_loc()
                    if loc is None or not (lo - 1e-9 * span <= loc <= hi + 1e-9 * span):
                        continue  # a tick outside the view is not drawn
                    for label in (tick.label1, tick.label2):
                        if label.get_visible():
                            add(label)
                            ticks.add(id(label))
    out = []
    for t in found:
        glyphs = t.get_window_extent(renderer)
        box = glyphs
        patch = t.get_bbox_patch()
        if patch is not None and patch.get_visible():
            box = patch.get_window_extent(renderer)
        kind = "annotation" if isinstance(t, Annotation) else "text"
        out.append(_Text(t, box, glyphs, f"{'tick label' if id(t) in ticks else kind} {_label(t.get_text())}",
                         id(t) in ticks))
    return out


def _marks(fig: Any) -> list[tuple[Any, Any]]:
    """(axes, artist) for every data mark: patches, lines and collections the axes draw."""
    out = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for artist in itertools.chain(ax.patches, ax.lines, ax.collections):
            if not artist.get_visible() or artist.get_gid() == DECORATION or artist.get_alpha() == 0:
                continue
            out.append((ax, artist))
        for t in ax.texts:  # annotate(...)'s arrows are marks too
            arrow = getattr(t, "arrow_patch", None)
            if arrow is not None and arrow.get_visible() and t.get_gid() != DECORATION:
                out.append((ax, arrow))
    return out


def _mark_name(artist: Any) -> str:
    label = artist.get_label()
    kind = type(artist).__name__
    return f"{kind} {label!r}" if label and not label.startswith("_") else kind


def _filled(artist: Any) -> Any | None:
    """The face colour of a filled area (None when not filled, not a patch, or an arrow: its box is not filled)."""
    from matplotlib.patches import FancyArrowPatch, Patch

    if isinstance(artist, Patch) and not isinstance(artist, FancyArrowPatch) and artist.get_fill():
        face = artist.get_facecolor()
        if face[3] > 0.05:
            return face
    return None


def _legend_labels(fig: Any) -> set[str]:
    labels: set[str] = set()
    for legend in list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]:
        labels |= {t.get_text() for t in legend.get_texts()}
    return labels


# ------------------------------------------------------------------------------------------ the audit
def display_scale(fig: Any, renderer: Any) -> float:
    """How much JupyterLab shrinks the figure's PNG (1.0 when it fits :data:`DISPLAY_WIDTH_PX`)."""
    bbox = fig.get_tightbbox(renderer)
    width_px = (bbox.width + 0.2) * fig.dpi  # savefig(bbox_inches="tight") pads 0.1 in on each side
    return min(1.0, DISPLAY_WIDTH_PX / width_px) if width_px > 0 else 1.0


def audit(fig: Any) -> list[Problem]:
    """Every breach of the figure standard in ``fig`` (empty when it passes); see the module docstring.

    Args:
        fig: a ``matplotlib.figure.Figure`` (a :class:`~course_lib.diagrams.CourseFigure` or any other).

    Returns:
        The problems, one per breach, in the order of the rules.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.draw(renderer)
    scale = display_scale(fig, renderer)
    texts = _texts(fig, renderer)
    problems: list[Problem] = missing_cjk_glyphs([str(w.message) for w in caught])

    for a, b in itertools.combinations(texts, 2):
        if _overlap(a.box, b.box):
            problems.append(Problem("overlap", f"{a.name} overlaps {b.name}"))
    for t in texts:
        if not _inside(t.box, fig.bbox):
            problems.append(Problem("outside", f"{t.name} runs past the figure's edge"))
        clip = t.artist.get_clip_box() if t.artist.get_clip_on() else None
        if clip is not None and not _inside(t.glyphs, clip):
            problems.append(Problem("outside", f"{t.name} is cut by its axes"))
        shown = t.artist.get_fontsize() * fig.dpi / 96 * scale
        if shown < MIN_FONT_PT - 1e-6:
            problems.append(Problem("font", f"{t.name} is {shown:.1f} pt as displayed (minimum {MIN_FONT_PT:g} pt)"))

    for t in texts:  # a text placed at data coordinates stays inside its framed axes ("past the plot's edge")
        ax = t.artist.axes
        if ax is not None and ax.axison and not t.tick and t.artist in ax.texts \
                and not _inside(t.box, ax.bbox):
            problems.append(Problem("outside", f"{t.name} runs past the edge of its plot"))

    marks = _marks(fig)
    extents = {id(m): m.get_window_extent(renderer) for _, m in marks}
    for t in texts:
        if t.artist.axes is None or t.tick:
            continue
        own_arrow = getattr(t.artist, "arrow_patch", None)
        for mark_ax, m in marks:
            if m is own_arrow or mark_ax is not t.artist.axes or _distance(t.glyphs, extents[id(m)]) > 1.0:
                continue
            if _crosses(m, t.glyphs) and not _masked(t.artist, m):
                problems.append(Problem("crossing", f"{_mark_name(m)} crosses {t.name}: put the label beside it"))
                continue
            face = _filled(m)
            if face is None or not _overlap(t.glyphs, extents[id(m)], 2.0):
                continue
            if m.get_zorder() > t.artist.get_zorder():
                problems.append(Problem("hidden", f"{t.name} is drawn under {_mark_name(m)}, which hides it"))
                continue
            if not _covers(extents[id(m)], t.glyphs):
                continue  # a box edge crossing a text: the overlap rule of the marks' labels decides
            ratio = contrast_ratio(t.artist.get_color(), face)
            large = t.artist.get_fontsize() >= 18 or (t.artist.get_fontsize() >= 14
                                                      and str(t.artist.get_weight()) in ("bold", "700", "heavy"))
            need = MIN_CONTRAST_LARGE if large else MIN_CONTRAST
            if ratio < need - 1e-6:
                problems.append(Problem("contrast", f"{t.name} on {_mark_name(m)}: contrast {ratio:.1f}:1 "
                                                    f"(needs {need:g}:1)"))

    legend = _legend_labels(fig)
    series = _series(fig, legend, extents)
    for ax, m in marks:
        box = extents[id(m)]
        group = series.get(id(m))
        if _is_data_rectangle(m) and (box.width < MIN_MARK_PX or box.height < MIN_MARK_PX):
            if group is not None and group["visible"]:
                continue  # a zero in a bar series (a count of 0): the other bars show the series
            problems.append(Problem("invisible", f"{_mark_name(m)} is {box.width:.1f}x{box.height:.1f} px: too "
                                                 "small to see (draw a tick and label it)"))
            continue
        if m.get_label() in legend or (group is not None and group["label"] in legend):
            continue
        if any(t.artist.axes is ax and not t.tick and _distance(t.box, box) <= LABEL_REACH_PX for t in texts):
            continue
        if _named_by_tick(ax, m, box, renderer):
            continue
        problems.append(Problem("unlabelled", f"{_mark_name(m)} at ({box.x0:.0f}, {box.y0:.0f}) px has no legend "
                                              "entry and no label beside it"))
    return problems


def _outline(artist: Any) -> Any | None:
    """The artist's outline as a path in display coordinates (None for marker-only lines and collections)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Patch

    if isinstance(artist, FancyArrowPatch):
        paths, _ = artist._get_path_in_displaycoord()
        paths = paths if isinstance(paths, list) else [paths]
        from matplotlib.path import Path as MplPath

        return MplPath.make_compound_path(*paths)
    if isinstance(artist, Line2D):
        if artist.get_linestyle() in ("None", "none", "", " ") or artist.get_linewidth() == 0:
            return None
        return artist.get_transform().transform_path(artist.get_path())
    if isinstance(artist, Patch):
        if artist.get_linewidth() == 0 and not artist.get_fill():
            return None
        return artist.get_transform().transform_path(artist.get_path())
    return None


def _crosses(mark: Any, glyphs: Any) -> bool:
    """The mark's outline runs through the text (a box the text sits wholly inside does not)."""
    from matplotlib.transforms import Bbox

    from matplotlib.path import Path as MplPath

    path = _outline(mark)
    if path is None:
        return False
    inner = Bbox.from_extents(glyphs.x0 + 1.5, glyphs.y0 + 1.5, glyphs.x1 - 1.5, glyphs.y1 - 1.5)
    if inner.width <= 0 or inner.height <= 0:
        return False
    # curves as the line segments drawn (a Bezier's control points are not on it)
    for polyline in path.to_polygons(closed_only=False):
        if len(polyline) > 1 and MplPath(polyline).intersects_bbox(inner, filled=False):
            return True
    return False


def _masked(text: Any, mark: Any) -> bool:
    """A label on an arrow or line, on an opaque box of its own drawn above it, reads like a tag on the line."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch

    patch = text.get_bbox_patch()
    if patch is None or not isinstance(mark, (FancyArrowPatch, Line2D)):
        return False
    face = patch.get_facecolor()
    alpha = patch.get_alpha() if patch.get_alpha() is not None else face[3]
    return patch.get_fill() and alpha >= 0.9 and text.get_zorder() > mark.get_zorder()


def _series(fig: Any, legend: set[str], extents: dict[int, Any]) -> dict[int, dict]:
    """For each mark drawn by ``bar``/``barh``/``errorbar``: its container's label and whether any bar shows."""
    out: dict[int, dict] = {}
    for ax in fig.axes:
        for container in getattr(ax, "containers", []):
            parts = [a for a in _flatten(container) if a is not None]
            visible = any(id(a) in extents and extents[id(a)].width >= MIN_MARK_PX
                          and extents[id(a)].height >= MIN_MARK_PX for a in parts)
            info = {"label": container.get_label(), "visible": visible}
            for a in parts:
                out[id(a)] = info
    return out


def _flatten(container: Any) -> list[Any]:
    items: list[Any] = []
    for x in container:
        if isinstance(x, (list, tuple)):
            items.extend(_flatten(x))
        else:
            items.append(x)
    return items


def _covers(outer: Any, inner: Any) -> bool:
    return _inside(inner, outer, 2.0)


def _is_data_rectangle(artist: Any) -> bool:
    from matplotlib.patches import Rectangle

    return type(artist) is Rectangle


def _named_by_tick(ax: Any, mark: Any, box: Any, renderer: Any) -> bool:
    """A bar in a row (or column) whose tick label names it: the tick is within the bar's span."""
    if not ax.axison:
        return False
    for axis, lo, hi in ((ax.yaxis, box.y0, box.y1), (ax.xaxis, box.x0, box.x1)):
        for label in axis.get_ticklabels():
            if not label.get_visible() or not label.get_text().strip():
                continue
            e = label.get_window_extent(renderer)
            centre = (e.y0 + e.y1) / 2 if axis is ax.yaxis else (e.x0 + e.x1) / 2
            if lo - 2 <= centre <= hi + 2 and axis.get_major_formatter() is not None \
                    and not _numeric(label.get_text()):
                return True
    return False


def _numeric(text: str) -> bool:
    try:
        float(text.replace("−", "-").replace(",", ""))
    except ValueError:
        return False
    return True


def is_cjk(ch: str) -> bool:
    """True for a character of Chinese, Japanese or Korean text, its punctuation and full-width forms."""
    o = ord(ch)
    return (0x2E80 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF or 0xFE30 <= o <= 0xFE4F
            or 0xFF00 <= o <= 0xFFEF or 0x20000 <= o <= 0x3FFFF)


def missing_cjk_glyphs(messages: Iterable[str], *, fonts_installed: bool | None = None) -> list[Problem]:
    """The ``glyph`` problems in matplotlib's warnings: one per CJK character drawn as a box.

    Args:
        messages: warning texts caught while drawing (others are ignored).
        fonts_installed: whether a CJK font is installed (default: asks
            :func:`course_lib.diagrams.installed_cjk_fonts`); without one, nothing is reported (the
            machine cannot draw the characters, whatever the figure does).

    Returns:
        ``Problem("glyph", ...)`` naming each missing character once, in order of appearance.
    """
    chars: dict[str, str] = {}
    for text in messages:
        m = _MISSING_GLYPH.search(text)
        if m and is_cjk(chr(int(m.group(1)))):
            chars.setdefault(chr(int(m.group(1))), m.group(2))
    if not chars:
        return []
    if fonts_installed is None:
        from .diagrams import installed_cjk_fonts

        fonts_installed = bool(installed_cjk_fonts())
    if not fonts_installed:
        return []
    return [Problem("glyph", f"{ch!r} (U+{ord(ch):04X}) is drawn as a box: missing from {fonts}; draw Chinese with "
                             "the course's font list (diagrams.setup_matplotlib), not a fixed font family")
            for ch, fonts in chars.items()]


def assert_legible(fig: Any) -> None:
    """Raise :class:`FigureStandardError` listing every problem of ``fig``; return None when it passes."""
    problems = audit(fig)
    if problems:
        title = getattr(fig, "title", "") if not callable(getattr(fig, "title", None)) else ""
        raise FigureStandardError(problems, title)


# ------------------------------------------------------------------------------------------ recording
def record(fig: Any, folder: str | os.PathLike | None = None) -> dict | None:
    """Audit ``fig`` and append the result to ``<folder>/<pid>.jsonl`` (default folder: ``$COURSE_FIGURE_AUDIT``).

    Called by :class:`~course_lib.diagrams.CourseFigure` each time a notebook displays a figure, so a
    test run can fail the cell that showed an illegible one. Returns the record, or None when no
    folder is set (the normal case for a learner).
    """
    folder = folder or os.environ.get(AUDIT_ENV)
    if not folder:
        return None
    try:
        problems = [str(p) for p in audit(fig)]
    except Exception as e:  # an audit that cannot run is itself a finding
        problems = [f"[audit] the figure could not be audited: {type(e).__name__}: {e}"]
    entry = {"title": getattr(fig, "title", "") if isinstance(getattr(fig, "title", ""), str) else "",
             "problems": problems}
    path = Path(folder) / f"{os.getpid()}.jsonl"
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return entry


def read_records(folder: str | os.PathLike, offsets: dict[str, int] | None = None) -> tuple[list[dict], dict[str, int]]:
    """The records appended to ``folder`` since ``offsets`` (bytes read per file), and the new offsets."""
    offsets = dict(offsets or {})
    found: list[dict] = []
    for path in sorted(Path(folder).glob("*.jsonl")):
        data = path.read_bytes()
        start = offsets.get(path.name, 0)
        for line in data[start:].decode("utf-8").splitlines():
            if line.strip():
                found.append(json.loads(line))
        offsets[path.name] = len(data)
    return found, offsets


def problems_of(records: Iterable[dict]) -> list[str]:
    """The problems of every record, each prefixed by its figure's title."""
    return [f"{r.get('title') or 'a figure'}: {p}" for r in records for p in r["problems"]]


__all__ = ["AUDIT_ENV", "DISPLAY_WIDTH_PX", "FigureStandardError", "LABEL_REACH_PX", "MIN_CONTRAST", "MIN_FONT_PT",
           "Problem", "assert_legible", "audit", "contrast_ratio", "decoration", "display_scale", "problems_of",
           "read_records", "record"]
