"""The README against the program: every `llm-sizer` command line it shows parses (the command,
its action, its flags), each sample output begins as the program's does today, and it says
where the commands are."""

from __future__ import annotations

import argparse
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main, parser

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


class Refused(Exception):
    pass


PLACEHOLDER = re.compile(r"(?:^|\s)(?:[A-Z][A-Z_]*|\.\.\.)(?=\s|\]|$)")


def command_lines() -> list[str]:
    """Each `llm-sizer ...` example in a code block or in backticks, up to a comment or the
    line's end; synopses (with placeholders such as NAME or ...) are not examples."""
    found = []
    for block in re.findall(r"```[^\n]*\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("llm-sizer "):
                found.append(line.split("  #")[0].split(" # ")[0])
    for inline in re.findall(r"`(llm-sizer [^`]+)`", README):
        found.append(inline)
    return [line for line in found if not PLACEHOLDER.search(line.split(" ", 1)[1])]


def parses(line: str) -> None:
    words = shlex.split(line.replace("|", " "))[1:]
    p = parser()

    def refuse(message: str) -> None:
        raise Refused(message)

    for sub in [p, *_subparsers(p)]:
        sub.error = refuse  # type: ignore[method-assign]
    # Alternatives in brackets ("[--name NAME] [--default]") and choice lists are read as given.
    words = [w.strip("[]") for w in words if w.strip("[]")]
    try:
        p.parse_known_args(words)
    except SystemExit:  # --help and --version end the parse
        return
    unknown = [w for w in p.parse_known_args(words)[1] if w.startswith("--")]
    assert not unknown, f"{line}: unknown flags {unknown}"


def _subparsers(p: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield child
                yield from _subparsers(child)


LINES = command_lines()


def test_the_readme_shows_commands() -> None:
    commands = {line.split()[1] for line in LINES}
    assert commands >= {"ask", "chat", "estimate", "fit", "profile", "detect", "mcp", "completion"}


@pytest.mark.parametrize("line", LINES)
def test_each_command_line_parses(line: str) -> None:
    try:
        parses(line)
    except Refused as exc:
        # A fragment that leaves out a required flag (`llm-sizer estimate --json`) is fine; a
        # wrong command, action, choice or value is not.
        assert "required" in str(exc), f"{line}: {exc}"


def test_it_says_where_the_commands_are_and_cites_no_missing_file() -> None:
    assert "source .venv/bin/activate" in README and ".venv/bin/llm-sizer" in README
    assert "DESIGN.md" not in README
    assert "LLM_SIZER_TEST_POSTGRES_URL" in README
    assert "C compiler" in README and "docker compose" in README


def samples() -> list[tuple[str, list[str]]]:
    """Each `$ llm-sizer ...` line in a code block with the output shown under it (up to the
    next `$` line or the block's end), as (command, output lines)."""
    found = []
    for block in re.findall(r"```[^\n]*\n(.*?)```", README, flags=re.S):
        command: str | None = None
        shown: list[str] = []
        for line in [*block.splitlines(), "$"]:
            if line.startswith("$"):
                if command is not None and shown:
                    found.append((command, shown))
                command = line.removeprefix("$ ").split("  #")[0] if "llm-sizer " in line else None
                shown = []
            elif command is not None:
                shown.append(line)
    return found


# What `detect` prints is this machine's hardware, which is not the README's.
SAMPLES = [(c, s) for c, s in samples() if not c.startswith("llm-sizer detect")]


def test_the_readme_shows_samples() -> None:
    assert any(c.startswith("llm-sizer ask ") for c, _ in SAMPLES), SAMPLES


@pytest.mark.parametrize(("command", "shown"), SAMPLES, ids=[c for c, _ in SAMPLES])
def test_each_sample_begins_as_the_program_answers_today(
    command: str,
    shown: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The first two lines (the headline and the verdict): a sample that has gone stale shows
    there first."""
    # A reader who has just installed: no saved profile, English, nothing from the Hub.
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'readme.db'}")
    monkeypatch.setenv("LOGNAME", "reader")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("LLM_SIZER_LANG", raising=False)
    main(shlex.split(command)[1:])
    live = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert [line for line in shown if line.strip()][:2] == live[:2]
