"""Every usable published measurement, within the tolerance of its kind, compared with what its
source measured; the per-framework table and the rules of thumb beside it."""

import csv
import statistics
from importlib import resources

import pytest

from estimator.calibration.architectures import CONFIGS
from estimator.calibration.compare import (
    FILES,
    Result,
    all_rows,
    groups,
    measurements,
    p90,
    rule_of_thumb,
    run,
    run_row,
    summarise,
)
from estimator.calibration.rows import INFO, MEDIAN_TARGET, TRAINING
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.memory.reported import RESERVE_SHARE
from estimator.models import config_json
from estimator.workload import Workload

RESULTS = run()


def _file_rows(name: str) -> int:
    text = resources.files("estimator.calibration").joinpath(name).read_text()
    return len(list(csv.DictReader(text.splitlines())))


def test_every_row_of_the_files_is_mapped():
    assert [_file_rows(name) for name in FILES] == [94, 67]
    assert len(measurements()) == 94 + 67
    ids = [r.id for r in all_rows()]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(measurements())


@pytest.mark.parametrize("result", [r for r in RESULTS if r.kind != INFO], ids=lambda r: r.id)
def test_row_within_its_tolerance(result):
    assert result.ok, f"{result.id}: estimated {result.estimated_bytes}, measured {result.measured}"


@pytest.mark.parametrize("kind", sorted(MEDIAN_TARGET))
def test_median_error_per_kind(kind):
    errors = [abs(r.error) for r in RESULTS if r.kind == kind]
    assert statistics.median(errors) < MEDIAN_TARGET[kind]


def test_summary_counts_every_result():
    assert sum(s.rows for s in summarise(RESULTS)) == len(RESULTS)


def test_p90_interpolates_between_ranks():
    # Ranks 0..9 of ten values: 0.9 x 9 = 8.1, so a tenth of the way from the 9th to the 10th.
    assert p90([float(v) for v in range(1, 11)]) == pytest.approx(9.1)
    assert p90([0.3]) == 0.3


def test_groups_are_per_framework_and_method():
    made = groups(RESULTS)
    training = [r for r in RESULTS if r.kind == TRAINING]
    assert sum(g.rows for g in made) == len(training)
    tt = next(g for g in made if (g.framework, g.method) == ("torchtune", "full"))
    mine = [abs(r.error) for r in training if (r.framework, r.method) == ("torchtune", "full")]
    assert tt.median == statistics.median(mine) and tt.target


def test_every_group_with_enough_rows_meets_its_target():
    missed = [(g.framework, g.method) for g in groups(RESULTS) if g.target and not g.met]
    assert missed == []


def test_checkpoints_at_the_loss_by_hand():
    """LF014: Unsloth 2024.4 at 100,000 tokens on Llama-2-7B. The estimate offloads the
    checkpoints (one in flight); the source kept all 32 at the loss, beside its bf16 logits,
    and the allocator's reserve followed those logits."""
    row = next(r for r in all_rows() if r.id == "LF014")
    a = config_json.from_dict(CONFIGS[row.model], row.model)
    est = estimate(Workload(model=a, **row.workload), machine(gpu=row.gpu))
    peak = next(n.params for n in est.steps if n.key == "training_peak")
    h, layers, vocab, tokens = 4096, 32, 32_000, 100_000
    shift = 2 * vocab * tokens - peak["loss"]
    loss_phase = peak["phases"]["loss"] + shift + (layers - 1) * 2 * h * tokens
    moved = max(loss_phase, *peak["phases"].values()) - peak["bytes"]
    expected = est.devices[0].device_total_bytes + moved + round(RESERVE_SHARE * shift)
    assert run_row(row).estimated_bytes == expected


def test_rules_of_thumb_by_hand(arch):
    """16 bytes per parameter for a full fine-tune, the weights x 1.2 for LoRA / QLoRA."""
    rows = {r.id: r for r in all_rows()}
    p = arch("llama 3.1 8b").params
    assert rule_of_thumb(rows["GT082"]) == 16 * p
    assert rule_of_thumb(rows["GT084"]) == round(1.2 * 2 * p)
    assert rule_of_thumb(rows["GT086"]) == round(1.2 * 0.5 * p)
    assert rule_of_thumb(rows["GT121"]) is None


def test_results_say_what_the_source_measured():
    by_id: dict[str, Result] = {r.id: r for r in RESULTS}
    assert by_id["NG001"].measures == "reserved"  # torch.cuda.memory_reserved
    assert by_id["NG013"].measures == "allocated"  # torchtune's active peak
    assert by_id["LF001"].measures == "nvidia-smi"


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
        ("OpenLLaMA-3B-v2", 3.43),
        ("Llama-2-7B-long", 6.74),
    ],
)
def test_calibration_architectures_reproduce_stated_sizes(name, stated_b):
    assert round(config_json.from_dict(CONFIGS[name], name).params / 1e9, 2) == stated_b
