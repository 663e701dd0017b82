"""Saved hardware: a profile as the slots a message would fill, which saved profile a question
names ("on my mac"), and a machine a message describes saved as a profile."""

from __future__ import annotations

from pydantic import ValidationError

from estimator.errors import EstimatorError
from estimator.hardware.catalog import cpu_named, find_gpu
from storage import Storage, StorageError
from storage.schemas import HardwareSpec, Profile

from ..i18n import Language, t
from ..lexicon import pattern
from ..profile_text import describe
from ..render import errors
from .reading import Reading
from .reply import Reply
from .slots import Draft


def profile_draft(spec: HardwareSpec) -> Draft:
    """A saved hardware profile as the slots a message would fill."""
    apple = (
        f"{spec.apple_chip} {spec.apple_memory_gb}GB"
        if spec.apple_chip and spec.apple_memory_gb
        else None
    )
    has_gpu = bool(spec.gpu or spec.gpu_memory_gb)
    return Draft(
        gpu=_gpu_words(spec),
        gpus=spec.gpu_count if spec.gpu_count > 1 else None,
        gpu_memory_gb=None if spec.gpu else spec.gpu_memory_gb,
        ram_gb=spec.ram_gb,
        apple=apple,
        # A CPU saved as typed ("Ryzen 9 7950X") counts when the catalog knows its platform.
        cpu=spec.cpu if spec.cpu and cpu_named(spec.cpu) is not None else None,
        cpu_only=True if not has_gpu and not apple and spec.ram_gb else None,
    )


def _gpu_words(spec: HardwareSpec) -> str | None:
    """The saved GPU(s) as words the hardware reader reads back; a memory saved with one card
    that differs from its catalog entry ("3090 48GB") goes with the name."""
    if spec.gpu is None or len(spec.cards) != 1 or spec.gpu_memory_gb is None:
        return spec.gpu
    gpu = find_gpu(spec.gpu)
    if gpu is None or abs(gpu.memory_gib - spec.gpu_memory_gb) < 0.5:
        return spec.gpu
    return f"{spec.gpu} {spec.gpu_memory_gb:g}GB"


def find(profiles: list[Profile], named: str) -> Profile | None:
    """The profile a question names: "lab server" finds a profile called "lab server" or
    "lab"; "mac" also finds "my mac"."""
    wanted = named.lower().strip()
    first = wanted.split()[0]
    for candidate in (wanted, first):
        for p in profiles:
            name = p.name.lower()
            if name == candidate or name.removeprefix("my ") == candidate:
                return p
    return None


def generic(named: str) -> bool:
    """Words that name no machine in particular ("my computer", "mijn pc"): the default."""
    return bool(pattern("generic_machine").fullmatch(named.split()[0]))


async def save(
    storage: Storage, user_id: int, reading: Reading, text: str, lang: Language
) -> Reply:
    """ "my computer has an RTX 4090 and 64GB RAM": saved as a profile (the first one
    becomes the default), so later questions without hardware use it."""
    from ..profile_text import parse as read_profile
    from ..render.errors import storage_message

    try:
        # The profile reader (the one `profile set` uses) gives the cards, RAM and CPU.
        found = read_profile(text)
        spec = HardwareSpec.model_validate(found.model_dump(exclude={"label"}))
    except EstimatorError as exc:
        return Reply(status="error", language=lang, text=errors.message(exc, lang))
    except (StorageError, ValidationError):
        return Reply(status="error", language=lang, text=t("act.own_hardware_incomplete", lang))
    if spec.is_empty:
        return Reply(status="error", language=lang, text=t("act.own_hardware_incomplete", lang))
    name = reading.profile_label or found.suggested_name()
    try:
        profile = await storage.profiles.save(user_id, name, spec, text=text[:200])
    except StorageError as exc:
        return Reply(status="error", language=lang, text=storage_message(exc, lang))
    key = "act.own_hardware_default" if profile.is_default else "act.own_hardware_saved"
    return Reply(
        status="info",
        language=lang,
        text=t(key, lang, name=profile.name, hardware=describe(profile.hardware, lang)),
        parsed=reading.draft,
    )
