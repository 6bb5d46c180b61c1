#!/usr/bin/python3
"""Reproduce the seed papers' findings: run every study, write its CSVs and PNG
plots into results/<study>/ and rewrite results/README.md from them.

    PYTHONPATH=build/python /usr/bin/python3 scripts/run_studies.py [--workers N]

Every simulation goes through warptlm.sweep into one store per mode under
``--cache`` (default: results/.cache, not committed; one folder per build of
the model, so a rebuilt model never reads back an older one's results), so a
killed run resumes where it stopped and a point two studies share runs once;
``--fresh`` deletes every store first. ``--size test`` and ``--scenarios`` make a quick run (the tests use them);
``--only`` runs some studies and leaves the others' sections out of the README
it writes, so it needs ``--out`` elsewhere than results/.
"""
import argparse
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import warptlm  # noqa: E402

from studies import STUDIES  # noqa: E402
from studies.common import Context  # noqa: E402

INTRO = """# results/

Reproductions of the seed papers' findings on this model, side by side with the papers' published
numbers. Everything below (the tables, the numbers in the text, the CSVs and plots in each study's
folder) is written by one command from a built tree:

    PYTHONPATH=build/python /usr/bin/python3 scripts/run_studies.py

A fresh run takes about 22 minutes on 2 cores (about 1,450 simulations; measured 2026-11-29).
It runs every study through `warptlm.sweep`, keeps each finished simulation in `results/.cache/`
(per build of the model, so a killed run resumes where it stopped and a rebuilt model starts
afresh; `--fresh` deletes the stores), shows a progress bar per sweep
and rewrites this file. `--help` lists the options (`--size test --scenarios reduction,bfs` for a
quick look). Each table is a CSV in the study's folder, and `python/tests/test_results.py` checks
that the two agree.
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "results"),
                        help="where the studies' folders and README.md go (default: results/)")
    parser.add_argument("--cache", default=None, help="the resumable stores (default: OUT/.cache)")
    parser.add_argument("--size", default="study", choices=["study", "test"],
                        help="scenario size (default: study)")
    parser.add_argument("--preset", default="fermi",
                        help="the platform every study starts from (default: fermi, the SLP paper's)")
    parser.add_argument("--workers", type=int, default=None, help="parallel runs (default: the CPU cores)")
    parser.add_argument("--scenarios", default=None, help="comma-separated scenarios (default: all)")
    parser.add_argument("--only", default=None,
                        help=f"comma-separated studies (default: all of {', '.join(s.NAME for s in STUDIES)})")
    parser.add_argument("--fresh", action="store_true", help="delete the stores first: rerun everything")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)

    known = [s.NAME for s in STUDIES]
    only = args.only.split(",") if args.only else known
    unknown = [n for n in only if n not in known]
    if unknown:
        parser.error(f"--only: unknown {', '.join(unknown)} (known: {', '.join(known)})")
    scenarios = None
    if args.scenarios:
        scenarios = args.scenarios.split(",")
        every = warptlm.scenarios.list()
        bad = [n for n in scenarios if n not in every]
        if bad:
            parser.error(f"--scenarios: unknown {', '.join(bad)} (known: {', '.join(every)})")
    default_out = os.path.join(os.path.dirname(HERE), "results")
    if args.only and os.path.realpath(args.out) == os.path.realpath(default_out):
        parser.error("--only writes a README.md with those studies alone: give --out a folder other than "
                     "results/ (the whole command reads finished simulations back, so rerunning it is quick)")
    if args.preset not in warptlm.presets():
        parser.error(f"--preset: unknown {args.preset!r} (known: {', '.join(warptlm.presets())})")
    cache = args.cache or os.path.join(args.out, ".cache")
    if args.fresh and os.path.isdir(cache):
        shutil.rmtree(cache)
    # Stored simulations answer only for the model that ran them: one folder per build of it.
    cache = os.path.join(cache, model_fingerprint())
    ctx = Context(out=args.out, cache=cache, size=args.size, preset=args.preset, workers=args.workers,
                  scenarios=scenarios, progress=not args.no_progress)

    start = time.monotonic()
    sections = []
    for study in STUDIES:
        if study.NAME not in only:
            continue
        began = time.monotonic()
        print(f"== {study.NAME}: {study.TITLE}", file=sys.stderr, flush=True)
        sections.append(study.run(ctx))
        print(f"   {study.NAME} done in {time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.monotonic() - start
    for line in ctx.log:
        print(line, file=sys.stderr)
    write_readme(args, ctx, sections, elapsed)
    print(f"wrote {os.path.join(args.out, 'README.md')} ({elapsed / 60:.1f} min)", file=sys.stderr)
    return 0


def model_fingerprint():
    """The first 12 hex digits of the SHA-1 of the model's extension module: a rebuilt model
    gets a store of its own, so no study reads back what an earlier model computed."""
    import hashlib

    digest = hashlib.sha1()
    with open(warptlm._core.__file__, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()[:12]


def write_readme(args, ctx, sections, elapsed):
    stored, total = ctx.stored, ctx.runs
    setting = (f"{args.preset} preset, size {args.size}"
               + (f", scenarios {', '.join(ctx.scenarios)}" if ctx.scenarios else ", every scenario"))
    parts = [INTRO,
             f"This run: {setting}; {total} simulations ({stored} of them read back from the store) in "
             f"{elapsed / 60:.1f} minutes on {len(os.sched_getaffinity(0))} cores.",
             "",
             "## Contents",
             ""]
    parts += [f"- [{s.title}](#{_anchor(s.title)}): `{s.name}/`" for s in sections]
    for s in sections:
        parts += ["", f"## {s.title}", "", s.body.rstrip()]
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def _anchor(title):
    keep = "".join(c for c in title.lower() if c.isalnum() or c in " -")
    return keep.replace(" ", "-")


if __name__ == "__main__":
    sys.exit(main())
