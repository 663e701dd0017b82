"""`llm-sizer completion bash|zsh|fish`, each script loaded into the real shell and asked to
complete (the shells that are not installed are skipped, saying so)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import parser

ROOT = Path(__file__).resolve().parents[3]


def shell(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (apt-get install {name})")
    return found


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each shell's script as `python -m bot completion SHELL` prints it."""
    folder = tmp_path_factory.mktemp("completion")
    found = {}
    for name in ("bash", "zsh", "fish"):
        done = subprocess.run(
            [sys.executable, "-m", "bot", "completion", name],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        found[name] = folder / f"llm-sizer.{name}"
        found[name].write_text(done.stdout)
    return found


def bash_complete(path: Path, line: str) -> list[str]:
    """What bash offers for the last word of `line` (an empty last word: after a space)."""
    words = line.split() + ([""] if line.endswith(" ") else [])
    program = (
        f"source {path}; COMP_WORDS=({' '.join(repr(w) for w in words)}); "
        'COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _llm_sizer; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(
        [shell("bash"), "-c", program], capture_output=True, text=True, timeout=30, check=True
    )
    return [w for w in done.stdout.splitlines() if w]


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("llm-sizer est", ["estimate"]),
        ("llm-sizer co", ["completion"]),
        ("llm-sizer estimate --ta", ["--task"]),
        ("llm-sizer estimate --task ", ["inference", "training"]),
        ("llm-sizer fit --method q", ["qlora"]),
        ("llm-sizer fit c", ["context", "concurrency", "cloud"]),
        ("llm-sizer ask --lang ", ["en", "nl"]),
        ("llm-sizer profile s", ["set", "show"]),
        ("llm-sizer profile set --d", ["--default"]),
        ("llm-sizer completion ", ["bash", "zsh", "fish", "-h", "--help"]),
        # A free value (a model name, a path): nothing offered, so bash completes file names.
        ("llm-sizer estimate --model ", []),
    ],
)
def test_bash(scripts: dict[str, Path], line: str, offered: list[str]) -> None:
    assert bash_complete(scripts["bash"], line) == offered


def test_bash_offers_every_command_and_every_flag(scripts: dict[str, Path]) -> None:
    sub = next(a for a in parser()._actions if a.dest == "command")
    assert set(bash_complete(scripts["bash"], "llm-sizer ")) >= set(sub.choices)
    estimate_flags = {f for a in sub.choices["estimate"]._actions for f in a.option_strings}
    assert set(bash_complete(scripts["bash"], "llm-sizer estimate -")) == estimate_flags


def test_fish(scripts: dict[str, Path]) -> None:
    def complete(line: str) -> list[str]:
        done = subprocess.run(
            [shell("fish"), "-c", f"source {scripts['fish']}; complete -C {line!r}"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return [row.split("\t")[0] for row in done.stdout.splitlines()]

    assert complete("llm-sizer est") == ["estimate"]
    assert complete("llm-sizer profile s") == ["set", "show"]
    assert complete("llm-sizer estimate --task ") == ["inference", "training"]
    assert sorted(complete("llm-sizer completion ")) == ["bash", "fish", "zsh"]


def test_zsh_registers_the_completion(scripts: dict[str, Path]) -> None:
    program = f"autoload -U compinit && compinit -u; source {scripts['zsh']}; print -r -- $_comps[llm-sizer]"
    done = subprocess.run(
        [shell("zsh"), "-c", program], capture_output=True, text=True, timeout=30, check=True
    )
    assert "_llm_sizer" in done.stdout


def test_an_unknown_shell_is_one_line(capsys: pytest.CaptureFixture) -> None:
    from bot.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["completion", "powershell"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
