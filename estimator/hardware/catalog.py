"""The hardware catalogs as the rest of the program uses them: the entries, finding them by the
names people use, and the machine a question or a command line describes."""

from __future__ import annotations

from .data import apple_chips, cloud_instances, cpu_models, cpu_platforms, gpus
from .lookup import apple_config, cpu_named, find_apple, find_cpu, find_gpu, suggest_gpu
from .machines import machine, machine_of

__all__ = [
    "apple_chips",
    "apple_config",
    "cloud_instances",
    "cpu_models",
    "cpu_named",
    "cpu_platforms",
    "find_apple",
    "find_cpu",
    "find_gpu",
    "gpus",
    "machine",
    "machine_of",
    "suggest_gpu",
]
