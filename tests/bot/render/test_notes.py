"""The estimator's notes as sentences: each value in its unit and the variant of each step."""

from bot.render.notes import assumption, step
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.models import lookup
from estimator.result import Note
from estimator.workload import Workload


def _notes(model: str, gpu: str = "A100 80GB SXM4", **work) -> dict[str, Note]:
    w = Workload(model=lookup.require(model).architecture, **work)
    est = estimate(w, machine(gpu=gpu))
    return {n.key: n for n in (*est.steps, *est.assumptions)}


def test_bf16_weights_read_two_bytes_a_parameter():
    note = _notes("Qwen2.5-7B", task="inference")["weights"]
    assert note.params["bits_per_param"] == 16 and not note.params["gguf"]
    en = step(note, "en")
    # 7,615,616,512 parameters x 2 bytes = 14.2 GiB.
    assert "7.62B" in en and "14.2 GiB" in en
    assert "7,62B" in step(note, "nl") and "14,2 GiB" in step(note, "nl")


def test_gguf_weights_use_their_own_sentence():
    note = _notes("Qwen2.5-7B", task="inference", engine="llama.cpp", precision="q4_k_m")["weights"]
    assert note.params["gguf"]
    assert step(note, "en") != step(
        _notes("Qwen2.5-7B", task="inference", precision="int4")["weights"], "en"
    )


def test_sliding_window_layers_name_the_window():
    # Gemma 2 (8,192 tokens at most) alternates 4,096-token sliding-window layers with global ones.
    note = _notes("Gemma-2-9B", task="inference", context=8_192)["kv_cache"]
    assert note.params["sliding_layers"]
    assert "4,096" in step(note, "en") and "4.096" in step(note, "nl")


def test_full_and_adapter_training_states_differ():
    full = _notes("Qwen2.5-0.5B", task="training", method="full")["training_states"]
    lora = _notes("Qwen2.5-0.5B", task="training", method="lora")["training_states"]
    assert step(full, "en") != step(lora, "en")
    assert "{" not in step(full, "nl") and "{" not in step(lora, "nl")


def test_an_assumption_without_a_sentence_shows_its_key():
    assert assumption(Note("no_such_assumption", {}), "en") == "no_such_assumption"


def test_every_note_of_an_answer_renders_in_both_languages():
    for gpu, work in (
        ("A100 80GB SXM4", {"task": "inference"}),
        ("GeForce RTX 4090", {"task": "training", "method": "qlora"}),
    ):
        w = Workload(model=lookup.require("Llama-3.1-8B").architecture, **work)
        est = estimate(w, machine(gpu=gpu))
        for lang in ("en", "nl"):
            texts = [step(n, lang) for n in est.steps]
            texts += [assumption(n, lang) for n in est.assumptions]
            for note, text in zip((*est.steps, *est.assumptions), texts, strict=True):
                assert text != note.key and "{" not in text, note
