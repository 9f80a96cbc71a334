"""Sequence diagrams drawn with matplotlib from real events (messages, JSON-RPC, A2A).

Every protocol lesson draws "who sends what to whom" the same way: vertical lifelines,
one arrow per message, top to bottom in the order the messages really travelled. Callers
turn their trace into :class:`Arrow` objects; :func:`sequence_diagram` draws them. The
figure is a plain ``matplotlib.figure.Figure`` (no pyplot state), so returning it from a
cell displays it once, and it works headless.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from matplotlib.figure import Figure

#: Fonts with Chinese glyphs, tried in order when installed (the seeds' examples are bilingual).
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
             "SimHei", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Arial Unicode MS")


def _use_installed_cjk_fonts() -> list[str]:
    """Add the CJK fonts this machine has as fallbacks, so 上海 draws as text, not boxes.

    Only installed fonts are added: naming a missing font makes matplotlib log a warning
    into every notebook cell that draws.
    """
    import matplotlib
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    found = [name for name in CJK_FONTS if name in installed]
    current = list(matplotlib.rcParams["font.sans-serif"])
    matplotlib.rcParams["font.sans-serif"] = current + [f for f in found if f not in current]
    return found


_use_installed_cjk_fonts()

STYLES = {  # kind -> (colour, line style)
    "request": ("#1f5fa8", "-"),
    "response": ("#2e7d32", "--"),
    "notification": ("#8e44ad", ":"),
    "error": ("#c62828", "--"),
    "local": ("#555555", "-"),
}
LABEL_CHARS = 70


class CourseFigure(Figure):
    """A matplotlib figure that shows itself in notebooks without pyplot.

    Jupyter gets a PNG (``_repr_png_``); anything that shows text (nbval, a terminal, a
    forge) gets :attr:`fallback_text`, a readable description of the same content.
    """

    def __init__(self, *args, text: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fallback_text = text

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", bbox_inches="tight", metadata={"Software": None})
        return buf.getvalue()

    @property
    def title(self) -> str:
        """The figure's title: its ``suptitle``, else its axes' titles joined by " · " ("" when none)."""
        if self._suptitle is not None and self._suptitle.get_text():
            return self._suptitle.get_text()
        titles = [t for ax in self.axes for t in (ax.get_title(), ax.get_title("left")) if t]
        return " · ".join(dict.fromkeys(titles))

    def __repr__(self) -> str:
        title = self.title
        head = f"[figure{': ' + title if title else ''}]"
        return head + ("\n" + self.fallback_text if self.fallback_text else "")


def figure(width: float = 8.0, height: float = 3.0, *, text: str = "", dpi: int = 90) -> CourseFigure:
    """A new :class:`CourseFigure` (``width`` x ``height`` inches) with a text fallback."""
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
                     width: float = 10.0) -> CourseFigure:
    """Draw ``arrows`` between vertical ``lanes``; returns the figure.

    Args:
        lanes: lane names, left to right (every ``Arrow.src``/``dst`` must be one of them).
        arrows: the messages, in the order they travelled.
        title: optional title above the diagram.
        width: figure width in inches; the height grows with the number of arrows.

    Raises:
        ValueError: an arrow names a lane that is not in ``lanes``.
    """
    unknown = {a.src for a in arrows} | {a.dst for a in arrows}
    unknown -= set(lanes)
    if unknown:
        raise ValueError(f"arrows use lanes {sorted(unknown)} not in {lanes}")
    step = 0.55
    height = 1.2 + step * max(1, len(arrows))
    fig = figure(width, height, text=arrows_text(arrows))
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.98 if not title else 0.92))
    x = {lane: i for i, lane in enumerate(lanes)}
    top = 0.0
    bottom = -(len(arrows) + 0.6) * step
    for lane, xi in x.items():
        ax.plot([xi, xi], [top, bottom], color="#bbbbbb", lw=1, zorder=0)
        ax.text(xi, top + 0.15, lane, ha="center", va="bottom", fontsize=10, weight="bold",
                bbox={"boxstyle": "round,pad=0.3", "fc": "#f3f3f3", "ec": "#999999"})
    for i, a in enumerate(arrows):
        y = -(i + 0.8) * step
        colour, ls = STYLES.get(a.kind, STYLES["request"])
        label = f"{i + 1}. {_short(a.label)}"
        if a.src == a.dst:
            ax.text(x[a.src] + 0.05, y, label, fontsize=8, va="center", color=colour,
                    bbox={"boxstyle": "round,pad=0.2", "fc": "#fffbe6", "ec": colour, "lw": 0.6})
            continue
        ax.annotate("", xy=(x[a.dst], y), xytext=(x[a.src], y),
                    arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.4, "linestyle": ls})
        mid = (x[a.src] + x[a.dst]) / 2
        ax.text(mid, y + 0.06, label, ha="center", va="bottom", fontsize=8, color=colour)
    ax.set_xlim(-0.6, len(lanes) - 0.4)
    ax.set_ylim(bottom - 0.1, top + 0.6)
    ax.axis("off")
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def arrows_text(arrows: list[Arrow]) -> str:
    """The text fallback of a diagram: one numbered line per arrow."""
    return "\n".join(f"{i + 1:>2}. {a.src:>8} {'->' if a.src != a.dst else '::'} {a.dst:<8} {_short(a.label, 100)}"
                     for i, a in enumerate(arrows))
