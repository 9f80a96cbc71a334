"""The learner's language for what ``course_lib`` prints: :func:`language` and the gettext-style :func:`_`.

Every learner-facing string of the library (check messages, hints, widget labels, figure texts, CLI output) is
written in English and wrapped in ``_()``; the English text is the gettext ``msgid`` and its translation lives
in a catalog read with Babel (``translations/<lang>/strings/*.po``, see ``docs/translation.md``)::

    from .i18n import _
    print(_("{name} returned no tool_calls").format(name=tool))   # format after translating

* :func:`language` decides per call (no state): the ``COURSE_LANG`` environment variable when it names a
  known language, else ``"zh"`` when the current working directory is in one of the course's Chinese edition
  folders (``notebooks/zh``, ``exercises/zh``, ``solutions/zh`` under the course root, at any depth: a Jupyter
  kernel's working directory is its notebook's folder, ``notebooks/zh/interview`` for a Chinese Q&A notebook)
  or is itself called ``zh``, else ``"en"``. A ``zh`` folder elsewhere on the path (``/home/zh/...``) is not
  a choice of language. ``course --lang zh`` sets ``COURSE_LANG`` for its run (:func:`set_language`).
* A module-level constant is marked with :func:`N_` (it returns its argument) and translated where it is
  shown, ``_(CONSTANT)``: the language is the one of the moment it is printed, not of the import.
* English costs nothing: no catalog is read. The first Chinese string reads the catalogs once per process
  (Babel's ``read_po``; ~60 ms with the import, measured in ``tests/test_i18n.py``'s docstring).
* A missing translation falls back to the English text (the learner still reads something true);
  ``tests/test_i18n.py`` fails on every string of ``course_lib`` that has no current translation.

Catalog files are split by owner so two translators do not edit one file: :data:`DOMAINS` maps a module
path to its catalog, everything else goes to ``course_lib.po``.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "zh")
SOURCE_LANGUAGE = "en"
ENV = "COURSE_LANG"
COURSE_ROOT = Path(__file__).resolve().parent.parent
STRINGS = COURSE_ROOT / "translations"
#: The course folders whose ``<lang>/`` subfolder holds that language's edition (as course_lib.translation).
EDITION_PARENTS = ("notebooks", "exercises", "solutions")
# catalog (file stem) -> path prefixes (relative to the repository, POSIX) of the modules whose strings it holds
DOMAINS: dict[str, tuple[str, ...]] = {
    "interview": ("course_lib/interview/", "course_lib/commands/interview.py", "course_lib/commands/cheatsheet.py"),
}
DEFAULT_DOMAIN = "course_lib"


def language() -> str:
    """The learner's language right now: ``"zh"`` or ``"en"`` (rules in the module docstring).

    An unknown ``COURSE_LANG`` (``fr``, ``zh_CN.UTF-8`` is read as ``zh``) is ignored, not an error:
    the course never stops because of a locale setting.
    """
    wanted = os.environ.get(ENV, "").strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    if wanted in LANGUAGES:
        return wanted
    try:
        cwd = Path.cwd()
    except OSError:  # the working directory was deleted under us
        return SOURCE_LANGUAGE
    return folder_language(cwd)


def folder_language(folder: Path, root: Path | None = None) -> str:
    """The language a working directory stands for: ``"zh"`` for ``folder`` named ``zh`` or inside
    ``<root>/{notebooks,exercises,solutions}/zh/`` (any depth; ``root`` defaults to :data:`COURSE_ROOT`),
    else ``"en"``.

    Only the course root's edition folders count: an unrelated parent called ``zh`` (``/home/zh/course``)
    does not make the course Chinese. ``folder`` should be absolute (``Path.cwd()``); symlinks are resolved.
    """
    if folder.name == "zh":
        return "zh"
    try:
        parts = folder.resolve().relative_to((root or COURSE_ROOT).resolve()).parts
    except (ValueError, OSError):  # outside the course
        return SOURCE_LANGUAGE
    return "zh" if len(parts) >= 2 and parts[0] in EDITION_PARENTS and parts[1] == "zh" else SOURCE_LANGUAGE


def set_language(lang: str | None) -> None:
    """Use ``lang`` (``"zh"``/``"en"``) from now on in this process and the processes it starts;
    ``None`` goes back to the automatic choice. Raises ``ValueError`` for an unknown language."""
    if lang is None:
        os.environ.pop(ENV, None)
        return
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    os.environ[ENV] = lang


def catalog_paths(lang: str) -> list[Path]:
    """The string catalogs of ``lang`` (``translations/<lang>/strings/*.po``), sorted; may be empty."""
    folder = STRINGS / lang / "strings"
    return sorted(folder.glob("*.po")) if folder.is_dir() else []


def domain_of(module: str) -> str:
    """The catalog stem for a module path relative to the repository (``course_lib/hints.py`` -> ``course_lib``)."""
    for domain, prefixes in DOMAINS.items():
        if module.startswith(prefixes):
            return domain
    return DEFAULT_DOMAIN


@lru_cache(maxsize=None)
def translations(lang: str) -> dict[str, str]:
    """``{English msgid: translation}`` of every current (non-empty, non-fuzzy) entry of ``lang``'s catalogs.

    Read once per process and cached; ``{}`` for English or a language with no catalog.
    Raises ``babel.messages.pofile.PoFileError`` on a malformed catalog (a test keeps them well-formed).
    """
    if lang == SOURCE_LANGUAGE:
        return {}
    from babel.messages.pofile import read_po  # lazy: English never pays for Babel

    found: dict[str, str] = {}
    for path in catalog_paths(lang):
        with open(path, "rb") as fh:
            for msg in read_po(fh, locale=lang, abort_invalid=True):
                if msg.id and isinstance(msg.id, str) and msg.string and not msg.fuzzy:
                    found[msg.id] = msg.string
    return found


def gettext(message: str, lang: str | None = None) -> str:
    """``message`` (English) in ``lang`` (default :func:`language`); the English itself when untranslated."""
    lang = lang or language()
    if lang == SOURCE_LANGUAGE:
        return message
    return translations(lang).get(message, message)


def _(message: str) -> str:
    """gettext's ``_``: ``message`` in the learner's language (see :func:`gettext`). Format after it:
    ``_("{n} tools").format(n=3)``; the translation keeps the same ``{fields}`` (tested)."""
    return gettext(message)


def N_(message: str) -> str:
    """Mark a string for translation without translating it now (module-level constants); returns it."""
    return message


#: full-width punctuation that ends or joins a Chinese clause, or closes a bracket: no space follows it. Not the
#: curly quotes or the ellipsis: English writes them too (“Show hint 1 of 3” in the 💡 cell), with spaces
FULLWIDTH_CLOSING = "。，、；：！？）」』】》"
#: full-width punctuation that opens: no space precedes it after a Chinese character
FULLWIDTH_OPENING = "（「『【《"
_SPACING = re.compile(rf"(?<=[{FULLWIDTH_CLOSING}]) +(?=\S)|(?<=[\u4e00-\u9fff]) +(?=[{FULLWIDTH_OPENING}{FULLWIDTH_CLOSING}])")
_CODE = re.compile(r"(`[^`\n]*`|<code>.*?</code>|<pre>.*?</pre>)", re.S)


def tidy_spacing(text: str) -> str:
    """``text`` without the ASCII spaces that pieces joined by code leave around full-width punctuation.

    English puts a space after ``.`` and ``:``; Chinese puts none after ``。`` ``：`` ``）`` (the punctuation
    is a full character wide), nor before ``（`` or ``。`` after a Chinese character. A message made of
    translated pieces (``"{what} 还没有写"`` with ``what = "`read_file`（在 `make_read_file` 内部）"``) gets such
    a space where a piece ends in full-width punctuation; this removes it. Code spans (`` `...` ``, ``<code>``,
    ``<pre>``) are left as they are, and so is a space after markdown emphasis (``**提示**：`` stays: CommonMark
    needs it), spaces before a line break, and text without full-width punctuation (English is unchanged).

    Example:
        >>> tidy_spacing("`read_file`（在 `f` 内部） 还没有写。 请写代码 （见上）。")
        '`read_file`（在 `f` 内部）还没有写。请写代码（见上）。'
        >>> tidy_spacing("Hint 1 of 3. Call the tool: `a。 b`")
        'Hint 1 of 3. Call the tool: `a。 b`'
    """
    if not any(c in text for c in FULLWIDTH_CLOSING + FULLWIDTH_OPENING):
        return text
    parts = _CODE.split(text)
    return "".join(p if i % 2 else _SPACING.sub("", p) for i, p in enumerate(parts))
