"""The usable memory of a GPU names the runtime whose context it leaves out."""

import pytest

from estimator.capacity import gpu_usable
from estimator.hardware.catalog import machine
from estimator.memory import constants as k


@pytest.mark.parametrize(
    ("gpu", "note"),
    [
        ("H100", "cuda_context"),
        ("MI300X", "rocm_context"),
        ("RX 7900 XTX", "rocm_context"),
        ("Arc A770 16GB", "level_zero_context"),
        ("Gaudi 2", "gpu_context"),
    ],
)
def test_the_context_note_names_the_vendors_runtime(gpu, note):
    box = machine(gpu=gpu)
    assert box is not None
    usable, notes = gpu_usable(box, 0, box.device_bytes)
    assert notes[0].key == note and notes[0].params == {"bytes": k.CUDA_CONTEXT_BYTES}
    display = k.DISPLAY_SHARE_BYTES if box.gpu is not None and box.gpu.drives_display else 0
    assert usable == box.device_bytes - k.CUDA_CONTEXT_BYTES - display


def test_a_gpu_of_no_catalog_model_gets_the_plain_gpu_context():
    box = machine(gpu_memory_gb=24)
    assert box is not None and box.gpu is None
    assert gpu_usable(box, 0, box.device_bytes)[1][0].key == "gpu_context"
