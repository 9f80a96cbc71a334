"""course_lib speaks the learner's language (issue 20, points 1 and 4): course_lib.i18n and its string catalogs.

The main test: every string of course_lib wrapped in ``_()``/``N_()`` has a current Chinese translation with
the same ``{fields}`` (``course notebooks extract --lang zh`` adds the new ones to
``translations/zh/strings/*.po``). Measured (2 shared cores): importing course_lib.i18n ~1 ms; the first
Chinese string reads the catalogs with Babel (~60 ms with its import, once per process); English reads nothing.
"""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from course_lib import i18n
from course_lib import string_catalogs as sc
from course_lib.cli import main as course


def test_every_string_of_course_lib_has_a_current_chinese_translation():
    found = sc.extract()
    problems = sc.problems("zh", found)
    assert problems == [], ("run `course notebooks extract --lang zh` and translate translations/zh/strings/*.po:\n"
                            + "\n".join(problems))


def test_the_string_catalogs_are_what_extract_writes(tmp_path, monkeypatch):
    """The committed catalogs carry every string's current locations: a rerun of extract changes nothing."""
    before = {p.name: p.read_text(encoding="utf-8") for p in i18n.catalog_paths("zh")}
    copy = tmp_path / "translations" / "zh" / "strings"
    copy.mkdir(parents=True)
    for name, text in before.items():
        (copy / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "STRINGS", tmp_path / "translations")
    sc.update("zh")
    after = {p.name: p.read_text(encoding="utf-8") for p in i18n.catalog_paths("zh")}
    assert after == before, "run `course notebooks extract --lang zh` (the catalogs are not current)"


@pytest.mark.parametrize("env, cwd, expected", [
    (None, "notebooks", "en"), (None, "zh", "zh"), ("zh", "notebooks", "zh"), ("en", "zh", "en"),
    ("zh_CN.UTF-8", "x", "zh"), ("fr", "zh", "zh"), ("fr", "x", "en"), ("", "x", "en"),
])
def test_language_follows_course_lang_then_the_folder(env, cwd, expected, tmp_path, monkeypatch):
    (tmp_path / cwd).mkdir()
    monkeypatch.chdir(tmp_path / cwd)
    if env is None:
        monkeypatch.delenv("COURSE_LANG", raising=False)
    else:
        monkeypatch.setenv("COURSE_LANG", env)
    assert i18n.language() == expected


@pytest.mark.parametrize("cwd, expected", [
    ("notebooks/zh/interview", "zh"), ("exercises/zh", "zh"), ("solutions/zh/deep/er", "zh"),
    ("notebooks/interview", "en"), ("notebooks", "en"), ("docs/zh", "zh"),  # named zh itself, as before
    ("translations/zh/notebooks", "en"), ("notebooks/zhx/interview", "en"),
])
def test_language_follows_the_course_edition_folders(cwd, expected, tmp_path, monkeypatch):
    """A kernel in notebooks/zh/interview/ (its cwd is called 'interview') speaks Chinese; a folder outside
    the editions does not, unless it is itself called zh."""
    course = tmp_path / "course"
    (course / cwd).mkdir(parents=True)
    monkeypatch.setattr(i18n, "COURSE_ROOT", course)
    monkeypatch.chdir(course / cwd)
    monkeypatch.delenv("COURSE_LANG", raising=False)
    assert i18n.language() == expected


def test_an_unrelated_zh_parent_folder_does_not_choose_chinese(tmp_path, monkeypatch):
    """A course cloned under /home/zh/... stays English in its English folders; its own notebooks/zh/ is Chinese."""
    course = tmp_path / "zh" / "course"
    for sub in ("notebooks/interview", "notebooks/zh/interview"):
        (course / sub).mkdir(parents=True)
    monkeypatch.setattr(i18n, "COURSE_ROOT", course)
    monkeypatch.delenv("COURSE_LANG", raising=False)
    monkeypatch.chdir(course / "notebooks" / "interview")
    assert i18n.language() == "en"
    monkeypatch.chdir(course / "notebooks" / "zh" / "interview")
    assert i18n.language() == "zh"
    monkeypatch.chdir(tmp_path / "zh" / "course")
    assert i18n.language() == "en"


def test_the_real_chinese_interview_folder_is_chinese(monkeypatch):
    """The course's own notebooks/zh/interview/, where nbval starts the Chinese Q&A notebooks' kernels."""
    monkeypatch.delenv("COURSE_LANG", raising=False)
    monkeypatch.chdir(i18n.COURSE_ROOT / "notebooks" / "zh" / "interview")
    assert i18n.language() == "zh"
    monkeypatch.chdir(i18n.COURSE_ROOT / "notebooks" / "interview")
    assert i18n.language() == "en"


def test_set_language_rejects_an_unknown_language(monkeypatch):
    monkeypatch.delenv("COURSE_LANG", raising=False)
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        i18n.set_language("fr")
    i18n.set_language("zh")
    assert i18n.language() == "zh"
    i18n.set_language(None)
    assert "COURSE_LANG" not in __import__("os").environ


def _tiny_course(tmp_path: Path, monkeypatch) -> Path:
    pkg = tmp_path / "course_lib"
    pkg.mkdir()
    (pkg / "demo.py").write_text(textwrap.dedent('''
        from .i18n import N_, _
        TITLE = N_("Tool registry")
        def say(n):
            for _x in range(1):
                pass
            return _("{n} tools found").format(n=n)
        def bad(x):
            return _(f"no {x}")
    '''), encoding="utf-8")
    (pkg / "other.py").write_text('_ = lambda s: s\nprint(_("not course_lib.i18n"))\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "STRINGS", tmp_path / "translations")
    i18n.translations.cache_clear()
    return pkg


def test_extract_finds_marked_literals_and_reports_the_rest(tmp_path, monkeypatch):
    pkg = _tiny_course(tmp_path, monkeypatch)
    found = sc.extract(pkg, tmp_path)
    assert sorted(found.messages) == ["Tool registry", "{n} tools found"]
    assert found.messages["{n} tools found"] == [("course_lib/demo.py", 7)]
    assert len(found.problems) == 1 and found.problems[0].startswith("course_lib/demo.py:9: _() needs one string")


def test_a_missing_stale_or_misformatted_translation_is_reported(tmp_path, monkeypatch):
    pkg = _tiny_course(tmp_path, monkeypatch)
    found = sc.extract(pkg, tmp_path)
    found.problems.clear()
    [path] = sc.update("zh", found)
    assert path == tmp_path / "translations" / "zh" / "strings" / "course_lib.po"
    assert sorted(sc.problems("zh", found)) == ["missing course_lib/demo.py:3: Tool registry",
                                                 "missing course_lib/demo.py:7: {n} tools found"]
    text = path.read_text(encoding="utf-8")
    text = text.replace('msgid "Tool registry"\nmsgstr ""', 'msgid "Tool registry"\nmsgstr "工具注册表"')
    text = text.replace('msgid "{n} tools found"\nmsgstr ""', 'msgid "{n} tools found"\nmsgstr "找到 {count} 个工具"')
    path.write_text(text, encoding="utf-8")
    [problem] = sc.problems("zh", found)
    assert problem.startswith("fields  course_lib/demo.py:7: {n} tools found")
    path.write_text(text.replace("{count}", "{n}"), encoding="utf-8")
    assert sc.problems("zh", found) == []

    # the English changes: the old translation comes back fuzzy (stale), the test fails until it is reviewed
    (pkg / "demo.py").write_text((pkg / "demo.py").read_text().replace("{n} tools found", "{n} tools were found"))
    found = sc.extract(pkg, tmp_path)
    found.problems.clear()
    sc.update("zh", found)
    assert sc.problems("zh", found) == ["stale   course_lib/demo.py:7: {n} tools were found"]
    assert "#| msgid \"{n} tools found\"" in path.read_text(encoding="utf-8")


def test_underscore_translates_in_chinese_and_falls_back_to_english(tmp_path, monkeypatch):
    _tiny_course(tmp_path, monkeypatch)
    folder = tmp_path / "translations" / "zh" / "strings"
    folder.mkdir(parents=True)
    (folder / "course_lib.po").write_text('msgid "Tool registry"\nmsgstr "工具注册表"\n\n'
                                          '#, fuzzy\nmsgid "Hint"\nmsgstr "旧的提示"\n', encoding="utf-8")
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert i18n._("Tool registry") == "工具注册表"
    assert i18n._("Hint") == "Hint"  # a fuzzy (unreviewed) translation is not shown
    assert i18n._("not in any catalog") == "not in any catalog"
    monkeypatch.setenv("COURSE_LANG", "en")
    assert i18n._("Tool registry") == "Tool registry"
    i18n.translations.cache_clear()


def test_english_never_imports_babel():
    code = ("import sys; from course_lib.i18n import _; _('Tool registry'); "
            "print('babel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parent, env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "False"


def test_course_lang_option_sets_the_language_for_the_run(monkeypatch, capsys):
    monkeypatch.setenv("COURSE_LANG", "en")  # restored after the test
    with pytest.raises(SystemExit):
        course(["--lang", "fr", "progress"])
    assert "invalid choice: 'fr'" in capsys.readouterr().err
    assert i18n.language() == "en"
    course(["--lang", "zh", "progress"])
    assert i18n.language() == "zh"


def test_course_lang_option_translates_the_help_texts_too(monkeypatch, capsys):
    """argparse prints --help while it parses: `--lang` is read before the (translated) help texts are built."""
    monkeypatch.setenv("COURSE_LANG", "en")  # restored after the test
    english = "list the saved versions of this exercise"
    chinese = i18n.gettext(english, "zh")
    assert chinese != english
    for argv in (["--lang", "zh", "reset", "--help"], ["--lang=zh", "reset", "--help"]):
        with pytest.raises(SystemExit):
            course(argv)
        out = capsys.readouterr().out
        assert chinese in out and english not in out, argv
    with pytest.raises(SystemExit):
        course(["--lang", "en", "reset", "--help"])
    assert english in capsys.readouterr().out


def _help_texts(parser, where="course"):
    """``(where, help text)`` of every argument and sub-command of ``parser``, recursively (argparse's own
    ``-h`` excluded: its "show this help message and exit" is argparse's, as in every translated command)."""
    import argparse

    texts = [(where, parser.description)] if parser.description else []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:  # the one-line help of each sub-command
                texts.append((f"{where} {choice.dest}", choice.help))
            for name, sub in action.choices.items():
                texts += _help_texts(sub, f"{where} {name}")
        elif action.help and action.help is not argparse.SUPPRESS:
            texts.append((f"{where} {'/'.join(action.option_strings) or action.dest}", action.help))
    return texts


def test_every_help_text_of_the_course_command_is_chinese_in_chinese(monkeypatch):
    """`COURSE_LANG=zh course X --help` speaks Chinese for every command, action and argument; the English
    parser keeps the English texts (each Chinese one is the catalog's translation of an English one)."""
    from course_lib.cli import build_parser

    monkeypatch.setenv("COURSE_LANG", "en")
    english = _help_texts(build_parser())
    monkeypatch.setenv("COURSE_LANG", "zh")
    chinese = _help_texts(build_parser())
    assert len(english) == len(chinese) > 60
    assert [w for w, _t in english] == [w for w, _t in chinese]
    untranslated = [w for w, text in chinese if not re.search(r"[\u4e00-\u9fff]", text)]
    assert untranslated == []
    assert [w for (w, en), (_w, zh) in zip(english, chinese) if i18n.gettext(en, "zh") != zh] == []
    assert ("course check", "run the checks of an exercise, e.g. `course check 01`") in english


def test_string_catalogs_name_files_not_lines():
    """An edit that only moves code (a line added above a string) leaves every catalog current."""
    for path in i18n.catalog_paths("zh"):
        locations = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("#: ")]
        assert locations, path
        assert not [line for line in locations if re.search(r"\.py:\d+", line)], path


def test_argparse_headings_speak_chinese_and_chinese_help_fits_the_terminal(monkeypatch, capsys):
    """`course --lang zh X --help`: argparse's own headings (usage, positional arguments, options, -h, error)
    are translated, and help lines are wrapped by display columns (a Chinese character takes two), so none
    runs past the terminal; English help keeps argparse's headings."""
    from course_lib.text_table import display_width

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("COURSE_LANG", "en")
    for argv in (["--help"], ["interview", "mock", "--help"], ["check", "--help"]):
        with pytest.raises(SystemExit):
            course(["--lang", "zh", *argv])
        out = capsys.readouterr().out
        assert out.startswith("用法：course") and "\n选项:\n" in out and "显示这条帮助信息并退出" in out, argv
        assert "usage:" not in out and "options:" not in out and "show this help" not in out
        assert max(display_width(line) for line in out.splitlines()) <= 80
        assert not any(line.lstrip().startswith(("）", "，", "。")) for line in out.splitlines())
    assert "位置参数:" in out
    with pytest.raises(SystemExit):
        course(["--lang", "zh", "frob"])
    assert "course：错误：参数 COMMAND：无效的选项：'frob'（可选：'check', " in capsys.readouterr().err
    monkeypatch.setenv("COURSE_LANG", "en")
    with pytest.raises(SystemExit):
        course(["--lang", "en", "check", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: course check") and "\noptions:\n" in out and "positional arguments:" in out


@pytest.mark.parametrize("argv, english, chinese", [
    (["interview", "list", "--nope"], "course: error: unrecognized arguments: --nope", "course：错误：无法识别的参数：--nope"),
    ([], "course: error: the following arguments are required: COMMAND", "course：错误：缺少以下必需的参数：COMMAND"),
    (["interview", "frob"], "course interview: error: argument ACTION: invalid choice: 'frob' (choose from 'list', ",
     "course interview：错误：参数 ACTION：无效的选项：'frob'（可选：'list', "),
])
def test_argparse_error_texts_speak_the_learners_language(argv, english, chinese, monkeypatch, capsys):
    """argparse's own errors after "error:" go through the course catalog while a CourseParser parses:
    English as argparse writes it, Chinese with --lang zh; argparse's own ``_`` is restored afterwards."""
    import argparse

    before = argparse._
    monkeypatch.setenv("COURSE_LANG", "en")
    for lang, expected in (("en", english), ("zh", chinese)):
        with pytest.raises(SystemExit) as stop:
            course(["--lang", lang, *argv])
        assert stop.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1].startswith(expected)
    assert argparse._ is before


def test_wrap_columns_keeps_english_as_textwrap_and_breaks_chinese_by_columns():
    import textwrap

    from course_lib.cli import wrap_columns
    from course_lib.text_table import display_width

    english = "run the checks of an exercise, e.g. `course check 01`, and say what to fix first"
    assert wrap_columns(english, 30) == textwrap.wrap(english, 30)
    chinese = "本次运行输出的语言（默认：COURSE_LANG；未设置时，在课程的 notebooks/zh 中为 zh，否则为 en）"
    lines = wrap_columns(chinese, 30)
    assert all(display_width(line) <= 30 for line in lines) and "".join(lines).replace(" ", "") == chinese.replace(" ", "")
    assert "notebooks/zh" in " ".join(lines).split()  # an English word is never split
