"""The printable cheat sheet: every question, model answer and comparison table in one file.

``course cheatsheet`` writes the same content twice: Markdown (reads well on a forge or in
an editor) and a self-contained HTML page styled for printing (one question never splits
across pages; tables keep their borders). Both come from the question bank, through the
same :func:`~course_lib.interview.bank.render_markdown` the Q&A notebooks use, so the
three can never disagree. Files are written atomically.
Taught in ``notebooks/interview/00_practice.ipynb``.
"""
from __future__ import annotations

import html
from pathlib import Path

from ..storage import atomic_write_text
from .bank import DIFFICULTY_STARS, Bank, frequency_label, load_bank, markdown_html, render_markdown
from .demos import PENDING
from .localize import N_, _t

STEM = "interview-cheatsheet"
TITLE = N_("Agent Tool Systems · interview cheat sheet")

_CSS = """
body { font: 11pt/1.45 -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif;
       max-width: 52em; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { font-size: 1.7em; } h2 { font-size: 1.3em; border-bottom: 2px solid #1f5fa8; padding-bottom: .2em;
     margin-top: 2em; } h3 { font-size: 1.08em; margin: 1.4em 0 .3em; }
code { background: #f3f3f3; padding: 0 .25em; border-radius: 3px; font-size: .92em; }
table { border-collapse: collapse; margin: .6em 0; font-size: .9em; }
th, td { border: 1px solid #bbb; padding: .25em .5em; vertical-align: top; text-align: left; }
th { background: #eef3fa; }
blockquote { margin: .4em 0; padding: .2em .8em; border-left: 4px solid #2e7d32; background: #f6fbf6; }
.question { break-inside: avoid; page-break-inside: avoid; }
.meta { color: #555; font-size: .9em; }
@media print { body { margin: 0; max-width: none; font-size: 9.5pt; } h2 { break-before: page; }
               h2.first { break-before: avoid; } a { color: inherit; text-decoration: none; } }
"""


def cheatsheet_markdown(bank: Bank | None = None) -> str:
    """The whole cheat sheet as Markdown: contents, comparison tables, then every question by topic.

    In the bank's language (``load_bank(lang="zh")`` gives the Chinese sheet; the Q&A notebooks it points to
    are then ``notebooks/zh/interview/`` where the edition has them).
    """
    bank = bank or load_bank()
    lang = bank.lang
    out = [f"# {_t(TITLE, lang)}", "",
           _t("{n} questions in {topics} topics, with model answers structured the way interviewers listen for "
              "them: one sentence, a numbered framework, bonus points, pitfalls and a follow-up. Difficulty: ★☆☆ "
              "easy, ★★☆ medium, ★★★ hard. Every answer has a runnable demonstration in `notebooks/interview/`.",
              lang).format(n=len(bank), topics=len(bank.topics)), "", _t("## Contents", lang), ""]
    number = 0
    for topic in bank.topics:
        qs = bank.select(topics=topic.id)
        if not qs:
            continue
        out.append(f"**{topic.title}**")
        out.append("")
        for q in qs:
            number += 1
            seed = _t(", **the seed's {q}**", lang).format(q=q.seed_question) if q.seed_question else ""
            out.append(f"{number}. {q.question} ({DIFFICULTY_STARS[q.difficulty]}, "
                       f"{frequency_label(q.frequency, lang)}{seed})")
        out.append("")
    out += [_t("## Comparison tables", lang), ""]
    for table in bank.tables.values():
        out += [table.markdown(), ""]
    number = 0
    for topic in bank.topics:
        qs = bank.select(topics=topic.id)
        if not qs:
            continue
        out += [f"## {topic.title}", ""]
        for q in qs:
            number += 1
            where = (_t("pending (it will run on `{module}`)", lang).format(module=PENDING[q.demo])
                     if q.demo in PENDING else
                     _t("`{demo}` in `{path}`", lang).format(demo=q.demo, path=_notebook_path(topic.notebook, lang)))
            out += [render_markdown(q, bank, number=number, level=3,
                                    demo_note=_t("*Demo:* {where}", lang).format(where=where)), ""]
    return "\n".join(out).rstrip() + "\n"


def _notebook_path(name: str, lang: str) -> str:
    """Where the Q&A notebook ``name`` is for a ``lang`` reader (the translated one where the edition has it)."""
    from .localize import edition_notebooks

    return (f"notebooks/{lang}/interview/{name}" if lang != "en" and name in edition_notebooks(lang)
            else f"notebooks/interview/{name}")


def cheatsheet_html(bank: Bank | None = None) -> str:
    """The cheat sheet as one self-contained, print-ready HTML page (no external files)."""
    bank = bank or load_bank()
    body = markdown_html(cheatsheet_markdown(bank))
    # Wrap each question (an h3 and what follows up to the next heading) so printing keeps it on one page.
    parts = body.split("<h3")
    wrapped = parts[0] + "".join(_wrap_question("<h3" + p) for p in parts[1:])
    wrapped = wrapped.replace("<h2>", "<h2 class=\"first\">", 1)
    lang = {"zh": "zh-CN"}.get(bank.lang, bank.lang)
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(_t(TITLE, bank.lang))}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{wrapped}</body>\n</html>\n")


def _wrap_question(fragment: str) -> str:
    head, sep, rest = fragment.partition("<h2")
    return f"<section class=\"question\">\n{head}</section>\n" + (sep + rest if sep else "")


def export_cheatsheet(out_dir: Path | str = ".", *, bank: Bank | None = None, stem: str = STEM) -> tuple[Path, Path]:
    """Write ``<stem>.md`` and ``<stem>.html`` into ``out_dir`` (created if missing).

    Args:
        out_dir: the folder to write to.
        bank: the question bank (default: the course's).
        stem: the file name without extension.

    Returns:
        ``(markdown path, html path)``.
    """
    bank = bank or load_bank()
    folder = Path(out_dir)
    md_path, html_path = folder / f"{stem}.md", folder / f"{stem}.html"
    atomic_write_text(md_path, cheatsheet_markdown(bank))
    atomic_write_text(html_path, cheatsheet_html(bank))
    return md_path, html_path
