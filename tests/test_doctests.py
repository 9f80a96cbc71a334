"""The worked examples in the docstrings of the schema, registry and agent modules run as written."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["course_lib.tool_schemas", "course_lib.tool_registry", "course_lib.agent", "course_lib.strict_mode",
           "course_lib.examples", "course_lib.provider_shapes", "course_lib.function_calling"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
