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
from .bank import DIFFICULTY_STARS, FREQUENCY_LABELS, Bank, Question, load_bank, render_markdown
from .demos import DEMOS, PENDING, is_async

FOLDER = nbt.ROOT / "notebooks" / "interview"
MINUTES_PER_QUESTION = 5
#: Lesson notebooks by number (docs/architecture.md's module map), for links back to the teaching.
LESSONS = {"00": "00_welcome", "01": "01_function_calling", "02": "02_tool_schemas", "03": "03_tool_registry",
           "04": "04_fault_tolerance", "05": "05_tool_security", "06": "06_orchestration",
           "06b": "06b_agent_frameworks", "07": "07_json_rpc",
           "08": "08_mcp_basics", "09": "09_mcp_transports", "10": "10_mcp_advanced", "10a": "10a_mcp_authorization",
           "11": "11_a2a",
           "12": "12_capstone"}

#: Title and goal of each generated notebook.
INTROS: dict[str, tuple[str, str]] = {
    "01_function_calling_qa.ipynb": (
        "Function calling",
        "Answer the function-calling questions interviewers ask most: the five steps, `arguments`, `tool_call_id`, "
        "`tool_choice`, parallel and streamed calls, and why models replaced keyword routing."),
    "02_schemas_registries_qa.ipynb": (
        "Tool schemas and registries",
        "Answer the questions on tool definitions (descriptions, JSON Schema, strict mode, OpenAPI vs function "
        "definitions) and on registry design, including the seed's Q1: *design a tool system; how does the agent "
        "know which tool to call?*"),
    "03_reliability_security_qa.ipynb": (
        "Reliability, security and orchestration",
        "Answer the seed's Q3 (*a tool call failed: how do you design fault tolerance?*, the five layers) and the "
        "questions on model and API errors, idempotency, safe execution, prompt injection and orchestration."),
    "04_json_rpc_mcp_qa.ipynb": (
        "JSON-RPC, MCP and transports",
        "Answer the protocol questions: JSON-RPC 2.0, REST vs gRPC vs JSON-RPC, the seed's Q2 (*function calling "
        "vs MCP, and when to use which*), MCP's four capabilities including sampling, and stdio vs SSE vs "
        "streamable HTTP."),
    "05_a2a_qa.ipynb": (
        "A2A",
        "Answer the agent-to-agent questions: function calling vs MCP vs A2A, and a full A2A exchange (Agent Card, "
        "Task states, streaming, Artifacts)."),
    "06_system_design_qa.ipynb": (
        "System design",
        "Work through system-design questions with a diagram each: a platform for 1,000 tools across teams, "
        "observability of tool calls, and an enterprise assistant that combines function calling, MCP and A2A."),
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


def _contents_line(q: Question, number: int) -> str:
    seed = f", **the seed's {q.seed_question}**" if q.seed_question else ""
    return (f"{number}. {q.question} ({DIFFICULTY_STARS[q.difficulty]} {q.difficulty}, "
            f"{FREQUENCY_LABELS[q.frequency]}{seed})")


def _first_cell(name: str, questions: list[Question], bank: Bank, order: list[str]) -> str:
    title, goal = INTROS[name]
    i = order.index(name)
    prev = f"[{INTROS[order[i - 1]][0]}]({order[i - 1]})" if i > 0 else "[Practice](00_practice.ipynb)"
    nxt = f"[{INTROS[order[i + 1]][0]}]({order[i + 1]})" if i + 1 < len(order) else "[Practice](00_practice.ipynb)"
    lessons = [f"[{n}](../{LESSONS[n]}.ipynb)" for n in sorted({q.lesson for q in questions})]
    numbers = _numbers(bank)
    contents = [_contents_line(q, numbers[q.id]) for q in questions]
    pending = [q for q in questions if q.demo in PENDING]
    lines = [
        f"# Interview Q&A · {title}", "",
        f"**Goal.** {goal} Each answer is structured the way interviewers listen for it (one sentence, a numbered "
        "framework, bonus points, pitfalls, a follow-up) and backed by a demonstration you run here, so you can "
        "explain from something you saw.", "",
        "| | |", "|---|---|",
        f"| **Time** | about {MINUTES_PER_QUESTION * len(questions)} minutes ({len(questions)} questions) |",
        f"| **Place in the course** | interview notebook {i + 1} of {len(order)} · previous: {prev} · next: {nxt} · "
        f"lessons: {', '.join(lessons)} |",
        "| **Taught with** | the question bank `course_lib/data/interview.json`; demos on the offline mock LLM "
        "through the `openai` SDK |",
        "| **Exercise** | flashcards and a timed mock interview in [00 · Practice](00_practice.ipynb) |", "",
        "**How to use it.** Cover the answer, say yours out loud within the time an interview gives you (2 minutes "
        "for ★☆☆, 3 for ★★☆, 5 for ★★★), then compare and run the demo.", "",
        "**Contents**", "", *contents,
    ]
    if pending:
        lines += ["", f"*{len(pending)} demonstration(s) here wait for a lesson's module that is not in the course "
                  "yet; those questions say which.*"]
    return "\n".join(lines)


def build_notebook(name: str, bank: Bank | None = None) -> Any:
    """The notebook ``name`` (e.g. ``"01_function_calling_qa.ipynb"``), built from the bank, without outputs.

    Raises:
        KeyError: ``name`` is not one of the generated notebooks.
    """
    bank = bank or load_bank()
    groups = notebook_groups(bank)
    questions = groups[name]
    numbers = _numbers(bank)
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md(_first_cell(name, questions, bank, list(groups))),
             code("from course_lib.interview import design_diagram, run_demo\nfrom course_lib.servers import stop_all")]
    for q in questions:
        cells.append(md(render_markdown(q, bank, number=numbers[q.id])))
        if q.demo in PENDING:
            cells.append(md(f"**Demo `{q.demo}`: pending.** It will run on `{PENDING[q.demo]}`, which is not in "
                            "the course yet; until then, read the answer above and the lesson it points to."))
        elif q.demo in DEMOS:
            cells.append(code(f'{"await " if is_async(q.demo) else ""}run_demo("{q.demo}")'))
        else:
            raise KeyError(f"question {q.id!r} names demo {q.demo!r}, which is neither written nor pending")
        if q.diagram:
            cells.append(code(f'design_diagram("{q.diagram}")'))
    cells.append(md("## Practise\n\nTest yourself on these questions with the flashcards and the timed mock interview "
                    "in [00 · Practice](00_practice.ipynb), or print them all with `course cheatsheet`.\n\n"
                    "The last cell stops any server a demonstration started."))
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
    bank = bank or load_bank()
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
