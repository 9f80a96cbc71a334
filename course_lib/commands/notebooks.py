"""``course notebooks``: clean metadata, re-execute lessons and store their outputs, or build a language edition
from its translation catalogs (maintainers; see docs/translation.md)."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("notebooks", help=_("clean or refresh the shipped notebooks (maintainers)"))
    p.add_argument("action", choices=["clean", "check", "refresh", "extract", "build", "status"],
                   help=_("clean: strip noisy metadata in place; check: fail if cleaning would change a file; "
                          "refresh: execute lessons and save their outputs; with --lang: extract: create or update "
                          "the English notebooks' catalogs (changed cells become fuzzy); build: generate the edition "
                          "(notebooks/LANG/...) from the catalogs and execute its lessons (their own outputs); "
                          "status: what is missing, stale or out of date"))
    p.add_argument("paths", nargs="*", type=Path,
                   help=_("notebooks (default: all shipped notebooks; with --lang: the edition's English notebooks, "
                          "for extract every one that has a catalog); paths go before --lang: "
                          "`course notebooks extract notebooks/01_function_calling.ipynb --lang zh`"))
    p.add_argument("--lang", choices=["zh"],
                   help=_("the language edition (extract, build, status); as `course --lang`, also the language "
                          "of this run's help and messages"))
    p.add_argument("--code", action="store_true",
                   help=_("extract: also add an entry for every code cell with a comment or a string (opt the "
                          "notebook's code cells in for translation; an empty entry means shared unchanged)"))
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .. import notebooks as nbt

    if args.action in ("extract", "build", "status"):
        return _run_lang(args)
    paths = args.paths or nbt.shipped_notebooks()
    bad = 0
    if args.action in ("clean", "check") and not args.paths:  # each lesson's place, derived from the course map
        from ..course_map import set_places

        for path in set_places(check=args.action == "check"):
            print(("needs its place in the course: " if args.action == "check" else "placed: ") + str(path))
            bad += args.action == "check"
    for path in paths:
        if args.action == "refresh":
            if not nbt.keeps_outputs(path):
                nbt.clean_file(path)
                continue
            errs = nbt.refresh_outputs(path)
            print(f"{'FAILED' if errs else 'refreshed'}: {path}" + "".join(f"\n   cell {i}: {n}: {v}" for i, n, v in errs))
            bad += bool(errs)
        else:
            changed = nbt.clean_file(path, check=args.action == "check")
            if changed:
                print(("needs cleaning: " if args.action == "check" else "cleaned: ") + str(path))
                bad += args.action == "check"
    return 1 if bad else 0


def _run_lang(args: argparse.Namespace) -> int:
    from .. import notebooks as nbt
    from .. import translation as tr

    if not args.lang:
        print(f"course notebooks {args.action} needs --lang (for example --lang zh)")
        return 2
    paths = [p.resolve() for p in args.paths] or tr.edition(args.lang)
    if args.action == "extract":
        paths = [p.resolve() for p in args.paths] or tr.with_catalogs(args.lang)
        bad = 0
        for path in paths:
            st = tr.extract(path, args.lang, code=args.code)
            print(f"{'complete' if st.complete else 'to translate'}: {tr.catalog_path(path, args.lang).relative_to(tr.ROOT)}"
                  f" ({st.code} code cells translated)" + "".join(f"\n   {p}" for p in st.problems()))
            bad += not st.complete
        if not args.paths:  # and course_lib's own strings (course_lib.i18n, translations/LANG/strings/)
            from .. import string_catalogs as sc

            written = sc.update(args.lang)
            left = sc.problems(args.lang)
            print(f"{'complete' if not left else 'to translate'}: "
                  + ", ".join(str(p.relative_to(tr.ROOT)) for p in written) + "".join(f"\n   {p}" for p in left))
            bad += bool(left)
        return 1 if bad else 0
    if args.action == "build":
        try:
            for path in paths:  # one at a time: each line appears as soon as its notebook is done
                for out, seconds in tr.build_edition(args.lang, [path]):
                    print(f"built: {out.relative_to(tr.ROOT)} ({seconds:.1f} s"
                          + (", executed)" if nbt.keeps_outputs(out) else ")"), flush=True)
            if not args.paths:  # the Q&A notebooks link to the lessons: rebuild them with the edition
                from ..interview.build import build_all_translated

                for out in build_all_translated(args.lang):
                    print(f"built: {out.relative_to(tr.ROOT)} (from the question bank)", flush=True)
        except tr.TranslationError as err:
            print(err)
            return 1
        return 0
    from .. import string_catalogs as sc

    problems = tr.sync_problems(args.lang) + sc.problems(args.lang)
    print("\n".join(problems) if problems else
          f"{args.lang} edition current: " + ", ".join(p.name for p in tr.edition(args.lang)))
    return 1 if problems else 0
