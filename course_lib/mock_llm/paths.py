"""A file or folder named inside a directory: "Create a folder called reports in /Users/alice/projects" ->
``create_directory(path="/Users/alice/projects/reports")``; 在 /Users/alice/projects 下新建一个叫 reports 的文件夹.

A model joins the name and the directory into the one path a filesystem tool takes (the MCP reference
``filesystem`` server's tools all take a full ``path``), instead of passing the directory alone. This
module finds such a pair (:func:`named_inside`) and fills a tool's path argument with the joined path
(:func:`calls`).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from . import language as lang

_DIR = r"(?P<dir>(?:~|[A-Za-z]:)?(?:[/\\][\w.@ -]*?[\w@-])+)[/\\]?"
_NAME = r"(?P<name>[\w.@-]+)"
_EN = re.compile(r"\b(?:folder|directory|dir|file|subfolder|subdirectory)\s+(?:called|named)\s+['\"“]?" + _NAME +
                 r"['\"”]?\s+(?:in|under|inside|within)\s+" + _DIR + r"(?![\w/\\])", re.I)
_EN_FILE = re.compile(r"\bfile\s+['\"“]?(?P<name>[\w@-][\w.@-]*\.\w{1,5})['\"”]?\s+(?:in|under|inside|within|from)\s+" + _DIR +
                      r"(?![\w/\\])", re.I)
_EN_BEFORE = re.compile(r"\b(?:in|under|inside|within)\s+" + _DIR + r",?\s+(?:create|make|add|write)\s+(?:a\s+|an\s+)?"
                        r"(?:new\s+)?(?:folder|directory|dir|file)\s+(?:called|named)\s+['\"“]?" + _NAME, re.I)
_ZH = re.compile(r"在\s*" + _DIR + r"\s*(?:下|里|中|里面)?\s*(?:新建|创建|建|建立|写)(?:一个)?(?:叫|名为|叫做)\s*['\"“]?" + _NAME +
                 r"['\"”]?\s*的?(?:文件夹|目录|文件)")
#: The words of an argument name that say it takes a path (``repo_path``, ``directory``).
PATH_WORDS = frozenset({"path", "filepath", "dir", "directory", "folder", "dirpath"})


@lru_cache(maxsize=512)
def named_inside(text: str) -> str | None:
    """The path of a file or folder the text names inside a directory, joined; None when it names none.

    Example:
        >>> named_inside("Create a folder called reports in /Users/alice/projects")
        '/Users/alice/projects/reports'
    """
    for rx in (_EN, _EN_FILE, _EN_BEFORE, _ZH):
        m = rx.search(text)
        if m:
            directory = m.group("dir").rstrip("/\\")
            sep = "\\" if "\\" in directory and "/" not in directory else "/"
            return f"{directory}{sep}{m.group('name')}"
    return None


def path_slot(parameters: dict) -> str | None:
    """The one string argument that takes a path (``path``, ``filepath``, ``directory``), else None."""
    hits = [k for k, s in (parameters.get("properties") or {}).items() if isinstance(s, dict)
            and s.get("type", "string") == "string" and set(lang.split_identifier(k)) & PATH_WORDS]
    return hits[0] if len(hits) == 1 else None


def calls(tool: Any, text: str, filled: Any) -> list[tuple[dict, dict, list]] | None:
    """``[(arguments, evidence, missing)]`` with the joined path in the tool's path argument, or None."""
    joined = named_inside(text)
    slot = path_slot(tool.parameters) if joined else None
    if slot is None:
        return None
    from .arguments import Evidence

    return [({**filled.arguments, slot: joined}, {**filled.evidence, slot: Evidence("name inside a directory", joined)},
             [m for m in filled.missing if m != slot])]
