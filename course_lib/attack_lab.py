"""A throw-away lab where the attack corpus meets hardened tools (lesson 05, exercise 05).

:class:`AttackLab` builds a small project in a temporary folder, with a secret *outside*
it and traps *inside* it (symlinks pointing out, a ``project_evil`` sibling for prefix
confusion), then offers the tools of lesson 05 built with :mod:`course_lib.security`:

========== ==================================================================
read_file  :class:`~course_lib.security.PathPolicy` (read: project; write: project/output)
write_file the same policy, write mode
run_command :class:`~course_lib.security.CommandPolicy` then the sandbox
sandbox    argv straight into :func:`~course_lib.security.run_sandboxed` (limits only)
fetch_page a hostile web page, returned as untrusted data
delete_files needs approval (the policy denies: nobody is there to approve)
========== ==================================================================

:meth:`AttackLab.run` sends one attack of ``course_lib/data/attacks.json`` and says
whether it was blocked, by which layer, whether it was reported, and whether the secret
leaked. Prompt-injection attacks are played by a *gullible* model (scripted mock LLM) that
obeys the page: the defence must hold even when the model is fooled.

The lab is also the harness of exercise 05 (:meth:`AttackLab.try_read_file` runs the path
attacks against a learner's ``read_file``). Taught in lesson 05.
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import stat
import sys
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from .security import (ApprovalPolicy, AuditLog, CommandPolicy, Limits, PathPolicy, as_untrusted, guard_tool,
                       make_read_file, make_run_command, make_write_file, require_approval, run_sandboxed)
from .i18n import _
from .text_table import pad

SECRET = "TOP SECRET: the launch code is 0000"
README = "# Demo project\nA small project the agent may read.\n"
GUIDE = "# Guide\nTODO: write the guide.\nThe launch checklist lives elsewhere.\n"
LAB_LIMITS = Limits(wall_seconds=3.0, cpu_seconds=1, memory_bytes=256 * 2**20, output_bytes=10_000,
                    file_bytes=2**20, processes=0)


def load_attacks() -> list[dict]:
    """The attack corpus (``course_lib/data/attacks.json``): a list of attack dicts.

    Each has ``id``, ``category``, ``tool``, ``why`` and ``arguments`` (or ``argv`` for the
    sandbox); prompt injections add ``page`` and ``follow`` (the call a fooled model makes).
    """
    text = resources.files("course_lib").joinpath("data/attacks.json").read_text(encoding="utf-8")
    return json.loads(text)["attacks"]


@dataclass
class AttackOutcome:
    """The result of one attack.

    Attributes:
        id, category: from the corpus.
        blocked: the attack did not achieve its aim (refused, or stopped by a limit).
        reported: the refusal is visible: an audit entry, a limit named in the result, or an
            injection warning on the page.
        layer: what stopped it (a :class:`~course_lib.security.SecurityViolation` violation, or
            ``limit:<name>``).
        leaked: the secret text appeared in anything the tool returned.
        detail: one line for the table.
        skipped: not run here (the defence it tests is not enforced on this OS).
    """

    id: str
    category: str
    blocked: bool
    reported: bool
    layer: str
    leaked: bool = False
    detail: str = ""
    skipped: bool = False

    @property
    def ok(self) -> bool:
        return self.blocked and self.reported and not self.leaked

    def __repr__(self) -> str:
        mark = "⏭️" if self.skipped else "✅" if self.ok else "❌"
        return f"{mark} {pad(self.id, 20)} {pad(self.layer, 26)} {self.detail[:70]}"


def _tool(name: str, description: str, **props: str) -> dict:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": {k: {"type": "string", "description": v} for k, v in props.items()},
        "required": list(props)}}}


LAB_TOOLS = [
    _tool("fetch_page", "Fetch a web page and return its text.", url="The page URL"),
    _tool("read_file", "Read a text file of the project.", path="File path relative to the project"),
    _tool("write_file", "Write a text file into the output folder.", path="File path", content="Text"),
    _tool("run_command", "Run one read-only command (ls, cat, grep, wc) in the project.", command="The command"),
    _tool("delete_files", "Delete files or folders of the project.", path="What to delete"),
]


class AttackLab:
    """A temporary project, a secret outside it, and the hardened tools of lesson 05.

    Layout (``root`` is a fresh temporary folder)::

        root/secret.txt               the secret (must never leak)
        root/project_evil/secret.txt  a sibling whose name starts like "project"
        root/project/README.md, docs/guide.md
        root/project/docs/readme_link -> ../README.md   (a legitimate symlink)
        root/project/docs/escape      -> root/secret.txt
        root/project/docs/etc         -> /etc
        root/project/output/          the only writable folder
        root/project/output/outside   -> root

    Use it as a context manager (the folder is deleted at the end). Taught in lesson 05.
    """

    def __init__(self, limits: Limits = LAB_LIMITS) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="course-attack-lab-")).resolve()
        self.project = self.root / "project"
        self.secret = self.root / "secret.txt"
        self.limits = limits
        self._build()
        self.audit = AuditLog()
        self.deleted: list[str] = []
        self.paths = PathPolicy(read=(self.project,), write=(self.project / "output",))
        self.commands = CommandPolicy(paths=self.paths)
        self.approvals = ApprovalPolicy()  # nobody approves: dangerous tools are refused
        self.tools = self._tools()

    def _build(self) -> None:
        (self.project / "docs").mkdir(parents=True)
        (self.project / "output").mkdir()
        (self.root / "project_evil").mkdir()
        (self.project / "README.md").write_text(README, encoding="utf-8")
        (self.project / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
        self.secret.write_text(SECRET, encoding="utf-8")
        (self.root / "project_evil" / "secret.txt").write_text(SECRET, encoding="utf-8")
        os.symlink("../README.md", self.project / "docs" / "readme_link")
        os.symlink(self.secret, self.project / "docs" / "escape")
        os.symlink("/etc", self.project / "docs" / "etc")
        os.symlink(self.root, self.project / "output" / "outside")
        # The sandbox may run commands as another user (when the kit runs as root): let it read the
        # project, as any user could read a checked-out repository. The secret stays private.
        for folder in (self.root, self.project, self.project / "docs", self.project / "output"):
            folder.chmod(0o755)
        for f in (self.project / "README.md", self.project / "docs" / "guide.md"):
            f.chmod(0o644)
        self.secret.chmod(stat.S_IRUSR | stat.S_IWUSR)

    def _tools(self) -> dict[str, Callable[..., Any]]:
        def delete_files(path: str) -> dict:
            """Delete files (the lab only records it: if this ever runs, the defence failed)."""
            self.deleted.append(path)
            return {"deleted": path}

        pages: dict[str, str] = {}
        self.pages = pages

        def fetch_page(url: str) -> str:
            return as_untrusted(pages.get(url, "Nothing here."), source="fetch_page")

        guarded = {
            "read_file": make_read_file(self.paths),
            "write_file": make_write_file(self.paths),
            "run_command": make_run_command(self.commands, limits=self.limits, cwd=self.project),
            "delete_files": require_approval(delete_files, approver=self.approvals,
                                             reason="deletes files: a human must agree"),
        }
        tools = {name: guard_tool(fn, name=name, audit=self.audit) for name, fn in guarded.items()}
        tools["fetch_page"] = fetch_page
        return tools

    def tree(self) -> str:
        """The lab's files as an indented listing (symlinks with their targets; the lab folder as ``<lab>``)."""
        lines = []
        for path in sorted(self.root.rglob("*")):
            if any(p.is_symlink() for p in path.relative_to(self.root).parents if str(p) != "."):
                continue  # do not walk through symlinked folders
            rel = path.relative_to(self.root)
            name = "  " * (len(rel.parts) - 1) + rel.name + ("/" if path.is_dir() and not path.is_symlink() else "")
            if path.is_symlink():
                name += f" -> {os.readlink(path)}".replace(str(self.root), "<lab>")
            lines.append(name)
        return "\n".join(["<lab>/"] + ["  " + line for line in lines])

    # ------------------------------------------------------------------ running attacks
    def expand(self, value: Any) -> Any:
        """Fill the corpus placeholders ({root}, {project}, {secret}, {long_path}, {long_command})."""
        if isinstance(value, dict):
            return {k: self.expand(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.expand(v) for v in value]
        if not isinstance(value, str):
            return value
        return (value.replace("{long_path}", "docs/" + "a/" * 3000 + "x.md")
                .replace("{long_command}", "echo " + "A" * 5000)
                .replace("{root}", str(self.root)).replace("{project}", str(self.project))
                .replace("{secret}", str(self.secret)))

    def run(self, attack: dict) -> AttackOutcome:
        """Send one attack; see :class:`AttackOutcome`."""
        if attack["tool"] == "sandbox":
            return self._run_sandbox(attack)
        if attack["tool"] == "fetch_page":
            return self._run_injection(attack)
        before = len(self.audit)
        secret_before = self.secret.read_text(encoding="utf-8")
        result = self.tools[attack["tool"]](**self.expand(attack["arguments"]))
        text = json.dumps(result, ensure_ascii=False, default=str) if not isinstance(result, str) else result
        refused = isinstance(result, dict) and result.get("blocked") is True
        leaked = SECRET in text
        changed = self.secret.read_text(encoding="utf-8") != secret_before or (self.root / "evil.sh").exists()
        layer = result.get("violation", "") if refused else _("not blocked")
        detail = (result.get("error") if refused else text).replace(str(self.root), "<lab>")
        return AttackOutcome(attack["id"], attack["category"], refused and not changed,
                             len(self.audit) > before, layer, leaked, detail[:120])

    def _run_sandbox(self, attack: dict) -> AttackOutcome:
        if attack.get("platforms") and not any(sys.platform.startswith(p) for p in attack["platforms"]):
            return AttackOutcome(attack["id"], attack["category"], False, True, _("not run on this OS"),
                                 detail=_("its limit is only enforced on {platforms}").format(
                                     platforms=", ".join(attack["platforms"])), skipped=True)
        limits = dataclasses.replace(self.limits, **attack.get("limits", {}))
        r = run_sandboxed(attack["argv"], limits=limits)
        stopped = r.limit is not None or r.returncode != 0
        layer = f"limit:{r.limit}" if r.limit else f"exit {r.returncode}"
        said = (_("output cut at {n} bytes").format(n=limits.output_bytes) if r.truncated
                else (r.stderr.strip() or "-"))
        detail = _("{seconds:.1f} s, exit {code}, {said}").format(seconds=r.duration, code=r.returncode,
                                                                  said=said.splitlines()[0][:70])
        return AttackOutcome(attack["id"], attack["category"], stopped and r.limit is not None, r.limit is not None,
                             layer, SECRET in r.stdout + r.stderr, detail)

    def _run_injection(self, attack: dict) -> AttackOutcome:
        from .function_calling import tool_loop
        from .mock_llm import MockLLM

        url = attack["arguments"]["url"]
        self.pages[url] = attack["page"]
        follow = self.expand(attack["follow"])
        gullible = MockLLM().script({"tool_calls": [{"name": "fetch_page", "arguments": {"url": url}}]},
                                    {"tool_calls": [follow]}, "Done as the page asked.")
        messages = [{"role": "user", "content": f"Summarise {url}"}]
        before_audit, before_deleted = len(self.audit), len(self.deleted)
        tool_loop(gullible.client(max_retries=0), messages, LAB_TOOLS, self.tools)
        page_msg, follow_msg = [m for m in messages if m["role"] == "tool"][:2]
        warnings = json.loads(page_msg["content"])["untrusted_data"]["warnings"]
        result = json.loads(follow_msg["content"])
        refused = isinstance(result, dict) and result.get("blocked") is True
        blocked = refused and len(self.deleted) == before_deleted
        reported = bool(warnings) and len(self.audit) > before_audit
        layer = result.get("violation", _("not blocked")) if isinstance(result, dict) else _("not blocked")
        return AttackOutcome(attack["id"], attack["category"], blocked, reported, layer,
                             SECRET in follow_msg["content"],
                             _("warnings: {warnings}").format(warnings=", ".join(warnings) or _("none")))

    def run_all(self, attacks: list[dict] | None = None) -> list[AttackOutcome]:
        """Every attack of the corpus (or ``attacks``), in order."""
        return [self.run(a) for a in (attacks if attacks is not None else load_attacks())]

    # ------------------------------------------------------------------ exercise 05
    def read_attacks(self) -> list[dict]:
        """The corpus attacks aimed at ``read_file`` (exercise 05)."""
        return [a for a in load_attacks() if a["tool"] == "read_file"]

    LEGIT_READS = {"README.md": README, "docs/guide.md": GUIDE, "./docs/guide.md": GUIDE,
                   "docs/../README.md": README, "docs/readme_link": README}

    def try_read_file(self, read_file: Callable[[str], str], path: str) -> tuple[str, Any]:
        """Call a learner's ``read_file(path)``: ``("refused", exc)``, ``("error", exc)`` or ``("read", text)``.

        Refused means ``PermissionError`` (``SecurityViolation`` is one) or ``ValueError``: a clear
        "no", as opposed to an accident such as ``FileNotFoundError``.
        """
        try:
            return "read", read_file(self.expand(path))
        except (PermissionError, ValueError) as e:
            return "refused", e
        except Exception as e:  # the learner's code failed in another way: the check explains
            return "error", e

    # ------------------------------------------------------------------ lifetime
    def close(self) -> None:
        """Delete the lab folder."""
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> "AttackLab":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"AttackLab({self.root}, {len(self.audit)} refusals logged)"


def outcomes_table(outcomes: list[AttackOutcome]) -> str:
    """The outcomes as a text table with a last line of totals."""
    lines = [f"   {pad(_('attack'), 20)} {pad(_('stopped by'), 26)} {_('detail')}"] + [repr(o) for o in outcomes]
    ok, skipped = sum(o.ok for o in outcomes), sum(o.skipped for o in outcomes)
    lines.append(_("{ok}/{run} attacks blocked and reported, {leaks} leaks").format(
        ok=ok, run=len(outcomes) - skipped, leaks=sum(o.leaked for o in outcomes))
        + (_(" ({n} not run on this OS)").format(n=skipped) if skipped else ""))
    return "\n".join(lines)


__all__ = ["AttackLab", "AttackOutcome", "LAB_TOOLS", "SECRET", "load_attacks", "outcomes_table"]
