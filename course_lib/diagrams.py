"""Sequence diagrams drawn with matplotlib from real events (messages, JSON-RPC, A2A).

Every protocol lesson draws "who sends what to whom" the same way: vertical lifelines,
one arrow per message, top to bottom in the order the messages really travelled. Callers
turn their trace into :class:`Arrow` objects; :func:`sequence_diagram` draws them. The
figure is a plain ``matplotlib.figure.Figure`` (no pyplot state), so returning it from a
cell displays it once, and it works headless.

matplotlib is imported on the first figure or text measurement, not with this module: importing
it costs about half a second, and a lesson's first cell (or an MCP server started over stdio)
that only imports names from here must not pay for it. :class:`CourseFigure` lives in
:mod:`course_lib.course_figure` and is reachable here as ``diagrams.CourseFigure``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from .i18n import N_, _

if TYPE_CHECKING:
    from .course_figure import CourseFigure

#: Fonts with Chinese glyphs, tried in order when installed (the seeds' examples are bilingual; the Chinese edition
#: draws every label in Chinese). Debian's fonts-noto-cjk (``make browser``) registers "Noto Sans CJK SC" and "... JP".
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans SC", "Source Han Sans SC", "PingFang SC",
             "Microsoft YaHei", "SimHei", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Arial Unicode MS")


def _use_installed_cjk_fonts() -> list[str]:
    """Add the CJK fonts this machine has as per-glyph fallbacks, so 上海 draws as text, not boxes.

    They go into ``font.family`` after the generic family (``["sans-serif", "Noto Sans CJK SC", ...]``):
    matplotlib (3.6+) draws each glyph with the first font of that list that has it, so Latin text keeps
    the course's font (and its measured widths) and Chinese falls back to a CJK font. Appending them to
    ``font.sans-serif`` would not: matplotlib takes only the first installed font of a generic family.
    Only installed fonts are added: naming a missing font makes matplotlib log a warning into every
    notebook cell that draws.

    Returns:
        The CJK font names added (empty when none is installed: Chinese then draws as boxes, and
        ``tests/test_cjk_figures.py`` is skipped with that reason).
    """
    import matplotlib

    found = installed_cjk_fonts()
    family = matplotlib.rcParams["font.family"]
    current = [family] if isinstance(family, str) else list(family)
    matplotlib.rcParams["font.family"] = current + [f for f in found if f not in current]
    return found

def installed_cjk_fonts() -> list[str]:
    """The fonts of :data:`CJK_FONTS` this machine has, in order (empty: Chinese figure text draws as boxes;
    Debian/Ubuntu: ``make browser`` installs fonts-noto-cjk, other systems ship one of the others)."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return [name for name in CJK_FONTS if name in installed]


#: The Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008): eight colours told apart with every
#: common colour-vision deficiency. Every figure of the course picks its colours from here.
OKABE_ITO = {"black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
             "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7"}
GREY, LIGHT_GREY, INK = "#6B6B6B", "#D9D9D9", "#222222"
#: Text sizes in points (figures are drawn at :data:`DPI` and shown 1:1 up to 1000 px wide, so a point is
#: close to a screen point): the figure standard's minimum is 9 pt (:mod:`course_lib.figure_standard`).
FONT, FONT_SMALL, FONT_TITLE = 10.5, 9.5, 12
DPI = 100
#: The widest figure shown unscaled, in inches (1000 px at :data:`DPI`).
MAX_WIDTH = 9.6

STYLES = {  # kind -> (colour, line style); colour and dash both say the kind (colour is never the only cue)
    "request": (OKABE_ITO["blue"], "-"),
    "response": (OKABE_ITO["green"], "--"),
    "notification": (OKABE_ITO["purple"], ":"),
    "error": (OKABE_ITO["vermillion"], "-."),
    "local": (GREY, "-"),
}
KIND_NAMES = {"request": N_("request"), "response": N_("response"), "notification": N_("notification (no reply)"),
              "error": N_("error"), "local": N_("local call")}  # shown translated: _(KIND_NAMES[kind])
LABEL_CHARS = 70


def _apply_course_style() -> None:
    """The course's matplotlib defaults: Okabe-Ito colour cycle, readable sizes, light frames."""
    import matplotlib
    from cycler import cycler

    matplotlib.rcParams.update({
        "axes.prop_cycle": cycler(color=[OKABE_ITO[k] for k in ("blue", "orange", "green", "vermillion", "purple",
                                                                 "sky", "yellow", "black")]),
        "font.size": FONT, "axes.titlesize": FONT_TITLE, "axes.labelsize": FONT, "xtick.labelsize": FONT_SMALL,
        "ytick.labelsize": FONT_SMALL, "legend.fontsize": FONT_SMALL, "figure.titlesize": FONT_TITLE,
        "axes.spines.top": False, "axes.spines.right": False, "axes.edgecolor": GREY, "axes.labelcolor": INK,
        "text.color": INK, "xtick.color": INK, "ytick.color": INK,
    })


_MATPLOTLIB_READY = False


def setup_matplotlib() -> None:
    """Import matplotlib and apply the course's fonts and style, once per process (idempotent).

    Called by everything here that draws or measures text, and by :mod:`course_lib.course_figure` on import,
    so a figure is never drawn without the course style and the CJK fallback fonts.
    """
    global _MATPLOTLIB_READY
    if not _MATPLOTLIB_READY:
        _MATPLOTLIB_READY = True
        _use_installed_cjk_fonts()
        _apply_course_style()


def __getattr__(name: str) -> Any:
    if name == "CourseFigure":  # PEP 562: the matplotlib subclass is built when first asked for
        from .course_figure import CourseFigure

        return CourseFigure
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def text_width(text: str, size: float = FONT, *, weight: str = "normal", dpi: int = DPI) -> float:
    """The width of ``text`` drawn at ``size`` points, in inches (measured with matplotlib's Agg renderer)."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    renderer = _measuring_renderer(dpi)
    width, _, _ = renderer.get_text_width_height_descent(text, FontProperties(size=size, weight=weight), ismath=False)
    return width / dpi


_RENDERERS: dict[int, object] = {}


def _measuring_renderer(dpi: int):
    setup_matplotlib()
    from matplotlib.backends.backend_agg import RendererAgg

    if dpi not in _RENDERERS:
        _RENDERERS[dpi] = RendererAgg(10, 10, dpi)
    return _RENDERERS[dpi]


def wrap_to_width(text: str, width: float, size: float = FONT, *, max_lines: int = 3,
                  weight: str = "normal") -> list[str]:
    """``text`` in lines that each fit ``width`` inches at ``size`` points (at most ``max_lines``, the last cut with …).

    Words longer than a line are cut at characters. Used to keep labels between two lifelines or inside a box.
    """
    words = " ".join(str(text).split()).split(" ")
    lines: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}".strip()
        if text_width(trial, size, weight=weight) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        while text_width(word, size, weight=weight) > width and len(word) > 1:  # a long token: cut it
            cut = len(word)
            while cut > 1 and text_width(word[:cut], size, weight=weight) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(last + "…", size, weight=weight) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    return lines or [""]


def decoration_line(line):
    """Mark a Line2D (a table rule, a frame) as decoration for the figure standard; returns it."""
    from .figure_standard import decoration

    return decoration(line)


def figure(width: float = 8.0, height: float = 3.0, *, text: str = "", dpi: int = DPI) -> CourseFigure:
    """A new :class:`CourseFigure` (``width`` x ``height`` inches, at ``dpi``) with a text fallback.

    Keep ``width`` at most :data:`MAX_WIDTH` so a notebook shows it unscaled (the figure standard
    measures text at the displayed size).
    """
    from .course_figure import CourseFigure

    return CourseFigure(figsize=(width, height), dpi=dpi, text=text)


@dataclass
class Arrow:
    """One message in a sequence diagram.

    Attributes:
        src: lane the message leaves (e.g. ``"App"``).
        dst: lane it reaches (``src == dst`` draws a note on that lane).
        label: short text above the arrow (truncated to :data:`LABEL_CHARS`).
        kind: ``request``, ``response``, ``notification``, ``error`` or ``local``.
    """

    src: str
    dst: str
    label: str
    kind: str = "request"

    def __repr__(self) -> str:
        return f"{self.src} -> {self.dst}: {self.label}"


def _short(text: str, n: int = LABEL_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def sequence_diagram(lanes: list[str], arrows: list[Arrow], *, title: str | None = None,
                     width: float | None = None) -> CourseFigure:
    """Draw ``arrows`` between vertical ``lanes``; returns the figure.

    Each message's label sits above its arrow, in the gap next to the lane it leaves, wrapped to fit
    that gap (never across another lane's lifeline); a note on one lane (``src == dst``) sits in a box
    beside it. The kinds of message drawn get a legend (colour *and* dash say the kind). Text is at least
    9.5 pt and the figure at most :data:`MAX_WIDTH` inches wide, so it passes the figure standard.

    Args:
        lanes: lane names, left to right (every ``Arrow.src``/``dst`` must be one of them).
        arrows: the messages, in the order they travelled.
        title: optional title above the diagram.
        width: figure width in inches (default: what the lanes need, at most :data:`MAX_WIDTH`);
            the height grows with the number of messages and the lines their labels need.

    Raises:
        ValueError: an arrow names a lane that is not in ``lanes``.
    """
    from matplotlib.lines import Line2D

    unknown = {a.src for a in arrows} | {a.dst for a in arrows}
    unknown -= set(lanes)
    if unknown:
        raise ValueError(f"arrows use lanes {sorted(unknown)} not in {lanes}")
    n = len(lanes)
    notes_last = any(a.src == a.dst == lanes[-1] for a in arrows)
    kinds = [k for k in STYLES if any((a.kind if a.kind in STYLES else "request") == k and a.src != a.dst
                                      for a in arrows)]
    legend_w = sum(text_width(_(KIND_NAMES[k]), FONT_SMALL) + 0.75 for k in kinds) + 0.3
    header = [min(text_width(lane, FONT, weight="bold"), 2.4) / 2 + 0.2 for lane in lanes]
    margin_left = max(0.75, header[0] + 0.05)
    margin_right = max(2.2 if notes_last else 0.75, header[-1] + 0.05)
    total = min(width or MAX_WIDTH, MAX_WIDTH)
    gap = (total - margin_left - margin_right) / (n - 1) if n > 1 else 0.0
    if n > 1 and width is None:
        gap = min(gap, 2.8)  # a few lanes: no need to stretch them across the page
    total = margin_left + margin_right + gap * (n - 1)
    if total < legend_w:  # two or three lanes: widen the margins so the legend fits under them
        extra = (min(legend_w, MAX_WIDTH) - total) / 2
        margin_left, margin_right, total = margin_left + extra, margin_right + extra, min(legend_w, MAX_WIDTH)
    x = {lane: margin_left + i * gap for i, lane in enumerate(lanes)}

    line_h, pad = FONT_SMALL / 72 * 1.3, 0.16
    rows = []  # (arrow, label lines, x of the label, alignment, row height, tagged)
    wide = min(3.6, total - 0.4)  # a label that does not fit between two lifelines: a tag on its own background

    def fits(lines: list[str]) -> bool:
        return len(lines) <= 2 and not lines[-1].endswith("…")

    for i, a in enumerate(arrows):
        label = f"{i + 1}. {_short(a.label)}"
        if a.src == a.dst:
            room = (gap - 0.35) if a.src != lanes[-1] else (margin_right - 0.3)
            lines = wrap_to_width(label, max(room, 0.8), FONT_SMALL, max_lines=3)
            lx = x[a.src] + 0.12
            if not fits(lines):  # a wider note, moved left where it would run past the edge (its box hides lines)
                lines = wrap_to_width(label, min(wide, max(room, 2.6)), FONT_SMALL, max_lines=2)
                lx = min(lx, total - max(text_width(line, FONT_SMALL) for line in lines) - 0.2)
            rows.append((a, lines, lx, "left", pad * 2 + line_h * len(lines), False))
        else:
            step = 1 if x[a.dst] > x[a.src] else -1
            neighbour = lanes[lanes.index(a.src) + step]
            lines = wrap_to_width(label, gap - 0.2, FONT_SMALL, max_lines=3)
            lx, tagged = (x[a.src] + x[neighbour]) / 2, False
            if not fits(lines):
                lines = wrap_to_width(label, wide, FONT_SMALL, max_lines=2)
                half = max(text_width(line, FONT_SMALL) for line in lines) / 2 + 0.1
                lx, tagged = min(max((x[a.src] + x[a.dst]) / 2, half + 0.05), total - half - 0.05), True
            rows.append((a, lines, lx, "center", pad * 2 + line_h * len(lines) + 0.06, tagged))
    header_h, title_h, legend_h = 0.55, (0.5 if title else 0.15), 0.45
    body_h = sum(r[4] for r in rows) + 0.25
    height = title_h + header_h + body_h + legend_h
    fig = figure(total, height, text=arrows_text(arrows))
    ax = fig.add_axes((0, legend_h / height, 1, (header_h + body_h) / height))
    ax.set_xlim(0, total)
    ax.set_ylim(-body_h, header_h)
    ax.axis("off")
    room = min(max(gap - 0.12, 1.0), 2.4) if n > 1 else 2.4
    head_size = FONT if all(text_width(w, FONT, weight="bold") <= room for lane in lanes for w in lane.split()) \
        else FONT_SMALL  # a long one-word lane name ("Orchestrator") in a narrow gap: a size smaller, not cut
    for lane, xi in x.items():
        name = "\n".join(wrap_to_width(lane, room, head_size, max_lines=2, weight="bold"))
        ax.text(xi, header_h * 0.45, name, ha="center", va="center", fontsize=head_size, weight="bold", color=INK,
                bbox={"boxstyle": "round,pad=0.3", "fc": "#F2F2F2", "ec": GREY, "lw": 0.8})
        ax.add_line(Line2D([xi, xi], [0.02, -body_h], color=LIGHT_GREY, lw=1.2, zorder=0, label=f"{lane} lifeline"))
    y = 0.0
    for a, lines, lx, align, h, tagged in rows:
        colour, ls = STYLES.get(a.kind, STYLES["request"])
        text = "\n".join(lines)
        if a.src == a.dst:
            mid = y - h / 2
            ax.text(lx, mid, text, fontsize=FONT_SMALL, va="center", ha="left", color=INK, linespacing=1.3,
                    bbox={"boxstyle": "round,pad=0.25", "fc": "#FFF8E1", "ec": colour, "lw": 0.8})
        else:
            arrow_y = y - h + pad
            ax.annotate("", xy=(x[a.dst], arrow_y), xytext=(x[a.src], arrow_y),
                        arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.5, "linestyle": ls,
                                    "shrinkA": 0, "shrinkB": 0})
            tag = {"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none"} if tagged else None
            ax.text(lx, arrow_y + 0.08, text, ha=align, va="bottom", fontsize=FONT_SMALL, color=INK, linespacing=1.3,
                    bbox=tag, zorder=3)
        y -= h
    if kinds:
        handles = [Line2D([], [], color=STYLES[k][0], linestyle=STYLES[k][1], lw=1.5, label=_(KIND_NAMES[k]))
                   for k in kinds]
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False, fontsize=FONT_SMALL,
                   bbox_to_anchor=(0.5, 0.02 / height), handlelength=2.6)
    if title:
        fig.suptitle("\n".join(wrap_to_width(title, total - 0.3, FONT_TITLE, max_lines=2)), fontsize=FONT_TITLE,
                     y=1 - 0.08 / height, va="top")
    return fig


def arrows_text(arrows: list[Arrow]) -> str:
    """The text fallback of a diagram: one numbered line per arrow."""
    from .text_table import pad  # lanes padded by display columns (a Chinese lane name takes two a character)

    return "\n".join(f"{i + 1:>2}. {pad(a.src, 8, '>')} {'->' if a.src != a.dst else '::'} {pad(a.dst, 8)} "
                     f"{_short(a.label, 100)}" for i, a in enumerate(arrows))
