"""llama.cpp's command for a vision-language model."""

from estimator import engines
from estimator.estimate import estimate
from estimator.hardware.catalog import machine
from estimator.workload import Workload


def test_a_vision_model_loads_its_projector_beside_the_weights(arch):
    w = Workload(
        model=arch("Qwen2.5-VL-7B"), task="inference", engine="llama.cpp", precision="q4_k_m"
    )
    command = engines.command(estimate(w, machine(gpu="RTX 3060")))
    assert "--mmproj mmproj-Qwen2.5-VL-7B-F16.gguf" in command
    text = Workload(
        model=arch("Qwen2.5-7B"), task="inference", engine="llama.cpp", precision="q4_k_m"
    )
    assert "--mmproj" not in engines.command(estimate(text, machine(gpu="RTX 3060")))
