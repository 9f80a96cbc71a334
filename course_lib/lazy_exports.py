"""Lazy re-exports for a package's ``__init__`` (PEP 562, module ``__getattr__``/``__dir__``).

A package lists where each public name lives; the name's module is imported on first access, so
importing the package costs nothing until a name is used (course_lib for stdio servers, mock_llm for a
notebook's first cell). Shared by ``course_lib/__init__.py`` and ``course_lib/mock_llm/__init__.py``.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return ``(__getattr__, __dir__)`` for ``package``.

    Args:
        package: the package's ``__name__`` (the anchor of the relative imports).
        exports: ``{public name: submodule name relative to the package}``.

    Returns:
        A module ``__getattr__`` that imports ``package.<submodule>`` on first access and returns the
        name (raises ``AttributeError`` for names not in ``exports``, as a module does), and a
        ``__dir__`` listing the package's globals plus the exported names.
    """
    module_globals = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        if name in exports:
            return getattr(importlib.import_module(f".{exports[name]}", package), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(module_globals) | set(exports))

    return __getattr__, __dir__
