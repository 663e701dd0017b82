"""Hub GGUF repositories against a loopback fake Hub over real HTTP: GGUF headers written with
gguf's GGUFWriter (header and tensor list only: the reader never asks for tensor data), the
file list with sizes, Range reads, the file of the format asked, split files, and a Hub that
is missing, slow or serves a cut-short file, each falling back to the catalog model the
repository's name maps to."""

import time
from pathlib import Path

import numpy as np
import pytest

from bot.model_source import Hub, gguf_repo, hub, needs_download, resolve_model
from bot.render.notes import assumption
from estimator.errors import EstimatorError
from tests.bot.commands.cli import run
from tests.bot.model_source.fake_hub import FakeHub, running

# A Llama of hidden size 256, 2 layers, 4 heads of 64 (2 KV heads), FFN 512, vocabulary 1,000,
# untied: the 2D tensors, then the norms (one per layer twice, and the output norm).
_LAYER = {
    "attn_q": (256, 256),
    "attn_k": (128, 256),
    "attn_v": (128, 256),
    "attn_output": (256, 256),
    "ffn_gate": (512, 256),
    "ffn_up": (512, 256),
    "ffn_down": (256, 512),
}
MATRIX_PARAMS = 2 * 1000 * 256 + 2 * (2 * 256 * 256 + 2 * 128 * 256 + 3 * 512 * 256)
NORM_PARAMS = 2 * 2 * 256 + 256
PARAMS = MATRIX_PARAMS + NORM_PARAMS  # 1,692,928
# Q4_K stores 256 weights in 144 bytes, Q8_0 32 in 34 (ggml's block_q4_K and block_q8_0);
# norms stay F32.
Q4_K_M_BYTES = MATRIX_PARAMS * 144 // 256 + NORM_PARAMS * 4  # 956,672
Q8_0_BYTES = MATRIX_PARAMS * 34 // 32 + NORM_PARAMS * 4  # 1,802,496
# 60,000 tokens of 8 characters put the header past 900 KB: read in several tries.
TOKENS = [f"tok{i:05d}" for i in range(60_000)]


def _tensors() -> list[tuple[str, tuple[int, ...]]]:
    rows = [("token_embd.weight", (1000, 256)), ("output.weight", (1000, 256))]
    for i in range(2):
        rows += [(f"blk.{i}.{name}.weight", shape) for name, shape in _LAYER.items()]
        rows += [(f"blk.{i}.attn_norm.weight", (256,)), (f"blk.{i}.ffn_norm.weight", (256,))]
    return [*rows, ("output_norm.weight", (256,))]


def write_gguf(path: Path, quant: str, split_tensors: int = 0, **arch: int) -> list[Path]:
    """A Llama GGUF header in `quant` (Q4_K_M or Q8_0), split after `split_tensors` tensors;
    `arch` overrides the sizes of the metadata (the tensors keep theirs)."""
    import gguf

    kind = {"Q4_K_M": gguf.GGMLQuantizationType.Q4_K, "Q8_0": gguf.GGMLQuantizationType.Q8_0}
    file_type = {"Q4_K_M": gguf.LlamaFileType.MOSTLY_Q4_K_M, "Q8_0": gguf.LlamaFileType.MOSTLY_Q8_0}
    w = gguf.GGUFWriter(path, "llama", split_max_tensors=split_tensors)
    sizes = {"layers": 2, "hidden": 256, "ffn": 512, "heads": 4, "kv_heads": 2, **arch}
    w.add_block_count(sizes["layers"])
    w.add_context_length(8192)
    w.add_embedding_length(sizes["hidden"])
    w.add_feed_forward_length(sizes["ffn"])
    w.add_head_count(sizes["heads"])
    w.add_head_count_kv(sizes["kv_heads"])
    w.add_vocab_size(sizes.get("vocab", 1000))
    w.add_file_type(file_type[quant])
    w.add_token_list(TOKENS)
    block, size = gguf.GGML_QUANT_SIZES[kind[quant]]
    for name, shape in _tensors():
        elements = int(np.prod(shape))
        if len(shape) == 1:
            w.add_tensor_info(name, shape, np.dtype(np.float32), elements * 4)
        else:
            w.add_tensor_info(
                name, shape, np.dtype(np.float32), elements * size // block, kind[quant]
            )
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()
    return sorted(path.parent.glob(path.name.removesuffix(".gguf") + "*.gguf"))


REPO = "someone/Tiny-GGUF"


@pytest.fixture
def fake(tmp_path):
    hub_ = FakeHub()
    files = {}
    for quant in ("Q4_K_M", "Q8_0"):
        (written,) = write_gguf(tmp_path / f"Tiny-{quant}.gguf", quant)
        files[written.name] = written.read_bytes()
    files["mmproj-Tiny-F16.gguf"] = b"GGUF"  # a vision projector, never the model
    files["README.md"] = b"# Tiny"
    hub_.files[REPO] = files
    with running(hub_):
        yield hub_


def test_a_gguf_repository_answers_with_its_q4_k_m_files_exact_weights(fake):
    client = Hub(fake.url, token="")
    choice = resolve_model(REPO, client=client)
    arch = choice.architecture
    assert (arch.measured_params, arch.measured_bytes) == (PARAMS, Q4_K_M_BYTES)
    assert arch.params == PARAMS and arch.measured_format == "q4_k_m"
    assert (choice.engine, choice.precision) == ("llama.cpp", "q4_k_m")
    note = choice.notes[0]
    assert note.key == "gguf_hub_file" and note.params["file"] == "Tiny-Q4_K_M.gguf"
    assert assumption(note, "en").startswith(
        "from the GGUF header of Tiny-Q4_K_M.gguf in someone/Tiny-GGUF: 1,692,928 parameters"
    )
    assert assumption(note, "nl").startswith("volgens de GGUF-header van Tiny-Q4_K_M.gguf")
    # The header arrived in growing tries of one Range request, and is remembered.
    assert fake.ranges == [f"bytes=0-{hub.MAX_GGUF_HEADER_BYTES - 1}"]
    resolve_model(REPO, client=client)
    assert client.requests == 2  # the tree and one header


def test_the_format_asked_picks_its_file_and_one_the_repository_lacks_says_so(fake):
    client = Hub(fake.url, token="")
    q8 = resolve_model(REPO, client=client, precision="Q8_0")
    assert q8.architecture.measured_bytes == Q8_0_BYTES and q8.precision == "q8_0"
    q5 = resolve_model(REPO, client=client, precision="q5_k_m")
    assert q5.precision is None  # sized as Q5_K_M from the architecture of the Q4_K_M file
    assert q5.notes[1].key == "gguf_format_not_in_repo"
    assert q5.notes[1].params["formats"] == "Q4_K_M, Q8_0"


def test_a_split_gguf_sums_every_shards_header_and_size(fake, tmp_path):
    (tmp_path / "split").mkdir()
    shards = write_gguf(tmp_path / "split" / "Big-Q8_0.gguf", "Q8_0", split_tensors=11)
    assert [s.name for s in shards] == [
        "Big-Q8_0-00001-of-00002.gguf",
        "Big-Q8_0-00002-of-00002.gguf",
    ]
    fake.files["someone/Big-GGUF"] = {f"Q8_0/{s.name}": s.read_bytes() for s in shards}
    # A shard on the Hub holds its tensors' data as well: 1,802,496 bytes in all.
    fake.sizes[f"someone/Big-GGUF/Q8_0/{shards[0].name}"] = 1_000_000
    fake.sizes[f"someone/Big-GGUF/Q8_0/{shards[1].name}"] = 900_000
    choice = resolve_model("someone/Big-GGUF", client=Hub(fake.url, token=""))
    assert choice.architecture.measured_bytes == Q8_0_BYTES
    assert choice.architecture.measured_params == PARAMS
    note = choice.notes[0]
    assert note.key == "gguf_hub_split"
    assert (note.params["shards"], note.params["disk_bytes"]) == (2, 1_900_000)


def test_a_shard_missing_from_the_listing_is_no_model(fake):
    fake.files["someone/Half-GGUF"] = {"Half-Q8_0-00001-of-00002.gguf": b"GGUF"}
    with pytest.raises(EstimatorError) as e:
        resolve_model("someone/Half-GGUF", client=Hub(fake.url, token=""))
    assert e.value.code == "no_gguf_in_repo"


def test_a_missing_repository_falls_back_to_the_catalog_model_its_name_maps_to(fake):
    choice = resolve_model("bartowski/Qwen2.5-7B-Instruct-GGUF", client=Hub(fake.url, token=""))
    assert choice.architecture.name == "Qwen2.5-7B"
    assert (choice.engine, choice.precision) == ("llama.cpp", "q4_k_m")
    assert choice.notes[0].key == "gguf_hub_fallback"
    assert choice.notes[0].params["reason"] == "HTTP 404"
    with pytest.raises(EstimatorError) as e:
        resolve_model("someone/Nothing-Like-It-GGUF", client=Hub(fake.url, token=""))
    assert e.value.code == "unknown_model"


def test_a_slow_header_costs_one_timeout_then_the_catalog(fake, tmp_path):
    repo = "unsloth/Llama-3.3-70B-Instruct-GGUF"
    (written,) = write_gguf(tmp_path / "Llama-Q4_K_M.gguf", "Q4_K_M")
    fake.files[repo] = {"Llama-3.3-70B-Instruct-Q4_K_M.gguf": written.read_bytes()}
    fake.hang.add(f"{repo}/Llama-3.3-70B-Instruct-Q4_K_M.gguf")
    client = Hub(fake.url, token="", header_timeout_s=0.3)
    start = time.monotonic()
    choice = resolve_model(repo, client=client)
    assert time.monotonic() - start < 1.5
    assert choice.architecture.name == "Llama-3.3-70B"
    assert choice.notes[0].params["reason"] == "ReadTimeout"
    assert assumption(choice.notes[0], "en").startswith(
        "the Hugging Face Hub did not give the files of unsloth/Llama-3.3-70B-Instruct-GGUF"
    )
    resolve_model(repo, client=client)
    assert client.requests == 2  # the failure is remembered


def test_a_cut_short_header_is_unreadable(fake):
    fake.cut[f"{REPO}/Tiny-Q4_K_M.gguf"] = 300_000
    with pytest.raises(EstimatorError) as e:
        resolve_model(REPO, client=Hub(fake.url, token=""))
    assert e.value.code == "weights_unreadable" and "cut short" in e.value.params["reason"]


def test_a_gguf_repository_is_looked_up_on_the_hub_within_the_users_limit(fake):
    assert needs_download(REPO) and needs_download("bartowski/Qwen2.5-7B-Instruct-GGUF")
    client = Hub(fake.url, token="")
    # Telegram reads no local file, but may look on the Hub.
    assert resolve_model(REPO, client=client, files=False).architecture.measured_bytes
    limited = resolve_model(
        "bartowski/Qwen2.5-7B-Instruct-GGUF", client=client, hub_allowed=lambda: False
    )
    assert limited.notes[0].params["reason"] == "rate limit" and client.requests == 2
    with pytest.raises(EstimatorError) as e:
        resolve_model("someone/Other-GGUF", client=client, hub_allowed=lambda: False)
    assert e.value.code == "hub_rate_limited"


@pytest.mark.parametrize(
    ("listing", "asked", "chosen"),
    [
        ([("a-Q8_0.gguf", 8), ("a-Q4_K_M.gguf", 4), ("a-Q2_K.gguf", 2)], None, "a-Q4_K_M.gguf"),
        # No Q4_K_M: the format nearest its 4.89 bits per weight (Q4_K_S, 4.67).
        ([("a-Q8_0.gguf", 8), ("a-Q4_K_S.gguf", 4), ("a-Q3_K_M.gguf", 3)], None, "a-Q4_K_S.gguf"),
        ([("a-Q8_0.gguf", 8), ("a-Q4_K_M.gguf", 4)], "q8_0", "a-Q8_0.gguf"),
        ([("a-UD-Q4_K_XL.gguf", 4)], None, "a-UD-Q4_K_XL.gguf"),
    ],
)
def test_the_file_chosen(listing, asked, chosen):
    model = gguf_repo.choose(gguf_repo.models(listing), asked)
    assert model is not None and model.file == chosen


@pytest.fixture
def default_hub(fake, monkeypatch):
    monkeypatch.setattr(hub, "_default", Hub(fake.url, token=""))
    return fake


def test_a_gguf_repository_on_two_3090s_gets_a_llamacpp_plan(default_hub, capsys):
    """Once an Unsloth training question refused with "add --engine llama.cpp"; the Hub
    misses this repository here, so the catalog's Llama 3.3 70B answers, in Q4_K_M."""
    code, out, _ = run(capsys, "ask", "unsloth/Llama-3.3-70B-Instruct-GGUF on 2x3090")
    assert code == 0, out
    assert "q4_k_m" in out.splitlines()[0] and "llama-server -m" in out
    assert "the catalog model its name maps to" in out


def test_estimate_reads_a_gguf_repositorys_file(default_hub, capsys):
    code, out, _ = run(
        capsys,
        "estimate",
        "--task",
        "inference",
        "--model",
        REPO,
        "--precision",
        "q8_0",
        "--gpu",
        "4090",
        "--gpus",
        "2",
    )
    assert code == 0, out
    assert "llama.cpp, q8_0" in out and "Tiny-Q8_0.gguf" in out
