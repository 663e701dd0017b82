"""An Estimate as a readable terminal table: components, per device, verdict, steps, assumptions."""

from __future__ import annotations

from estimator.result import COMPONENTS, Estimate
from rules import Advice

from ..i18n import t
from . import notes, numbers
from .hardware import label as hardware_label
from .recommendations import texts


def render(est: Estimate, lang: str) -> str:
    i = est.inputs
    verdict_text = t(f"verdict.{est.verdict}", lang)
    hardware = hardware_label(i.machine, i.gpu_count) if i.machine else t("table.none", lang)
    # Only training has methods to tell apart (full, LoRA, QLoRA); inference's is always "full".
    task = f"{i.task}/{i.method}" if i.task == "training" else i.task
    lines = [
        f"{t('table.model', lang)}: {i.model} ({numbers.count(i.params, lang)})   "
        f"{t('table.task', lang)}: {task}, {i.engine}, {i.precision}   "
        f"{t('table.hardware', lang)}: {hardware}",
        f"{t('table.verdict', lang)}: {verdict_text.upper() if est.verdict == 'does_not_fit' else verdict_text}",
        "",
    ]
    multi = len(est.devices) > 1
    header = f"{t('table.component', lang):<22}{t('table.total', lang):>12}"
    if multi:
        header += f"{t('table.per_device', lang):>14}"
    lines.append(header)
    lines.append("-" * len(header))
    fullest = max(est.devices, key=lambda d: d.components.total)
    for name in COMPONENTS:
        total = getattr(est.components, name)
        if not total:
            continue
        row = f"{t(f'component.{name}', lang):<22}{numbers.size(total, lang):>12}"
        if multi:
            row += f"{numbers.size(getattr(fullest.components, name), lang):>14}"
        lines.append(row)
    lines.append("-" * len(header))
    row = f"{t('table.total', lang):<22}{numbers.size(est.total_bytes, lang):>12}"
    if multi:
        row += f"{numbers.size(fullest.components.total, lang):>14}"
    lines.append(row)
    if fullest.usable_bytes is not None:
        lines.append(f"{t('table.usable', lang):<22}{numbers.size(fullest.usable_bytes, lang):>12}")
    if fullest.device_total_bytes is not None and i.machine_kind == "gpu":
        shown = numbers.size(fullest.device_total_bytes, lang)
        lines.append(f"{t('table.nvidia_smi', lang):<22}{shown:>12}")
    if est.offload is not None and est.offload.ram_bytes:
        text = t("table.offload", lang, ram_bytes=numbers.size(est.offload.ram_bytes, lang))
        if est.offload.gpu_layers is not None:
            text += t(
                "table.offload_layers",
                lang,
                gpu_layers=est.offload.gpu_layers,
                total_layers=est.offload.total_layers,
            )
        if est.offload.expert_layers:
            text += t("table.offload_experts", lang, layers=est.offload.expert_layers)
        lines.append(text)
    lines += ["", t("table.steps", lang)]
    lines += [f"{n:>2}. {notes.step(s, lang, verdict_text)}" for n, s in enumerate(est.steps, 1)]
    if est.assumptions:
        lines += ["", t("table.assumptions", lang)]
        lines += [f"  - {notes.assumption(a, lang)}" for a in est.assumptions]
    return "\n".join(lines)


def recommendations(advice: Advice, lang: str) -> list[str]:
    """Numbered recommendations; the arrow marks the first rung of a fit ladder that fits. (The
    rule behind each is in the JSON output, for scripts; a reader has no use for its id.)"""
    if not advice.recommendations:
        return []
    lines = ["", t("table.recommendations", lang)]
    for n, rec in enumerate(advice.recommendations, 1):
        title, detail = texts(rec, advice.estimate, lang)
        mark = "→" if rec.primary else " "
        lines.append(f"{mark}{n:>2}. {title}")
        lines.append(f"     {detail}")
    return lines
