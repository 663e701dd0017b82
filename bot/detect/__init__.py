"""What this machine has, read from the machine itself: NVIDIA GPUs through NVML, AMD GPUs
through ROCm SMI, an Apple chip's unified memory and GPU working-set limit through sysctl, RAM
and CPU through psutil. I/O, so it lives beside the front ends and never in the estimator.

`detect()` reads everything there is; each reader's parsing is separate from its reading, so
that the tests feed them outputs recorded on real machines."""

from __future__ import annotations

from .readings import AppleReading, Detected, GpuReading, HostReading


def detect() -> Detected:
    """This machine, as far as its drivers and operating system tell."""
    import platform

    from . import apple, host, nvidia, rocm

    if platform.system() == "Darwin":
        found_apple = apple.read()
        return Detected(gpus=(), apple=found_apple, host=host.read(found_apple))
    gpus, reason = nvidia.read()
    return Detected(gpus=(*gpus, *rocm.read()), apple=None, host=host.read(), nvidia_unread=reason)


__all__ = ["AppleReading", "Detected", "GpuReading", "HostReading", "detect"]
