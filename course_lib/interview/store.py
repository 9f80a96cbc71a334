"""A learner's flashcard progress: one small JSON file, written so that a crash never corrupts it.

Where: ``<data dir>/interview/<learner>.json``, the data dir being ``$COURSE_DATA_DIR`` or
the platform's user data directory (:func:`course_lib.storage.data_dir`). One file per
learner, so two people sharing a workshop laptop keep separate progress
(``COURSE_LEARNER`` or ``learner=`` picks the name; default: the login name).

How it stays intact: every save goes through :func:`course_lib.storage.write_json`,
which writes a temporary file in the same folder, ``fsync``\\ s it and renames it over the
old file (``os.replace`` is atomic). A crash before the rename leaves the previous file
untouched plus an orphaned ``.<name>.*.tmp``, which loading ignores and a later save
sweeps away. A file that is unreadable anyway (edited by hand, disk trouble) is moved
aside to ``<learner>.corrupt-<time>.json`` rather than overwritten, and progress restarts.

Spaced repetition, kept small: each card has a Leitner ``box`` (0 = review again;
"I knew it" moves it up one box, "review again" sends it back to 0), so a session can put
review-again and unseen cards first and then the known cards seen longest ago, lowest box
first. Deliberate shortcut: two kernels saving at the same instant can lose one mark
(each save re-reads the file first, so only a truly simultaneous write is affected).
"""
from __future__ import annotations

import getpass
import os
import re
import subprocess
import sys
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from ..storage import data_dir, read_json, write_json

KNOWN, REVIEW = "known", "review"
MAX_BOX = 5
FORMAT = "agent-tool-systems/interview-cards"
STALE_TMP_SECONDS = 600  # orphaned temp files older than this are removed on save


@dataclass
class CardState:
    """What the learner last said about one card.

    Attributes:
        status: ``"known"`` or ``"review"``.
        box: Leitner box, 0 (review again) to :data:`MAX_BOX`.
        reviews: how many times the card was marked.
        last: when it was last marked (seconds since the epoch).
    """

    status: str
    box: int
    reviews: int
    last: float

    def __repr__(self) -> str:
        return f"CardState({self.status}, box={self.box}, reviews={self.reviews})"


def default_learner() -> str:
    """``$COURSE_LEARNER``, else the login name, else ``"learner"``."""
    name = os.environ.get("COURSE_LEARNER")
    if not name:
        try:
            name = getpass.getuser()
        except Exception:  # no login name in some containers
            name = ""
    return name or "learner"


def _safe(name: str) -> str:
    """A learner name usable as a file name (letters, digits, ``-``, ``_``, ``.``)."""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "_", name.strip()).strip("._") or "learner"
    return cleaned[:64]


class CardStore:
    """Per-learner flashcard progress, persisted atomically.

    Args:
        learner: whose progress (default :func:`default_learner`).
        folder: where the file lives (default ``<data dir>/interview``).
        clock: returns seconds since the epoch (injectable for tests).

    Example:
        >>> import tempfile
        >>> store = CardStore("ada", folder=tempfile.mkdtemp(), clock=lambda: 1000.0)
        >>> store.mark("fc-five-steps", known=True)
        CardState(known, box=1, reviews=1)
        >>> CardStore("ada", folder=store.path.parent).get("fc-five-steps").status
        'known'
    """

    def __init__(self, learner: str | None = None, *, folder: Path | str | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.learner = learner or default_learner()
        self.folder = Path(folder) if folder is not None else data_dir() / "interview"
        self.path = self.folder / f"{_safe(self.learner)}.json"
        self.clock = clock

    def __repr__(self) -> str:
        cards = self.cards()
        known = sum(c.status == KNOWN for c in cards.values())
        return f"CardStore({self.learner!r}, {len(cards)} cards seen, {known} known, file={self.path.name})"

    # ------------------------------------------------------------------ reading
    def cards(self) -> dict[str, CardState]:
        """Every card the learner has marked: ``{question id: CardState}``."""
        data = self._load()
        out: dict[str, CardState] = {}
        for qid, raw in data.get("cards", {}).items():
            try:
                out[qid] = CardState(str(raw["status"]), int(raw["box"]), int(raw["reviews"]), float(raw["last"]))
            except (KeyError, TypeError, ValueError):
                continue  # one damaged entry must not cost the others
        return out

    def get(self, question_id: str) -> CardState | None:
        """The state of one card, or None if the learner never marked it."""
        return self.cards().get(question_id)

    def _load(self) -> dict:
        if not self.path.exists():
            return {}
        data = read_json(self.path, None)
        if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("cards"), dict):
            return data
        self._quarantine()
        return {}

    def _quarantine(self) -> None:
        """Move an unreadable progress file aside (never overwrite what might be recovered)."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        target = self.path.with_name(f"{self.path.stem}.corrupt-{stamp}.json")
        try:
            os.replace(self.path, target)
        except FileNotFoundError:  # another kernel moved it first
            return
        warnings.warn(f"flashcard progress file {self.path} was unreadable; kept it as {target.name} and "
                      "started fresh", RuntimeWarning, stacklevel=3)

    # ------------------------------------------------------------------ writing
    def mark(self, question_id: str, *, known: bool) -> CardState:
        """Record "I knew it" (``known=True``) or "review again" for one card and save.

        Returns:
            The card's new state.
        """
        data = self._load() or {"format": FORMAT, "version": 1, "learner": self.learner, "cards": {}}
        old = data["cards"].get(question_id) or {}
        box = min(int(old.get("box", 0)) + 1, MAX_BOX) if known else 0
        state = CardState(KNOWN if known else REVIEW, box, int(old.get("reviews", 0)) + 1, self.clock())
        data["cards"][question_id] = asdict(state)
        self._save(data)
        return state

    def reset(self, question_ids: list[str] | None = None) -> int:
        """Forget some cards (or all); returns how many were forgotten."""
        data = self._load()
        cards = data.get("cards", {})
        victims = list(cards) if question_ids is None else [q for q in question_ids if q in cards]
        for q in victims:
            del cards[q]
        if victims:
            self._save(data)
        return len(victims)

    def _save(self, data: dict) -> None:
        write_json(self.path, data)
        self._sweep_orphans()

    def _sweep_orphans(self) -> None:
        """Remove temp files left by a crash between write and rename (old ones only: a
        younger one may belong to another kernel writing right now)."""
        now = time.time()
        for tmp in self.folder.glob(f".{self.path.name}.*.tmp"):
            try:
                if now - tmp.stat().st_mtime > STALE_TMP_SECONDS:
                    tmp.unlink()
            except OSError:
                pass


CRASH_EXIT_CODE = 86


def simulate_crash_during_save(store: CardStore, question_id: str, *, known: bool = True,
                               timeout: float = 60.0) -> int:
    """Mark a card in a child process that dies between writing the temp file and renaming it.

    The child replaces ``os.replace`` with an immediate ``os._exit``: the temporary file is
    written and ``fsync``\\ ed, then the process vanishes without running any clean-up, as
    in a power cut or a killed kernel. Used by the practice notebook and the tests to show
    that the learner's file is untouched afterwards.

    Args:
        store: whose file to (fail to) update.
        question_id, known: the mark the child tries to save.
        timeout: seconds to wait for the child.

    Returns:
        The child's exit code (:data:`CRASH_EXIT_CODE` when it died where intended).
    """
    code = (
        "import os\n"
        "from course_lib.interview.store import CardStore\n"
        f"os.replace = lambda *args, **kwargs: os._exit({CRASH_EXIT_CODE})  # the crash: after write, before rename\n"
        f"CardStore({store.learner!r}, folder={str(store.folder)!r}).mark({question_id!r}, known={known!r})\n"
    )
    return subprocess.run([sys.executable, "-c", code], timeout=timeout, capture_output=True).returncode


def orphaned_temp_files(store: CardStore) -> list[Path]:
    """Temporary files a crashed save left beside the learner's file (ignored when loading)."""
    return sorted(store.folder.glob(f".{store.path.name}.*.tmp"))
