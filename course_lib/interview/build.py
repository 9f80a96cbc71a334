"""Build the Q&A notebooks of ``notebooks/interview/`` from the question bank (maintainers).

The bank is the single source of every question and answer; the notebooks are generated
from it, like exercises are generated from solutions, so the notebooks, the flashcards and
the cheat sheet always say the same thing. Each topic group becomes one notebook:

1. the opening cell (title, goal, time, place in the course, contents);
2. the imports;
3. per question: the rendered question and model answer (Markdown), then a code cell
   running its demonstration (``run_demo``) or, while the module it needs has not landed,
   a note saying so (never a fake demo); system-design questions add their diagram;
4. a closing cell that stops any server a demo started.

``course interview build`` writes them; ``course notebooks refresh notebooks/interview/*.ipynb``
then executes them and stores their outputs. ``tests/test_interview_notebooks.py`` fails
when a notebook no longer matches the bank. ``00_practice.ipynb`` is hand-written.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat

from .. import notebooks as nbt
from .bank import DIFFICULTY_STARS, Bank, Question, difficulty_label, frequency_label, load_bank, render_markdown
from .demos import DEMOS, PENDING, is_async
from .localize import N_, _t

FOLDER = nbt.ROOT / "notebooks" / "interview"
MINUTES_PER_QUESTION = 5
#: Lesson notebooks by number (docs/architecture.md's module map), for links back to the teaching.
LESSONS = {"00": "00_welcome", "01": "01_function_calling", "02": "02_tool_schemas", "03": "03_tool_registry",
           "04": "04_fault_tolerance", "05": "05_tool_security", "06": "06_orchestration",
           "06b": "06b_agent_frameworks", "07": "07_json_rpc",
           "08": "08_mcp_basics", "09": "09_mcp_transports", "10": "10_mcp_advanced", "10a": "10a_mcp_authorization",
           "11": "11_a2a",
           "12": "12_capstone"}

#: Title and goal of each generated notebook (English; ``_t`` translates them, ``N_`` marks them for extraction).
INTROS: dict[str, tuple[str, str]] = {
    "01_function_calling_qa.ipynb": (
        N_("Function calling"),
        N_("Answer the function-calling questions interviewers ask most: the five steps, `arguments`, `tool_call_id`, "
        "`tool_choice`, parallel and streamed calls, and why models replaced keyword routing.")),
    "02_schemas_registries_qa.ipynb": (
        N_("Tool schemas and registries"),
        N_("Answer the questions on tool definitions (descriptions, JSON Schema, strict mode, OpenAPI vs function "
        "definitions) and on registry design, including the seed's Q1: *design a tool system; how does the agent "
        "know which tool to call?*")),
    "03_reliability_security_qa.ipynb": (
        N_("Reliability, security and orchestration"),
        N_("Answer the seed's Q3 (*a tool call failed: how do you design fault tolerance?*, the five layers) and the "
        "questions on model and API errors, idempotency, safe execution, prompt injection and orchestration.")),
    "04_json_rpc_mcp_qa.ipynb": (
        N_("JSON-RPC, MCP and transports"),
        N_("Answer the protocol questions: JSON-RPC 2.0, REST vs gRPC vs JSON-RPC, the seed's Q2 (*function calling "
        "vs MCP, and when to use which*), MCP's four capabilities including sampling, and stdio vs SSE vs "
        "streamable HTTP.")),
    "05_a2a_qa.ipynb": (
        N_("A2A"),
        N_("Answer the agent-to-agent questions: function calling vs MCP vs A2A, and a full A2A exchange (Agent Card, "
        "Task states, streaming, Artifacts).")),
    "06_system_design_qa.ipynb": (
        N_("System design"),
        N_("Work through system-design questions with a diagram each: a platform for 1,000 tools across teams, "
        "observability of tool calls, and an enterprise assistant that combines function calling, MCP and A2A.")),
}


def notebook_groups(bank: Bank) -> dict[str, list[Question]]:
    """``{notebook file name: its questions}`` in bank order."""
    groups: dict[str, list[Question]] = {}
    for topic in bank.topics:
        groups.setdefault(topic.notebook, []).extend(bank.select(topics=topic.id))
    return {name: qs for name, qs in groups.items() if qs}


def _numbers(bank: Bank) -> dict[str, int]:
    """The question numbers shared by the notebooks and the cheat sheet (1 .. N, bank order)."""
    return {q.id: i for i, q in enumerate(bank.questions, 1)}


def _contents_line(q: Question, number: int, lang: str) -> str:
    seed = _t(", **the seed's {q}**", lang).format(q=q.seed_question) if q.seed_question else ""
    return (f"{number}. {q.question} ({DIFFICULTY_STARS[q.difficulty]} {difficulty_label(q.difficulty, lang)}, "
            f"{frequency_label(q.frequency, lang)}{seed})")


def _first_cell(name: str, questions: list[Question], bank: Bank, order: list[str]) -> str:
    lang = bank.lang
    title, goal = (_t(text, lang) for text in INTROS[name])
    i = order.index(name)
    practice = _t("Practice", lang)
    prev = f"[{_t(INTROS[order[i - 1]][0], lang)}]({order[i - 1]})" if i > 0 else f"[{practice}](00_practice.ipynb)"
    nxt = (f"[{_t(INTROS[order[i + 1]][0], lang)}]({order[i + 1]})" if i + 1 < len(order)
           else f"[{practice}](00_practice.ipynb)")
    lessons = [f"[{n}](../{LESSONS[n]}.ipynb)" for n in sorted({q.lesson for q in questions})]
    numbers = _numbers(bank)
    contents = [_contents_line(q, numbers[q.id], lang) for q in questions]
    pending = [q for q in questions if q.demo in PENDING]
    lines = [
        _t("# Interview Q&A · {title}", lang).format(title=title), "",
        _t("**Goal.** {goal} Each answer is structured the way interviewers listen for it (one sentence, a numbered "
           "framework, bonus points, pitfalls, a follow-up) and backed by a demonstration you run here, so you can "
           "explain from something you saw.", lang).format(goal=goal), "",
        "| | |", "|---|---|",
        _t("| **Time** | about {minutes} minutes ({n} questions) |", lang).format(
            minutes=MINUTES_PER_QUESTION * len(questions), n=len(questions)),
        _t("| **Place in the course** | interview notebook {i} of {n} · previous: {prev} · next: {next} · "
           "lessons: {lessons} |", lang).format(i=i + 1, n=len(order), prev=prev, next=nxt,
                                                lessons=", ".join(lessons)),
        _t("| **Taught with** | the question bank `course_lib/data/interview.json`; demos on the offline mock LLM "
           "through the `openai` SDK |", lang),
        _t("| **Exercise** | flashcards and a timed mock interview in [00 · Practice](00_practice.ipynb) |", lang), "",
        _t("**How to use it.** Cover the answer, say yours out loud within the time an interview gives you (2 minutes "
           "for ★☆☆, 3 for ★★☆, 5 for ★★★), then compare and run the demo.", lang), "",
        _t("**Contents**", lang), "", *contents,
    ]
    if pending:
        lines += ["", _t("*{n} demonstration(s) here wait for a lesson's module that is not in the course "
                         "yet; those questions say which.*", lang).format(n=len(pending))]
    return "\n".join(lines)


def build_notebook(name: str, bank: Bank | None = None) -> Any:
    """The notebook ``name`` (e.g. ``"01_function_calling_qa.ipynb"``), built from the bank, without outputs.

    The text is in the bank's language (``bank.lang``); links are written from ``notebooks/interview/``
    (:func:`build_translated` re-points them for a translated edition).

    Raises:
        KeyError: ``name`` is not one of the generated notebooks.
    """
    bank = bank or load_bank(lang="en")  # the English notebooks are the source, whatever the learner reads
    lang = bank.lang
    groups = notebook_groups(bank)
    questions = groups[name]
    numbers = _numbers(bank)
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md(_first_cell(name, questions, bank, list(groups))),
             code("from course_lib.interview import design_diagram, run_demo\nfrom course_lib.servers import stop_all")]
    for q in questions:
        cells.append(md(render_markdown(q, bank, number=numbers[q.id])))
        if q.demo in PENDING:
            cells.append(md(_t("**Demo `{demo}`: pending.** It will run on `{module}`, which is not in "
                               "the course yet; until then, read the answer above and the lesson it points to.",
                               lang).format(demo=q.demo, module=PENDING[q.demo])))
        elif q.demo in DEMOS:
            cells.append(code(f'{"await " if is_async(q.demo) else ""}run_demo("{q.demo}")'))
        else:
            raise KeyError(f"question {q.id!r} names demo {q.demo!r}, which is neither written nor pending")
        if q.diagram:
            cells.append(code(f'design_diagram("{q.diagram}")'))
    cells.append(md(_t("## Practise\n\nTest yourself on these questions with the flashcards and the timed mock "
                       "interview in [00 · Practice](00_practice.ipynb), or print them all with `course cheatsheet`."
                       "\n\nThe last cell stops any server a demonstration started.", lang)))
    cells.append(code("_ = stop_all()"))
    return nbt.clean(nbformat.v4.new_notebook(cells=cells), keep_outputs=False)


def build_all(folder: Path | None = None, bank: Bank | None = None, *, check: bool = False) -> list[Path]:
    """Write every generated notebook into ``folder`` (default ``notebooks/interview``).

    A notebook whose cell sources already match is left untouched (its stored outputs stay).

    Args:
        check: only report; write nothing.

    Returns:
        The notebooks that were (or, with ``check``, would be) rewritten.
    """
    bank = bank or load_bank(lang="en")  # the English notebooks are the source, whatever the learner reads
    folder = folder or FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    changed = []
    for name in notebook_groups(bank):
        path = folder / name
        built = build_notebook(name, bank)
        if path.exists() and sources(nbt.read(path)) == sources(built):
            continue
        changed.append(path)
        if not check:
            nbt.write(built, path)
    return changed


def sources(nb: Any) -> list[tuple[str, str]]:
    """``(cell type, source)`` of every cell: what must match between the bank and a notebook."""
    return [(c.cell_type, c.source) for c in nb.cells]


# --------------------------------------------------------------------------- translated editions
def edition_folder(lang: str) -> Path:
    """``notebooks/<lang>/interview``: where the ``lang`` Q&A notebooks are generated."""
    return nbt.ROOT / "notebooks" / lang / "interview"


def build_translated(name: str, lang: str) -> Any:
    """The ``lang`` edition of the Q&A notebook ``name``, as :func:`build_all_translated` writes it.

    Built from the translated bank (``load_bank(lang=lang)``); its code cells are the English notebook's,
    with their ids and, until :func:`build_all_translated` executes it, their stored outputs (in the
    edition's folder course_lib speaks ``lang``, so the written notebook has outputs of its own); links point to the translated notebook where the edition
    has one, else to the English one.

    Raises:
        TranslationError: a question of the notebook, or a UI string it shows, has no current translation.
        ValueError: the English notebook is out of date with the bank (run ``course interview build``).
    """
    from .. import translation as tr
    from .localize import is_translated, status

    bank = load_bank(lang=lang)
    untranslated = [q.id for q in notebook_groups(bank)[name] if not is_translated(q)]
    ui = status(lang).ui_missing
    if untranslated or ui:
        raise tr.TranslationError(
            f"notebooks/interview/{name} cannot be built in {lang}: no current translation of "
            + ", ".join([f"question {q}" for q in untranslated] + [f"UI string {u!r}" for u in ui][:5])
            + f". Run `course interview extract --lang {lang}` and translate translations/{lang}/interview.po.")
    english_path = FOLDER / name
    english = nbt.read(english_path)
    nb = build_notebook(name, bank)
    if [c.cell_type for c in english.cells] != [c.cell_type for c in nb.cells] or [
            c.source for c in english.cells if c.cell_type == "code"] != [
            c.source for c in nb.cells if c.cell_type == "code"]:
        raise ValueError(f"{english_path} is out of date with the bank: run `course interview build` first")
    translated = {p.resolve() for p in tr.edition(lang)} | {
        (FOLDER / n).resolve() for n in _edition(lang) if (FOLDER / n).exists()}
    for mine, theirs in zip(nb.cells, english.cells):
        mine.id = theirs.get("id", mine.id)
        if mine.cell_type == "code":
            mine.outputs, mine.execution_count = theirs.get("outputs", []), None
        else:
            mine.source = tr._translate_links(mine.source, english_path, lang, nbt.ROOT, translated)
    return nbt.clean(nb, keep_outputs=True)


def _edition(lang: str) -> list[str]:
    from .localize import edition_notebooks

    return edition_notebooks(lang)


def build_all_translated(lang: str, *, check: bool = False) -> list[Path]:
    """Write the ``lang`` Q&A notebooks listed in ``translations/<lang>/interview.txt``.

    Args:
        check: only report; write nothing.

    Returns:
        The notebooks that were (or, with ``check``, would be) written because they differ.

    Raises:
        TranslationError: a listed notebook is not fully translated (see :func:`build_translated`).
    """
    from ..translation import _cells_only, execute_edition, rendered

    changed = []
    for name in _edition(lang):
        nb = build_translated(name, lang)
        out = edition_folder(lang) / name
        # cells are compared, not outputs: the notebook is executed in its own folder, where course_lib
        # speaks `lang` (figure texts, labels), so only that run can say what it prints; nbval checks it
        if out.exists() and _cells_only(out.read_text(encoding="utf-8")) == _cells_only(rendered(nb)):
            continue
        changed.append(out)
        if not check:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(rendered(execute_edition(nb, out, lang)), encoding="utf-8")
    return changed


def translated_sync_problems(lang: str) -> list[str]:
    """Why the ``lang`` Q&A notebooks are not current (empty: they are): each listed one is what
    :func:`build_translated` writes, and no other notebook is in ``notebooks/<lang>/interview/``
    (``00_practice.ipynb`` there belongs to the lesson edition, ``translations/<lang>/edition.txt``)."""
    from ..translation import TranslationError, edition

    problems = []
    try:
        problems += [f"{p.relative_to(nbt.ROOT)} differs from what `course interview build --lang {lang}` writes"
                     for p in build_all_translated(lang, check=True)]
    except TranslationError as err:
        problems.append(str(err))
    expected = set(_edition(lang)) | {p.name for p in edition(lang) if p.parent == FOLDER}
    folder = edition_folder(lang)
    for stray in sorted(folder.glob("*.ipynb")) if folder.exists() else []:
        if stray.name not in expected:
            problems.append(f"{stray.relative_to(nbt.ROOT)} is in no edition list (translations/{lang}/interview.txt)")
    return problems
