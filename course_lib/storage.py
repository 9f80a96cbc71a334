"""Where the course keeps a learner's local state, and how it writes it safely.

State (check results, flashcard progress...) lives in one folder per learner:
``$COURSE_DATA_DIR`` if set (tests point it to a temp dir), else the platform's user
data directory (``~/.local/share/agent-tool-systems`` on Linux). Files are written
atomically (temp file in the same folder, ``fsync``, ``os.replace``), so a crash in the
middle of a write leaves the previous version intact, never a half-written file.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

APP_NAME = "agent-tool-systems"


def data_dir() -> Path:
    """The learner's state folder (created if missing)."""
    env = os.environ.get("COURSE_DATA_DIR")
    if env:
        path = Path(env)
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _mode_for(path: Path) -> int:
    """The permission bits ``path`` keeps, or those of a new file under the process umask (0o644 for 022)."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (readers see the old or the new file, never half).

    The file gets the permissions a plain ``open(path, "w")`` would give (``mkstemp``'s own are 0o600, which
    made a cheat sheet an instructor shares unreadable to others).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path: Path, default: Any) -> Any:
    """The JSON in ``path``, or ``default`` when it is missing or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return default


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as pretty JSON, atomically."""
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
