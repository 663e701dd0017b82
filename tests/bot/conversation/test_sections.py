"""The verdict of a sized workload: the plan that runs leads where the question named no format."""

from bot.conversation.answer import answer
from bot.conversation.sections import verdict
from bot.conversation.slots import Draft


def _lead(outcome):
    recs = outcome.workload.advice.recommendations
    return next((r.plan for r in recs if r.rule == "plan_yours" and r.plan), None)


def test_the_plan_that_runs_leads_and_the_assumed_format_follows():
    # Qwen3-32B in BF16 needs about 63 GiB; on a 4090 a 4-5 bit GGUF fits.
    d = Draft(model="Qwen3-32B", task="inference", gpu="GeForce RTX 4090")
    outcome = answer(d)
    est = outcome.workload.estimate
    items = verdict(est, "en", d, _lead(outcome))
    assert items[0].primary and items[0].text.startswith("Verdict: fits")
    assert "on llama.cpp" in items[0].text or "on vLLM" in items[0].text
    assert items[1].text.startswith("As released, in BF16 on transformers")
    assert "does not fit" in items[1].text


def test_a_named_format_keeps_its_own_verdict():
    d = Draft(model="Qwen3-32B", task="inference", gpu="GeForce RTX 4090", precision="bf16")
    outcome = answer(d)
    items = verdict(outcome.workload.estimate, "en", d, _lead(outcome))
    assert len(items) == 1 and items[0].text.startswith("Verdict: does not fit")


def test_a_plan_below_4_bits_does_not_lead_the_verdict():
    # Llama-3.1-70B on one 24 GB card fits only in 2-3 bits (EXL2 2.5 bpw, about 22 GiB).
    d = Draft(model="Llama-3.1-70B", task="inference", gpu="GeForce RTX 4090")
    outcome = answer(d)
    lead = _lead(outcome)
    assert lead is not None and lead.low_bits
    items = verdict(outcome.workload.estimate, "en", d, lead)
    assert len(items) == 1 and "does not fit" in items[0].text


def test_a_plan_partly_in_ram_that_reads_along_leads_one_that_crawls():
    # Qwen3-14B on an 8 GB laptop GPU: BF16 (27.5 GiB of weights) leaves 22 GiB to RAM and
    # decodes about 1 token/s; Q4_K_M keeps 31 of 40 layers on the GPU and reads along.
    d = Draft(model="Qwen3-14B", task="inference", gpu="RTX 4070 Laptop", ram_gb=32)
    outcome = answer(d)
    est, lead = outcome.workload.estimate, _lead(outcome)
    assert est.verdict == "offload" and lead.verdict == "offload" and not lead.slow_offload
    items = verdict(est, "en", d, lead)
    assert items[0].text.startswith("Verdict: fits only with part of it in CPU RAM, in GGUF")
    assert items[1].text.startswith("As released, in BF16 on transformers")


def test_a_plan_partly_in_ram_leads_where_the_assumed_format_does_not_run():
    # Llama 4 Scout (109B, 202 GiB in BF16) on an RTX 5090: Q4_K_M with experts in RAM.
    d = Draft(model="Llama-4-Scout-17B-16E", task="inference", gpu="GeForce RTX 5090")
    outcome = answer(d)
    est, lead = outcome.workload.estimate, _lead(outcome)
    assert est.verdict == "does_not_fit" and lead.verdict == "offload"
    items = verdict(est, "en", d, lead)
    assert items[0].text.startswith("Verdict: fits only with part of it in CPU RAM, in GGUF")
