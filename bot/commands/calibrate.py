"""`llm-sizer calibrate`: the estimator against every published measurement, per row and per kind."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from estimator.calibration.compare import run as run_rows
from estimator.calibration.compare import summarise
from estimator.calibration.speed_compare import FACTOR_TARGET, run_speed

from ..i18n import language, t
from ..render import numbers

_SCALE = {"GiB": 1 << 30, "GB": 10**9}


def run(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    results = run_rows()
    summary = summarise(results)
    speeds = run_speed()
    if args.json:
        print(
            json.dumps(
                {
                    "rows": [
                        {
                            "id": r.id,
                            "kind": r.kind,
                            "model": r.model,
                            "measured": r.measured,
                            "unit": r.unit,
                            "measured_bytes": round(r.measured_bytes),
                            "estimated_bytes": r.estimated_bytes,
                            "error": r.error,
                            "ok": r.ok,
                            "note": r.note,
                        }
                        for r in results
                    ],
                    "summary": [asdict(s) for s in summary],
                    "speed": [
                        {
                            "id": s.id,
                            "kind": s.kind,
                            "model": s.model,
                            "hardware": s.hardware,
                            "engine": s.engine,
                            "measured_tokens_per_s": s.measured,
                            "estimated_low": s.estimated.low,
                            "estimated_high": s.estimated.high,
                            "factor": s.factor,
                            "inside_range": s.inside,
                        }
                        for s in speeds
                    ],
                },
                indent=2,
            )
        )
        return 0
    print(t("calibrate.header", lang))
    print(f"{'id':<13}{'kind':<17}{'model':<16}{'measured':>12}{'estimated':>12}{'error':>9}  ok")
    for r in results:
        estimated = r.estimated_bytes / _SCALE[r.unit]
        error = "" if r.error is None else f"{100 * r.error:+.1f}%"
        ok = "-" if r.ok is None else ("yes" if r.ok else "NO")
        print(
            f"{r.id:<13}{r.kind:<17}{r.model[:15]:<16}{r.measured + ' ' + r.unit:>12}"
            f"{estimated:>8.2f} {r.unit:<3}{error:>9}  {ok}"
        )
    print()
    for s in summary:
        if s.median_abs_error is None:
            print(t("calibrate.fit_rows", lang, right=s.within, rows=s.rows))
        else:
            median = numbers.percent(s.median_abs_error, lang, decimals=1)
            print(t("calibrate.summary", lang, kind=s.kind, rows=s.rows, median=median))
    print()
    print(t("calibrate.speed_header", lang))
    for s in speeds:
        print(
            f"{s.id:<6}{s.kind:<9}{s.model[:14]:<15}{s.hardware[:18]:<19}{s.engine:<13}"
            f"{s.measured:>9.1f}{s.estimated.low:>9.1f}-{s.estimated.high:<9.1f}x{s.factor:.2f}"
        )
    for kind in ("decode", "prefill"):
        rows = [s for s in speeds if s.kind == kind]
        within = sum(s.factor <= FACTOR_TARGET for s in rows)
        print(
            t(
                "calibrate.speed_summary",
                lang,
                kind=kind,
                within=within,
                rows=len(rows),
                factor=FACTOR_TARGET,
            )
        )
    return 0
