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

    unread: list[str] = []
    gpus: list[GpuReading] = []
    found_apple = None
    if platform.system() == "Darwin":
        found_apple = apple.read()
    else:
        readings, reason = nvidia.read()
        gpus += readings
        if reason is not None:
            unread.append(reason)
        gpus += rocm.read()
    return Detected(
        gpus=tuple(gpus),
        apple=found_apple,
        host=host.read(found_apple),
        unread=tuple(unread),
    )


__all__ = ["AppleReading", "Detected", "GpuReading", "HostReading", "detect"]
