"""The framework registry: every framework builds a recipe for what it trains, names resolve,
and options a framework lacks are refused with a reason."""

import pytest

from estimator.errors import EstimatorError
from estimator.estimate import estimate
from estimator.frameworks import ALIASES, FRAMEWORKS
from estimator.frameworks.profile import Recipe, settings
from estimator.hardware.catalog import machine
from estimator.precision import FORMATS
from estimator.resolve import resolve
from estimator.workload import Workload, validate


def test_the_registry_holds_every_framework():
    assert set(FRAMEWORKS) == {
        "transformers",
        "unsloth",
        "torchtune",
        "axolotl",
        "llama-factory",
        "deepspeed",
        "fsdp",
    }
    for alias, name in ALIASES.items():
        assert name in FRAMEWORKS and alias not in FRAMEWORKS


@pytest.mark.parametrize("name", sorted(FRAMEWORKS))
@pytest.mark.parametrize("gpus", [1, 4])
def test_every_framework_builds_a_recipe_for_its_methods(arch, name, gpus):
    a = arch("qwen2.5 0.5b")
    framework = FRAMEWORKS[name]
    for method in framework.methods:
        w = Workload(model=a, task="training", method=method, engine=name)
        r = resolve(w, machine(gpu="A100 80GB", gpus=gpus))
        recipe = framework.recipe(settings(r.workload, r.weight_format, gpus, 8))
        assert isinstance(recipe, Recipe) and recipe.framework == name
        assert recipe.sharding.devices == gpus


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("trl", "transformers"),
        ("llamafactory", "llama-factory"),
        ("ds", "deepspeed"),
        ("fsdp2", "fsdp"),
    ],
)
def test_aliases(arch, alias, name):
    w = validate(Workload(model=arch("qwen2.5 0.5b"), task="training", engine=alias))
    assert w.engine == name


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"engine": "unsloth", "distributed": "deepspeed"}, "option_not_in_framework"),
        ({"engine": "unsloth", "liger": True}, "option_not_in_framework"),
        ({"engine": "torchtune", "method": "freeze"}, "method_not_in_framework"),
        ({"engine": "transformers", "chunked_loss": True}, "option_not_in_framework"),
        (
            {"engine": "torchtune", "offload": True, "offload_device": "nvme"},
            "nvme_needs_deepspeed",
        ),
        ({"distributed": "megatron"}, "unknown_distributed"),
        ({"objective": "rlhf"}, "unknown_objective"),
        ({"group_size": 8}, "needs_online_objective"),
        ({"objective": "grpo", "context": 512, "generation_length": 512}, "generation_too_long"),
    ],
)
def test_impossible_settings_are_refused(arch, kw, code):
    w = Workload(model=arch("qwen2.5 0.5b"), task="training", **kw)
    with pytest.raises(EstimatorError) as err:
        estimate(w, machine(gpu="A100 80GB"))
    assert err.value.code == code


def test_training_settings_need_training(arch):
    with pytest.raises(EstimatorError) as err:
        validate(Workload(model=arch("qwen2.5 0.5b"), task="inference", liger=True))
    assert err.value.code == "training_option_needs_training"


def test_framework_defaults_follow_their_configs(arch):
    a = arch("llama 3.1 8b")
    one = machine(gpu="RTX 4090")

    def optimizer(engine, method):
        return resolve(
            Workload(model=a, task="training", engine=engine, method=method), one
        ).workload.optimizer

    assert optimizer("unsloth", "qlora") == "adamw_8bit"  # Unsloth notebooks
    assert optimizer("axolotl", "qlora") == "paged_adamw"  # examples/llama-3/qlora.yml
    assert optimizer("torchtune", "full") == "paged_adamw_8bit"  # 8B_full_single_device.yaml
    assert optimizer("transformers", "full") == "adamw"  # adamw_torch_fused
    tt = resolve(Workload(model=a, task="training", engine="torchtune", method="lora"), one)
    assert tt.workload.adapter_precision == "bf16"
    assert (
        FORMATS["nf4"]
        is resolve(
            Workload(model=a, task="training", engine="unsloth", method="qlora"), one
        ).weight_format
    )
