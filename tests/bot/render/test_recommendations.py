"""Recommendations as sentences, and the commands the launch hints paste."""

from dataclasses import replace

from bot.render.recommendations import command, texts
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.models import lookup
from estimator.workload import Workload
from rules import advise


def _advised(gpu: str, **work):
    m = machine(gpu=gpu)
    w = Workload(model=lookup.require("Llama-3.1-8B").architecture, **work)
    advice = advise(w, m)
    return {r.rule: r for r in advice.recommendations}, estimate(w, m)


def test_the_peft_snippet_is_the_estimated_qlora_run():
    found, est = _advised("GeForce RTX 4090", task="training", method="qlora")
    snippet = command(found["launch_peft"], est)
    i = est.inputs
    assert 'bnb_4bit_quant_type="nf4"' in snippet and "torch.bfloat16" in snippet
    assert f"LoraConfig(r={i.lora_rank}, lora_alpha={2 * i.lora_rank}" in snippet
    assert f"per_device_train_batch_size={i.batch}" in snippet and "bf16=True" in snippet
    assert f"gradient_checkpointing={bool(i.grad_checkpointing)}" in snippet


def test_a_card_without_bfloat16_gets_float16_in_the_snippet():
    # The T4 (Turing) has no bf16: the snippet must not ask for it.
    found, est = _advised("Tesla T4", task="training", method="qlora")
    rec = found["launch_peft"]
    assert rec.params["gpu_bf16"] == 0
    snippet = command(rec, est)
    assert "torch.float16" in snippet and "fp16=True" in snippet and "bfloat16" not in snippet


def test_lora_has_no_quantization_config():
    found, est = _advised("A100 80GB SXM4", task="training", method="lora")
    assert "BitsAndBytesConfig" not in command(found["launch_peft"], est)


def test_the_vllm_launch_is_the_engines_own_command():
    found, est = _advised("GeForce RTX 4090", task="inference", engine="vllm")
    assert command(found["launch"], est).startswith("vllm serve ")


def test_buy_or_rent_says_the_break_even_in_each_language():
    found, est = _advised("GeForce RTX 4090", task="inference", engine="vllm")
    rec = found["cloud_or_buy"]
    hours = rec.params["break_even_hours"]
    _, en = texts(rec, est, "en")
    _, nl = texts(rec, est, "nl")
    assert f"{hours:,}" in en and f"{hours:,}".replace(",", ".") in nl
    assert "1,599 USD" in en and "1.599 USD" in nl


def test_missing_numbers_render_as_zero_not_an_error():
    found, est = _advised("GeForce RTX 4090", task="inference", engine="vllm")
    bare = replace(found["electricity"], params={})
    title, detail = texts(bare, est, "en")
    assert title and "{" not in detail


def test_the_wall_circuit_is_the_readers_own():
    """4x RTX 4090 draw 1,800 W: past a US 15 A, 120 V circuit's 1,440 W (English says so, and
    that a 230 V circuit carries 3,680 W); within a Dutch 16 A, 230 V group's 3,680 W, tight
    with the rest of the PC; 8x RTX 4090 (3,600 W) still within; a 4,000 W set over it."""
    m = machine(gpu="GeForce RTX 4090", gpus=4)
    w = Workload(model=lookup.require("Llama-3.1-70B").architecture, task="inference")
    rec = {r.rule: r for r in advise(w, m).recommendations}["power_and_cooling"]
    est = estimate(w, m)
    _, en = texts(rec, est, "en")
    assert "1,800 W" in en and "US 15 A, 120 V" in en and "1,440 W" in en and "3,680 W" in en
    _, nl = texts(rec, est, "nl")
    assert "1.800 W" in nl and "past op een groep van 16 A op 230 V" in nl and "3.680 W" in nl
    _, over = texts(replace(rec, params={**rec.params, "gpu_watts": 4000}), est, "nl")
    assert "4.000 W aan GPU's is meer dan de 3.680 W" in over and "NEN 1010" in over


def test_a_data_centre_server_gets_no_wall_circuit_note():
    m = machine(gpu="A100 80GB SXM4", gpus=8)
    w = Workload(model=lookup.require("Llama-3.1-70B").architecture, task="inference")
    assert "power_and_cooling" not in {r.rule for r in advise(w, m).recommendations}
