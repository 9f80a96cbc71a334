"""Tables that read right in both places a notebook is seen: HTML in JupyterLab, aligned text elsewhere.

A text table padded with ``str.ljust`` is misaligned as soon as a cell holds Chinese text or an emoji:
those characters take two columns in a terminal or a monospaced output area, while ``len()`` counts
one. :func:`display_width` counts columns the way terminals do (Unicode's East Asian Width property,
`UAX #11 <https://www.unicode.org/reports/tr11/>`_: wide and fullwidth characters take two, combining
marks and zero-width joiners none), and :func:`pad` pads by it.

:class:`Table` keeps the rows once and shows them as a real ``<table>`` (its cells may hold the small
inline markdown of the lessons: ``**bold**``, ``*italic*``, backticks, links) and as aligned plain text
(the same markdown without its marks), so nbval, a terminal and a forge see the same table.
"""
from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Sequence

# Zero-width characters that are not combining marks: joiners, variation selectors (emoji vs text style).
_ZERO_WIDTH = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF} | set(range(0xFE00, 0xFE10))


def char_width(ch: str) -> int:
    """Columns one character takes in a terminal: 2 for wide/fullwidth (CJK, most emoji), 0 for marks, else 1."""
    code = ord(ch)
    if code in _ZERO_WIDTH or unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospaced display (UAX #11), not ``len(text)``.

    Example:
        >>> display_width("Shanghai"), display_width("上海"), display_width("✅ ok")
        (8, 4, 5)
    """
    return sum(char_width(ch) for ch in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` display columns (``"<"`` left, ``">"`` right, ``"^"`` centre).

    Text already wider than ``width`` is returned unchanged (never cut: a table row may then be ragged,
    but no character is lost).

    Example:
        >>> pad("上海", 6) + "|", pad("ab", 6) + "|", pad("7", 3, ">")
        ('上海  |', 'ab    |', '  7')
    """
    gap = max(0, width - display_width(text))
    if align == ">":
        return " " * gap + text
    if align == "^":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


def cut(text: str, width: int, placeholder: str = "…") -> str:
    """``text`` if it fits in ``width`` display columns, else its longest start that fits with ``placeholder``
    after it (``text[:width - 1] + "…"`` for ASCII text, counted in columns for Chinese).

    Example:
        >>> cut("abcdef", 4), cut("上海天气", 5), cut("ok", 4)
        ('abc…', '上海…', 'ok')
    """
    if display_width(text) <= width:
        return text
    room, out = width - display_width(placeholder), []
    for ch in text:
        room -= char_width(ch)
        if room < 0:
            break
        out.append(ch)
    return "".join(out) + placeholder


_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
# *word* or _word_ (not inside a word, not **bold**, not a spaced "2 * 3")
_ITALIC = re.compile(r"(?<![\w*])([*_])(?!\s)([^*_\n]+?)(?<!\s)\1(?![\w*])")


def _set_code_aside(text: str, codes: list[str]) -> str:
    def keep(match: re.Match) -> str:
        codes.append(match.group(1))
        return f"\x00{len(codes) - 1}\x00"
    return _CODE.sub(keep, text)


def inline_markdown_html(markdown: str) -> str:
    """The inline markdown of one table cell or hint as HTML (escaped first: never raw HTML from text).

    Code spans are set aside before bold and italic, so ``**kwargs`` or ``__init__`` keep their marks.

    Example:
        >>> inline_markdown_html("see *why* a **registry** needs `json.loads`")
        'see <i>why</i> a <b>registry</b> needs <code>json.loads</code>'
    """
    codes: list[str] = []
    text = html.escape(markdown, quote=False)
    links: list[tuple[str, str]] = []

    def link(match: re.Match) -> str:
        links.append((match.group(1), match.group(2)))
        return f"\x01{len(links) - 1}\x01"

    text = _LINK.sub(link, text)
    text = _set_code_aside(text, codes)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\2</i>", text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: f"<code>{codes[int(m.group(1))]}</code>", text)

    def put_link(match: re.Match) -> str:
        label, url = links[int(match.group(1))]
        return f"<a href='{html.escape(html.unescape(url))}' target='_self'>{inline_markdown_html(html.unescape(label))}</a>"
    return re.sub(r"\x01(\d+)\x01", put_link, text)


def inline_markdown_text(markdown: str) -> str:
    """The same inline markdown as plain text: what a reader sees, without ``*``, ``**``, backticks or URLs.

    Example:
        >>> inline_markdown_text("see *why* a **registry** needs `json.loads` ([lesson 01](01.ipynb))")
        'see why a registry needs json.loads (lesson 01)'
    """
    codes: list[str] = []
    text = _LINK.sub(lambda m: m.group(1), markdown)
    text = _set_code_aside(text, codes)
    text = _BOLD.sub(r"\1", text)
    text = _ITALIC.sub(r"\2", text)
    return re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m.group(1))], text)


@dataclass
class Table:
    """Rows shown as an HTML table in Jupyter and as display-width-aligned text elsewhere.

    Args:
        headers: column names.
        rows: one sequence of cell texts per row (inline markdown allowed; ``None`` shows as "").
        align: one of ``"<"``, ``">"``, ``"^"`` per column for the text form (default: all left).
        footer: a line under the table (inline markdown).
        html_cells: optional ready HTML per cell, same shape as ``rows``, used instead of the markdown
            in the HTML form (e.g. a lesson title with a link and its goal under it).

    Raises:
        ValueError: a row's length differs from ``headers``.
    """

    headers: Sequence[str]
    rows: Sequence[Sequence[str | None]]
    align: Sequence[str] = ()
    footer: str = ""
    html_cells: Sequence[Sequence[str]] | None = None
    _cells: list[list[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._cells = [["" if c is None else str(c) for c in row] for row in self.rows]
        bad = [r for r in self._cells if len(r) != len(self.headers)]
        if bad:
            raise ValueError(f"every row needs {len(self.headers)} cells; got {bad[0]!r}")

    def text(self, *, gap: str = "  ") -> str:
        """The table as aligned plain text (markdown marks removed, widths counted in display columns)."""
        body = [[inline_markdown_text(c) for c in row] for row in self._cells]
        heads = [inline_markdown_text(h) for h in self.headers]
        widths = [max(display_width(x) for x in col) for col in zip(heads, *body)]
        aligns = list(self.align) + ["<"] * (len(widths) - len(self.align))

        def line(cells: list[str]) -> str:
            # The last column is not padded: no trailing spaces.
            out = [pad(c, w, a) if i < len(cells) - 1 or a != "<" else c
                   for i, (c, w, a) in enumerate(zip(cells, widths, aligns))]
            return gap.join(out).rstrip()

        lines = [line(heads)] + [line(r) for r in body]
        if self.footer:
            lines.append(inline_markdown_text(self.footer))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left'>{inline_markdown_html(h)}</th>" for h in self.headers)
        cells = self.html_cells or [[inline_markdown_html(c) for c in row] for row in self._cells]
        body = "".join("<tr>" + "".join(f"<td style='text-align:left;vertical-align:top'>{c}</td>" for c in row)
                       + "</tr>" for row in cells)
        foot = f"<p>{inline_markdown_html(self.footer)}</p>" if self.footer else ""
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{foot}"

    def __repr__(self) -> str:
        return self.text()
