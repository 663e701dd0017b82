"""A team's machines against one question: which run it, in what order, and the lines shown."""

from bot.conversation.answer import machine, workload
from bot.conversation.slots import Draft
from bot.conversation.team import TeamMachine, Verdict, lines, verdicts
from estimator.estimate import estimate

LAB = TeamMachine("lab", "2 × A100 80GB SXM4", Draft(gpu="A100 80GB SXM4", gpus=2))
DESK = TeamMachine("desk", "GeForce RTX 3060 12GB", Draft(gpu="GeForce RTX 3060 12GB"))
ODD = TeamMachine("odd", "a GPU nobody knows", Draft(gpu="Quantum Flux 9000"))


def test_the_question_runs_on_each_machine_and_fitting_ones_come_first():
    # Qwen2.5-14B in bf16 is about 28 GiB of weights: one 80 GB A100 holds it, a 12 GB 3060
    # does not; the laptop's own hardware in the question is replaced by each machine's.
    question = Draft(model="Qwen2.5-14B", task="inference", gpu="GeForce RTX 4090")
    found = verdicts(question, [DESK, LAB])
    assert [v.machine.name for v in found] == ["lab", "desk"]
    assert found[0].verdict == "fits" and found[1].verdict == "does_not_fit"
    on_lab = Draft(model="Qwen2.5-14B", task="inference", gpu="A100 80GB SXM4", gpus=2)
    expected = estimate(workload(on_lab)[0], machine(on_lab))
    assert found[0].per_device_bytes == max(d.components.total for d in expected.devices)


def test_a_machine_the_estimator_cannot_read_is_unknown_not_an_error():
    found = verdicts(Draft(model="Qwen2.5-7B", task="inference"), [ODD, LAB])
    assert [(v.machine.name, v.verdict) for v in found] == [("lab", "fits"), ("odd", "unknown")]
    assert found[1].per_device_bytes is None


def test_lines_mark_each_machine_in_the_users_language():
    found = [Verdict(LAB, "fits", 30 * 2**30), Verdict(ODD, "unknown", None)]
    en = lines(found, "en")
    assert en[0] == "On the team's hardware:"
    assert en[1].startswith("  ✓ lab (2 × A100 80GB SXM4): fits, 30") and "GiB" in en[1]
    assert en[2].startswith("  ✗ odd (a GPU nobody knows):")
    nl = lines(found, "nl")
    assert nl[0] != en[0] and nl[1].startswith("  ✓ lab")


def test_no_machines_says_how_to_add_them():
    assert "/teamhw" in lines([], "en")[0]
    assert "/teamhw" in lines([], "nl")[0]
