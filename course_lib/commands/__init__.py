"""Sub-commands of the ``course`` command line (one module each, see :mod:`course_lib.cli`)."""


def add_lang_option(parser) -> None:
    """Give a sub-command ``--lang {en,zh}``: the language of what it prints, for this run
    (:func:`course_lib.i18n.set_language`; default: ``COURSE_LANG``, else the working directory, see i18n).
    :func:`course_lib.cli.main` applies it before the command runs."""
    import argparse

    from ..i18n import LANGUAGES, _

    parser.add_argument("--lang", dest="course_lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                        help=_("the language of the output (default: COURSE_LANG, else zh inside the course's "
                               "notebooks/zh, exercises/zh or solutions/zh or a folder named zh)"))


def edition_of(folder, exercise: str):
    """The folder to find ``exercise`` in: ``folder`` (``exercises/``), or its edition in the learner's language
    (``exercises/zh/``) when that edition has the exercise.

    A path to a notebook in a language folder (``exercises/zh/01_x.ipynb``) sets the language of the run when
    neither ``--lang`` nor ``COURSE_LANG`` chose one, so ``course check exercises/zh/01_x.ipynb`` answers in Chinese.
    Returns a ``pathlib.Path``.
    """
    import os
    from pathlib import Path

    from ..i18n import ENV, LANGUAGES, SOURCE_LANGUAGE, language, set_language

    given = Path(exercise)
    if given.suffix == ".ipynb":
        parent = given.resolve().parent.name
        if parent in LANGUAGES and parent != SOURCE_LANGUAGE and not os.environ.get(ENV):
            set_language(parent)
        return Path(folder)
    lang = language()
    edition = Path(folder) / lang
    if lang != SOURCE_LANGUAGE and any(edition.glob(f"{exercise.zfill(2)}_*.ipynb")):
        return edition
    return Path(folder)
