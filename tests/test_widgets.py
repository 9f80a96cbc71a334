"""Widgets follow the conventions a learner expects: buttons coloured by meaning, a hint button that says "click"."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")


def _buttons(widget):
    import ipywidgets as w

    found, todo = [], [widget]
    while todo:
        x = todo.pop()
        if isinstance(x, w.Button):
            found.append(x)
        todo.extend(getattr(x, "children", ()))
    return {b.description: b for b in found}


def test_approve_is_green_and_deny_red():
    from course_lib.security import Approval, ApprovalRequest, approval_widget

    decisions: list[Approval] = []
    shown = approval_widget(ApprovalRequest("delete_file", {"path": "notes.md"}, "writes to disk"), decisions.append)
    buttons = _buttons(shown.widget)
    assert buttons["Approve"].button_style == "success" and buttons["Approve"].icon == "check"
    assert buttons["Deny"].button_style == "danger" and buttons["Deny"].icon == "times"
    buttons["Deny"].click()
    assert [d.approved for d in decisions] == [False]


def test_the_hint_button_says_click_again(monkeypatch, tmp_path):
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))
    from course_lib.hints import Hints

    hints = Hints("99_demo", ["first nudge", "second nudge", "third"])
    shown = hints.widget()
    view = shown.widget.children[1]
    button = _buttons(shown.widget)["Show hint 1 of 3"]
    button.click()
    assert "first nudge" in view.value and "2 more: click the button again." in view.value
    assert "HINTS.next()" not in view.value and button.description == "Show hint 2 of 3"
    # HINTS.next() in code still tells to run it again
    assert "run `HINTS.next()` again" in hints.next().markdown
