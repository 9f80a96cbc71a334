"""The `course` command fails well. `course llm serve` and `course mcp serve --transport http` on a busy port say so in one line and exit 2.

Before, the banner printed first (it looked like success), then uvicorn's raw ``[Errno 98]``.
"""
from __future__ import annotations

import socket

import pytest

from course_lib import cli


@pytest.fixture
def busy_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


@pytest.mark.parametrize("argv", [["llm", "serve"], ["mcp", "serve", "--transport", "http"]], ids=["llm", "mcp"])
def test_a_busy_port_is_one_clear_line(argv, busy_port, capsys):
    assert cli.main([*argv, "--port", str(busy_port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"Port {busy_port} on 127.0.0.1 is already in use (an earlier server still running?): stop it, "
                   "or choose another port with --port N (--port 0 picks a free one).\n")


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`course progress | head -1`: when the reader has gone, no BrokenPipeError traceback."""
    import os
    import subprocess
    import sys

    from course_lib.notebooks import ROOT

    read_end, write_end = os.pipe()
    os.close(read_end)                       # the reader left before the first line
    try:
        done = subprocess.run([sys.executable, "-m", "course_lib.cli", "progress", "--map"], cwd=ROOT,
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "COURSE_DATA_DIR": str(tmp_path)})
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


@pytest.mark.parametrize("lang, expected", [
    ("en", "course interview: no topic 'foo'; topics: function-calling, schemas,"),
    ("zh", "course interview: 没有主题 'foo'；可选主题：function-calling, schemas,"),
])
@pytest.mark.parametrize("action", ["cards", "mock"])
def test_an_unknown_interview_topic_is_one_line_in_the_learners_language(action, lang, expected, capsys, tmp_path,
                                                                         monkeypatch):
    """`course interview mock --topic foo` ended in a KeyError traceback."""
    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COURSE_LANG", "en")  # `--lang` sets COURSE_LANG for the process: monkeypatch restores it
    assert cli.main(["--lang", lang, "interview", action, "--topic", "foo"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(expected) and err.count("\n") == 1 and "Traceback" not in err
