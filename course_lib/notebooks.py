"""Notebook housekeeping: clean metadata, execute (once or twice in one kernel), refresh outputs.

Conventions every shipped notebook follows (checked by ``tests/test_notebook_hygiene.py``):
kernelspec ``python3`` and no other machine-specific metadata (computationalmodelling/nbval#106:
``NoSuchKernel`` for a kernel named after someone's conda env); no execution counts;
no saved widget state; lessons keep their deterministic text and image outputs
(nbval compares the text), exercises and solutions are saved without outputs.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
CELL_METADATA_KEYS = ("tags", "slideshow", "course")
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
DEFAULT_TIMEOUT = 180  # seconds per cell


def keeps_outputs(path: Path) -> bool:
    """Lessons keep their outputs; exercises and solutions are saved without them."""
    return "notebooks" in Path(path).resolve().parts


def clean(nb: Any, *, keep_outputs: bool) -> Any:
    """Return a cleaned copy of ``nb`` (nbformat v4 node); the input is not modified."""
    nb = copy.deepcopy(nb)
    nb.metadata = nbformat.from_dict({"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}})
    for cell in nb.cells:
        cell.metadata = nbformat.from_dict({k: v for k, v in cell.metadata.items() if k in CELL_METADATA_KEYS})
        if cell.cell_type != "code":
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
            if cell.cell_type == "markdown":
                cell.pop("attachments", None) if not cell.get("attachments") else None
            continue
        cell.execution_count = None
        # Outputs nbval is told to ignore differ per machine: saving them is only noise.
        keep = keep_outputs and "NBVAL_IGNORE_OUTPUT" not in cell.source
        outputs = [_clean_output(o) for o in cell.outputs] if keep else []
        cell.outputs = _merge_streams([o for o in outputs if o is not None])
    return nb


def _merge_streams(outputs: list[Any]) -> list[Any]:
    """Join consecutive ``stream`` outputs of the same name into one.

    A kernel splits printed text into chunks differently from run to run; without this,
    every refresh would rewrite unchanged notebooks (nbval compares the joined text anyway).
    """
    merged: list[Any] = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and prev is not None and prev.get("output_type") == "stream"
                and prev.get("name") == out.get("name")):
            prev["text"] = _text(prev["text"]) + _text(out["text"])
            continue
        if out.get("output_type") == "stream":
            out["text"] = _text(out["text"])
        merged.append(out)
    return merged


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else value


def _clean_output(output: Any) -> Any:
    """A copy of ``output`` without noise, or None when nothing worth keeping is left."""
    output = copy.deepcopy(output)
    data = output.get("data")
    if data is not None and WIDGET_MIME in data:
        # A widget's view is meaningless without its saved state: keep only its text fallback.
        del data[WIDGET_MIME]
        if not data:
            return None
    if "metadata" in output:
        output.metadata = nbformat.from_dict({})
    if output.get("output_type") == "execute_result":
        output.execution_count = None
    return output


def read(path: Path | str) -> Any:
    return nbformat.read(str(path), as_version=4)


def write(nb: Any, path: Path | str) -> None:
    nbformat.validate(nb)
    Path(path).write_text(nbformat.writes(nb) + "\n", encoding="utf-8")


def clean_file(path: Path | str, *, check: bool = False) -> bool:
    """Clean ``path`` in place (or, with ``check``, only report). True if it was/would be changed."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    cleaned = nbformat.writes(clean(nbformat.reads(text, as_version=4), keep_outputs=keeps_outputs(path))) + "\n"
    if cleaned == text:
        return False
    if not check:
        path.write_text(cleaned, encoding="utf-8")
    return True


def _client(nb: Any, path: Path, timeout: int):
    from nbclient import NotebookClient

    return NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                          resources={"metadata": {"path": str(path.parent)}})


def errors_in(nb: Any) -> list[tuple[int, str, str]]:
    """``(cell index, ename, evalue)`` for every error output in ``nb``."""
    return [(i, o.get("ename", ""), o.get("evalue", ""))
            for i, c in enumerate(nb.cells) if c.cell_type == "code"
            for o in c.get("outputs", []) if o.get("output_type") == "error"]


def execute(path: Path | str, *, timeout: int = DEFAULT_TIMEOUT) -> Any:
    """Execute a notebook top to bottom in a fresh ``python3`` kernel; return the executed copy."""
    path = Path(path)
    nb = read(path)
    _client(nb, path, timeout).execute()
    return nb


def execute_twice(path: Path | str, *, timeout: int = DEFAULT_TIMEOUT) -> tuple[Any, Any]:
    """Execute all cells, then all cells again in the *same* kernel (the idempotence check).

    Returns:
        The two executed copies ``(first, second)``.
    """
    path = Path(path)
    first, second = read(path), read(path)
    client = _client(first, path, timeout)
    with client.setup_kernel():
        for i, cell in enumerate(first.cells):
            client.execute_cell(cell, i)
        client.nb = second
        for i, cell in enumerate(second.cells):
            client.execute_cell(cell, i)
    return first, second


def refresh_outputs(path: Path | str, *, timeout: int = DEFAULT_TIMEOUT) -> list[tuple[int, str, str]]:
    """Execute a lesson and save its outputs (cleaned). Returns the errors (saved only if none)."""
    path = Path(path)
    nb = execute(path, timeout=timeout)
    errs = errors_in(nb)
    if not errs:
        write(clean(nb, keep_outputs=keeps_outputs(path)), path)
    return errs


SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"


def sanitize_patterns(path: Path = SANITIZE) -> list[tuple[Any, str]]:
    """The ``(regex, replacement)`` pairs nbval applies before comparing outputs (``tests/nbval_sanitize.cfg``:
    tool-call ids, ports, durations, timestamps...); empty when the file does not exist."""
    import re

    if not Path(path).exists():
        return []
    # read as nbval reads it (nbval.plugin.get_sanitize_patterns): each "regex: ..." line and the "replace: ..." after it
    pairs = re.findall("^regex: (.*)$\n^replace: (.*)$", Path(path).read_text(encoding="utf-8"), flags=re.MULTILINE)
    return [(re.compile(regex), replace) for regex, replace in pairs]


def same_for_nbval(a: str, b: str, patterns: list[tuple[Any, str]] | None = None) -> bool:
    """Whether two saved notebook texts have the same cells and differ only in outputs, where nbval's sanitize
    patterns look away (an id, a port, a duration): then rewriting one with the other is only noise in the diff."""
    def cells(text: str) -> Any:
        nb = nbformat.reads(text, as_version=4)
        return [(c.cell_type, c.get("id"), c.source, c.metadata) for c in nb.cells], nb.metadata

    if cells(a) != cells(b):
        return False
    for pattern, replacement in sanitize_patterns() if patterns is None else patterns:
        a, b = pattern.sub(replacement, a), pattern.sub(replacement, b)
    return a == b


def shipped_notebooks(root: Path = ROOT) -> list[Path]:
    """Every notebook the course ships (lessons, interview notebooks, exercises, solutions)."""
    found: list[Path] = []
    for folder in ("notebooks", "exercises", "solutions"):
        # exercises/backups/ holds a learner's saved versions (course reset): not shipped.
        found += sorted(p for p in (root / folder).rglob("*.ipynb")
                        if ".ipynb_checkpoints" not in p.parts and "backups" not in p.parts)
    return found


def from_percent(text: str) -> Any:
    """Build a notebook from "percent" source: ``# %%`` starts a code cell, ``# %% [markdown]``
    a markdown cell (its lines start with ``# ``), optional ``tags=[...]`` after the marker.

    A convenience for authors writing a lesson as one text file; the ``.ipynb`` stays the
    shipped source. Example: ``# %% [markdown]\\n# # Title\\n# %%\\nprint(1)``.
    """
    import re

    cells = []
    for block in re.split(r"^(?=# %%)", text.strip() + "\n", flags=re.M):
        if not block.startswith("# %%"):
            continue
        header, _, body = block.partition("\n")
        tags = re.findall(r"tags=\[([^\]]*)\]", header)
        tag_list = [t.strip().strip("'\"") for t in tags[0].split(",")] if tags else []
        if "[markdown]" in header:
            lines = [ln[2:] if ln.startswith("# ") else ln.lstrip("#") for ln in body.rstrip().split("\n")]
            cell = nbformat.v4.new_markdown_cell("\n".join(lines).strip())
        else:
            cell = nbformat.v4.new_code_cell(body.strip())
        if tag_list:
            cell.metadata["tags"] = tag_list
        cells.append(cell)
    nb = nbformat.v4.new_notebook(cells=cells)
    return clean(nb, keep_outputs=False)
