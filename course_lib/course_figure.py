"""The course's matplotlib figure: a PNG in Jupyter, a readable text everywhere else.

Kept apart from :mod:`course_lib.diagrams` so that importing the diagram helpers (which every
lesson's first cell does through the trace and agent modules) does not import matplotlib;
this module does, and applies the course's fonts and style first (``diagrams.setup_matplotlib``).
Use :func:`course_lib.diagrams.figure` to make one.
"""
from __future__ import annotations

import io
import os

from matplotlib.figure import Figure

from .diagrams import setup_matplotlib
from .i18n import _

setup_matplotlib()


class CourseFigure(Figure):
    """A matplotlib figure that shows itself in notebooks without pyplot.

    Jupyter gets a PNG (``_repr_png_``); anything that shows text (nbval, a terminal, a
    forge) gets :attr:`fallback_text`, a readable description of the same content.
    """

    def __init__(self, *args, text: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fallback_text = text

    def _repr_png_(self) -> bytes:
        if os.environ.get("COURSE_FIGURE_AUDIT"):  # the test suite: measure what the notebook shows
            from .figure_standard import record

            record(self)
        buf = io.BytesIO()
        self.savefig(buf, format="png", bbox_inches="tight", metadata={"Software": None})
        return buf.getvalue()

    @property
    def title(self) -> str:
        """The figure's title: its ``suptitle``, else its axes' titles joined by " · " ("" when none)."""
        if self._suptitle is not None and self._suptitle.get_text():
            return " ".join(self._suptitle.get_text().split("\n"))  # a title wrapped to fit reads as one line
        titles = [" ".join(t.split("\n")) for ax in self.axes for t in (ax.get_title(), ax.get_title("left")) if t]
        return " · ".join(dict.fromkeys(titles))

    def __repr__(self) -> str:
        title = self.title
        head = f"[{_('figure')}{': ' + title if title else ''}]"
        return head + ("\n" + self.fallback_text if self.fallback_text else "")

