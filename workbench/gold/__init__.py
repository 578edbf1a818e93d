"""Gold: disputes, gold versions, offline regrade, the triage queue and the answer-hint audit.

Above core, pdf and grading; only the CLI and the TUI import it. One module per job:

- `keys`: field paths into an answer key (`invoice.items[2].qty`), read, set, list, conflicts.
- `journal`: the append-only dispute journal in the suite and the `Dispute` records it folds to.
- `disputes`: opening and deciding a dispute (the two writes to the journal).
- `versions`: gold `v1..vN` from the journal, the keys at a version, `gold export`.
- `regrade`: saved answers graded against two gold versions, and the verdicts a dispute flips.
- `triage`: the triage queue by impact, a dispute's page evidence, acceptance warnings, progress.
- `hints`: gold values the question or the schema gives away.
"""
