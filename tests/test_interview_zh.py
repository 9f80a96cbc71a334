"""The Chinese interview practice (issue 20, points 1, 4, 5): the bank's catalog, the generated Q&A notebooks,
the scorer on Chinese answers, and the commands in Chinese.

The catalog is ``translations/zh/interview.po`` (one entry per field of the bank, keyed by question id, field and
a hash of the English; one per UI string); ``translations/zh/interview.txt`` lists the notebooks of the edition.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from course_lib import notebooks as nbt
from course_lib import translation as tr
from course_lib.cli import main as course
from course_lib.interview import localize as L
from course_lib.interview.bank import BANK_PATH, load_bank
from course_lib.interview.build import (FOLDER, build_translated, edition_folder, notebook_groups,
                                        translated_sync_problems)
from course_lib.interview.scoring import BIGRAM_COVERAGE, bigram_coverage, feedback_markdown, score_answer

EN, ZH = load_bank(), load_bank(lang="zh")
EDITION = L.edition_notebooks("zh")
STATE = L.status("zh")


def _han(text: str) -> int:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text)


# --------------------------------------------------------------------------- the catalog
def test_every_field_of_the_bank_has_a_current_translation_and_every_ui_string_too():
    assert STATE.stale == [], ("run `course interview extract --lang zh` and review the fuzzy entries of "
                               "translations/zh/interview.po:\n" + "\n".join(STATE.stale))
    # the whole bank is translated (questions, topic titles, comparison tables): a new field must be too
    assert STATE.missing == [], ("run `course interview extract --lang zh` and translate the empty entries of "
                                 "translations/zh/interview.po:\n" + "\n".join(STATE.missing))
    assert len(STATE.complete_questions) == len(EN)
    assert STATE.ui_missing == [] and STATE.ui_bad == [], STATE.problems()


def test_the_edition_lists_notebooks_whose_every_question_is_translated():
    assert EDITION, "translations/zh/interview.txt lists no notebook"
    groups = notebook_groups(EN)
    for name in EDITION:
        missing = [q.id for q in groups[name] if q.id not in STATE.complete_questions]
        assert missing == [], f"{name} is in the zh edition but these questions lack a current translation: {missing}"


def test_the_catalog_is_what_extract_writes():
    before = L.catalog_file("zh").read_bytes()
    try:
        L.extract("zh")
        assert L.catalog_file("zh").read_bytes() == before, "run `course interview extract --lang zh`"
    finally:
        L.catalog_file("zh").write_bytes(before)


def test_a_translated_question_is_chinese_and_keeps_its_keywords():
    for qid in STATE.complete_questions:
        en, zh = EN[qid], ZH[qid]
        assert zh.english is en and L.is_translated(zh)
        for a, b in zip((en.question, en.answer, *en.pitfalls, *en.follow_up), (zh.question, zh.answer,
                                                                                 *zh.pitfalls, *zh.follow_up)):
            assert b != a or _han(b) == _han(a), (qid, a)
        assert _han(zh.answer) >= 10, qid
        assert [p.keywords for p in zh.framework] == [p.keywords for p in en.framework]
        # code spans and spec terms are written as the specs spell them
        for a, b in zip((en.answer, *[p.point for p in en.framework]), (zh.answer, *[p.point for p in zh.framework])):
            assert sorted(_code_spans(a)) == sorted(_code_spans(b)), (qid, a, b)
    for tid, table in ZH.tables.items():
        english = EN.tables[tid]
        assert table.title != english.title and len(table.rows) == len(english.rows), tid
        assert sum(_han(c) for row in table.rows for c in row) >= 10, tid


def _code_spans(text: str) -> list[str]:
    import re

    return re.findall(r"`([^`]+)`", text)


def _scratch_course(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the bank (two questions) and of the zh catalog in a temporary course folder."""
    data = json.loads(BANK_PATH.read_text(encoding="utf-8"))
    data["questions"] = [q for q in data["questions"] if q["id"] in ("fc-five-steps", "fc-arguments")]
    bank = tmp_path / "interview.json"
    bank.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "translations" / "zh").mkdir(parents=True)
    shutil.copy(L.catalog_file("zh"), L.catalog_file("zh", tmp_path))
    return bank, tmp_path


def test_a_changed_english_field_is_stale_until_retranslated(tmp_path):
    bank, root = _scratch_course(tmp_path)
    assert L.extract("zh", root, bank).stale == []
    assert "fc-five-steps" in L.status("zh", root, bank).complete_questions
    data = json.loads(bank.read_text(encoding="utf-8"))
    data["questions"][0]["pitfalls"][2] = "Treating `arguments` as a dict: it is a JSON string, always."
    bank.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    state = L.status("zh", root, bank)
    assert len(state.stale) == 1 and state.stale[0].startswith("q:fc-five-steps:pitfalls.2: Treating `arguments`")
    assert "fc-five-steps" not in state.complete_questions and "fc-arguments" in state.complete_questions
    state = L.extract("zh", root, bank)  # the old translation is kept for review, as fuzzy, with the old English
    assert len(state.stale) == 1
    po = L.catalog_file("zh", root).read_text(encoding="utf-8")
    assert "#, fuzzy" in po and '#| msgid "Treating `arguments` as a dict: it is a JSON string."' in po
    L.translate_entries("zh", {"q:fc-five-steps:pitfalls.2": "把 `arguments` 当成 dict：它永远是 JSON 字符串。"}, root)
    state = L.status("zh", root, bank)
    assert state.stale == [] and "fc-five-steps" in state.complete_questions
    assert L.current_translations("zh", root)["q:fc-five-steps:pitfalls.2"].endswith("它永远是 JSON 字符串。")


def test_a_new_field_is_missing(tmp_path):
    bank, root = _scratch_course(tmp_path)
    data = json.loads(bank.read_text(encoding="utf-8"))
    data["questions"][1]["bonus"].append({"point": "Log every parse failure with the raw text.", "keywords": ["log"]})
    bank.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    state = L.extract("zh", root, bank)
    assert "q:fc-arguments:bonus.2: Log every parse failure with the raw text." in state.missing
    assert "fc-arguments" not in state.complete_questions


def test_ui_translations_keep_their_placeholders():
    table = L._ui_table("zh", L._mtime(L.catalog_file("zh")))
    for msg in L.ui_strings():
        assert L._placeholders(table[msg]) == L._placeholders(msg), msg
    assert L._t("**Framework**", "zh") == "**框架**" and L._t("**Framework**", "en") == "**Framework**"


def test_ui_strings_are_found_inside_f_strings_too(tmp_path, monkeypatch):
    # Babel's Python extractor skips a call inside an f-string; the AST walk does not
    (tmp_path / "m.py").write_text("TITLE = N_('Title')\n"
                                   "line = f\"# {_t('Cheat sheet')} ({_t('{n} cards').format(n=3)})\"\n"
                                   "other = _t(TITLE) + _t('plain')\n", encoding="utf-8")
    monkeypatch.setattr(L, "SOURCE_FILES", ("m.py",))
    assert L.ui_strings(tmp_path) == ["Title", "Cheat sheet", "{n} cards", "plain"]


def test_no_ui_string_is_built_before_it_is_translated():
    # _t(f"...") or _t("..." + x) can never match a catalog entry: translate the template, format after
    import ast

    folder = Path(L.__file__).resolve().parent
    built = []
    for name in L.SOURCE_FILES:
        for node in ast.walk(ast.parse((folder / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_t" and \
                    node.args and (isinstance(node.args[0], (ast.JoinedStr, ast.BinOp)) or (
                        isinstance(node.args[0], ast.Call) and getattr(node.args[0].func, "attr", "") == "format")):
                built.append(f"{name}:{node.lineno}")
    assert built == []


# --------------------------------------------------------------------------- the generated notebooks
def test_generated_chinese_notebooks_are_current():
    problems = translated_sync_problems("zh")
    assert problems == [], "\n".join(problems) + "\nrun `course interview build --lang zh`"
    assert tr.sync_problems("zh") == []  # the lesson edition's check accepts them


@pytest.mark.parametrize("name", EDITION)
def test_chinese_notebook_shares_code_and_outputs_and_translates_the_prose(name):
    english, chinese = nbt.read(FOLDER / name), nbt.read(edition_folder("zh") / name)
    assert [c.cell_type for c in english.cells] == [c.cell_type for c in chinese.cells]
    for a, b in zip(english.cells, chinese.cells):
        assert a.get("id") == b.get("id")
        if a.cell_type == "code":  # the same code; its outputs are its own run's, in the Chinese folder
            assert a.source == b.source and bool(a.get("outputs")) == bool(b.get("outputs"))
        else:
            assert b.source != a.source and _han(b.source) >= 10, b.source[:80]
    assert chinese.cells[0].source.startswith("# 面试问答 · ")
    for q in notebook_groups(ZH)[name]:
        assert any(c.source.startswith("## ") and q.question in c.source.split("\n")[0] for c in chinese.cells), q.id


@pytest.mark.parametrize("name", EDITION)
def test_links_of_the_chinese_notebooks_resolve(name):
    out = edition_folder("zh") / name
    targets = [t for c in nbt.read(out).cells if c.cell_type == "markdown" for _, t, _ in tr._LINK.findall(c.source)]
    assert targets
    for target in targets:
        if "://" not in target and not target.startswith("#"):
            assert (out.parent / target.partition("#")[0]).exists(), f"{name}: broken link {target}"
    assert "../01_function_calling.ipynb" in targets or name != "01_function_calling_qa.ipynb"  # the zh lesson


def test_a_notebook_with_an_untranslated_question_cannot_be_built(monkeypatch):
    import dataclasses

    from course_lib.interview import build as build_module

    name = "05_a2a_qa.ipynb"
    first = notebook_groups(ZH)[name][0]
    # the Chinese bank as it is while one question of the notebook has no current translation (shown in English)
    partial = dataclasses.replace(ZH, questions=tuple(q.english if q.id == first.id else q for q in ZH.questions),
                                  _by_id={})
    monkeypatch.setattr(build_module, "load_bank", lambda path=None, lang=None: partial if lang else EN)
    with pytest.raises(tr.TranslationError, match=f"no current translation of question {first.id}"):
        build_translated(name, "zh")


def test_build_command_checks_the_chinese_notebooks(capsys, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")  # `--lang` sets COURSE_LANG for the process: monkeypatch restores it
    assert course(["interview", "build", "--lang", "zh", "--check"]) == 0
    assert "and its zh translation" in capsys.readouterr().out


# --------------------------------------------------------------------------- the scorer on Chinese answers
# A candidate's own words, not the bank's text: what an interviewer would hear (seed 000's wording where it has one).
FIVE_STEPS_ZH = ("用户问上海天气时，应用先把消息和工具定义（name、description、parameters 这些 JSON Schema）一起发给模型。"
                 "模型不会直接回答文字，而是返回一个 tool_calls，里面有函数名和 JSON 字符串格式的参数。"
                 "然后由我们的应用来解析参数、执行真正的函数。执行结果作为一条 tool 消息发回去，带上对应的 tool_call_id。"
                 "最后模型读取结果，写出最终回答，如果还需要工具就继续循环。")
# the same points without any English term: only the Chinese bigrams can find them
ARGUMENTS_ZH = ("因为参数是模型一个 token 一个 token 生成出来的，它本质上是一段编码成字符串的文本，不是已经解析好的对象。"
                "空字符串和空值都应该当作没有参数来处理。"
                "如果解析出来不是对象，或者根本不是合法的格式，就拒绝它，并且给出精确的错误信息，说明位置和原因。"
                "把这个错误作为工具消息的内容返回，让模型修正参数后重试。"
                "解析成功以后，调用函数之前还要先按照 schema 校验一遍。")
OFF_TOPIC_ZH = ("数据库索引一般用 B+ 树实现，可以加快查询速度，但会降低写入性能。"
                "联合索引要注意最左前缀原则，否则查询用不上索引。")


def test_a_chinese_answer_in_own_words_scores_high_and_an_off_topic_one_low():
    five = ZH["fc-five-steps"]
    assert score_answer(five, FIVE_STEPS_ZH).score == 100
    assert score_answer(five, OFF_TOPIC_ZH).score == 0
    args = ZH["fc-arguments"]
    result = score_answer(args, ARGUMENTS_ZH)
    assert result.made == [0, 1, 2, 3, 4] and result.score == 100
    assert score_answer(args, OFF_TOPIC_ZH).score == 0
    # the Chinese points themselves carry the match: on the English card (English points) the same answer
    # makes only the points whose keywords it happens to contain (`token`, `schema`, and 重试: the synonym of
    # `retry` in course_lib/data/interview_synonyms.json)
    english_card = score_answer(EN["fc-arguments"], ARGUMENTS_ZH)
    assert english_card.made == [0, 3, 4] and english_card.score == 60


def test_an_english_answer_to_a_chinese_card_scores_by_the_english_key_points():
    for qid in ("fc-five-steps", "fc-tool-choice", "fc-parallel"):
        english = EN[qid].answer + "\n" + "\n".join(p.point for p in EN[qid].framework)
        assert score_answer(ZH[qid], english).score == score_answer(EN[qid], english).score >= 80, qid
    assert score_answer(ZH["fc-five-steps"], "Databases use B-trees for their indexes.").score == 0


def test_a_bare_list_of_chinese_terms_is_only_named():
    # the point's words, without a sentence around them, earn a fifth (as in English), and the hint says so
    five = ZH["fc-five-steps"]
    listed = "工具定义，tool_calls，解析，tool_call_id，最终"
    result = score_answer(five, listed)
    assert result.made == [] and len(result.named) == 5 and result.score == 20
    assert feedback_markdown(five, result, "zh").endswith(
        "**→** 你列出了关键术语，这是个好的开始。接下来把每一点讲清楚：像对面试官那样，用一句话说明它做什么、为什么。")


def test_a_space_separated_list_padded_with_filler_words_is_still_a_list():
    # written Chinese has no spaces inside a clause: 重试 降级 ... is a list, and 香蕉 天空 does not make it a sentence
    five = ZH["fc-five-steps"]
    result = score_answer(five, "工具定义 tool_calls 解析 tool_call_id 最终 香蕉 天空")
    assert result.made == [] and len(result.named) == 5 and result.score == 20
    # the same terms in sentences still make their points
    said = score_answer(five, "先写工具定义；模型返回 tool_calls；应用解析参数并执行；结果带上 tool_call_id 发回；模型给出最终回答。")
    assert said.score > 50 and said.made


def test_another_questions_chinese_answer_makes_few_points():
    five = ZH["fc-five-steps"]
    covs = [bigram_coverage(p.point, OFF_TOPIC_ZH + ZH["fc-origins"].answer) for p in five.framework]
    assert max(covs) < BIGRAM_COVERAGE
    assert score_answer(five, ZH["fc-origins"].answer).score == 0


def test_a_chinese_pitfall_stated_as_true_counts_against_the_answer():
    result = score_answer(ZH["fc-five-steps"], FIVE_STEPS_ZH + "其实是模型自己调用天气 API。")
    assert result.pitfalls == [0] and 2 in result.contradicted and result.score == 100 - 20 - 20


# --------------------------------------------------------------------------- the commands in Chinese
def test_cards_and_mock_speak_chinese(monkeypatch, tmp_path, capsys):
    from course_lib.interview.cards import Session, pick_cards
    from course_lib.interview.store import CardStore
    from course_lib.interview.terminal import run_cards, run_mock
    from course_lib.interview.timed import MockInterview

    monkeypatch.setenv("COURSE_LANG", "zh")
    store = CardStore("zh-learner", folder=tmp_path)
    session = Session(pick_cards(ZH, store, size=1, topics="function-calling"), store)
    said: list[str] = []
    answers = iter([FIVE_STEPS_ZH, "", "y"])
    run_cards(session, ask=lambda _: next(answers), say=said.append)
    text = "\n".join(said)
    assert "讲讲 function calling 的完整流程" in text and "你讲到了 5 个框架要点中的 5 个" in text
    assert "一句话回答：" in text and "已掌握 1 张，待复习 0 张，剩余 0 张" in text

    ticks = iter([0.0, 30.0, 30.0])
    interview = MockInterview(1, topics="function-calling", seed=3, clock=lambda: next(ticks), bank=ZH)
    said.clear()
    answers = iter([OFF_TOPIC_ZH, ""])
    report = run_mock(interview, ask=lambda _: next(answers), say=said.append)
    assert report.total == 0 and "模拟面试：1 道题，得分 0/100（需要多练：先从抽认卡开始）" in "\n".join(said)
    assert "第 1/1 题（" in "\n".join(said)


def test_course_commands_in_chinese(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")  # `--lang zh` sets COURSE_LANG for the process: monkeypatch restores it
    assert course(["cheatsheet", "--lang", "zh", "--out", str(tmp_path)]) == 0
    assert "51 道题，8 张对比表" in capsys.readouterr().out
    md = (tmp_path / "interview-cheatsheet.md").read_text(encoding="utf-8")
    assert md.startswith("# Agent 工具系统 · 面试速查表") and ZH["fc-five-steps"].question in md
    assert "notebooks/zh/interview/01_function_calling_qa.ipynb" in md
    assert '<html lang="zh-CN">' in (tmp_path / "interview-cheatsheet.html").read_text(encoding="utf-8")
    assert course(["interview", "list", "--lang", "zh", "--topic", "function-calling"]) == 0
    assert "fc-five-steps" in capsys.readouterr().out
    assert course(["interview", "status", "--lang", "zh"]) == 0
    assert f"{len(STATE.complete_questions)} of {len(EN)} questions translated" in capsys.readouterr().out


def test_a_question_with_a_stale_field_is_shown_in_english_never_half_translated(tmp_path):
    bank, root = _scratch_course(tmp_path)
    data = json.loads(bank.read_text(encoding="utf-8"))
    data["questions"][0]["answer"] += " (changed)"
    bank.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    english = load_bank(bank)
    shown = L.localized(english, "zh", root)
    assert shown["fc-five-steps"] == english["fc-five-steps"] and not L.is_translated(shown["fc-five-steps"])
    assert shown["fc-arguments"].question == ZH["fc-arguments"].question  # the current one stays Chinese


def test_the_widgets_speak_chinese(monkeypatch, tmp_path):
    import html

    from course_lib.interview.cards import flashcards
    from course_lib.interview.store import CardStore
    from course_lib.interview.timed import mock_interview

    monkeypatch.setenv("COURSE_LANG", "zh")
    shown = mock_interview(n=1, seed=2, topics="function-calling", bank=ZH)
    header, start_b, question, clock_label, box, submit_b, result, next_b = shown.widget.children
    assert "模拟面试：随机 1 道题" in shown.text and start_b.description == "开始"
    start_b.click()
    assert html.escape(shown.interview.current.question) in question.value and "第 1 / 1 题" in header.value
    box.value = FIVE_STEPS_ZH
    submit_b.click()
    assert "**得分" not in result.value and "得分：" in result.value and "参考答案" in result.value
    assert next_b.description == "查看得分"
    cards = flashcards(bank=ZH, store=CardStore("zh-widget", folder=tmp_path), size=1, topics="function-calling")
    head, q, answer_box, reveal_b, verdict, model, marks = cards.widget.children
    assert reveal_b.description == "查看答案" and "第 1 / 1 张" in head.value and "简单" in head.value
    answer_box.value = FIVE_STEPS_ZH
    reveal_b.click()
    assert "你的回答覆盖了 5 个框架要点中的 5 个" in verdict.value and "一句话回答。" in model.value


def test_the_system_design_figures_speak_chinese_and_english_is_unchanged(monkeypatch):
    """Titles, box and flow labels, the legend and the text fallback of course_lib.interview.design."""
    from course_lib.interview.design import DIAGRAMS

    monkeypatch.setenv("COURSE_LANG", "zh")
    fig = DIAGRAMS["tool_system"]()
    assert fig._suptitle.get_text() == "Q1 · 工具系统：Agent 怎么知道该调用哪个工具"
    drawn = [t.get_text() for t in fig.axes[0].texts]
    assert "注册表\n工具集、check_fn、\n动态覆盖" in drawn and "结果或错误" in drawn and "tool_calls" in drawn
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["数据", "Function calling"]
    assert "组件：" in fig.fallback_text and "  处理函数 -> 对话: 结果或错误" in fig.fallback_text
    platform = DIAGRAMS["tool_platform"]()
    assert "不要把 1,000 个定义全都发给模型：每次请求只检索出相关的几个" in platform.fallback_text
    assert [t.get_text() for t in platform.legends[0].get_texts()] == ["数据", "Function calling", "MCP", "遥测"]
    monkeypatch.setenv("COURSE_LANG", "en")
    fig = DIAGRAMS["tool_system"]()
    assert fig._suptitle.get_text() == "Q1 · a tool system: how the agent knows which tool to call"
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["data", "function calling"]
    assert "components:" in fig.fallback_text and "  Handler -> Conversation: result or error" in fig.fallback_text


def test_on_the_whole_bank_chinese_answers_score_their_own_question_and_not_others():
    """Each question's own one-sentence and follow-up answers (Chinese text, not its framework) against the
    answer + framework of the first question of each other topic: measured 78.9 vs 8.8 (the English bank, by
    keywords: 92.0 own)."""
    import statistics

    own = [score_answer(q, q.answer + "\n" + q.follow_up[1]).score for q in ZH]
    firsts = {t.id: ZH.select(topics=t.id)[0] for t in ZH.topics}   # one question of each other topic (time)
    other = [score_answer(q, o.answer + "\n" + "\n".join(p.point for p in o.framework)).score
             for q in ZH for topic, o in firsts.items() if topic != q.topic]
    assert statistics.mean(own) >= 75 and statistics.mean(other) <= 12
    assert sum(s >= 50 for s in own) >= 0.8 * len(own)


def test_load_bank_speaks_the_learners_language(monkeypatch):
    """The practice notebook's load_bank() (no lang) is the Chinese bank in notebooks/zh/interview/, where its
    kernel runs, and the English one in notebooks/interview/; an explicit lang wins; the English build stays English."""
    monkeypatch.delenv("COURSE_LANG", raising=False)
    monkeypatch.chdir(nbt.ROOT / "notebooks" / "zh" / "interview")
    zh = load_bank()
    assert zh.lang == "zh" and zh["fc-five-steps"].question != load_bank(lang="en")["fc-five-steps"].question
    assert "模型" in zh["fc-five-steps"].answer
    assert load_bank(lang="en").lang == "en"
    build_notebook_text()  # the English source notebooks are built from the English bank, even from here
    monkeypatch.chdir(nbt.ROOT / "notebooks" / "interview")
    assert load_bank().lang == "en"


def build_notebook_text() -> str:
    from course_lib.interview.build import build_notebook

    first = build_notebook("01_function_calling_qa.ipynb").cells[0].source
    assert first.startswith("# Interview Q&A · Function calling"), first[:60]
    return first


def test_the_chinese_practice_notebook_links_to_the_chinese_qa_notebooks():
    """00_practice is a lesson of the edition: its links to the Q&A notebooks stay in notebooks/zh/interview/,
    and the Q&A notebooks' links to it do too."""
    practice = (nbt.ROOT / "notebooks" / "zh" / "interview" / "00_practice.ipynb").read_text(encoding="utf-8")
    assert "](01_function_calling_qa.ipynb)" in practice and "../../interview/" not in practice
    qa = (nbt.ROOT / "notebooks" / "zh" / "interview" / "01_function_calling_qa.ipynb").read_text(encoding="utf-8")
    assert "](00_practice.ipynb)" in qa and "../../interview/00_practice" not in qa


# --------------------------------------------------------------------------- the demos' code in Chinese
def test_every_demo_translation_is_current_and_the_catalog_is_what_extract_writes(tmp_path):
    from course_lib.interview import demo_translation as D

    state = D.status("zh")
    assert state.stale == [] and state.invalid == []
    assert {"five_steps", "unanswered_call", "tool_choice", "parallel_calls", "schema_from_code",
            "dispatch_errors", "registry_q1"} <= set(state.translated)
    copy = D.catalog_file("zh", tmp_path)
    copy.parent.mkdir(parents=True)
    shutil.copy(D.catalog_file("zh"), copy)
    assert D.extract("zh", tmp_path).translated == state.translated
    assert copy.read_text(encoding="utf-8") == D.catalog_file("zh").read_text(encoding="utf-8")


def test_a_chinese_demo_shows_and_runs_its_chinese_code_and_english_is_unchanged(capsys, monkeypatch):
    from course_lib.interview.demos import run_demo

    monkeypatch.setenv("COURSE_LANG", "zh")
    run_demo("parallel_calls")
    code, _, output = capsys.readouterr().out.partition("── 输出 ──\n")
    assert code.startswith("# 演示：parallel_calls · course_lib/interview/demos.py\n")
    assert '"北京和上海的天气怎么样？"' in code and "What's the weather" not in code
    assert output.startswith("parallel_tool_calls=True：2 次模型请求\n")  # the code just shown is what ran
    assert 'get_weather({"city": "北京"}), get_weather({"city": "上海"})' in output
    assert "并行调用省下了 1 次模型往返；回答：北京现在 22°C" in output
    run_demo("protocol_origins")  # no string to translate: the English code, under Chinese labels
    code, _, output = capsys.readouterr().out.partition("── 输出 ──\n")
    assert code.startswith("# 演示：protocol_origins") and "print(timeline_text())" in code and output
    monkeypatch.setenv("COURSE_LANG", "en")
    run_demo("parallel_calls")
    code, _, output = capsys.readouterr().out.partition("── output ──\n")
    assert code.startswith("# demo: parallel_calls · course_lib/interview/demos.py\n")
    assert "What's the weather in Beijing and in Shanghai?" in code
    assert output.startswith("parallel_tool_calls=True: 2 model requests\n")


def test_translated_demo_code_runs_as_a_module_so_pydantic_resolves_its_annotations(capsys, monkeypatch):
    """schema_from_code's ``book_room(day: dt.date, ...)`` goes through pydantic, which looks the annotation's
    names up in ``sys.modules[book_room.__module__]``: run in a bare dict, the Chinese code failed with
    ``NameError: name 'dt' is not defined``."""
    from course_lib.interview.demos import run_demo

    monkeypatch.setenv("COURSE_LANG", "zh")
    run_demo("schema_from_code", show_code=False)
    out = capsys.readouterr().out
    assert "required： ['room', 'day'] | pydantic： ['room', 'day']" in out
    assert "两者完全相同： ['room', 'day', 'size', 'hours']" in out


def test_a_demo_translation_that_changes_code_or_is_stale_is_not_used(tmp_path, monkeypatch):
    from course_lib.interview import demo_translation as D
    from course_lib.interview import demos
    from course_lib.translation import read_catalog, write_catalog

    path = D.catalog_file("zh", tmp_path)
    path.parent.mkdir(parents=True)
    shutil.copy(D.catalog_file("zh"), path)
    cat = read_catalog(path, "zh")
    entry = next(m for m in cat if m.context == "tool_choice")
    entry.string = entry.string.replace("tools=[WEATHER_TOOL, GET_TIME_TOOL]", "tools=[WEATHER_TOOL]")
    write_catalog(cat, path)
    assert D.status("zh", tmp_path).invalid == ["tool_choice (changes the code, not only its comments and strings)"]
    assert D.translated_source("tool_choice", "zh", tmp_path) is None
    assert D.translated_source("five_steps", "zh", tmp_path).count("上海天气怎么样？") == 1
    original = demos.demo_source  # the English code of five_steps changes: its translation is stale
    monkeypatch.setattr(demos, "demo_source", lambda name, **kw: original(name, **kw).replace("Shanghai?", "Tokyo?")
                        if name == "five_steps" else original(name, **kw))
    assert "five_steps" in D.status("zh", tmp_path).stale and D.translated_source("five_steps", "zh", tmp_path) is None
    D.extract("zh", tmp_path)  # the old translation stays for review: fuzzy, with the previous English
    po = path.read_text(encoding="utf-8")
    assert "#, fuzzy" in po and "#| msgid \"\"" in po and "What's the weather in Tokyo?" in po
