"""The data files shipped inside the package (``course_lib/data/*.json``): word lists, relations, gazetteers.

Read through :mod:`importlib.resources`, so they are found in an installed wheel as in a checkout.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_json(name: str) -> Any:
    """The parsed JSON of ``course_lib/data/<name>`` (e.g. ``"percent_shares.json"``), read as UTF-8.

    Raises:
        FileNotFoundError: no such data file; json.JSONDecodeError: the file is not JSON.
    """
    return json.loads(resources.files("course_lib").joinpath("data", name).read_text(encoding="utf-8"))
