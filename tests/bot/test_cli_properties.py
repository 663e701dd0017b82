"""Generated command lines for `llm-sizer estimate` and `fit`: every one ends in an answer, a
refusal with its reason (exit 1 or 2) or argparse's usage line, never a traceback."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.model_source import Hub, hub
from tests.bot.commands.cli import run

VALUES = st.one_of(
    st.sampled_from(["0", "-1", "1", "2", "8", "1.5", "1e308", "nan", "inf", "-inf", "", " "]),
    st.sampled_from(["9" * 400, "10^12", "0x10", "½", "٣", "\x00", "\ud800", "x" * 300]),
    st.integers(-(10**20), 10**20).map(str),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=12),
)
FLAG_VALUES = {
    "--model": ["qwen2.5-7b", "llama 3 70b", "7B", "1000000B", "/dev/zero", "/dev/null", "."],
    "--task": ["inference", "training", "both"],
    "--method": ["full", "lora", "qlora", "freeze", "magic"],
    "--precision": ["bf16", "fp8", "int4", "q4_k_m", "fp3"],
    "--kv-precision": ["fp8", "q4_0", "fp1"],
    "--gpu": ["4090", "H100", "2x A100", "RTX 9999", "M3 Max"],
    "--gpu-memory": [],
    "--gpus": [],
    "--ram": [],
    "--context": [],
    "--prompt": [],
    "--batch": [],
    "--concurrency": [],
    "--engine": ["vllm", "llama.cpp", "ollama", "mlx", "exllamav2", "nope"],
    "--optimizer": ["adamw", "adamw_8bit", "lion", "sgd", "nope"],
    "--lora-rank": [],
    "--zero": [],
    "--gpu-memory-utilization": [],
    "--tokens": [],
    "--kwh-price": [],
    "--lang": ["en", "nl", "de"],
}
FLAGS = st.sampled_from(sorted(FLAG_VALUES)).flatmap(
    lambda flag: st.tuples(
        st.just(flag), st.one_of(st.sampled_from(FLAG_VALUES[flag] or ["1"]), VALUES)
    )
)
COMMANDS = st.sampled_from(
    [["estimate"], ["fit", "context"], ["fit", "model"], ["fit", "gpus"], ["fit", "precision"]]
)


@pytest.fixture
def closed_hub(monkeypatch):
    """A value shaped like a Hub repository meets a closed port: no network in tests."""
    monkeypatch.setattr(hub, "_default", Hub("http://127.0.0.1:9", token=""))


@settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(command=COMMANDS, flags=st.lists(FLAGS, max_size=6), as_json=st.booleans())
def test_any_command_line_answers_or_refuses_without_a_traceback(
    capsys, closed_hub, command, flags, as_json
):
    argv = [*command, "--model", "qwen2.5-7b", "--task", "inference"]
    for flag, value in flags:
        argv += [flag, value]
    code, out, err = run(capsys, *argv, *(["--json"] if as_json else []))
    assert code in (0, 1, 2), (argv, out, err)
    assert "Traceback" not in out + err, argv
