"""The instructor guide matches the course: every lesson and exercise, agendas whose times add up from the lessons'
stated times, demos that name real sections, mistakes quoted from the checks, commands that exist."""
from __future__ import annotations

import argparse
import re

import nbformat

from course_lib.course_map import exercises, lessons
from course_lib.notebooks import ROOT

GUIDE = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")


def test_objectives_cover_lessons_00_to_12_and_10a():
    rows = re.findall(r"^\| (\d\d[a-z]?) \| ", GUIDE, re.M)
    assert sorted([f"{n:02d}" for n in range(13)] + ["06b", "10a"]) == sorted(set(rows))


def test_every_lesson_on_disk_is_in_the_guide():
    for lesson in lessons():
        assert re.search(rf"^\| {lesson.number} \| ", GUIDE, re.M), lesson


def test_agendas_checklist_demos_and_mistakes():
    for heading in ("### One day", "### Two days", "## Before the day: pre-flight checklist", "## What to demo live",
                    "## The commonest mistakes, per exercise"):
        assert heading in GUIDE
    assert "course preflight" in GUIDE and "course slides" in GUIDE and "course reset" in GUIDE
    times = re.findall(r"^\| (\d\d):(\d\d) \|", GUIDE, re.M)
    assert len(times) >= 20, "agendas give clock times"


def test_exercise_01_mistakes_match_its_check_hints():
    """The guide's advice for exercise 01 is what the check says (one source of truth, two readers)."""
    from course_lib.checks import tool_call_loop

    assert exercises()[0].key == "01_tool_call_loop"
    for fragment in ("must be a response to a preceding message", "did not have response messages"):
        assert fragment in " ".join(GUIDE.split()) and fragment in " ".join(tool_call_loop._HINTS_400)


def _section(heading: str) -> str:
    """The text of one ``## heading`` section of the guide (up to the next ``## ``)."""
    start = GUIDE.index(f"## {heading}\n")
    end = GUIDE.find("\n## ", start + 1)
    return GUIDE[start:end if end != -1 else None]


def _agendas() -> dict[str, list[tuple[int, str]]]:
    """``{agenda heading: [(minutes since midnight, block), ...]}`` for each agenda table."""
    found: dict[str, list[tuple[int, str]]] = {}
    heading = None
    for line in _section("Agendas").splitlines():
        if line.startswith("### ") or line.startswith("Day "):
            heading = line
        m = re.match(r"^\| (\d\d):(\d\d) \| ([^|]+)\|", line)
        if m and heading:
            found.setdefault(heading, []).append((int(m.group(1)) * 60 + int(m.group(2)), m.group(3).strip()))
    return {h: rows for h, rows in found.items() if rows}


def test_agenda_clock_times_follow_from_the_durations():
    agendas = _agendas()
    assert len(agendas) == 3, list(agendas)  # one day; two days, day 1 and day 2
    for heading, rows in agendas.items():
        assert rows[-1][1] == "end", heading
        for (start, block), (following, _) in zip(rows, rows[1:]):
            minutes = re.search(r"\((\d+) min\)$", block)
            assert minutes, f"{heading}: {block!r} gives no duration"
            assert start + int(minutes.group(1)) == following, f"{heading}: {block!r} does not end when the next begins"


def test_agenda_timings_are_the_lessons_and_exercises_stated_times():
    by_lesson = {l.number: l for l in lessons()}
    by_exercise = {e.number: e for e in exercises()}
    seen_lessons, seen_exercises = set(), set()
    for heading, rows in _agendas().items():
        for _, block in rows:
            minutes = re.search(r"\((\d+) min\)$", block)
            lesson = re.match(r"^(\d\d[a-z]?) (.+?) \(", block)
            exercise = re.match(r"^Exercise (\d\d[a-z]?) \(", block)
            if exercise:
                seen_exercises.add((heading, exercise.group(1)))
                assert int(minutes.group(1)) == by_exercise[exercise.group(1)].minutes, block
            elif lesson and "§" not in block:  # a whole lesson: its own time and title
                seen_lessons.add((heading, lesson.group(1)))
                assert int(minutes.group(1)) == by_lesson[lesson.group(1)].minutes, block
                assert by_lesson[lesson.group(1)].title.startswith(lesson.group(2).split(":")[0]), block
    two_days = {n for h, n in seen_lessons if h.startswith("Day ")}
    assert two_days == set(by_lesson), "the two-day agenda teaches every lesson"
    assert {n for h, n in seen_lessons if h == "### One day"} >= {"00", "01", "08", "12"}


def test_every_lesson_row_states_its_time_and_its_exercise():
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| (\d\d[a-z]?) \| .*$", GUIDE, re.M)}
    for lesson in lessons():
        assert f"({lesson.minutes} min)" in rows[lesson.number].split("|")[2], lesson
        for exercise in lesson.exercises:
            assert f"({exercise.minutes} min)" in rows[lesson.number].split("|")[3], exercise
    assert "planned" not in GUIDE


def test_live_demos_name_real_sections_of_every_lesson():
    demos = _section("What to demo live")
    for lesson in lessons():
        line = re.search(rf"^- \*\*{lesson.number}\*\* · (.*?)(?=^- \*\*)", demos, re.M | re.S)
        assert line, f"no demo for lesson {lesson.number}"
        headings = [h for c in nbformat.read(str(lesson.path), as_version=4).cells if c.cell_type == "markdown"
                    for h in re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$", c.source, re.M)]
        named = re.findall(r"§(\d+(?:\.\d+)?) \*([^*]+)\*", line.group(1))
        assert named, lesson
        for number, title in named:
            plain = re.sub(r"[`*]", "", " ".join(title.split()))
            assert any(n == number and re.sub(r"[`*]", "", t).startswith(plain) for n, t in headings), (
                f"lesson {lesson.number} has no section §{number} {title!r}")


def _joined_source(module: str) -> str:
    """A module's source with adjacent string literals joined and whitespace collapsed (hints span lines)."""
    source = (ROOT / "course_lib" / "checks" / module).read_text(encoding="utf-8")
    source = re.sub(r"[\"']\s*\n\s*f?[\"']", "", source)
    return " ".join(source.split())


def test_every_exercise_has_mistakes_quoted_from_its_check():
    mistakes = _section("The commonest mistakes, per exercise")
    blocks = re.findall(r"^\*\*(\d\d[a-z]?) · [^*]+\*\* \(`(\w+\.py)`\)\n(.*?)(?=^\*\*\d\d[a-z]? · |\Z)", mistakes,
                        re.M | re.S)
    assert [n for n, _, _ in blocks] == [e.number for e in exercises()]
    for number, module, text in blocks:
        source = _joined_source(module)
        quotes = re.findall(r"“([^”]+)”", text)
        assert len(quotes) >= 2, f"exercise {number}: quote the check's hints"
        for quote in quotes:
            assert " ".join(quote.split()) in source, f"exercise {number}: {quote!r} is not a hint of {module}"


def test_every_course_command_in_the_guide_parses():
    """Each `course ...` in the guide is a real command with real options (a bare name may stand in prose)."""
    from course_lib.cli import build_parser

    parser = build_parser()
    names = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    commands = set(re.findall(r"`(?:\.venv/bin/)?(course [^`.][^`]*)`", GUIDE))
    assert {"course preflight", "course reset NN", "course hint NN", "course slides all"} <= commands
    for command in commands:
        argv = [{"NN": "01", "N": "1"}.get(word, word) for word in command.split()[1:]]
        assert argv[0] in names, command
        if len(argv) > 1:
            try:
                parser.parse_args(argv)
            except SystemExit as e:
                raise AssertionError(f"`{command}` is not a valid command") from e


def test_no_inline_code_runs_across_a_line_break():
    """Markdown would render the rest of the paragraph as code (a run of backticks must close on its line)."""
    odd = [line for line in GUIDE.splitlines() if "```" not in line and line.count("`") % 2]
    assert odd == []
