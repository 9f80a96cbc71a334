"""Hints on demand inside exercises: each one more specific than the last, then the solution.

A check tells a learner *what* is wrong; a hint helps them *find the way* before they look at
the solution. Every exercise keeps its hints beside its checks, in its check module::

    # course_lib/checks/<idea>.py
    HINTS = Hints("01_tool_call_loop", [
        "a nudge: which idea of the lesson this needs",
        "more specific: the step or API to use",
        "almost the answer: the shape of the code",
    ], solution_section="Your code: answer_with_tools")

and the exercise shows them with a cell containing ``HINTS`` (a button revealing the next
hint in JupyterLab; ``HINTS.next()`` anywhere), or from a terminal with ``course hint NN``.
After the last hint comes the "stuck?" pointer: a link to the matching section (a markdown
heading) of ``solutions/NN_name.ipynb``.

How many hints a learner has revealed is kept in the state folder (``hints.json``, atomic
writes, see :mod:`course_lib.storage`), so the notebook, ``course hint`` and
``course progress`` agree, and a kernel restart does not start the hints over.

The count is kept per exercise, not per exercise and language, on purpose: the Chinese exercise
(``exercises/zh/``) is the same exercise with the same hints, translated, and ``progress.json`` keys both
editions by the same stem too. A hint revealed in English has been told, so the Chinese notebook shows it at
once, in Chinese, already revealed; a count per language would have the learner click again through hints
they have read, and ``course progress`` count the same help twice.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .i18n import _, language, tidy_spacing
from .storage import data_dir, read_json, write_json


def hints_file() -> Path:
    """Where the number of hints revealed per exercise is kept (``hints.json`` in the state folder)."""
    return data_dir() / "hints.json"


def seen_counts() -> dict[str, int]:
    """``{exercise key: number of hints revealed}`` for every exercise."""
    return {k: int(v) for k, v in read_json(hints_file(), {}).items()}


def _set_seen(key: str, n: int) -> None:
    data = read_json(hints_file(), {})
    data[key] = n
    write_json(hints_file(), data)


def heading_anchor(heading: str) -> str:
    """The fragment JupyterLab gives a markdown heading (spaces → ``-``), e.g. ``Your-code``.

    Example:
        >>> heading_anchor("2. Your code: answer_with_tools")
        '2.-Your-code:-answer_with_tools'
    """
    return re.sub(r"\s+", "-", heading.strip().lstrip("#").strip())


@dataclass
class Hints:
    """The hints of one exercise, revealed one at a time.

    Args:
        exercise: the exercise's file stem, e.g. ``"01_tool_call_loop"`` (the key in ``hints.json``
            and the name of ``exercises/<stem>.ipynb`` / ``solutions/<stem>.ipynb``).
        steps: markdown texts, from a nudge to nearly the answer (at least one).
        solution_section: the heading (without ``#``) of the solution notebook's section that
            solves this part; the "stuck?" link points there.

    Raises:
        ValueError: no steps.

    Seed idea: kind, progressive help instead of a wall of traceback (developers' guide); used by
    every exercise from 01 on.
    """

    exercise: str
    steps: Sequence[str]
    solution_section: str = ""

    def __post_init__(self) -> None:
        if not self.steps:
            raise ValueError("a Hints object needs at least one step")
        self.steps = list(self.steps)

    @property
    def number(self) -> str:
        """The exercise's number as ``course hint`` takes it: ``"01"``, ``"06b"``."""
        return self.exercise.split("_", 1)[0]

    @property
    def command_arguments(self) -> str:
        """What follows ``course hint`` for this exercise in the learner's language: ``"01"`` in English,
        ``"01 --lang zh"`` in Chinese (the terminal's working directory may choose another language)."""
        lang = language()
        return self.number if lang == "en" else f"{self.number} --lang {lang}"

    # -- state -------------------------------------------------------------------------------
    @property
    def seen(self) -> int:
        """How many hints have been revealed so far (0 … ``len(steps)``)."""
        return min(seen_counts().get(self.exercise, 0), len(self.steps))

    def reset(self) -> None:
        """Hide every hint again."""
        _set_seen(self.exercise, 0)

    # -- content -----------------------------------------------------------------------------
    @property
    def solution_path(self) -> str:
        """The solution notebook, relative to the exercise notebook (for links): in the learner's language's
        edition when it has this solution (``exercises/zh/x.ipynb`` -> ``../../solutions/zh/x.ipynb``)."""
        if self._edition():
            return f"../../solutions/{self._edition()}/{self.exercise}.ipynb"
        return f"../solutions/{self.exercise}.ipynb"

    def _edition(self) -> str:
        """The learner's language when its edition has this exercise's solution, else ``""``."""
        lang = language()
        return lang if lang != "en" and (_SOLUTIONS / lang / f"{self.exercise}.ipynb").exists() else ""

    def _section(self) -> str:
        """:attr:`solution_section`, as its heading reads in the learner's edition of the solution."""
        lang = self._edition()
        if not (lang and self.solution_section):
            return self.solution_section
        return translated_heading(_SOLUTIONS / f"{self.exercise}.ipynb", _SOLUTIONS / lang / f"{self.exercise}.ipynb",
                                  self.solution_section)

    def _shown_path(self) -> str:
        lang = self._edition()
        return f"solutions/{lang}/{self.exercise}.ipynb" if lang else f"solutions/{self.exercise}.ipynb"

    def stuck(self) -> str:
        """The "stuck?" pointer: where the worked solution of this part is (markdown)."""
        section = self._section()
        where = f"{self.solution_path}#{heading_anchor(section)}" if section else self.solution_path
        said = _(", section “{section}”").format(section=section) if section else ""
        return (_("**Stuck?** The worked solution is in [`{path}`]({where}){section}. "
                  "Read it, close it, then write the code yourself: that is what makes it stick.")
                .format(path=self._shown_path(), where=where, section=said))

    def pointer(self, *, terminal: bool = False) -> str:
        """One line for a failed check: how to get the next hint.

        Args:
            terminal: word it for ``course check NN`` in a terminal (``course hint NN``) instead of a
                notebook, where the exercise's 💡 button (its ``HINTS`` cell) reveals the next hint.
        """
        n, number = len(self.steps), self.command_arguments
        if self.seen >= n:
            return _("All {n} hints are shown; stuck? see {path}.").format(n=n, path=self._shown_path())
        if terminal:
            return _("Need a nudge? Run `course hint {number}` (hint {next} of {n}).").format(
                number=number, next=self.seen + 1, n=n)
        return _("Need a nudge? Click “Show hint {next} of {n}” in the 💡 cell above "
                 "(or run `course hint {number}` in a terminal).").format(next=self.seen + 1, n=n, number=number)

    def revealed(self) -> list[str]:
        """The hints revealed so far, numbered (markdown)."""
        n = len(self.steps)
        return [_("**Hint {i} of {n}.** {hint}").format(i=i + 1, n=n, hint=_(s))
                for i, s in enumerate(self.steps[: self.seen])]

    def next(self, *, terminal: bool = False) -> "HintText":
        """Reveal one more hint (after the last one: the "stuck?" pointer) and show what is revealed.

        Args:
            terminal: word the "more hints" line for ``course hint NN`` (a terminal) instead of
                ``HINTS.next()`` (a notebook).
        """
        if self.seen < len(self.steps):
            _set_seen(self.exercise, self.seen + 1)
        return HintText(self._markdown(terminal=terminal))

    def show(self, upto: int | None = None, *, terminal: bool = False) -> "HintText":
        """Show hints ``1 … upto`` (default: those already revealed) without revealing more."""
        if upto is not None:
            _set_seen(self.exercise, max(self.seen, min(upto, len(self.steps))))
        return HintText(self._markdown(terminal=terminal))

    def _markdown(self, *, terminal: bool = False, button: bool = False) -> str:
        """The revealed hints and what to do for the next; ``button``: under the 💡 button ("click again")."""
        again = f"`course hint {self.command_arguments}`" if terminal else "`HINTS.next()`"
        parts = self.revealed() or [_("{n} hints are available: run {again} for the first.").format(
            n=len(self.steps), again=again)]
        if self.seen >= len(self.steps):
            parts.append(self.stuck())
        elif self.seen:
            more = len(self.steps) - self.seen
            parts.append(_("_{more} more: click the button again._").format(more=more) if button
                         else _("_{more} more: run {again} again._").format(more=more, again=again))
        return tidy_spacing("\n\n".join(parts))

    # -- display -----------------------------------------------------------------------------
    def widget(self) -> Any:
        """A button that reveals the next hint, with the hints shown so far; text fallback elsewhere."""
        from .widgets import WithFallback, widgets_available

        section = self._section()
        fallback = (_("💡 {n} hints for this exercise, each more specific: run `HINTS.next()` "
                      "(or `course hint {number}`). Stuck? {path}").format(
                          n=len(self.steps), number=self.command_arguments, path=self._shown_path())
                    + (_(", section “{section}”").format(section=section) if section else "") + ".")
        if not widgets_available():
            return WithFallback(None, fallback)
        import ipywidgets as w

        view = w.HTML(_md_html(self._markdown(button=True)) if self.seen else "")
        button = w.Button(description=self._button_label(), icon="lightbulb",
                          layout=w.Layout(width="auto"), tooltip=_("each hint is more specific than the last"))

        def reveal(_button: Any) -> None:
            self.next()
            view.value = _md_html(self._markdown(button=True))
            button.description = self._button_label()

        button.on_click(reveal)
        return WithFallback(w.VBox([button, view]), fallback)

    def _button_label(self) -> str:
        n = len(self.steps)
        return (_("Show hint {next} of {n}").format(next=self.seen + 1, n=n) if self.seen < n
                else _("Stuck? Show where the solution is"))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        return self.widget()._repr_mimebundle_(include=include, exclude=exclude)

    def __repr__(self) -> str:
        return f"Hints({self.exercise!r}, {len(self.steps)} steps, {self.seen} seen)"


class HintText:
    """Markdown shown as rendered markdown in Jupyter and as plain text in a terminal (:meth:`text`)."""

    def __init__(self, markdown: str) -> None:
        self.markdown = markdown

    def text(self, *, colour: bool = False) -> str:
        """The hints as plain terminal text (see :func:`markdown_to_text`)."""
        return markdown_to_text(self.markdown, colour=colour)

    def _repr_markdown_(self) -> str:
        return self.markdown

    def __repr__(self) -> str:
        return self.markdown


_CODE_SPAN = re.compile(r"`([^`\n]+)`")
# *word* or _word_ (not inside a word, not **bold**, not a spaced "2 * 3")
# [text](url), but not code that indexes and calls (`functions[name](**args)`): a link never follows a word
_LINK = re.compile(r"(?<![\w\]\)])\[`?([^\]`]+)`?\]\(([^)]+)\)")
_ITALIC = re.compile(r"(?<![\w*])([*_])(?!\s)([^*_\n]+?)(?<!\s)\1(?![\w*])")


def markdown_to_text(markdown: str, *, colour: bool = False) -> str:
    """The small markdown of hints as plain text for a terminal: what a reader sees, not the syntax.

    Links become their text (the hint names the file in it), ``**bold**`` and ``_italic_`` lose their
    marks, heading marks go, and code spans lose their backticks (shown in cyan when ``colour``, e.g.
    when the output is a terminal). Code spans are set aside first, so ``__init__`` stays intact.

    Example:
        >>> markdown_to_text("**Hint 1 of 3.** Use `json.loads`; see [`solutions/01.ipynb`](../solutions/01.ipynb#x).")
        'Hint 1 of 3. Use json.loads; see solutions/01.ipynb.'
    """
    codes: list[str] = []

    def keep(match: re.Match) -> str:
        codes.append(match.group(1))
        return f"\x00{len(codes) - 1}\x00"

    text = _LINK.sub(r"\1", markdown)   # [text](url) → text
    text = _CODE_SPAN.sub(keep, text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = _ITALIC.sub(r"\2", text)
    text = re.sub(r"^#+\s+", "", text, flags=re.M)
    paint = (lambda code: f"\x1b[36m{code}\x1b[0m") if colour else (lambda code: code)
    return re.sub(r"\x00(\d+)\x00", lambda m: paint(codes[int(m.group(1))]), text)


def _md_html(markdown: str) -> str:
    """A tiny markdown → HTML for the hint widget (bold, code, links, paragraphs)."""
    codes: list[str] = []

    def keep(match: re.Match) -> str:
        codes.append(match.group(1))
        return f"\x00{len(codes) - 1}\x00"

    text = html.escape(markdown)
    text = _LINK.sub(r"<a href='\2' target='_self'><code>\1</code></a>", text)
    text = _CODE_SPAN.sub(keep, text)    # set aside first: `**kwargs` or `__init__` keep their stars and underscores
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\2</i>", text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: f"<code>{codes[int(m.group(1))]}</code>", text)
    return "".join(f"<p style='margin:4px 0'>{p}</p>" for p in text.split("\n\n"))


_SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"


def translated_heading(english: Path, edition: Path, heading: str) -> str:
    """``heading`` (a markdown heading's text in ``english``) as it reads in ``edition``, the generated
    translation of that notebook (same cells in the same order, see :mod:`course_lib.translation`);
    ``heading`` itself when either file or the heading is not found."""
    import nbformat

    def headings(cell: Any) -> list[str]:
        return [ln.lstrip("#").strip() for ln in cell.source.splitlines() if ln.startswith("#")]

    try:
        src, out = (nbformat.read(str(p), as_version=4) for p in (english, edition))
    except (OSError, ValueError):
        return heading
    for a, b in zip(src.cells, out.cells):
        if a.cell_type == "markdown" and heading in headings(a):
            position, theirs = headings(a).index(heading), headings(b)
            return theirs[position] if position < len(theirs) else heading
    return heading


def hints_for(exercise_path) -> Hints | None:
    """The :class:`Hints` of an exercise notebook, found through the check modules its check cells import.

    Returns None when the exercise has no hints yet.
    """
    import importlib

    import nbformat

    nb = nbformat.read(str(Path(exercise_path)), as_version=4)
    modules = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            modules += re.findall(r"course_lib\.checks\.(\w+)", cell.source)
    for name in dict.fromkeys(modules):
        module = importlib.import_module(f"course_lib.checks.{name}")
        for value in vars(module).values():
            if isinstance(value, Hints) and value.exercise == Path(exercise_path).stem:
                return value
    return None
