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
from ..i18n import N_, _

HINTS = Hints("05_safe_read_file", [
    N_("This is lesson 05 §3. Do not inspect the *string* the model sent: ask the operating system what the path "
    "really names (`..` removed, symlinks followed), then check that the answer is inside the project."),
    N_("`real = (root / path).resolve()` gives the real path; `real.is_relative_to(root)` says whether it is inside "
    "(`root` is resolved too, in `make_read_file`). Raise `PermissionError` when it is not."),
    N_("Before resolving, refuse what is not a path at all: not a string, empty, containing `'\\x00'`, or longer "
    "than `MAX_PATH` characters (raise `PermissionError`). After the check, `return real.read_text(encoding="
    "'utf-8')`."),
], solution_section="Your code: make_read_file")

#: Per attack id: what the learner's code most likely misses when that attack gets through.
ATTACK_HINTS = {
    "dotdot-secret": N_("`../` climbs out of the project: resolve the path (`(root / path).resolve()`) before checking it."),
    "dotdot-deep": N_("Many `../` reach the file system root: resolve the path first, then check where it landed."),
    "dotdot-inside-first": N_("`docs/../../secret.txt` starts inside, then climbs out: check the *resolved* path, not "
                           "the first folder of the string."),
    "dot-segments": N_("`./` and `..` segments hide the climb from a pattern: resolve, then compare."),
    "absolute-secret": N_("`root / '/abs/path'` *is* `/abs/path`: an absolute path replaces the root. Check the resolved "
                       "result is inside the project."),
    "absolute-etc": N_("An absolute path such as `/etc/passwd` must be refused: the resolved path is not inside the "
                    "project."),
    "project-then-up": N_("The path starts with the project folder, then `..` climbs out: a `startswith` test on the "
                       "string accepts it. Resolve first."),
    "prefix-confusion": N_("`/lab/project_evil` starts with the *string* `/lab/project`: compare paths with "
                        "`real.is_relative_to(root)`, not `str(real).startswith(str(root))`."),
    "symlink-file": N_("`docs/escape` is a symlink to the secret outside: `os.path.abspath`/`normpath` do not follow "
                    "symlinks, `Path.resolve()` does."),
    "symlink-dir": N_("`docs/etc` is a symlinked *folder* leading to /etc: `Path.resolve()` follows it, then the "
                   "check refuses it."),
    "nul-byte": N_("Refuse a path containing a NUL byte (`'\\x00' in path`) with `PermissionError`."),
    "long-path": N_("Refuse paths longer than `MAX_PATH` characters *before* touching the file system (the OS "
                 "answers with a confusing error otherwise)."),
}


def _explain(e: BaseException) -> str:
    if isinstance(e, NotImplementedError):
        return _("Write your code where the exercise says `# YOUR CODE HERE` (and remove the `raise`).")
    if isinstance(e, ToolTimeout):
        return _("Your function did not return within 5 s.")
    return _("Your function raised {error_type}: {e}").format(error_type=type(e).__name__, e=e)


@calm_check
def check_safe_read_file(make_read_file: Callable[[Any], Callable[[str], str]]) -> CheckReport:
    """Run exercise 05's legitimate reads and path attacks; raises ``CheckFailed`` with hints."""
    report = CheckReport(_("Exercise 05 · a read_file the corpus cannot escape"), more_help=HINTS.pointer())
    with AttackLab() as lab:
        read_file = report.run(_("make_read_file(root) returns a function"), lambda: make_read_file(lab.project),
                               _explain)
        if read_file is None:
            return report.finish()
        if not callable(read_file):
            report.check(_("make_read_file(root) returns a function"), False,
                         _("Return the inner `read_file` function itself, not {error_type}.").format(error_type=type(read_file).__name__))
            return report.finish()

        def attempt(path: str) -> tuple[str, Any]:
            try:
                return call_with_timeout(lab.try_read_file, read_file, path, timeout=5.0)
            except ToolTimeout as e:
                return "error", e

        for path, expected in lab.LEGIT_READS.items():
            verdict, value = attempt(path)
            if verdict == "read":
                report.check(_("reads {path}").format(path=path), value == expected,
                             _("{path!r} should return the file's text, got {value!r}.").format(path=path, value=str(value)[:60]))
            elif isinstance(value, NotImplementedError):
                report.check(_("reads {path}").format(path=path), False, _explain(value))
                return report.finish()
            else:
                report.check(_("reads {path}").format(path=path), False, _legit_hint(path, value))

        for attack in lab.read_attacks():
            verdict, value = attempt(attack["arguments"]["path"])
            name = f"blocks {attack['id']} ({attack['why']})"
            if verdict == "read":
                leaked = SECRET in str(value)
                report.check(name, False, (_("It LEAKED THE SECRET. ") if leaked else
                                           _("It returned text instead of refusing (a refusal is `raise "
                                           "PermissionError(...)`, not a returned message), or it read a file "
                                           "outside the project. ")) + _(ATTACK_HINTS[attack["id"]]))
            elif verdict == "error":
                report.check(name, False, _("It failed with {error_type} ({value}) instead of a "
                                             "clear refusal: raise PermissionError. {value2}").format(error_type=type(value).__name__, value=str(value)[:60], value2=_(ATTACK_HINTS[attack['id']])))
            elif not isinstance(value, PermissionError):
                report.check(name, False, _not_permission_error(value, attack["id"]))
            else:
                report.check(name, str(value).strip() != "",
                             _("Refuse with a message that says why (`raise PermissionError(f\"{path!r} is outside "
                             "the project\")`): the model reads it."))
    return report.finish()


def _not_permission_error(error: BaseException, attack_id: str) -> str:
    """A ``ValueError`` where every refusal must be a ``PermissionError``: whose was it?"""
    if "null byte" in str(error):
        return (_("Python itself raised {error_type}: {error}: your code did not refuse the "
                   "path, it crashed on it. Check `'\\x00' in path` before resolving and "
                   "`raise PermissionError(...)`. ").format(error_type=type(error).__name__, error=error)
                + _(ATTACK_HINTS[attack_id]))
    return (_("Every refusal must be a `PermissionError` (yours: {error_type}: {error}); a "
               "tool's caller tells \"not allowed\" from \"broken\" by that type. ").format(error_type=type(error).__name__, error=error) + _(ATTACK_HINTS[attack_id]))


def _legit_hint(path: str, error: BaseException) -> str:
    if path == "docs/../README.md":
        return (_("`docs/../README.md` stays inside the project: do not reject every `..`, "
                   "check where the resolved path lands (your function raised {error_type}: "
                   "{error}).").format(error_type=type(error).__name__, error=error))
    if path == "docs/readme_link":
        return (_("`docs/readme_link` is a symlink that points *inside* the project (to "
                   "README.md): it must work. Compare the resolved path with the resolved "
                   "root (your function raised {error_type}).").format(error_type=type(error).__name__))
    return _("{path!r} is an ordinary project file: it must be readable (your function "
              "raised {error_type}: {error}).").format(path=path, error_type=type(error).__name__, error=error)
