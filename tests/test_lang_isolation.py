"""A test that runs ``course ... --lang zh`` restores ``COURSE_LANG`` itself (issue 20 item 5).

``--lang`` sets ``COURSE_LANG`` for the whole process (so the kernels a command starts inherit it). A test that
runs it without ``monkeypatch`` leaves Chinese behind for every later test of its worker; the root conftest's
autouse fixture only hides that when the tests run under it. Each such test (or the helper it calls) takes
``monkeypatch`` and sets ``COURSE_LANG`` through it first, so its own teardown puts the environment back.
"""
from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


def _passes_lang(node: ast.Call) -> bool:
    """A call with a list literal holding ``"--lang"`` or ``"--lang=..."`` (a ``course([...])`` command line)."""
    for arg in node.args:
        if isinstance(arg, (ast.List, ast.Tuple)):
            for item in arg.elts:
                if isinstance(item, ast.Constant) and isinstance(item.value, str) and item.value.startswith("--lang"):
                    return True
    return False


def _sets_lang_through_monkeypatch(fn: ast.FunctionDef) -> bool:
    for node in ast.walk(fn):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setenv"
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "COURSE_LANG"):
            return True
    return False


def leaking_functions(source: str) -> list[str]:
    """Names of the functions of ``source`` that pass ``--lang`` to a command and never set ``COURSE_LANG``
    through ``monkeypatch`` (nor receive a ``monkeypatch`` a helper they call sets it with)."""
    functions = [fn for fn in ast.walk(ast.parse(source)) if isinstance(fn, ast.FunctionDef)]
    # a fixture of the module that sets it (``def english(monkeypatch)``) does it for the tests that take it
    setters = {fn.name for fn in functions if _sets_lang_through_monkeypatch(fn)}
    out = []
    for fn in functions:
        calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and _passes_lang(n)]
        if calls and not _sets_lang_through_monkeypatch(fn) and not setters & {a.arg for a in fn.args.args}:
            helper_gets_it = any(isinstance(a, ast.Name) and a.id == "monkeypatch" for c in calls for a in c.args)
            if not helper_gets_it:
                out.append(fn.name)
    return out


def test_the_leak_finder_reads_real_shapes():
    leaky = 'def test_a(capsys):\n    assert course(["notebooks", "status", "--lang", "zh"]) == 0\n'
    fixed = ('def test_a(capsys, monkeypatch):\n    monkeypatch.setenv("COURSE_LANG", "en")\n'
             '    assert course(["notebooks", "status", "--lang", "zh"]) == 0\n')
    helper = 'def test_b(monkeypatch, capsys):\n    _serve_lines(["--lang", "zh", "llm"], monkeypatch, capsys)\n'
    equals = 'def test_c():\n    course(["--lang=zh", "reset", "--help"])\n'
    fixture = ('def english(monkeypatch):\n    monkeypatch.setenv("COURSE_LANG", "en")\n\n'
               'def test_d(english):\n    cli.main(["--lang", "zh", "llm"])\n')
    assert leaking_functions(leaky) == ["test_a"]
    assert leaking_functions(fixed) == [] and leaking_functions(helper) == []
    assert leaking_functions(equals) == ["test_c"] and leaking_functions(fixture) == []


def test_no_test_leaks_course_lang():
    found = {p.name: leaking_functions(p.read_text(encoding="utf-8")) for p in sorted(TESTS.glob("test_*.py"))}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_status_command_leaves_the_environment_as_it_found_it(capsys):
    from course_lib.cli import main as course

    assert "COURSE_LANG" not in os.environ  # the root conftest clears what the shell exports
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COURSE_LANG", "en")
        assert course(["notebooks", "status", "--lang", "zh"]) == 0
        assert os.environ["COURSE_LANG"] == "zh"  # what --lang does, for the process
    assert "COURSE_LANG" not in os.environ
    assert "zh edition current: 00_welcome.ipynb" in capsys.readouterr().out
