"""Every saved answer for a suite's cases, from its run files, grouped by case."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.errors import UserError
from workbench.core.runs import RunRecord, iter_records


@dataclass
class SavedAnswer:
    """One recorded answer: its record, and the run file and line it came from."""

    record: RunRecord
    run: Path
    line: int  # position in its run file, so a run can point at one answer

    @property
    def label(self) -> str:
        r = self.record
        dpi = f" {r.dpi}dpi" if r.dpi else ""
        return f"{r.reader} · {r.modality}{dpi} · {r.started_at or '?'}"


@dataclass
class RunIndex:
    """The recorded answers of some run files, by case, with the files' problems."""

    by_case: dict[str, list[SavedAnswer]] = field(default_factory=lambda: defaultdict(list))
    problems: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, paths: list[Path]) -> RunIndex:
        index = cls()
        for path in paths:
            index.add_file(path)
        return index

    def add_file(self, path: Path) -> None:
        try:
            for n, record in enumerate(iter_records(path)):
                self.by_case[record.case_id].append(SavedAnswer(record, Path(path), n))
        except UserError as exc:
            self.problems.append(str(exc))

    def add(self, record: RunRecord, run: Path) -> SavedAnswer:
        """A record just appended to `run`: its number there counts that file's records, as
        `add_file` does (it counted the case's answers in every file, so the Runs screen's jump to
        an answer asked in this session found another one)."""
        run = Path(run)
        line = sum(s.run == run for answers in self.by_case.values() for s in answers)
        saved = SavedAnswer(record, run, line)
        self.by_case[record.case_id].append(saved)
        return saved

    def for_case(self, case_id: str) -> list[SavedAnswer]:
        return list(self.by_case.get(case_id, []))

    def readers(self) -> list[str]:
        return sorted({s.record.reader for answers in self.by_case.values() for s in answers})

    def latest(self, case_id: str, reader: str) -> SavedAnswer | None:
        mine = [s for s in self.by_case.get(case_id, []) if s.record.reader == reader]
        return mine[-1] if mine else None
