"""A pytest plugin: at the end of a run, every reason tests were skipped for, with how many, so
that `make test` says what it did not run and what would run it (see the README)."""

from __future__ import annotations

from collections import Counter

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        if isinstance(report.longrepr, tuple):
            reasons[report.longrepr[2].removeprefix("Skipped: ")] += 1
    if not reasons:
        return
    terminalreporter.section("skipped tests, by reason")
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{count:>5}  {reason}")
