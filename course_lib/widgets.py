"""Small ipywidgets helpers with a readable text fallback.

A widget saved in a notebook shows as "Error displaying widget" on a forge, and its view
has a random model id. So every widget the course shows travels with a plain-text version
of the same content: JupyterLab renders the widget, while GitHub, ``nbconvert`` and nbval
see the text.
"""
from __future__ import annotations

import html
import json
from typing import Any, Callable, Sequence

from .i18n import _


class WithFallback:
    """Display ``widget`` in Jupyter, and ``text`` wherever widgets cannot render."""

    def __init__(self, widget: Any, text: str) -> None:
        self.widget = widget
        self.text = text

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude) if self.widget is not None else {}
        if isinstance(bundle, tuple):
            bundle = bundle[0]
        return {**(bundle or {}), "text/plain": self.text}

    def __repr__(self) -> str:
        return self.text


def widgets_available() -> bool:
    """True when ipywidgets imports (the front-end may still be missing: see ``environment``)."""
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return False
    return True


def stepper(items: Sequence[Any], render_html: Callable[[Any], str], *, title: str = "",
            text: str | None = None) -> WithFallback:
    """A ◀ / ▶ stepper through ``items``; each is shown with ``render_html(item)``.

    Args:
        items: what to step through (messages, JSON-RPC frames, task events...).
        render_html: turns one item into HTML.
        title: a caption shown above the position counter.
        text: the text fallback (default: every item as JSON, numbered).
    """
    fallback = text if text is not None else "\n".join(
        f"[{i + 1}/{len(items)}] {json.dumps(x, ensure_ascii=False, default=str)}" for i, x in enumerate(items))
    if not widgets_available() or not items:
        return WithFallback(None, fallback)
    import ipywidgets as w

    slider = w.IntSlider(min=1, max=len(items), value=1, description=_("step"), continuous_update=True)
    prev_b, next_b = w.Button(description="◀", layout=w.Layout(width="40px")), w.Button(
        description="▶", layout=w.Layout(width="40px"))
    view = w.HTML()

    def show(_change: Any = None) -> None:
        i = slider.value - 1
        view.value = (f"<div style='font-size:12px;color:#666'>{html.escape(title)} {i + 1} / {len(items)}</div>"
                      + render_html(items[i]))

    prev_b.on_click(lambda _button: setattr(slider, "value", max(1, slider.value - 1)))
    next_b.on_click(lambda _button: setattr(slider, "value", min(len(items), slider.value + 1)))
    slider.observe(show, names="value")
    show()
    return WithFallback(w.VBox([w.HBox([prev_b, slider, next_b]), view]), fallback)


def json_html(obj: Any, *, colour: str = "#333") -> str:
    """``obj`` as pretty JSON in a ``<pre>`` block."""
    text = html.escape(json.dumps(obj, indent=2, ensure_ascii=False, default=str))
    return f"<pre style='border-left:4px solid {colour};padding:6px;margin:4px 0;font-size:12px'>{text}</pre>"
