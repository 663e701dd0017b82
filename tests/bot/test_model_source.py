"""Models from shipped config.json files (the path a Hugging Face download takes too)."""

import json

import pytest

from bot.model_source import needs_download, resolve_model
from estimator.errors import EstimatorError
from tests.conftest import FIXTURES

CONFIGS = FIXTURES / "configs"


def test_qwen1_remote_code_config():
    choice = resolve_model(str(CONFIGS / "qwen-7b-v1" / "config.json"))
    assert choice.architecture.params == 7_721_324_544
    assert choice.notes[0].key == "config_model"


def test_folder_holding_a_config():
    assert resolve_model(str(CONFIGS / "llama-3.1-8b")).architecture.params == 8_030_261_248


def test_multimodal_wrapper_counts_its_vision_tower():
    arch = resolve_model(str(CONFIGS / "gemma-3-4b-it")).architecture
    text = 3_880_263_168  # the text model alone
    # SigLIP: conv 3x14x14x1152 + bias, 64x64 positions, 27 blocks, post-norm; then the
    # projector matrix 1152 x 2560 and its RMSNorm.
    block = 4 * (1152 * 1152 + 1152) + (1152 * 4304 + 4304) + (4304 * 1152 + 1152) + 4 * 1152
    siglip = 3 * 14 * 14 * 1152 + 1152 + 4096 * 1152 + 27 * block + 2 * 1152
    assert siglip == 416_866_032
    assert arch.vision_params == siglip + 1152 * 2560 + 1152
    assert arch.params == text + arch.vision_params == 4_300_079_472
    assert "vision_tower_excluded" not in arch.notes
    assert (arch.image_tokens, arch.image_size) == (256, "896x896")
    assert sum(arch.sliding_layers) == 29


def test_falcon_rw_format():
    assert resolve_model(str(CONFIGS / "falcon-7b-rw")).architecture.params == 6_921_720_704


def test_quantization_config_sets_the_checkpoint_precision():
    assert (
        resolve_model(str(CONFIGS / "deepseek-v3-fp8")).architecture.checkpoint_precision
        == "fp8_block"
    )
    assert resolve_model(str(CONFIGS / "gpt-oss-20b")).architecture.checkpoint_precision == "mxfp4"


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("{broken", "config_unreadable"),
        ("[1, 2, 3]", "config_not_object"),
        (json.dumps({"model_type": "t5", "d_model": 512}), "unsupported_architecture"),
        (json.dumps({"model_type": "llama", "hidden_size": -1}), "config_out_of_range"),
        (json.dumps({"model_type": "llama", "hidden_size": 4096}), "config_missing_key"),
        (
            json.dumps({"model_type": "llama", "hidden_size": "big", "num_attention_heads": 2}),
            "config_bad_value",
        ),
        ("[" * 100_000, "config_unreadable"),
    ],
)
def test_broken_configs_are_refused(tmp_path, content, code):
    path = tmp_path / "config.json"
    path.write_text(content)
    with pytest.raises(EstimatorError) as e:
        resolve_model(str(path))
    assert e.value.code == code


def test_oversized_config(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(" " * 3_000_000)
    with pytest.raises(EstimatorError) as e:
        resolve_model(str(path))
    assert e.value.code == "config_too_large"


def test_missing_path():
    with pytest.raises(EstimatorError) as e:
        resolve_model("./no/such/config.json")
    assert e.value.code == "config_not_found"


def test_without_files_a_path_is_refused_before_the_disk_is_read():
    path = str(CONFIGS / "llama-3.1-8b" / "config.json")
    with pytest.raises(EstimatorError) as refused:
        resolve_model(path, files=False)
    assert refused.value.code == "config_local_only"
    with pytest.raises(EstimatorError) as refused:
        resolve_model("~/models/config.json", files=False)
    assert refused.value.code == "config_local_only"
    assert resolve_model("7B", files=False).architecture.params > 6e9


def test_only_a_hub_id_outside_the_catalog_needs_a_download():
    assert needs_download("someone/their-finetune-7b")
    assert not needs_download("Qwen/Qwen2.5-7B-Instruct")  # in the catalog by its Hub id
    assert not needs_download("llama 3 8b")
    assert not needs_download("./config.json")
