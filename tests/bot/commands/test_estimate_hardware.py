"""`llm-sizer estimate --gpu` takes any hardware the reader takes: a mixed set, a count in the
words, a bare name whose assumed variant the answer states; conflicting or absurd values exit 2
with the range or the reason."""

import json

from tests.bot.commands.cli import run


def estimate(capsys, *flags: str) -> tuple[int, str, str]:
    return run(capsys, "estimate", "--model", "qwen2.5-7b", "--task", "inference", *flags)


def test_a_mixed_set_on_the_command_line(capsys):
    code, out, _ = estimate(capsys, "--gpu", "RTX 4090 + RTX 3090", "--json")
    inputs = json.loads(out)["inputs"]
    assert code == 0
    assert (inputs["gpu"], inputs["gpu_count"]) == ("GeForce RTX 4090 + GeForce RTX 3090", 2)


def test_a_count_in_the_words(capsys):
    code, out, _ = estimate(capsys, "--gpu", "2x 3090", "--json")
    assert code == 0 and json.loads(out)["inputs"]["gpu_count"] == 2
    code, _, err = estimate(capsys, "--gpu", "2x 3090", "--gpus", "4")
    assert code == 2 and "give one count" in err


def test_a_bare_h100_says_it_is_the_sxm_board(capsys):
    code, out, _ = estimate(capsys, "--gpu", "H100", "--json")
    inputs = json.loads(out)["inputs"]
    assert code == 0 and inputs["gpu"] == "H100 SXM5 80GB"
    assert any("'h100' read as the H100 SXM5 80GB" in a for a in inputs["assumed"])
    _, out, _ = estimate(capsys, "--gpu", "H100", "--lang", "nl", "--json")
    assert any("gelezen als de H100 SXM5 80GB" in a for a in json.loads(out)["inputs"]["assumed"])


def test_absurd_hardware_is_refused_with_the_range(capsys):
    for gpu, reason in (
        ("99999x H100", "gpus must be between 1 and 4096, not 99999"),
        ("-24GB", "not -24"),
        ("rtx 4095", "did you mean GeForce RTX 4090"),
    ):
        code, _, err = estimate(capsys, f"--gpu={gpu}")
        assert code == 2 and reason in err and "Traceback" not in err, (gpu, err)


def test_a_mixed_set_is_named_once_in_the_table(capsys):
    code, out, _ = estimate(capsys, "--gpu", "2x 3090 + 3060")
    assert code == 0 and "Hardware: 2x GeForce RTX 3090 + GeForce RTX 3060 12GB" in out
    assert "3x 2x" not in out
    _, out, _ = estimate(capsys, "--gpu", "3090", "--gpus", "2")
    assert "Hardware: 2x GeForce RTX 3090" in out
