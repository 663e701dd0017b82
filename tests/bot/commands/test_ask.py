"""`llm-sizer ask` and `llm-sizer chat` as a user runs them: a real process, a real SQLite file
(DATABASE_URL), the JSON contract, exit codes."""

import json
import os
import subprocess
import sys

import pytest


@pytest.fixture
def env(tmp_path):
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'sizer.db'}",
        "LLM_SIZER_LANG": "",
        "HOME": str(tmp_path),
    }


def cli(env, *args, stdin=None):
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("can I fine-tune 7B on 24GB?", "en"),
        ("kan ik een 7B model fine-tunen op een GPU met 24GB?", "nl"),
    ],
)
def test_ask_json_fine_tune_7b_on_24gb(env, question, language):
    """A bare 7B is a 7B model: Qwen2.5-7B's shape with 25 of its 28 layers (each layer
    233,057,792 parameters), 6.92B. Full fine-tuning at 2 + 2 + 4 + 8 bytes per parameter is
    103 GiB of weights, gradients, master weights and Adam states before activations, so it
    does not fit a 24 GB card; LoRA is the first rung that fits, QLoRA the second."""
    seven = 7_615_616_512 - 3 * 233_057_792
    code, out, err = cli(env, "ask", question, "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["status"] == "answered"
    assert body["language"] == language
    i = body["inputs"]
    assert (i["params"], i["task"], i["method"], i["precision"]) == (
        seven,
        "training",
        "full",
        "bf16",
    )
    assert i["device_memory_bytes"] == 24 * 2**30
    c = body["memory"]["components"]
    assert c["weights"] == c["gradients"] == 2 * seven
    assert c["master_weights"] == 4 * seven
    assert c["optimizer_states"] == 8 * seven
    assert body["verdict"] == "does_not_fit"
    # The plan that leads: LoRA on the same GPU (bf16 base 2 bytes x 6.92B = 12.9 GiB, plus
    # adapters, their optimizer and checkpointed activations: under the 23.6 GiB usable).
    assert body["recommendations"][0]["rule"] == "plan_yours"
    assert body["recommendations"][0]["verdict"] == "fits"
    lead = body["plans"][0]
    assert (lead["method"], lead["gpus"], lead["hardware"]) == ("lora", 1, "yours")
    assert 2 * seven < lead["per_device_bytes"] < 23.6 * 2**30
    assert body["parsed"] == {
        "model": "7B",
        "task": "training",
        "gpu_memory_gb": 24.0,
        "language": language,
    }


def test_ask_json_need_more(env):
    """ "Will it fit" is a question about running it: only the model is asked for."""
    code, out, _ = cli(env, "ask", "will it fit on my RTX 4090?", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["status"] == "need_more"
    assert body["missing"] == ["model"]
    assert body["parsed"]["task"] == "inference"
    assert body["question_to_user"].startswith("Which model?")
    assert body["choices"]


def test_ask_follow_up_uses_the_previous_question(env):
    cli(env, "ask", "can I fine-tune 7B on 24GB?")
    code, out, _ = cli(env, "ask", "and with QLoRA?", "--json")
    assert code == 0
    assert json.loads(out)["inputs"]["method"] == "qlora"


def test_ask_bad_input_is_one_line_and_exit_2(env):
    code, out, err = cli(env, "ask", "run a 99999999b model on a 4090")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")


def test_ask_text_shows_verdict_and_choices(env):
    code, out, _ = cli(env, "ask", "kan ik Llama 3 8B op mijn laptop draaien?")
    assert code == 0
    assert "Wat zit er in je laptop?" in out
    assert "1) RTX 4060 Laptop" in out


def test_chat_session(env):
    """Numbers pick a choice; history lists the questions; quit ends with exit 0."""
    code, out, err = cli(
        env,
        "chat",
        stdin="kan ik Llama 3 8B op mijn laptop draaien?\n2\nen met 8k context?\ngeschiedenis\nstoppen\n",
    )
    assert code == 0, err
    assert "(RTX 4090 Laptop)" in out
    assert "GeForce RTX 4090 Laptop" in out
    # Llama 3 8B in BF16 (16.3 GiB) on the 16 GB laptop card: the verdict is the plan that runs
    # there, the format it assumed beside it.
    # An 8-bit format with room to spare (FP8 on vLLM, 9.8 GiB) before F16 at 14.7 of 15.1 GiB.
    assert "Oordeel: past, in FP8 op vLLM" in out
    assert (
        "Zoals uitgebracht, in BF16 op transformers (de vraag noemde geen van beide): past niet"
        in out
    )
    assert "Tot ziens." in out
    assert out.count("kan ik Llama 3 8B op mijn laptop draaien?") == 1


def test_chat_ends_on_end_of_input(env):
    code, out, _ = cli(env, "chat", stdin="")
    assert code == 0
    assert "Bye." in out


def test_ask_hello_after_a_question_greets_without_an_estimate(env):
    cli(env, "ask", "can I fine-tune 7B on 24GB?")
    code, out, _ = cli(env, "ask", "hello", "--json")
    assert code == 0
    body = json.loads(out)
    assert (body["status"], body["language"]) == ("info", "en")
    assert body["text"].startswith("Hello!")
    assert "verdict" not in body and "inputs" not in body


def test_ask_a_comparison_lists_each_option(env):
    code, out, err = cli(env, "ask", "ZeRO-2 vs ZeRO-3 for 7B on 2x 4090?", "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["status"] == "answered"
    assert [o["option"] for o in body["comparison"]] == ["ZeRO-2", "ZeRO-3"]
    assert [o["inputs"]["zero"] for o in body["comparison"]] == [2, 3]
    per_device = [o["memory"]["per_device_bytes"] for o in body["comparison"]]
    assert per_device[1] < per_device[0]  # stage 3 also shards the weights


def test_ask_takes_the_number_of_a_printed_choice(env):
    code, out, _ = cli(env, "ask", "Qwen2.5-7B")
    assert code == 0
    assert "1) Run it (inference)" in out
    code, out, _ = cli(env, "ask", "1", "--json")
    assert code == 0
    body = json.loads(out)
    assert body["status"] == "answered"
    assert body["inputs"]["task"] == "inference"


def test_ask_questions_do_not_leak_into_the_next(env):
    cli(env, "ask", "can I run llama 3 8b on an RTX 4090 with 64GB RAM?")
    code, out, _ = cli(env, "ask", "can I fine-tune qwen2.5 7b?", "--json")
    assert code == 0
    body = json.loads(out)
    assert "gpu" not in body["parsed"] and "ram_gb" not in body["parsed"]
    assert body["inputs"]["gpu"] is None


def test_chat_greets_thanks_and_compares_in_dutch(env):
    code, out, err = cli(
        env,
        "chat",
        stdin="hoi\nkan ik llama 3.1 8b draaien op een 4090?\nbedankt\n"
        "L4 of T4 voor llama 3.1 8b?\nstoppen\n",
    )
    assert code == 0, err
    assert "Hallo! Ik reken uit" in out
    assert out.count("Oordeel: past") == 1  # "bedankt" does not print the answer again
    assert "Graag gedaan!" in out
    assert "Vergelijking van L4 en Tesla T4 voor Llama-3.1-8B, inferentie:" in out
    # The T4 (16 GB) holds 8B only in 8 bits; the L4 (24 GB) runs it in BF16 as asked.
    assert "Beter: L4, die draait het zoals gevraagd (BF16); Tesla T4 alleen als" in out
