"""Training frameworks as profiles, one module each, behind one small protocol (profile.py):
a framework turns a workload's settings into a Recipe the training memory plan reads.

FRAMEWORKS is the registry the planner iterates; ALIASES maps the names people use.
"""

from __future__ import annotations

from ..vocabulary import Method
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


def default_method(engine: str | None) -> Method:
    """The method a training question that names none gets on `engine`: the framework's own
    default when it has one, else full fine-tuning."""
    framework = FRAMEWORKS.get(ALIASES.get(engine or "", engine or ""))
    if framework is None or framework.default_method is None:
        return "full"
    return framework.default_method


__all__ = ["ALIASES", "FRAMEWORKS", "Framework", "default_method"]
