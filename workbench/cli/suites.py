"""Commands that make and check whole suites: build (from a TOML spec, sharded or not),
merge-suite (a sharded build's manifests into suite.json) and verify (regenerate and compare)."""

from __future__ import annotations

import argparse

from workbench.build.suite import build_suite, merge_suite_locked, verify_suite
from workbench.cli.logs import note
from workbench.cli.output import print_json
from workbench.core.errors import UserError
from workbench.core.suite import build_problems, load_suite


def cmd_build(args: argparse.Namespace) -> int:
    if args.out.exists() and not args.out.is_dir():
        raise UserError(f"--out {args.out}: exists and is not a folder; give a folder for the suite")
    digest, count = build_suite(args.spec, args.out, shard=args.shard, jobs=args.jobs)
    build = load_suite(args.out).build
    if args.json:
        print_json({"suite": str(args.out), "suite_hash": digest, "cases": count, "shard": args.shard,
                    "build": build})
        return 0
    print(f"built {count} cases into {args.out}" + (f" (shard {args.shard})" if args.shard else ""))
    _print_build(build)
    print(f"suite hash {digest}")
    return 0


def _print_build(build: dict | None) -> None:
    """For a sharded build: which shards suite.json holds so far (each shard merges as it ends)."""
    if not build or build.get("shards", 1) == 1:
        return
    n = build["shards"]
    print(f"suite.json: shards {', '.join(f'{i}/{n}' for i in build['complete']) or 'none'} complete"
          + (f"; not yet: {', '.join(f'{i}/{n}' for i in build['missing'] + [int(k) for k in build['incomplete']])}"
             if build["missing"] or build["incomplete"] else f"; all {build['cases']} cases"))


def cmd_merge_suite(args: argparse.Namespace) -> int:
    if not args.suite.is_dir():
        raise UserError(f"{args.suite}: not a folder; give the folder the shards were built into")
    digest, state = merge_suite_locked(args.suite)
    block = state.to_json()
    problems = build_problems(block)
    count = len(state.entries())
    if args.json:
        print_json({"suite": str(args.suite), "suite_hash": digest, "cases": count, "build": block,
                    "ok": not problems})
    else:
        print(f"merged {count} of {state.total} cases from {len(state.shards)} of {state.of} shard(s) "
              f"into {args.suite / 'suite.json'}")
        print(f"suite hash {digest}")
    for line in problems:
        note(f"pdfworkbench: {line}")
    return 1 if problems else 0


def cmd_verify(args: argparse.Namespace) -> int:
    results, digest, recorded = verify_suite(args.suite, jobs=args.jobs)
    bad = [r for r in results if not r.ok]
    if args.json:
        print_json({"suite_hash": digest, "recorded_hash": recorded, "ok": not bad,
                    "cases": [r.__dict__ for r in results]})
    else:
        for r in bad:
            print(f"MISMATCH {r.case_id}: {'; '.join(r.problems)}")
        other = [r for r in results if r.how in ("recorded hash", "no recorded hash")]
        made = [r for r in results if r not in other]   # regenerated, and suite.json's own checks
        if made or not other:
            print(f"{sum(r.ok for r in made)} of {len(made)} match")
        if other:
            hashed = [r for r in other if r.how == "recorded hash"]
            print(f"{len(other)} case(s) not made by pdfworkbench's generators cannot be regenerated; "
                  f"checked their PDF bytes against the sha256 they record instead: "
                  f"{sum(r.ok for r in hashed)} match, {sum(not r.ok for r in hashed)} differ, "
                  f"{len(other) - len(hashed)} with no recorded hash")
        print(f"suite hash {digest}")
    return 0 if not bad else 1
