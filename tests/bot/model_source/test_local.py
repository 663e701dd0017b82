"""Weights on disk, in files the tests write: a safetensors model folder (written with the
safetensors package) and GGUF files (written with gguf's GGUFWriter) give the exact tensor
bytes; devices, FIFOs and over-long names are refused with a reason."""

import json
import os

import numpy as np
import pytest
from safetensors.numpy import save_file

from bot.cli import main
from bot.conversation import parse_model
from bot.conversation.service import Conversation, Incoming
from bot.model_source import resolve_model
from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.workload import Workload

H, L, I, V, KV = 64, 2, 128, 96, 2  # hidden, layers, MLP, vocab, KV heads of 16 dims
CONFIG = {
    "model_type": "llama",
    "hidden_size": H,
    "num_hidden_layers": L,
    "intermediate_size": I,
    "num_attention_heads": 4,
    "num_key_value_heads": KV,
    "vocab_size": V,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
}


def _llama_tensors(dtype=np.float16) -> dict[str, np.ndarray]:
    t = {
        "model.embed_tokens.weight": np.zeros((V, H), dtype),
        "lm_head.weight": np.zeros((V, H), dtype),
    }
    for i in range(L):
        p = f"model.layers.{i}"
        t[f"{p}.self_attn.q_proj.weight"] = np.zeros((H, H), dtype)
        t[f"{p}.self_attn.k_proj.weight"] = np.zeros((KV * 16, H), dtype)
        t[f"{p}.self_attn.v_proj.weight"] = np.zeros((KV * 16, H), dtype)
        t[f"{p}.self_attn.o_proj.weight"] = np.zeros((H, H), dtype)
        t[f"{p}.mlp.gate_proj.weight"] = np.zeros((I, H), dtype)
        t[f"{p}.mlp.up_proj.weight"] = np.zeros((I, H), dtype)
        t[f"{p}.mlp.down_proj.weight"] = np.zeros((H, I), dtype)
        t[f"{p}.input_layernorm.weight"] = np.zeros((H,), dtype)
        t[f"{p}.post_attention_layernorm.weight"] = np.zeros((H,), dtype)
    t["model.norm.weight"] = np.zeros((H,), dtype)
    return t


# 2 x 96 x 64 embeddings + per layer 2 x 64² + 2 x 64 x 32 + 3 x 64 x 128 + 2 x 64, + final norm
PARAMS = 2 * V * H + L * (2 * H * H + 2 * H * KV * 16 + 3 * H * I + 2 * H) + H


def test_a_safetensors_folder_gives_the_exact_stored_bytes(tmp_path):
    tensors = _llama_tensors()
    names = sorted(tensors)
    save_file(
        {n: tensors[n] for n in names[: len(names) // 2]},
        tmp_path / "model-00001-of-00002.safetensors",
    )
    save_file(
        {n: tensors[n] for n in names[len(names) // 2 :]},
        tmp_path / "model-00002-of-00002.safetensors",
    )
    (tmp_path / "config.json").write_text(json.dumps(CONFIG))
    choice = resolve_model(str(tmp_path))
    arch = choice.architecture
    assert sum(a.size for a in tensors.values()) == PARAMS == arch.params
    assert (arch.measured_params, arch.measured_bytes, arch.measured_format) == (
        PARAMS,
        2 * PARAMS,
        "fp16",
    )
    assert choice.notes[-1].key == "weights_from_headers"
    est = estimate(
        Workload(model=arch, task="inference", engine="transformers", precision="fp16"), None
    )
    assert est.components.weights == 2 * PARAMS


def _write_llama_gguf(path) -> int:
    """A two-layer Llama GGUF in Q8_0 (its norms in F32), as llama.cpp's converter writes
    one; returns the tensor bytes."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_block_count(L)
    writer.add_embedding_length(H)
    writer.add_feed_forward_length(I)
    writer.add_head_count(4)
    writer.add_head_count_kv(KV)
    writer.add_context_length(4096)
    writer.add_vocab_size(V)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
    gguf_names = {
        "model.embed_tokens.weight": "token_embd.weight",
        "lm_head.weight": "output.weight",
        "model.norm.weight": "output_norm.weight",
    }
    total_bytes = 0
    for name, array in _llama_tensors(np.float32).items():
        new = gguf_names.get(name, name.replace("model.layers.", "blk."))
        if array.ndim == 2:  # Q8_0: 34 bytes per 32 weights, as ggml's block_q8_0
            data = gguf.quants.quantize(array, gguf.GGMLQuantizationType.Q8_0)
            writer.add_tensor(new, data, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
            total_bytes += array.size // 32 * 34
        else:
            writer.add_tensor(new, array)
            total_bytes += array.size * 4
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return total_bytes


def test_a_gguf_file_gives_its_architecture_and_exact_bytes(tmp_path):
    path = tmp_path / "tiny-Q8_0.gguf"
    total_bytes = _write_llama_gguf(path)
    choice = resolve_model(str(path))
    arch = choice.architecture
    assert arch.params == PARAMS and arch.measured_params == PARAMS
    assert arch.measured_bytes == total_bytes and arch.checkpoint_precision == "q8_0"
    assert [n.key for n in choice.notes] == ["gguf_model", "weights_from_headers"]
    est = estimate(
        Workload(model=arch, task="inference", engine="llama.cpp", precision="q8_0"), None
    )
    assert est.components.weights == total_bytes


def test_a_gguf_file_runs_in_its_own_format_on_llamacpp_by_default(tmp_path):
    path = tmp_path / "tiny-Q8_0.gguf"
    total_bytes = _write_llama_gguf(path)
    arch = resolve_model(str(path)).architecture
    est = estimate(Workload(model=arch, task="inference"), None)
    assert (est.inputs.engine, est.inputs.precision) == ("llama.cpp", "q8_0")
    assert est.components.weights == total_bytes
    note = next(n for n in est.assumptions if n.key == "engine_for_gguf")
    assert note.params == {"engine": "llama.cpp", "precision": "GGUF Q8_0"}
    # "int8" leaves the format to the engine; a named format or engine is what was asked.
    est = estimate(Workload(model=arch, task="inference", precision="int4"), None)
    assert (est.inputs.engine, est.inputs.precision) == ("llama.cpp", "q4_k_m")
    est = estimate(Workload(model=arch, task="inference", engine="vllm"), None)
    assert est.inputs.engine == "vllm"
    assert not any(n.key == "engine_for_gguf" for n in est.assumptions)


def test_a_split_gguf_without_its_other_shards_is_refused(tmp_path):
    path = tmp_path / "big-00001-of-00003.gguf"
    path.write_bytes(b"GGUF")
    with pytest.raises(EstimatorError) as e:
        resolve_model(str(path))
    assert e.value.code == "gguf_shard_missing"


def test_devices_fifos_and_long_names_are_refused_without_reading(tmp_path):
    with pytest.raises(EstimatorError) as e:
        resolve_model("/dev/zero")
    assert e.value.code == "path_unusable"
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    with pytest.raises(EstimatorError) as e:
        resolve_model(str(fifo))  # opening a FIFO would block
    assert e.value.code == "path_unusable"
    with pytest.raises(EstimatorError) as e:
        resolve_model("/" + "x" * 5000 + ".json")
    assert e.value.code == "path_unusable"
    with pytest.raises(EstimatorError) as e:
        resolve_model("x" * 300)  # not a path: too long for a name
    assert e.value.code == "model_name_too_long"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1" * 5000])
def test_nan_infinity_and_huge_integers_in_a_config_file(tmp_path, value):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(CONFIG)[:-1] + f', "num_hidden_layers": {value}}}')
    with pytest.raises(EstimatorError) as e:
        resolve_model(str(path))
    assert e.value.code == "config_unreadable"


def _model_folder(folder) -> None:
    folder.mkdir()
    save_file(_llama_tensors(), folder / "model.safetensors")
    (folder / "config.json").write_text(json.dumps(CONFIG))


def _ask(capsys, monkeypatch, tmp_path, question: str) -> dict:
    """`llm-sizer ask QUESTION --json` in this process, on its own SQLite file."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'sizer.db'}")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("LLM_SIZER_LANG", "")
    code = main(["ask", question, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.mark.parametrize(
    ("written", "engine", "precision", "read_from"),
    [
        ("./tiny-Q8_0.gguf", "llama.cpp", "q8_0", "GGUF metadata of"),
        ("{tmp}/tiny", "transformers", "bf16", "architecture read from"),
        ("{tmp}/tiny/", "transformers", "bf16", "architecture read from"),
        ("{tmp}/tiny/config.json", "transformers", "bf16", "architecture read from"),
        ('"{tmp}/my models/tiny-Q8_0.gguf"', "llama.cpp", "q8_0", "GGUF metadata of"),
    ],
)
def test_ask_reads_a_local_gguf_folder_or_config(
    capsys, monkeypatch, tmp_path, written, engine, precision, read_from
):
    _model_folder(tmp_path / "tiny")
    (tmp_path / "my models").mkdir()
    _write_llama_gguf(tmp_path / "my models" / "tiny-Q8_0.gguf")
    _write_llama_gguf(tmp_path / "tiny-Q8_0.gguf")
    monkeypatch.chdir(tmp_path)
    body = _ask(
        capsys, monkeypatch, tmp_path, f"can I run {written.format(tmp=tmp_path)} on a 4090?"
    )
    i = body["inputs"]
    assert body["status"] == "answered"
    assert (i["params"], i["engine"], i["precision"]) == (PARAMS, engine, precision)
    assert any(read_from in a for a in i["assumed"])
    # A config.json's safetensors shards beside it count the stored bytes too.
    assert any(
        a.startswith(("weights from the gguf", "weights from the safetensors"))
        for a in i["assumed"]
    )


def test_a_folder_with_one_gguf_reads_it_and_with_two_asks_which(tmp_path):
    _write_llama_gguf(tmp_path / "tiny-Q8_0.gguf")
    assert resolve_model(str(tmp_path)).architecture.measured_format == "q8_0"
    _write_llama_gguf(tmp_path / "other-Q8_0.gguf")
    with pytest.raises(EstimatorError) as e:
        resolve_model(str(tmp_path))
    assert e.value.code == "several_gguf"


async def test_a_gguf_path_is_refused_outside_the_terminal(storage, tmp_path):
    _write_llama_gguf(tmp_path / "tiny-Q8_0.gguf")
    remote = Incoming(
        platform="telegram",
        chat_id="5",
        chat_type="private",
        user_id="5",
        text=f"can I run {tmp_path}/tiny-Q8_0.gguf on a 4090?",
    )
    refused = await Conversation(storage).handle(remote)
    assert refused.status == "error"
    assert "terminal" in refused.text and "86" not in refused.text
    with pytest.raises(EstimatorError) as e:
        resolve_model(f"{tmp_path}/missing.gguf", files=False)
    assert e.value.code == "path_local_only"  # refused without looking


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("can I run ./model.gguf?", "./model.gguf"),
        ("llama on ~/models/llama-8b.", "~/models/llama-8b"),
        ("will (/data/qwen/config.json) fit", "/data/qwen/config.json"),
        ("run 'C:/my models/x-Q4_K_M.gguf' please", "C:/my models/x-Q4_K_M.gguf"),
        ("/help", None),
        ("50 tokens/s on 24/7 use", None),
        ("I'd run qwen 7b, it's fine", None),
    ],
)
def test_a_path_is_read_by_its_shape_without_the_disk(text, path):
    assert parse_model.local_path(text) == path
