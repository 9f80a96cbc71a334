"""Interview preparation: the question bank, runnable demos, flashcards, mock interviews, cheat sheet.

The learner-facing names, imported lazily so ``course cheatsheet`` does not load the SDKs:

* :func:`load_bank` → the :class:`Bank` of questions (``course_lib/data/interview.json``);
* :func:`run_demo` / :data:`DEMOS` → the demonstration behind each answer;
* :func:`design_diagram` → the system-design pictures;
* :func:`flashcards` (with :class:`CardStore`, :class:`Session`) → spaced-repetition cards;
* :func:`mock_interview` (with :class:`MockInterview`) → a timed, scored interview;
* :func:`export_cheatsheet` → the printable Markdown + HTML cheat sheet.

Taught in ``notebooks/interview/`` (start with ``00_practice.ipynb``).
"""
from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Bank": "bank", "BankError": "bank", "Question": "bank", "load_bank": "bank", "render_markdown": "bank",
    "CardStore": "store", "CardState": "store",
    "Session": "cards", "flashcards": "cards", "pick_cards": "cards",
    "MockInterview": "timed", "mock_interview": "timed", "Report": "timed",
    "score_answer": "scoring",
    "cheatsheet_markdown": "cheatsheet", "export_cheatsheet": "cheatsheet",
    "DEMOS": "demos", "PENDING": "demos", "DemoPending": "demos", "run_demo": "demos",
    "design_diagram": "design",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'course_lib.interview' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
