"""`llm-sizer calibrate`: the estimator against every published measurement, per row and per kind."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from estimator.calibration.compare import (
    GROUP_MEDIAN_TARGET,
    GROUP_MIN_ROWS,
    GROUP_P90_TARGET,
    Group,
    groups,
    summarise,
)
from estimator.calibration.compare import run as run_rows
from estimator.calibration.speed_compare import FACTOR_TARGET, run_speed
from estimator.vocabulary import GIB

from ..i18n import language, t
from ..render import numbers

_SCALE = {"GiB": GIB, "GB": 10**9, "B": GIB}
_SHOWN = {"B": "GiB"}


def _group_line(g: Group, lang: str) -> str:
    def pct(value: float) -> str:
        return numbers.percent(value, lang, decimals=1)

    if not g.target:
        mark = t("calibrate.group_few", lang)
    else:
        mark = t("calibrate.group_met" if g.met else "calibrate.group_missed", lang)
    return (
        f"{g.framework:<14}{g.method:<7}{g.rows:>5}{pct(g.median):>9}{pct(g.p90):>9}"
        f"{pct(g.thumb_median):>10}{pct(g.thumb_p90):>10}  {mark}"
    )


def run(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    results = run_rows()
    summary = summarise(results)
    table = groups(results)
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
                            "framework": r.framework,
                            "method": r.method,
                            "measures": r.measures,
                            "rule_of_thumb_error": r.thumb_error,
                        }
                        for r in results
                    ],
                    "summary": [asdict(s) for s in summary],
                    "training": [{**asdict(g), "target": g.target, "met": g.met} for g in table],
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
        unit = _SHOWN.get(r.unit, r.unit)
        estimated = r.estimated_bytes / _SCALE[r.unit]
        measured = f"{r.measured_bytes / _SCALE[r.unit]:.2f}" if r.unit in _SHOWN else r.measured
        error = "" if r.error is None else f"{100 * r.error:+.1f}%"
        ok = "-" if r.ok is None else ("yes" if r.ok else "NO")
        print(
            f"{r.id:<13}{r.kind:<17}{r.model[:15]:<16}{measured + ' ' + unit:>12}"
            f"{estimated:>8.2f} {unit:<3}{error:>9}  {ok}  {r.measures}"
        )
    print()
    for s in summary:
        if s.median_abs_error is None:
            print(t("calibrate.fit_rows", lang, right=s.within, rows=s.rows))
        else:
            median = numbers.percent(s.median_abs_error, lang, decimals=1)
            print(t("calibrate.summary", lang, kind=s.kind, rows=s.rows, median=median))
    print()
    print(
        t(
            "calibrate.training_header",
            lang,
            rows=GROUP_MIN_ROWS,
            median=numbers.percent(GROUP_MEDIAN_TARGET, lang),
            p90=numbers.percent(GROUP_P90_TARGET, lang),
        )
    )
    print(
        f"{t('calibrate.col_framework', lang):<14}{t('calibrate.col_method', lang):<7}"
        f"{t('calibrate.col_rows', lang):>5}{t('calibrate.col_median', lang):>9}"
        f"{t('calibrate.col_p90', lang):>9}{t('calibrate.col_thumb_median', lang):>10}"
        f"{t('calibrate.col_thumb_p90', lang):>10}"
    )
    for g in table:
        print(_group_line(g, lang))
    print(t("calibrate.thumb_note", lang))
    print()
    print(t("calibrate.speed_header", lang))
    for sp in speeds:
        print(
            f"{sp.id:<6}{sp.kind:<9}{sp.model[:14]:<15}{sp.hardware[:18]:<19}{sp.engine:<13}"
            f"{sp.measured:>9.1f}{sp.estimated.low:>9.1f}-{sp.estimated.high:<9.1f}x{sp.factor:.2f}"
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
