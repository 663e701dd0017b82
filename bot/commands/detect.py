"""`llm-sizer detect [--save]`: this machine's GPUs (total and free memory), Apple chip, RAM and
CPU, the hardware profile they make, and with --save that profile as the default."""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import TYPE_CHECKING, Any

from estimator.memory import constants as k
from estimator.vocabulary import GIB

from ..i18n import language, t
from ..render import numbers
from .storage_context import Context, run_with_storage

if TYPE_CHECKING:
    from ..detect.readings import Detected

# A card with less than this share of its memory free is said to be busy: the answers count
# the whole card, which another process then does not leave.
BUSY_SHARE = 0.5


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser("detect", help="this machine's GPUs, memory and CPU, as a profile")
    p.add_argument("--json", action="store_true", help="print what was read as JSON")
    p.add_argument("--save", action="store_true", help="save it as your default profile")
    p.add_argument("--name", help="profile name for --save (default: this machine)")
    p.add_argument("--lang", help="en or nl (default: LLM_SIZER_LANG, else en)")
    p.set_defaults(func=run)


def lines(detected: Detected, lang: str) -> list[str]:
    """What was read, line by line, and the profile it makes."""
    from ..detect.profile import profile
    from ..profile_text import describe

    found = profile(detected)
    out = [t("detect.title", lang)]
    for index, gpu in enumerate(detected.gpus):
        total = numbers.size(gpu.total_bytes, lang)
        if gpu.free_bytes is None:
            out.append(t("detect.gpu_no_free", lang, index=index, name=gpu.name, total=total))
            continue
        free = numbers.size(gpu.free_bytes, lang)
        out.append(t("detect.gpu", lang, index=index, name=gpu.name, total=total, free=free))
        if gpu in found.gpus and gpu.free_bytes < BUSY_SHARE * gpu.total_bytes:
            out.append(t("detect.gpu_busy", lang, index=index, total=total, free=free))
    apple = detected.apple
    if apple is not None:
        memory = numbers.size(apple.memory_bytes, lang)
        out.append(t("detect.apple", lang, chip=apple.chip, memory=memory))
        small = apple.memory_bytes <= k.APPLE_SMALL_LIMIT_GB * GIB
        fraction = numbers.percent(
            k.APPLE_SMALL_FRACTION if small else k.APPLE_LARGE_FRACTION, lang
        )
        if apple.wired_limit_bytes is None:
            out.append(t("detect.apple_limit_default", lang, fraction=fraction))
        else:
            limit = numbers.size(apple.wired_limit_bytes, lang)
            out.append(t("detect.apple_limit_set", lang, limit=limit, fraction=fraction))
    host = detected.host
    if apple is None:
        available = host.ram_available_bytes
        out.append(
            t(
                "detect.ram",
                lang,
                total=numbers.size(host.ram_total_bytes, lang),
                available=numbers.size(available if available is not None else 0, lang),
            )
        )
    cores = host.physical_cores or host.logical_cores
    if cores:
        if host.cpu:
            out.append(t("detect.cpu", lang, cpu=host.cpu, cores=cores))
        else:
            out.append(t("detect.cpu_unknown", lang, cores=cores))
    if found.left_out:
        out.append(t("detect.left_out", lang, gpus=", ".join(g.name for g in found.left_out)))
    if detected.nvidia_unread is not None and not detected.gpus:
        out.append(t("detect.nvidia_unread", lang, reason=detected.nvidia_unread))
    out.append(t("detect.profile", lang, hardware=describe(found.spec, lang)))
    return out


def _json(detected: Detected) -> str:
    from ..detect.profile import profile

    found = profile(detected)
    body = {
        **dataclasses.asdict(detected),
        "profile": found.spec.model_dump(mode="json"),
        "left_out": [dataclasses.asdict(g) for g in found.left_out],
    }
    return json.dumps(body, indent=2, ensure_ascii=False)


async def _save(s: Context) -> int:
    from ..detect import detect
    from ..detect.profile import profile, words
    from ..profile_text import describe

    found = profile(detect())
    name = s.args.name or t("detect.profile_name", s.lang)
    user = await s.storage.users.ensure("local", s.os_user)
    saved = await s.storage.profiles.save(
        user.id, name, found.spec, text=words(found.spec), make_default=True
    )
    print(t("profile.saved", s.lang, name=saved.name, hardware=describe(saved.hardware, s.lang)))
    print(t("profile.now_default", s.lang, name=saved.name))
    return 0


def run(args: argparse.Namespace) -> int:
    from ..detect import detect

    if args.save:
        return run_with_storage(args, _save)
    detected = detect()
    if args.json:
        print(_json(detected))
        return 0
    lang = language(args.lang)
    print("\n".join(lines(detected, lang)))
    print(t("detect.save_hint", lang))
    return 0
