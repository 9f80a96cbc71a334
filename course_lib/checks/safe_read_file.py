"""Checks of exercise 05: a ``read_file`` tool that the corpus's path attacks cannot get out of.

The learner writes ``make_read_file(root) -> read_file(path)``. The check builds a fresh
:class:`~course_lib.attack_lab.AttackLab`, points the learner's tool at its project folder and
sends it (1) the legitimate reads a project tool must serve, including ``docs/../README.md`` and
a symlink that stays inside, and (2) every ``read_file`` attack of ``course_lib/data/attacks.json``.
A refusal must be the learner's own ``PermissionError`` with a message, for every attack (the
exercise text says so): a ``ValueError`` Python raises by itself (``embedded null byte``) or an
accident such as ``FileNotFoundError`` or an OS error (``File name too long``) is not a refusal.
Each attack kind has its own hint.
"""
from __future__ import annotations

from typing import Any, Callable

from ..attack_lab import SECRET, AttackLab
from ..hints import Hints
from ..resilience import ToolTimeout, call_with_timeout
from . import CheckReport, calm_check

HINTS = Hints("05_safe_read_file", [
    "This is lesson 05 §3. Do not inspect the *string* the model sent: ask the operating system what the path "
    "really names (`..` removed, symlinks followed), then check that the answer is inside the project.",
    "`real = (root / path).resolve()` gives the real path; `real.is_relative_to(root)` says whether it is inside "
    "(`root` is resolved too, in `make_read_file`). Raise `PermissionError` when it is not.",
    "Before resolving, refuse what is not a path at all: not a string, empty, containing `'\\x00'`, or longer "
    "than `MAX_PATH` characters (raise `PermissionError`). After the check, `return real.read_text(encoding="
    "'utf-8')`.",
], solution_section="Your code: make_read_file")

#: Per attack id: what the learner's code most likely misses when that attack gets through.
ATTACK_HINTS = {
    "dotdot-secret": "`../` climbs out of the project: resolve the path (`(root / path).resolve()`) before checking it.",
    "dotdot-deep": "Many `../` reach the file system root: resolve the path first, then check where it landed.",
    "dotdot-inside-first": "`docs/../../secret.txt` starts inside, then climbs out: check the *resolved* path, not "
                           "the first folder of the string.",
    "dot-segments": "`./` and `..` segments hide the climb from a pattern: resolve, then compare.",
    "absolute-secret": "`root / '/abs/path'` *is* `/abs/path`: an absolute path replaces the root. Check the resolved "
                       "result is inside the project.",
    "absolute-etc": "An absolute path such as `/etc/passwd` must be refused: the resolved path is not inside the "
                    "project.",
    "project-then-up": "The path starts with the project folder, then `..` climbs out: a `startswith` test on the "
                       "string accepts it. Resolve first.",
    "prefix-confusion": "`/lab/project_evil` starts with the *string* `/lab/project`: compare paths with "
                        "`real.is_relative_to(root)`, not `str(real).startswith(str(root))`.",
    "symlink-file": "`docs/escape` is a symlink to the secret outside: `os.path.abspath`/`normpath` do not follow "
                    "symlinks, `Path.resolve()` does.",
    "symlink-dir": "`docs/etc` is a symlinked *folder* leading to /etc: `Path.resolve()` follows it, then the "
                   "check refuses it.",
    "nul-byte": "Refuse a path containing a NUL byte (`'\\x00' in path`) with `PermissionError`.",
    "long-path": "Refuse paths longer than `MAX_PATH` characters *before* touching the file system (the OS "
                 "answers with a confusing error otherwise).",
}


def _explain(e: BaseException) -> str:
    if isinstance(e, NotImplementedError):
        return "Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`)."
    if isinstance(e, ToolTimeout):
        return "Your function did not return within 5 s."
    return f"Your function raised {type(e).__name__}: {e}"


@calm_check
def check_safe_read_file(make_read_file: Callable[[Any], Callable[[str], str]]) -> CheckReport:
    """Run exercise 05's legitimate reads and path attacks; raises ``CheckFailed`` with hints."""
    report = CheckReport("Exercise 05 · a read_file the corpus cannot escape", more_help=HINTS.pointer())
    with AttackLab() as lab:
        read_file = report.run("make_read_file(root) returns a function", lambda: make_read_file(lab.project),
                               _explain)
        if read_file is None:
            return report.finish()
        if not callable(read_file):
            report.check("make_read_file(root) returns a function", False,
                         f"Return the inner `read_file` function itself, not {type(read_file).__name__}.")
            return report.finish()

        def attempt(path: str) -> tuple[str, Any]:
            try:
                return call_with_timeout(lab.try_read_file, read_file, path, timeout=5.0)
            except ToolTimeout as e:
                return "error", e

        for path, expected in lab.LEGIT_READS.items():
            verdict, value = attempt(path)
            if verdict == "read":
                report.check(f"reads {path}", value == expected,
                             f"{path!r} should return the file's text, got {str(value)[:60]!r}.")
            elif isinstance(value, NotImplementedError):
                report.check(f"reads {path}", False, _explain(value))
                return report.finish()
            else:
                report.check(f"reads {path}", False, _legit_hint(path, value))

        for attack in lab.read_attacks():
            verdict, value = attempt(attack["arguments"]["path"])
            name = f"blocks {attack['id']} ({attack['why']})"
            if verdict == "read":
                leaked = SECRET in str(value)
                report.check(name, False, ("It LEAKED THE SECRET. " if leaked else
                                           "It returned text instead of refusing (a refusal is `raise "
                                           "PermissionError(...)`, not a returned message), or it read a file "
                                           "outside the project. ") + ATTACK_HINTS[attack["id"]])
            elif verdict == "error":
                report.check(name, False, f"It failed with {type(value).__name__} ({str(value)[:60]}) instead of a "
                                          f"clear refusal: raise PermissionError. {ATTACK_HINTS[attack['id']]}")
            elif not isinstance(value, PermissionError):
                report.check(name, False, _not_permission_error(value, attack["id"]))
            else:
                report.check(name, str(value).strip() != "",
                             "Refuse with a message that says why (`raise PermissionError(f\"{path!r} is outside "
                             "the project\")`): the model reads it.")
    return report.finish()


def _not_permission_error(error: BaseException, attack_id: str) -> str:
    """A ``ValueError`` where every refusal must be a ``PermissionError``: whose was it?"""
    if "null byte" in str(error):
        return (f"Python itself raised {type(error).__name__}: {error}: your code did not refuse the path, it "
                "crashed on it. Check `'\\x00' in path` before resolving and `raise PermissionError(...)`. "
                + ATTACK_HINTS[attack_id])
    return (f"Every refusal must be a `PermissionError` (yours: {type(error).__name__}: {error}); a tool's caller "
            "tells \"not allowed\" from \"broken\" by that type. " + ATTACK_HINTS[attack_id])


def _legit_hint(path: str, error: BaseException) -> str:
    if path == "docs/../README.md":
        return ("`docs/../README.md` stays inside the project: do not reject every `..`, check where the resolved "
                f"path lands (your function raised {type(error).__name__}: {error}).")
    if path == "docs/readme_link":
        return ("`docs/readme_link` is a symlink that points *inside* the project (to README.md): it must work. "
                f"Compare the resolved path with the resolved root (your function raised {type(error).__name__}).")
    return f"{path!r} is an ordinary project file: it must be readable (your function raised {type(error).__name__}: " \
           f"{error})."
