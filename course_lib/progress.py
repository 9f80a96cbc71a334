"""The learner's exercise progress, from the results of ``course check``.

Each ``course check NN`` run records, per exercise, the status (``attempted`` or
``passed``), the time, and each check's outcome in ``progress.json`` in the learner's
state folder (:func:`course_lib.storage.data_dir`). ``course progress`` reads it.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .storage import data_dir, read_json, write_json

NOT_STARTED, ATTEMPTED, PASSED = "not started", "attempted", "passed"


def progress_file() -> Path:
    return data_dir() / "progress.json"


def load() -> dict[str, Any]:
    """All recorded results: ``{exercise name: {"status", "checked_at", "checks": [...]}}``."""
    return read_json(progress_file(), {})


def record(exercise: str, passed: bool, checks: list[dict]) -> dict[str, Any]:
    """Store the outcome of one ``course check`` run and return the entry."""
    data = load()
    entry = {"status": PASSED if passed else ATTEMPTED, "checked_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
             "checks": checks}
    data[exercise] = entry
    write_json(progress_file(), data)
    return entry


def status(exercise: str) -> str:
    """``not started``, ``attempted`` or ``passed``."""
    return load().get(exercise, {}).get("status", NOT_STARTED)
