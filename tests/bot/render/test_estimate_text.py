"""The terminal's text: ranges read at one precision, the electricity per hour reads the same in
the recommendations and the cost lines, and no internal id reaches a reader."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from bot.render import numbers, saved_queries
from storage.schemas import Query


def estimate(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["estimate", *argv])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return out


@pytest.mark.parametrize(
    ("low", "high", "en", "nl"),
    [
        (41.93, 56.0, "41.9–56.0", "41,9–56,0"),
        (29.0, 35.64, "29.0–35.6", "29,0–35,6"),
        (0.742, 1.06, "0.74–1.06", "0,74–1,06"),
        (3864.2, 5520.4, "3,864–5,520", "3.864–5.520"),
        (99.2, 99.96, "99–100", "99–100"),
        (0.0512, 0.0734, "0.0512–0.0734", "0,0512–0,0734"),
        (0.9, 1.5, "0.9–1.5", "0,9–1,5"),
        (0.0, 0.0, "0–0", "0–0"),
    ],
)
def test_both_ends_of_a_range_have_the_same_decimals(
    low: float, high: float, en: str, nl: str
) -> None:
    assert numbers.span(low, high, "en") == en
    assert numbers.span(low, high, "nl") == nl


def test_durations_are_ranges_at_one_precision() -> None:
    assert numbers.duration(7.23, 10.3, "en") == "7.2–10.3 hours"
    assert numbers.duration(0.5, 0.75, "en") == "30–45 min"
    assert numbers.duration(50, 100, "en") == "2.08–4.17 days"


RANGE = re.compile(r"(\d[\d,]*(?:\.(\d+))?)–(\d[\d,]*(?:\.(\d+))?)")


def test_no_rule_id_and_no_method_for_inference_in_the_table(capsys) -> None:
    out = estimate(capsys, "--model", "qwen2.5-7b", "--task", "inference", "--gpu", "RTX 4090")
    assert "Task: inference, transformers, bf16" in out
    assert "inference/full" not in out
    recommendations = out.split("Recommendations\n", 1)[1].split("\n\n", 1)[0]
    assert not re.search(r"\[[a-z_]+\]", recommendations), recommendations
    # The JSON, for scripts, keeps the rule behind each recommendation.
    code = main(
        ["estimate", "--model", "qwen2.5-7b", "--task", "inference", "--gpu", "RTX 4090", "--json"]
    )
    rules = [r["rule"] for r in json.loads(capsys.readouterr().out)["recommendations"]]
    assert code == 0 and "electricity" in rules


def test_training_shows_its_method(capsys) -> None:
    out = estimate(
        capsys, "--model", "qwen2.5-7b", "--task", "training", "--method", "lora", "--gpu", "4090"
    )
    assert "Task: training/lora, " in out


def test_electricity_per_hour_reads_the_same_everywhere(capsys) -> None:
    out = estimate(capsys, "--model", "qwen2.5-7b", "--task", "inference", "--gpu", "RTX 4090")
    advice = re.search(r"450 W: ([\d.]+) USD per hour", out)
    cost = re.search(r"Electricity: 450 W × 0.16 USD/kWh = ([\d.]+) USD per hour", out)
    assert advice and cost, out
    assert advice.group(1) == cost.group(1) == "0.072"


def test_recommendation_ranges_have_one_precision(capsys) -> None:
    """The CPU against GPU hours of a training job (25.8–51.5 against 0.14–0.20, once 0.14–0.2),
    and a CPU's tokens/s."""
    texts = [
        estimate(
            capsys,
            "--model",
            "qwen2.5-7b",
            "--task",
            "training",
            "--method",
            "lora",
            "--cpu",
            "ddr5",
        ),
        estimate(capsys, "--model", "qwen2.5-72b", "--task", "inference"),
        estimate(capsys, "--model", "qwen2.5-0.5b", "--task", "inference"),
    ]
    details = [
        line
        for text in texts
        for line in text.split("Recommendations\n", 1)[1].split("\n\n", 1)[0].splitlines()
        if line.startswith("     ")
    ]
    ranges = RANGE.findall("\n".join(details))
    assert len(ranges) >= 2, details
    for _, low_decimals, _, high_decimals in ranges:
        assert len(low_decimals) == len(high_decimals), ranges


def query(total: int | None, per_device: int | None) -> Query:
    return Query.model_validate(
        {
            "id": 1,
            "user_id": 1,
            "text": "70b on 2x h100?",
            "inputs": {},
            "status": "answered",
            "verdict": "fits",
            "total_bytes": total,
            "per_device_bytes": per_device,
            "created_at": "2025-01-01T00:00:00Z",
        }
    )


def test_a_saved_question_shows_the_memory_per_device_as_its_answer_did() -> None:
    spread = query(270 << 29, 135 << 29)
    assert saved_queries.line(spread, "en") == "• 70b on 2x h100? — fits, 67.5 GiB per device"
    assert saved_queries.line(spread, "nl").endswith("past, 67,5 GiB per apparaat")
    assert saved_queries.line(query(3 << 30, 3 << 30), "en").endswith("fits, 3.0 GiB")
    assert saved_queries.line(query(None, None), "en").endswith("— fits")


def test_the_error_line_never_raises_whatever_the_values():
    from bot.render.errors import message
    from estimator.errors import EstimatorError

    huge = EstimatorError("unknown_model", model="x", suggestions=[10**500])
    assert message(huge, "en").startswith("unknown model")
    odd = EstimatorError("out_of_range", field="context", value=float("nan"), low=1, high=None)
    assert isinstance(message(odd, "nl"), str)
