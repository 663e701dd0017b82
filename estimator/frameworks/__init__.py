"""Training frameworks as profiles, one module each, behind one small protocol (profile.py):
a framework turns a workload's settings into a Recipe the training memory plan reads.

FRAMEWORKS is the registry the planner iterates; ALIASES maps the names people use.
"""

from __future__ import annotations

from . import axolotl, deepspeed, fsdp, llama_factory, torchtune, transformers, unsloth
from .profile import Framework

FRAMEWORKS: dict[str, Framework] = {
    fw.name: fw
    for fw in (
        transformers.FRAMEWORK,
        unsloth.FRAMEWORK,
        torchtune.FRAMEWORK,
        axolotl.FRAMEWORK,
        llama_factory.FRAMEWORK,
        deepspeed.FRAMEWORK,
        fsdp.FRAMEWORK,
    )
}
ALIASES: dict[str, str] = {alias: fw.name for fw in FRAMEWORKS.values() for alias in fw.aliases}

__all__ = ["ALIASES", "FRAMEWORKS", "Framework"]
