"""Sub-commands of the ``course`` command line (one module each, see :mod:`course_lib.cli`)."""


def add_lang_option(parser) -> None:
    """Give a sub-command ``--lang {en,zh}``: the language of what it prints, for this run
    (:func:`course_lib.i18n.set_language`; default: ``COURSE_LANG``, else the working directory, see i18n).
    :func:`course_lib.cli.main` applies it before the command runs."""
    import argparse

    from ..i18n import LANGUAGES

    parser.add_argument("--lang", dest="course_lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                        help="the language of the output (default: COURSE_LANG, else zh in a folder named zh)")
