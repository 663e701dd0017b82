"""`llm-sizer estimate` and `calibrate` end to end: output, JSON contract, exit codes, errors."""

import json
import subprocess
import sys

import pytest

from tests.bot.commands.cli import run


def test_table_output(capsys):
    code, out, err = run(
        capsys, "estimate", "--model", "qwen2.5-7b", "--task", "inference", "--gpu", "RTX 4090"
    )
    assert code == 0 and err == ""
    assert "Verdict: fits" in out
    assert "1. Weights: 7.62B params × 2 bytes (BF16) = 14.2 GiB" in out
    assert "57,344 B per token" in out


def test_json_contract_keys(capsys):
    code, out, _ = run(
        capsys,
        "estimate",
        "--model",
        "Qwen/Qwen2.5-7B-Instruct",
        "--task",
        "training",
        "--method",
        "lora",
        "--gpu",
        "4090",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "answered"
    assert set(data) >= {"status", "inputs", "memory", "verdict", "steps", "recommendations"}
    assert set(data["inputs"]) >= {
        "model",
        "params",
        "task",
        "method",
        "precision",
        "context",
        "batch",
        "concurrency",
        "gpu",
        "gpu_count",
        "device_memory_bytes",
        "engine",
        "assumed",
    }
    components = data["memory"]["components"]
    assert set(components) == {
        "weights",
        "kv_cache",
        "activations",
        "gradients",
        "optimizer_states",
        "master_weights",
        "adapters",
        "frozen_models",
        "rollout",
        "overhead",
    }
    assert all(isinstance(v, int) for v in components.values())
    assert data["memory"]["total_bytes"] == sum(components.values())
    assert data["inputs"]["params"] == 7_615_616_512
    assert data["steps"][0].startswith("1. ")


def test_dutch(capsys):
    code, out, _ = run(
        capsys, "estimate", "--model", "7B", "--task", "inference", "--gpu", "4090", "--lang", "nl"
    )
    assert code == 0
    # 7B is Qwen2.5-7B's shape with 25 layers: 6,916,443,136 x 2 bytes = 12.9 GiB.
    assert "Oordeel: past" in out and "12,9 GiB" in out
    assert "een model in de vorm van Qwen2.5-7B met 25 lagen" in out


def test_unknown_model_one_line_with_suggestions(capsys):
    code, out, err = run(capsys, "estimate", "--model", "qwen 7b", "--task", "inference")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0
    assert err.startswith("error: unknown model 'qwen 7b'; did you mean Qwen2.5-7B")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--context", "-5"], "context must be between"),
        (["--context", "0"], "context must be between"),
        (["--context", "1000000000000000"], "context must be between"),
        (["--context", "lots"], "context must be a number"),
        (["--batch", "0"], "batch must be between"),
        (
            ["--gpu", "RTX 4090", "--gpus", "3", "--engine", "vllm"],
            "does not divide the 28 attention heads",
        ),
        (["--gpu", "rtx 9999"], "unknown GPU"),
        (["--gpu-memory", "-24"], "gpu_memory must be between"),
        (["--precision", "int3"], "unknown precision"),
        (["--task", "dance"], "unknown task"),
    ],
)
def test_nonsense_values_one_line_exit_2(capsys, args, needle):
    base = ["estimate", "--model", "qwen2.5-7b", "--task", "inference"]
    if "--task" in args:
        base = ["estimate", "--model", "qwen2.5-7b"]
    code, out, err = run(capsys, *base, *args)
    assert code == 2 and out == ""
    assert needle in err and err.strip().count("\n") == 0
    assert "Traceback" not in err


def test_missing_flag_is_one_line(capsys):
    code, _, err = run(capsys, "estimate", "--model", "qwen2.5-7b")
    assert code == 2 and err.strip().count("\n") == 0


def test_config_path_and_context_suffix(capsys, tmp_path):
    from tests.conftest import FIXTURES

    path = FIXTURES / "configs" / "llama-3.1-8b" / "config.json"
    code, out, _ = run(
        capsys,
        "estimate",
        "--model",
        str(path),
        "--task",
        "inference",
        "--context",
        "32k",
        "--json",
    )
    data = json.loads(out)
    assert (
        code == 0
        and data["inputs"]["params"] == 8_030_261_248
        and data["inputs"]["context"] == 32_768
    )


def test_broken_config_file(capsys, tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "estimate", "--model", str(bad), "--task", "inference")
    assert code == 2 and "could not read" in err


def test_calibrate_prints_the_summary(capsys):
    code, out, _ = run(capsys, "calibrate")
    assert code == 0
    assert "fit rows classified right: 7 of 7" in out
    assert "GT136" in out


def test_console_script_runs_cold():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "estimate",
            "--model",
            "llama 3.1 8b",
            "--task",
            "inference",
            "--gpu",
            "cpu",
            "--ram",
            "16",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["inputs"]["engine"] == "llama.cpp"


def test_estimate_json_has_speed_and_cost(capsys):
    code, out, _ = run(
        capsys,
        "estimate",
        "--model",
        "qwen2.5-7b",
        "--task",
        "inference",
        "--gpu",
        "4090",
        "--concurrency",
        "4",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    speed = data["speed"]
    assert 0 < speed["decode_tokens_per_s"]["low"] <= speed["decode_tokens_per_s"]["high"]
    assert speed["decode_total_tokens_per_s"]["low"] == pytest.approx(
        4 * speed["decode_tokens_per_s"]["low"]
    )
    cloud = data["cost"]["cloud"]
    assert cloud and [c["usd_per_hour"] for c in cloud] == sorted(c["usd_per_hour"] for c in cloud)
    assert data["cost"]["purchase"] == {
        "usd": 1599.0,
        "verified": True,
        "break_even_hours": pytest.approx(1599.0 / cloud[0]["usd_per_hour"]),
    }
    assert data["cost"]["electricity"]["watts"] == 450


def test_training_tokens_and_kwh_price(capsys):
    code, out, _ = run(
        capsys,
        "estimate",
        "--model",
        "qwen2.5-7b",
        "--task",
        "training",
        "--method",
        "qlora",
        "--gpu",
        "4090",
        "--tokens",
        "20M",
        "--kwh-price",
        "0.30",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["speed"]["training"]["tokens"] == 20_000_000
    power = data["cost"]["electricity"]
    assert power["usd_per_hour"] == pytest.approx(0.45 * 0.30)
    assert power["job_usd"]["low"] == pytest.approx(
        data["speed"]["training"]["hours"]["low"] * 0.135
    )


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (
            ["context", "--model", "qwen2.5-7b", "--task", "inference", "--gpu", "4090"],
            "Largest context that fits",
        ),
        (
            ["precision", "--model", "qwen2.5-32b", "--task", "inference", "--gpu", "4090"],
            # Over the engines, 5 bits beat transformers' NF4; of the two 5-bit formats EXL2 at
            # 5.0 bits (20.5 GB) has room to spare where Q5_K_M, 5.7 bits (23.4 GB), is tight.
            "Best precision that fits: EXL2 5 bpw on ExLlamaV2 (TabbyAPI)",
        ),
        (
            ["model", "--task", "training", "--method", "qlora", "--gpu", "4090"],
            "Largest catalog model that fits",
        ),
        (
            [
                "gpus",
                "--model",
                "llama-3.1-70b",
                "--task",
                "inference",
                "--engine",
                "vllm",
                "--gpu",
                "a100 80gb",
            ],
            # One A100 in FP8 (vLLM's W8A16 on Ampere); two in BF16.
            "GPUs of this kind needed: 1 (FP8 on vLLM); BF16 on vLLM: 2",
        ),
    ],
)
def test_fit_questions(capsys, argv, needle):
    code, out, _ = run(capsys, "fit", *argv)
    assert code == 0 and out.splitlines()[0].startswith(needle)


def test_fit_json_and_missing_hardware(capsys):
    code, out, _ = run(
        capsys,
        "fit",
        "concurrency",
        "--model",
        "qwen2.5-7b",
        "--task",
        "inference",
        "--engine",
        "vllm",
        "--gpu",
        "4090",
        "--json",
    )
    data = json.loads(out)
    assert (
        code == 0
        and data["question"] == "concurrency"
        and data["estimate"]["verdict"] in ("fits", "tight")
    )
    assert data["estimate"]["inputs"]["concurrency"] == data["answer"]
    code, _, err = run(capsys, "fit", "context", "--model", "qwen2.5-7b", "--task", "inference")
    assert code == 2 and "needs the hardware" in err


def test_estimate_does_not_load_the_database_layer():
    """`estimate` needs no storage: SQLAlchemy alone would more than double its cold start."""
    probe = (
        "import sys\n"
        "from bot.cli import main\n"
        "main(['estimate', '--model', '7B', '--task', 'inference', '--gpu', 'RTX 4090', '--json'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'storage')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    "argv",
    [
        ["estimate", "--model", "7B", "--task", "inference"],
        ["fit", "gpu", "--model", "7B", "--task", "inference"],
        ["ask", "7B on a 4090"],
        ["chat"],
        ["profile", "list"],
        ["calibrate"],
    ],
)
def test_a_language_without_a_catalog_is_refused(capsys, monkeypatch, argv):
    monkeypatch.delenv("LLM_SIZER_LANG", raising=False)
    code, out, err = run(capsys, *argv, "--lang", "de")
    assert (code, out) == (2, "")
    assert err == "error: --lang de is not a language I answer in; use en or nl\n"


def test_the_refusal_is_in_the_default_language(capsys, monkeypatch):
    monkeypatch.setenv("LLM_SIZER_LANG", "nl")
    code, _, err = run(capsys, "estimate", "--model", "7B", "--task", "inference", "--lang", "fr")
    assert code == 2
    assert err == "error: --lang fr is geen taal waarin ik antwoord; kies en of nl\n"


def test_language_codes_in_capitals_are_accepted(capsys):
    code, out, _ = run(capsys, "estimate", "--model", "7B", "--task", "inference", "--lang", "NL")
    assert code == 0 and "Oordeel:" in out


def test_a_model_folder_is_named_after_itself(capsys, tmp_path):
    """`--model models/my-llama` (a folder holding config.json) is called my-llama, not after
    the folder around it."""
    from tests.conftest import FIXTURES

    folder = tmp_path / "models" / "my-llama"
    folder.mkdir(parents=True)
    config = json.loads((FIXTURES / "configs" / "llama-3.1-8b" / "config.json").read_text())
    config.pop("_name_or_path", None)
    (folder / "config.json").write_text(json.dumps(config))
    for given in (folder, folder / "config.json"):
        code, out, _ = run(
            capsys, "estimate", "--model", str(given), "--task", "inference", "--json"
        )
        assert code == 0
        assert json.loads(out)["inputs"]["model"] == "my-llama", given


NOTHING_FITS = "Nothing in the search fits this workload"


def test_nothing_fits_is_exit_1_in_fit_and_ask(capsys, monkeypatch, tmp_path):
    """The same inverse question, as flags and in words: the same answer and the same code."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.delenv("LLM_SIZER_LANG", raising=False)
    flags = ["fit", "context", "--model", "llama-3.1-405b", "--task", "inference", "--gpu", "4090"]
    code, out, _ = run(capsys, *flags)
    assert code == 1 and out.startswith(NOTHING_FITS)
    # In words, the answer goes on to the workload itself and the plan that runs elsewhere.
    code, out, _ = run(capsys, "ask", "longest context for llama 3.1 405b on an rtx 4090")
    assert code == 1 and out.startswith("Nothing in 4 bits or more answers that")
    assert "it runs like this:" in out
    code, out, _ = run(capsys, "ask", "longest context for qwen2.5 7b on an rtx 4090")
    assert code == 0 and not out.startswith(NOTHING_FITS)


@pytest.mark.parametrize("flag", ["--context", "--gpus", "--concurrency", "--lora-rank", "--batch"])
def test_an_integer_flag_of_400_digits_is_refused_with_its_range(capsys, flag):
    """Read exactly (a float overflows at 309 digits): refused with the range, exit 2."""
    base = ["estimate", "--model", "qwen2.5-7b", "--task", "training", "--gpu", "4090"]
    code, out, err = run(capsys, *base, flag, "9" * 400)
    assert code == 2 and "must be between 1 and" in out + err


def test_a_plan_partly_in_ram_on_a_gpu_known_by_its_memory_gives_its_bound(capsys):
    # Its decode range needs the GPU's bandwidth; what is in RAM bounds it all the same
    # (hand-derived in tests/estimator/test_speed.py).
    code, out, _ = run(
        capsys, "estimate", "--model", "Llama-3.1-70B", "--task", "inference",
        "--gpu-memory", "24", "--ram", "128", "--json",
    )  # fmt: skip
    assert code == 0
    plans = {(p["engine"], p["precision"]): p for p in json.loads(out)["plans"]}
    q4 = plans["llama.cpp", "q4_k_m"]
    assert q4["decode_tokens_per_s"] is None
    assert q4["decode_at_most_tokens_per_s"] == pytest.approx(3.50, abs=0.01)
    assert plans["exllamav2", "exl2_2.5bpw"]["decode_at_most_tokens_per_s"] is None
