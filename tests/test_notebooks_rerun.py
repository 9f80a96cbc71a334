"""Every lesson and solution runs top to bottom, then again in the same kernel, without error.

The second run is the idempotence check of the developers' guide: servers started in a
cell must be replaced, not duplicated; nothing may hang. Text outputs of both runs must
also agree (after the nbval sanitize patterns), except cells marked NBVAL_IGNORE_OUTPUT.
"""
from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest

from course_lib import notebooks as nbt

RUN_TWICE = [p for p in nbt.shipped_notebooks() if "exercises" not in p.parts]
SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")


def _patterns() -> list[tuple[re.Pattern, str]]:
    cfg = configparser.ConfigParser()
    cfg.read(SANITIZE, encoding="utf-8")
    return [(re.compile(cfg[s]["regex"]), cfg[s]["replace"]) for s in cfg.sections()]


def _texts(nb) -> list[str]:
    pats = _patterns()
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "NBVAL_IGNORE_OUTPUT" in cell.source:
            continue
        text = "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs
                       if o.get("output_type") != "error")
        for pat, rep in pats:
            text = pat.sub(rep, text)
        out.append(text)
    return out


@pytest.mark.parametrize("path", RUN_TWICE, ids=lambda p: str(p.relative_to(nbt.ROOT)))
def test_runs_twice_in_one_kernel(path):
    first, second = nbt.execute_twice(path)
    assert nbt.errors_in(first) == [], "first run failed"
    assert nbt.errors_in(second) == [], "second run in the same kernel failed (a cell is not idempotent)"
    assert _texts(first) == _texts(second), "the second run printed something different"
