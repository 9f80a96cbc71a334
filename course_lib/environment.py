"""The environment check of lesson 00: versions, widgets, and a round trip to the LLM.

It answers the questions a learner (or an instructor before a workshop) has first: is
this the course's Python, are the SDK versions the ones the lessons were written for, will
widgets render (ipywidgets in the kernel and the JupyterLab extension must share a major
version: jupyter-widgets/ipywidgets#3577 is the "Error displaying widget: model not found"
of a mismatch), and does a chat completion go through the ``openai`` client?
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from importlib import metadata

from .i18n import _
from .text_table import pad

#: What the lessons were written against (compatible ranges, as in pyproject.toml).
EXPECTED = {"openai": "3", "mcp": "2.3", "a2a-sdk": "1.3", "ipywidgets": "8", "jupyterlab": "4"}
#: ipywidgets major -> the jupyterlab_widgets (front-end) major it needs.
WIDGETS_FRONTEND = {8: 3, 7: 1}


@dataclass
class Item:
    """One line of the environment report."""

    name: str
    value: str
    ok: bool
    note: str = ""

    def line(self) -> str:
        return f"{'✅' if self.ok else '❌'} {pad(self.name, 22)} {self.value}{'  — ' + self.note if self.note else ''}"


def version(dist: str) -> str | None:
    """The installed version of distribution ``dist``, or None."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _major(v: str | None) -> int | None:
    try:
        return int(v.split(".")[0]) if v else None
    except ValueError:
        return None


def widgets_compatible() -> Item:
    """Do the kernel's ipywidgets and the front-end's jupyterlab_widgets majors match? (jupyter-widgets/ipywidgets#3577)"""
    kernel, frontend = version("ipywidgets"), version("jupyterlab_widgets")
    need = WIDGETS_FRONTEND.get(_major(kernel) or -1)
    ok = need is not None and _major(frontend) == need
    note = "" if ok else _("ipywidgets {kernel} needs jupyterlab_widgets {need}.x; found {frontend}. "
                           "Run `make lab` again to reinstall from the lock.").format(kernel=kernel, need=need,
                                                                                     frontend=frontend)
    return Item(_("widgets kernel/front"), f"ipywidgets {kernel} / jupyterlab_widgets {frontend}", ok, note)


def llm_round_trip() -> Item:
    """Send one chat completion through :func:`course_lib.llm_client.get_client`."""
    from .llm_client import backend, default_model, get_client

    try:
        client = get_client(max_retries=0)
        reply = client.chat.completions.create(model=default_model(),
                                               messages=[{"role": "user", "content": "Hello"}])
        return Item(_("LLM round trip"), f"{backend().kind}: {reply.choices[0].message.content!r}", True)
    except Exception as e:  # report, never crash the first cell of the course
        return Item(_("LLM round trip"), f"{type(e).__name__}", False, str(e))


def environment_report() -> list[Item]:
    """Every check, in the order lesson 00 prints them."""
    items = [Item("python", sys.version.split()[0], sys.version_info >= (3, 10),
                  "" if sys.version_info >= (3, 10) else _("Python 3.10+ is needed"))]
    items.append(Item(_("python executable"), sys.executable, True))
    for dist, want in EXPECTED.items():
        got = version(dist)
        ok = got is not None and (got == want or got.startswith(want + "."))
        items.append(Item(dist, got or _("missing"), ok, "" if ok else _("the lessons expect {want}.x").format(want=want)))
    items.append(widgets_compatible())
    items.append(llm_round_trip())
    return items


def check_environment() -> bool:
    """Print the report; True when every line is ✅."""
    items = environment_report()
    for item in items:
        print(item.line())
    return all(i.ok for i in items)
