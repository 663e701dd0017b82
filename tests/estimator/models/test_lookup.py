"""Finding models and hardware by the names people type."""

import pytest

from estimator.errors import EstimatorError
from estimator.hardware.catalog import find_gpu, gpus, machine
from estimator.models import catalog, lookup


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("qwen2.5 7b", "Qwen2.5-7B"),
        ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B"),
        ("Llama-3.1-8B-Instruct", "Llama-3.1-8B"),
        ("meta-llama/Meta-Llama-3-8B", "Llama-3-8B"),
        ("mixtral 8x7b", "Mixtral-8x7B-v0.1"),
        ("deepseek r1 distill 32b", "DeepSeek-R1-Distill-Qwen-32B"),
        ("llama 3 70b", "Llama-3-70B"),
        ("gpt-oss-20b", "gpt-oss-20b"),
        ("Phi-4", "Phi-4"),
        ("gemma 3 27b", "Gemma-3-27B"),
    ],
)
def test_model_aliases(text, name):
    found = catalog.find(text)
    assert found is not None and found.name == name


def test_unknown_model_suggests_close_names():
    with pytest.raises(EstimatorError) as e:
        lookup.require("qwen 7b")
    assert e.value.code == "unknown_model"
    assert e.value.params["suggestions"][0] == "Qwen2.5-7B"
    with pytest.raises(EstimatorError) as e:
        lookup.require("mistrall 7b")
    assert "Mistral-7B-v0.3" in e.value.params["suggestions"]


def test_a_bare_size_is_a_model_of_that_size():
    # Qwen2.5-7B (7.62B, 9% off) is too far from 7B: its shape with 25 of its 28 layers of
    # 233,057,792 parameters is 6.92B.
    seven = lookup.require("7B")
    assert seven.architecture.params == 7_615_616_512 - 3 * 233_057_792
    assert seven.notes[0].key == "bare_size_scaled"
    assert (seven.notes[0].params["model"], seven.notes[0].params["layers"]) == ("Qwen2.5-7B", 25)
    assert seven.architecture.name == "7B"
    # Within 3%, the catalog model itself: Llama-3.1-8B is 8.03B, Qwen2.5-0.5B 0.494B.
    eight = lookup.require("8B")
    assert eight.notes[0].key == "bare_size" and eight.architecture.params == 8_030_261_248
    assert lookup.require("0.5b").architecture.name == "Qwen2.5-0.5B"
    twenty = lookup.require("20B")
    assert twenty.notes[0].key == "bare_size_scaled"
    assert abs(twenty.architecture.params / 20e9 - 1) < 0.02


@pytest.mark.parametrize("text", ["0B", "50T", "0.0001b"])
def test_absurd_sizes_are_refused(text):
    with pytest.raises(EstimatorError) as e:
        lookup.require(text)
    assert e.value.code == "size_out_of_range"


@pytest.mark.parametrize("text", ["", "   ", "x" * 500])
def test_empty_or_huge_names_are_refused(text):
    with pytest.raises(EstimatorError):
        lookup.require(text)


@pytest.mark.parametrize(
    ("text", "name", "gib"),
    [
        ("4090", "GeForce RTX 4090", 24),
        ("rtx 4090", "GeForce RTX 4090", 24),
        ("4090 laptop", "GeForce RTX 4090 Laptop", 16),
        ("RTX 5090 Laptop", "GeForce RTX 5090 Laptop", 24),
        ("a100 80gb", "A100 80GB SXM4", 80),
        ("A100 40GB", "A100 40GB SXM4", 40),
        ("a100 pcie", "A100 80GB PCIe", 80),
        ("3080 12gb", "GeForce RTX 3080 12GB", 12),
        ("t4", "Tesla T4", 16),
        ("h100", "H100 SXM5 80GB", 80),
        ("h100 pcie", "H100 PCIe 80GB", 80),
        ("mi300x", "Instinct MI300X", 192),
    ],
)
def test_gpu_names(text, name, gib):
    gpu = find_gpu(text)
    assert gpu is not None and gpu.name == name and gpu.memory_gib == gib


def test_apple_chip_with_memory():
    m = machine(gpu="m3 max 64gb")
    assert m.kind == "apple" and m.device_bytes == 64 * 2**30 and m.apple.bandwidth_gbs == 400
    with pytest.raises(EstimatorError) as e:
        machine(gpu="M2 Max 40GB")
    assert e.value.code == "apple_memory_not_offered"


def test_unknown_gpu_suggests():
    with pytest.raises(EstimatorError) as e:
        machine(gpu="rtx 4095")
    assert e.value.code == "unknown_gpu" and e.value.params["suggestions"]


def test_every_gpu_has_a_source_and_laptops_differ_from_desktops():
    catalog_gpus = gpus()
    assert all(g.source for g in catalog_gpus)
    laptops = {g.name: g for g in catalog_gpus if g.laptop}
    assert len(laptops) >= 16
    assert laptops["GeForce RTX 4090 Laptop"].memory_gib == 16
    assert laptops["GeForce RTX 4080 Laptop"].memory_gib == 12


@pytest.mark.parametrize(
    ("text", "name", "engine", "precision"),
    [
        # An Ollama tag runs on Ollama, its default build Q4_K_M unless the tag names another.
        ("llama3.1:8b", "Llama-3.1-8B", "ollama", "q4_k_m"),
        ("qwen2.5:14b-instruct-q4_K_M", "Qwen2.5-14B", "ollama", "q4_k_m"),
        ("qwen2.5-coder:32b-instruct-q8_0", "Qwen2.5-Coder-32B", "ollama", "q8_0"),
        ("bartowski/Qwen2.5-Coder-32B-Instruct-GGUF", "Qwen2.5-Coder-32B", "llama.cpp", "q4_k_m"),
        ("Qwen2.5-7B-Instruct-Q5_K_M.gguf", "Qwen2.5-7B", "llama.cpp", "q5_k_m"),
        ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B", None, None),
    ],
)
def test_ollama_tags_mean_ollama_and_gguf_names_llamacpp_with_their_quantization(
    text, name, engine, precision
):
    choice = lookup.require(text)
    assert catalog.find(choice.architecture.name).name == name
    assert (choice.engine, choice.precision) == (engine, precision)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Llama 3.3 70B", "Llama-3.3-70B"),
        ("Llama 4 Scout", "Llama-4-Scout-17B-16E"),
        ("Llama-4-Scout-17B-16E", "Llama-4-Scout-17B-16E"),
        ("Kimi K2", "Kimi-K2-Instruct"),
        ("GLM 4.5 Air", "GLM-4.5-Air"),
        ("QwQ-32B", "QwQ-32B"),
        ("Qwen2.5-Coder-32B", "Qwen2.5-Coder-32B"),
        ("DeepSeek-R1-Distill-Qwen-14B", "DeepSeek-R1-Distill-Qwen-14B"),
        ("meta-llama/Meta-Llama-3.1-8B-Instruct", "Llama-3.1-8B"),
        ("Qwen/Qwen2.5-7B-Instruct-AWQ", "Qwen2.5-7B-Instruct-AWQ"),
        ("google/gemma-3-27b-it", "Gemma-3-27B"),
        ("command r plus", "Command-R-Plus"),
        ("Command R", "Command-R-v01"),
        ("command r7b", "Command-R7B-12-2024"),
        ("Command A", "Command-A-03-2025"),
        ("nemotron nano 9b v2", "Nemotron-Nano-9B-v2"),
    ],
)
def test_names_people_use(text, name):
    found = catalog.find(text)
    assert found is not None and found.name == name


def test_a_name_with_a_filler_word_is_that_model_when_one_is_so_named():
    # Without "base", Kimi-K2-Base reads as "kimi k2", the Instruct model's name.
    assert catalog.find("Kimi-K2-Base").name == "Kimi-K2-Base"
    assert catalog.find("kimi k2 base").name == "Kimi-K2-Base"
    assert catalog.find("Kimi-K2-Instruct").name == "Kimi-K2-Instruct"
    assert catalog.find("kimi k2").name == "Kimi-K2-Instruct"
    # Where no model is named with the filler word, it is still dropped.
    assert catalog.find("Qwen3-8B-Base").name == "Qwen3-8B"


def test_a_quantized_repository_keeps_its_checkpoint_format():
    awq = catalog.find("Qwen/Qwen2.5-7B-Instruct-AWQ")
    assert awq.base == "Qwen2.5-7B" and awq.architecture.checkpoint_precision == "awq"
    assert awq.architecture.params == catalog.find("Qwen2.5-7B").architecture.params


def test_an_unknown_moe_name_is_never_a_bare_dense_size():
    with pytest.raises(EstimatorError) as e:
        lookup.require("foo-30b-a3b")
    assert e.value.code == "unknown_moe_model" and "Qwen3-30B-A3B" in e.value.params["suggestions"]
    with pytest.raises(EstimatorError) as e:
        lookup.require("mixtrall")
    assert (
        e.value.code == "unknown_model" and e.value.params["suggestions"][0] == "Mixtral-8x7B-v0.1"
    )


def test_a_family_member_by_size():
    from estimator.models.catalog import sibling

    assert sibling("gpt-oss-20b", "120B").name == "gpt-oss-120b"
    assert sibling("Qwen2.5-7B", "72B").name == "Qwen2.5-72B"
    assert sibling("Qwen2.5-7B", "9B") is None
    assert sibling("no such model", "7B") is None
