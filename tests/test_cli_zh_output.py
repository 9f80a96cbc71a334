"""`course --lang zh ...` speaks Chinese in the lines issue 20 item 4 found still English: argparse's rarer
errors, the startup lines of `course llm serve` and `course mcp serve`, the busy-port line, preflight's detail
lines, the course map's footer and exercise 07's check names. Every test also pins the English output, which stays as it was."""
from __future__ import annotations

import socket
import sys

import pytest

from course_lib import cli


@pytest.fixture
def english(monkeypatch):
    """COURSE_LANG=en for the test; ``--lang zh`` on the command line then chooses Chinese for one run."""
    monkeypatch.setenv("COURSE_LANG", "en")


@pytest.mark.parametrize("argv, en, zh", [
    (["check", "--lang"], "course check: error: argument --lang: expected one argument",
     "course check：错误：参数 --lang：需要一个参数值"),
    (["llm", "serve", "--port", "abc"], "course llm serve: error: argument --port: invalid int value: 'abc'",
     "course llm serve：错误：参数 --port：无效的 int 值：'abc'"),
    (["llm", "serve", "--max-req", "5", "--max-", "6"],
     "course llm serve: error: ambiguous option: --max- could match --max-request-bytes, --max-context-tokens",
     "course llm serve：错误：有歧义的选项：--max- 可以匹配 --max-request-bytes, --max-context-tokens"),
], ids=["expected-one", "invalid-int", "ambiguous"])
def test_rarer_argparse_errors_speak_chinese(argv, en, zh, english, capsys):
    for lang, expected in (("en", en), ("zh", zh)):
        with pytest.raises(SystemExit) as stop:
            cli.main(["--lang", lang, *argv])
        assert stop.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1] == expected


def _serve_lines(argv: list[str], monkeypatch, capsys) -> tuple[str, str]:
    """What ``course ARGV`` prints before it serves (the server itself is not started)."""
    from course_lib import servers

    monkeypatch.setattr(servers, "serve_forever", lambda *a, **k: None)
    assert cli.main(argv) in (0, None)
    return capsys.readouterr()


def test_llm_serve_startup_line(english, monkeypatch, capsys):
    out, _ = _serve_lines(["llm", "serve", "--port", "0"], monkeypatch, capsys)
    assert out.startswith("Mock LLM at http://127.0.0.1:")
    assert "/v1  (any API key and model name are accepted; Ctrl+C stops)\n  export OPENAI_BASE_URL=" in out
    out, _ = _serve_lines(["--lang", "zh", "llm", "serve", "--port", "0"], monkeypatch, capsys)
    port = out.split("127.0.0.1:", 1)[1].split("/", 1)[0]
    assert out.splitlines()[0] == (f"模拟模型（mock LLM）地址：http://127.0.0.1:{port}/v1（接受任意 API key 和模型名；"
                                   "按 Ctrl+C 停止）")


def test_mcp_serve_startup_line(english, monkeypatch, capsys):
    _, err = _serve_lines(["mcp", "serve", "--transport", "http"], monkeypatch, capsys)
    assert err.startswith("MCP server (streamable HTTP) at http://127.0.0.1:") and err.endswith("/mcp  (Ctrl+C stops)\n")
    _, err = _serve_lines(["--lang", "zh", "mcp", "serve", "--transport", "http"], monkeypatch, capsys)
    port = err.split("127.0.0.1:", 1)[1].split("/", 1)[0]
    assert err == f"MCP 服务器（streamable HTTP）地址：http://127.0.0.1:{port}/mcp（按 Ctrl+C 停止）\n"


def test_busy_port_line_in_chinese(english, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert cli.main(["--lang", "zh", "llm", "serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"127.0.0.1 上的端口 {port} 已被占用（之前的服务器还在运行？）：先停止它，"
                                       "或用 --port N 换一个端口（--port 0 会选一个空闲端口）。\n")


def test_preflight_detail_lines_in_chinese(monkeypatch, tmp_path):
    from course_lib import preflight

    monkeypatch.setenv("COURSE_DATA_DIR", str(tmp_path))
    version = sys.version.split()[0]
    monkeypatch.setenv("COURSE_LANG", "en")
    assert preflight.check_python() == f"Python {version} at {sys.executable}"
    assert preflight.check_state() == f"{tmp_path} is writable"
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert preflight.check_python() == f"Python {version}，位于 {sys.executable}"
    assert preflight.check_state() == f"{tmp_path} 可写"


def test_preflight_requirement_problems_in_chinese(monkeypatch):
    """A missing or too old package: the install check names it in the learner's language."""
    from importlib import metadata

    from course_lib import preflight

    real = metadata.version
    fake = {"mistune": "0.1"}

    def version(name: str) -> str:
        if name == "babel":
            raise metadata.PackageNotFoundError(name)
        return fake.get(name.lower(), real(name))

    monkeypatch.setattr(metadata, "version", version)
    monkeypatch.setenv("COURSE_LANG", "zh")
    with pytest.raises(preflight.PreflightFailure) as failure:
        preflight.check_install()
    message = str(failure.value)
    assert "缺少 babel" in message and "mistune 0.1（需要 " in message
    assert message.endswith("：运行 `make setup`，按锁文件重新安装")


def test_map_footer_interview_entry(monkeypatch):
    from course_lib.course_map import course_map

    monkeypatch.setenv("COURSE_LANG", "en")
    assert "; interview practice: 00 flashcards, mock interview, cheat sheet · 01 Function calling" in course_map().text()
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert "；面试练习：00 抽认卡、模拟面试、速查表 · 01 Function calling · 02 工具 schema 与工具注册表" in course_map().text()


def test_exercise_07_check_names_in_chinese(monkeypatch):
    """The spec's example titles name exercise 07's sub-checks: Chinese in the Chinese edition (the hints are
    still found by the English title), English as before."""
    import json

    from course_lib.checks import CheckFailed
    from course_lib.checks.json_rpc_batch import check_json_rpc_batch
    from course_lib.json_rpc import spec_dispatcher

    one = spec_dispatcher().handle_one

    def keeps_none(text):  # a typical mistake: the None of the notifications stays in a batch's reply
        msg = json.loads(text)
        if isinstance(msg, list):
            return json.dumps([one(m) for m in msg]) if msg else spec_dispatcher().handle(text)
        r = one(msg)
        return None if r is None else json.dumps(r)

    monkeypatch.setenv("COURSE_LANG", "en")
    assert [r.name for r in check_json_rpc_batch(spec_dispatcher().handle).results][:2] == [
        "rpc call with positional parameters", "rpc call with positional parameters (2)"]
    monkeypatch.setenv("COURSE_LANG", "zh")
    names = [r.name for r in check_json_rpc_batch(spec_dispatcher().handle).results]
    assert names[:3] == ["按位置传参的 rpc 调用", "按位置传参的 rpc 调用（2）", "按名称传参的 rpc 调用"]
    assert names[-3:] == ["批处理 rpc 调用（全是通知）", "只含一个通知的批处理", "单独的一个通知"]
    with pytest.raises(CheckFailed) as e:
        check_json_rpc_batch(keeps_none)
    hint = next(r.hint for r in e.value.report.results if r.name == "批处理 rpc 调用")
    assert hint.startswith("在混合的批处理中，保留请求（带 id）的响应，丢掉通知返回的 `None`，并保持顺序。应为 [")
    assert "，实际得到 [" in hint and hint.endswith("。")


def test_permission_table_cells_in_chinese(monkeypatch):
    """Lesson 05's permission table: the programs count and the approval column in the learner's language."""
    from course_lib.security import Permissions, ToolPermission

    perms = Permissions({"execute_command": ToolPermission(read=("project/",), programs=frozenset({"ls", "cat"})),
                         "delete_files": ToolPermission(write=("project/output/",), needs_approval=True)})
    monkeypatch.setenv("COURSE_LANG", "en")
    rows = perms.text().splitlines()
    assert rows[1].endswith("2 allowed  no") and rows[2].endswith("-          yes")
    monkeypatch.setenv("COURSE_LANG", "zh")
    rows = perms.text().splitlines()
    assert rows[1].endswith("允许 2 个  否") and rows[2].endswith("-          是")


def test_attack_table_totals_in_chinese(monkeypatch):
    from course_lib.attack_lab import AttackOutcome, outcomes_table

    outcomes = [AttackOutcome("dotdot", "path_traversal", True, True, "path_outside_allowed"),
                AttackOutcome("leak", "path_traversal", False, False, "-", leaked=True),
                AttackOutcome("fork", "resource_bomb", False, False, "-", skipped=True)]
    monkeypatch.setenv("COURSE_LANG", "en")
    assert outcomes_table(outcomes).splitlines()[-1] == "1/2 attacks blocked and reported, 1 leaks (1 not run on this OS)"
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert outcomes_table(outcomes).splitlines()[-1] == "1/2 个攻击已被拦截并报告，1 次泄露（1 个在这个操作系统上没有运行）"


def test_attack_table_details_the_lab_writes_speak_chinese(monkeypatch):
    """The lab's own detail cells (sandbox timing and exit code, the cut output, the injection warnings, an attack
    not run on this OS) were English in the Chinese lesson 05 (issue 20); the names in them stay."""
    from course_lib.attack_lab import AttackLab, load_attacks

    corpus = {a["id"]: a for a in load_attacks()}
    elsewhere = {**corpus["fork-bomb"], "platforms": ["plan9"]}
    with AttackLab() as lab:
        rows = {}
        for lang in ("en", "zh"):
            monkeypatch.setenv("COURSE_LANG", lang)
            rows[lang] = [lab.run(corpus["output-bomb"]), lab.run(corpus["inject-authority"]), lab.run(elsewhere)]
    bomb, inject, skipped = rows["en"]
    assert bomb.detail.startswith("0.") and bomb.detail.endswith(" s, exit -9, output cut at 10000 bytes")
    assert inject.detail == "warnings: fake authority" and inject.layer == "blocked_program"
    assert (skipped.layer, skipped.detail) == ("not run on this OS", "its limit is only enforced on plan9")
    bomb, inject, skipped = rows["zh"]
    assert bomb.detail.startswith("0.") and bomb.detail.endswith(" 秒，退出码 -9，输出在 10000 字节处被截断")
    assert inject.detail == "警告：fake authority" and inject.layer == "blocked_program"
    assert (skipped.layer, skipped.detail) == ("没有在这个系统上运行", "它的限制只在 plan9 上生效")
    assert repr(skipped).split()[1:3] == ["fork-bomb", "没有在这个系统上运行"]


def test_the_oauth_banner_of_mcp_serve_auth_speaks_chinese_and_its_shell_lines_stay(monkeypatch):
    """`course mcp serve --auth` printed its OAuth block in English in the Chinese edition (issue 20)."""
    from course_lib.mcp_auth import auth_banner

    args = ("http://127.0.0.1:8765/mcp", "http://127.0.0.1:8766", ["mcp:use"], "tok123")
    monkeypatch.setenv("COURSE_LANG", "en")
    en = auth_banner(*args).splitlines()
    assert en[:3] == ["MCP server (streamable HTTP, OAuth-protected) at http://127.0.0.1:8765/mcp  (Ctrl+C stops)",
                      "Authorization server at http://127.0.0.1:8766  "
                      "(metadata: http://127.0.0.1:8766/.well-known/oauth-authorization-server)",
                      "Protected resource metadata: http://127.0.0.1:8765/.well-known/oauth-protected-resource/mcp"]
    assert en[5] == "For curl, a token for this server (mcp:use; 1 hour):" and en[6] == "  export MCP_TOKEN=tok123"
    monkeypatch.setenv("COURSE_LANG", "zh")
    zh = auth_banner(*args).splitlines()
    assert zh[0] == "MCP 服务器（streamable HTTP，受 OAuth 保护）地址：http://127.0.0.1:8765/mcp（按 Ctrl+C 停止）"
    assert zh[1].startswith("授权服务器地址：http://127.0.0.1:8766（元数据：")
    assert zh[2].startswith("受保护资源的元数据：http://127.0.0.1:8765/.well-known/")
    assert zh[5] == "给 curl 用的、发给这个 server 的 token（mcp:use；有效 1 小时）："
    assert zh[6:] == en[6:]  # the shell lines are the same commands
