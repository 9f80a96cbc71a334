"""The figure standard (course_lib/figure_standard.py): each rule catches its defect, the course's figures pass it.

Every figure a lesson, solution or interview notebook displays is audited while nbval runs it (the
repository's conftest.py fails the cell); the last test here proves that enforcement works on a real
notebook. The other tests pin each rule on a small figure made to break it, and check the figure
functions the lessons call, with the data of the issue's worst cases.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import nbformat
import pytest

from course_lib.diagrams import Arrow, figure, sequence_diagram
from course_lib.figure_standard import FigureStandardError, assert_legible, audit, contrast_ratio, decoration
from course_lib.notebooks import ROOT


def rules(fig) -> list[str]:
    return [p.rule for p in audit(fig)]


def test_two_labels_on_top_of_each_other_are_an_overlap():
    fig = figure(6, 3)
    ax = fig.add_subplot()
    ax.text(0.5, 0.5, "retry 1", fontsize=11)
    ax.text(0.52, 0.5, "retry 2", fontsize=11)
    assert "overlap" in rules(fig)
    fixed = figure(6, 3)
    ax = fixed.add_subplot()
    ax.text(0.1, 0.5, "retry 1", fontsize=11)
    ax.text(0.6, 0.5, "retry 2", fontsize=11)
    assert "overlap" not in rules(fixed)


def test_a_label_past_the_plot_edge_or_cut_by_its_axes_is_outside():
    fig = figure(6, 3)
    ax = fig.add_subplot()
    ax.set_xlim(0, 1)
    ax.text(0.95, 0.5, "estimate_budget(1850, 4)", fontsize=11)  # starts inside, ends past the right edge
    assert "outside" in rules(fig)
    cut = figure(6, 3)
    ax = cut.add_subplot()
    ax.text(0.9, 0.5, "finance_rates", fontsize=11, clip_on=True)  # shown as "finance_r"
    assert any("cut by its axes" in p.message for p in audit(cut))


def test_small_text_is_measured_at_the_displayed_size():
    fig = figure(6, 3)
    fig.add_subplot().text(0.1, 0.5, "tiny", fontsize=7)
    assert "font" in rules(fig)
    ok = figure(6, 3)
    ok.add_subplot().text(0.1, 0.5, "readable", fontsize=10)
    assert "font" not in rules(ok)
    # the same 10 pt text on a figure so wide that JupyterLab shrinks it to 1000 px is too small
    wide = figure(16, 3)
    wide.add_subplot().text(0.1, 0.5, "readable?", fontsize=10)
    assert "font" in rules(wide)


def test_a_line_through_a_label_is_a_crossing_but_a_tag_on_its_own_box_is_not():
    fig = figure(6, 3)
    ax = fig.add_subplot()
    ax.set_xlim(0, 2)
    ax.plot([1, 1], [0, 1], color="grey")
    ax.text(1, 0.5, "POST /chat/completions", ha="center", fontsize=10)
    assert "crossing" in rules(fig)
    tag = figure(6, 3)
    ax = tag.add_subplot()
    ax.set_xlim(0, 2)
    ax.annotate("", xy=(1.9, 0.5), xytext=(0.1, 0.5), arrowprops={"arrowstyle": "-|>"})
    ax.text(1, 0.5, "tools/call", ha="center", va="center", fontsize=10, zorder=5,
            bbox={"fc": "white", "ec": "grey"})
    assert "crossing" not in rules(tag)


def test_faint_text_on_a_bar_and_text_under_a_bar():
    fig = figure(6, 3)
    ax = fig.add_subplot()
    ax.barh(0, 10, color="#56B4E9", label="tool")
    ax.text(1, 0, "get_weather", color="white", fontsize=10, va="center", zorder=5)  # white on sky blue
    ax.legend()
    assert "contrast" in rules(fig)
    under = figure(6, 3)
    ax = under.add_subplot()
    ax.text(1, 0, "get_weather", fontsize=10, va="center", zorder=0)
    ax.barh(0, 10, color="#0072B2", label="tool", zorder=2)
    ax.legend()
    assert "hidden" in rules(under)
    assert round(contrast_ratio("white", "#0072B2"), 1) == 5.2  # WCAG: enough for white labels on Okabe-Ito blue


def test_every_mark_needs_a_legend_entry_a_label_beside_it_or_a_row_name():
    fig = figure(6, 3)
    ax = fig.add_subplot()
    ax.plot([0.2, 0.2], [0, 1], color="#D55E00", lw=3)  # an unexplained red tick
    ax.set_xlim(0, 1)
    assert "unlabelled" in rules(fig)
    labelled = figure(6, 3)
    ax = labelled.add_subplot()
    ax.plot([0.2, 0.2], [0, 1], color="#D55E00", lw=3, label="429 Too Many Requests")
    ax.legend(loc="upper right")
    assert "unlabelled" not in rules(labelled)
    rows = figure(6, 3)
    ax = rows.add_subplot()
    ax.barh(["keyword rules", "function calling"], [3, 8])
    assert "unlabelled" not in rules(rows), "each bar is named by its row's tick label"
    framed = figure(6, 3)
    ax = framed.add_subplot()
    decoration(ax.axvspan(0.1, 0.2, color="#eeeeee"))
    assert "unlabelled" not in rules(framed)


def test_an_invisible_bar_is_a_defect_but_a_zero_count_in_a_series_is_data():
    fig = figure(6, 3)
    ax = fig.add_subplot()
    ax.barh(["outdoor"], [0.0], left=[0.3])  # a zero-duration span drawn as a bar: nothing to see
    ax.set_xlim(0, 1)
    assert "invisible" in rules(fig)
    hist = figure(6, 3)
    ax = hist.add_subplot()
    ax.bar([0, 1, 2], [5, 0, 3], label="accepted")
    ax.legend()
    assert "invisible" not in rules(hist)


def test_assert_legible_lists_every_problem():
    fig = figure(6, 3)
    fig.suptitle("bad")
    fig.add_subplot().text(0.1, 0.5, "tiny", fontsize=6)
    with pytest.raises(FigureStandardError, match=r"\[font\] text 'tiny' is 6\.\d pt"):
        assert_legible(fig)


LONG_FLOW = [Arrow("User", "App", "user: What's the weather in Beijing and Shanghai, and should I take an umbrella?"),
             Arrow("App", "LLM", "POST /chat/completions (1 message + tools)"),
             Arrow("LLM", "App", 'tool_calls: get_weather({"city": "Beijing"}), get_weather({"city": "Shanghai"})',
                   "response"),
             Arrow("App", "Tool", 'get_weather(**{"city": "Beijing"})', "local"),
             Arrow("Tool", "Tool", "reads the weather table (a note on one lane, long enough to wrap twice)", "local"),
             Arrow("Tool", "App", 'role=tool call_abc: {"temp": 22, "humidity": 40}', "response"),
             Arrow("App", "LLM", "notifications/progress 50 %", "notification"),
             Arrow("LLM", "App", "error: 429 Too Many Requests, retry after 1 s", "error")]


def test_sequence_diagrams_with_long_labels_and_many_lanes_pass():
    assert_legible(sequence_diagram(["User", "App", "LLM", "Tool"], LONG_FLOW, title="long labels"))
    lanes = ["User", "Orchestrator", "LLM", "Tools", "Policy", "finance agent", "pm server", "wiki server"]
    arrows = [Arrow(a, b, f"message {i}: tools/call create_task with a long argument list") for i, (a, b)
              in enumerate(zip(lanes, lanes[1:] + lanes[:1]))]
    assert_legible(sequence_diagram(lanes, arrows, title="eight lanes, the capstone's width"))


def test_timelines_of_lesson_06_and_12_pass_with_zero_length_spans():
    from course_lib.resilience import FakeClock
    from course_lib.tracing import Trace

    clock = FakeClock()
    trace = Trace("a trip to Tokyo", clock=clock.now)
    for lane, label, seconds in [("weather", "get_weather(Tokyo)", 0.1), ("rate", "get_exchange_rate(CNY, JPY)", 0.1),
                                 ("outdoor", "find_activities(Tokyo, outdoor)", 0.0),
                                 ("budget", "estimate_budget(1850, 4)", 0.05)]:
        with trace.span(lane, label, layer="tool"):
            clock.advance(seconds)
    for attempt in range(3):  # lesson 12's retries: messages at almost the same moment
        trace.add("Orchestrator", "finance agent", f"SendMessage attempt {attempt + 1}", layer="a2a")
        clock.advance(0.001)
    assert_legible(trace.timeline(title="attempt 1 fails, wait, attempt 2 reaches the agent"))


@pytest.mark.parametrize("make", ["agent", "a2a", "a2a path", "layers", "scale", "stack", "design"])
def test_the_lessons_diagrams_pass(make):
    from course_lib import a2a_states, agent, capstone, resilience, scale_guide
    from course_lib.interview.design import DIAGRAMS

    figs = {"agent": lambda: [agent.state_diagram()],
            "a2a": lambda: [a2a_states.state_diagram()],
            "a2a path": lambda: [a2a_states.state_diagram(highlight=["submitted", "working", "input-required",
                                                                     "working", "failed"])],
            "layers": lambda: [resilience.layers_figure()],
            "scale": lambda: [scale_guide.scale_guide_figure()],
            "stack": lambda: [capstone.stack_figure()],
            "design": lambda: [f() for f in DIAGRAMS.values()]}[make]()
    for fig in figs:
        assert_legible(fig)


def test_an_nbval_cell_showing_an_illegible_figure_fails(tmp_path):
    """The enforcement itself: a notebook under the repository's conftest fails at the cell of a bad figure."""
    folder = ROOT / "_build" / "figure-standard-test"
    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("from course_lib.diagrams import figure\n"
                                          "good = figure(6, 2)\ngood.add_subplot().set_title('fine')\ngood"),
                nbformat.v4.new_code_cell("bad = figure(6, 2)\nax = bad.add_subplot()\n"
                                          "ax.text(0.5, 0.5, 'label one', fontsize=6)\nax.text(0.52, 0.5, 'label two')\nbad")]
    path = folder / "bad_figure.ipynb"
    nbformat.write(nb, str(path))
    env = {k: v for k, v in os.environ.items() if k != "COURSE_FIGURE_AUDIT"}  # the child's conftest sets its own
    run = subprocess.run([sys.executable, "-m", "pytest", str(path), "--nbval-lax", "--nbval-current-env", "-q",
                          "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts=", "--tb=short"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 failed, 1 passed" in out, out
    assert "breaks the course's figure standard" in out and "[font] text 'label one'" in out and "[overlap]" in out
    json.dumps(out)  # (readable as text)
