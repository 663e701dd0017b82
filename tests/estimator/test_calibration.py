"""Every usable published measurement, within the tolerance of its kind (the targets of each kind)."""

import statistics

import pytest

from estimator.calibration.architectures import CONFIGS
from estimator.calibration.compare import measurements, run, summarise
from estimator.calibration.rows import INFO, MEDIAN_TARGET, ROWS
from estimator.models import config_json

RESULTS = run()


def test_every_row_of_the_file_is_mapped():
    assert len(measurements()) == 94
    assert {r.id for r in ROWS} == set(measurements())


@pytest.mark.parametrize("result", [r for r in RESULTS if r.kind != INFO], ids=lambda r: r.id)
def test_row_within_its_tolerance(result):
    assert result.ok, f"{result.id}: estimated {result.estimated_bytes}, measured {result.measured}"


@pytest.mark.parametrize("kind", sorted(MEDIAN_TARGET))
def test_median_error_per_kind(kind):
    errors = [abs(r.error) for r in RESULTS if r.kind == kind]
    assert statistics.median(errors) < MEDIAN_TARGET[kind]


def test_summary_counts_every_result():
    assert sum(s.rows for s in summarise(RESULTS)) == len(RESULTS)


@pytest.mark.parametrize(
    ("name", "stated_b"),
    [
        ("Qwen-1.8B", 1.84),
        ("Qwen-7B", 7.72),
        ("Qwen-14B", 14.17),
        ("Qwen-72B", 72.29),
        ("LLaMA-13B", 13.02),
        ("LLaMA-33B", 32.53),
        ("GPT-2-10B", 10.27),
    ],
)
def test_calibration_architectures_reproduce_stated_sizes(name, stated_b):
    assert round(config_json.from_dict(CONFIGS[name], name).params / 1e9, 2) == stated_b
