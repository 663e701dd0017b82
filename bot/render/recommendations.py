"""Recommendations as sentences: a title and a detail with the numbers, and the commands to
paste for the launch hints."""

from __future__ import annotations

from typing import Any

from estimator import engines
from estimator.memory.constants import DISPLAY_SHARE_BYTES
from estimator.planner.training import trainer_config
from estimator.result import Estimate
from rules import Recommendation
from rules.ruleset import EU_CIRCUIT_W, POWER_CIRCUIT_W

from ..i18n import t
from . import numbers, plans


def _params(rec: Recommendation, lang: str) -> dict[str, Any]:
    p = rec.params
    out: dict[str, Any] = {
        k: v for k, v in p.items() if isinstance(v, str | int) and not isinstance(v, bool)
    }
    out.update(
        memory=numbers.size(rec.memory_bytes or 0, lang),
        alt_verdict=t(f"verdict.{rec.verdict}", lang) if rec.verdict else "",
        per_device=numbers.size(p.get("per_device_bytes", 0), lang),
        usable=numbers.size(p.get("usable_bytes", 0), lang),
        ram=numbers.size(p.get("ram_bytes", 0), lang),
        saved=numbers.size(p.get("fused_loss_saved_bytes", 0), lang),
        data=numbers.size(p.get("data_bytes", 0), lang),
        params=numbers.count(p.get("params_m", 0) * 1e6, lang),
        rows=numbers.integer(p.get("rows", 0), lang),
        features=numbers.integer(p.get("features", 0), lang),
        context=numbers.integer(p.get("context", 0), lang),
        cpu_tps=numbers.span(p.get("cpu_tps_low", 0), p.get("cpu_tps_high", 0), lang),
        cpu_hours=numbers.span(p.get("cpu_hours_low", 0), p.get("cpu_hours_high", 0), lang),
        gpu_hours=numbers.span(p.get("gpu_hours_low", 0), p.get("gpu_hours_high", 0), lang),
        usd_per_hour=numbers.usd(p.get("usd_per_hour", 0), lang),
        purchase=f"{numbers.integer(p.get('purchase_usd', 0), lang)} USD",
        cloud_price=numbers.usd(p.get("cloud_usd_per_hour", 0), lang),
        break_even_hours=numbers.integer(p.get("break_even_hours", 0), lang),
        # Cents would round a card's 0.072 USD an hour to 0.07: as in the cost lines, three digits.
        power_per_hour=numbers.significant(p.get("power_usd_per_hour", 0), lang),
        kwh_price=numbers.usd(p.get("kwh_price", 0), lang),
        # macOS's sysctl takes decimal megabytes.
        apple_limit_mb=round(p.get("apple_limit_bytes", 0) / 1e6),
        gpu_watts=numbers.integer(p.get("gpu_watts", 0), lang),
        display=numbers.size(DISPLAY_SHARE_BYTES, lang),
        us_circuit_w=numbers.integer(POWER_CIRCUIT_W, lang),
        eu_circuit_w=numbers.integer(EU_CIRCUIT_W, lang),
    )
    return out


def command(rec: Recommendation, est: Estimate) -> str:
    """What to paste to run what was estimated (launch hints only)."""
    i = est.inputs
    if rec.rule == "launch":
        return engines.command(est)
    # Turing and Volta cards have no bfloat16: the snippet must not ask for it there.
    half = "bfloat16" if rec.params.get("gpu_bf16", 1) else "float16"
    quant = (
        'BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True, '
        f"bnb_4bit_compute_dtype=torch.{half}); "
        if i.method == "qlora"
        else ""
    )
    targets = (
        '"all-linear"' if i.lora_targets == "all" else '["q_proj", "k_proj", "v_proj", "o_proj"]'
    )
    args = (
        f"per_device_train_batch_size={i.batch}, gradient_checkpointing="
        f"{bool(i.grad_checkpointing)}, {'bf16' if half == 'bfloat16' else 'fp16'}=True"
        f"{', use_liger_kernel=True' if i.liger else ''}"
    )
    return (
        f"{quant}LoraConfig(r={i.lora_rank}, lora_alpha={2 * (i.lora_rank or 8)}, target_modules={targets}); "
        f"{trainer_config(i, args)}"
    )


def _detail_key(rec: Recommendation, lang: str) -> str:
    """The detail's catalog key: a Dutch reader's 16 A, 230 V group holds what outgrows a US
    120 V circuit up to its own 3,680 W, which the rule cannot know."""
    if rec.rule == "power_and_cooling" and lang == "nl":
        within = rec.params.get("gpu_watts", 0) <= EU_CIRCUIT_W
        return (
            "rule.power_and_cooling.detail_eu_within"
            if within
            else "rule.power_and_cooling.detail_eu"
        )
    return f"rule.{rec.rule}.detail"


def texts(rec: Recommendation, est: Estimate | None, lang: str) -> tuple[str, str]:
    """(title, detail) of a recommendation."""
    params = _params(rec, lang)
    if rec.group == "launch" and est is not None:
        params["command"] = command(rec, est)
    if rec.plan is not None:
        params["plan"] = plans.summary(rec.plan, lang)
    return t(f"rule.{rec.rule}.title", lang, **params), t(_detail_key(rec, lang), lang, **params)
