"""`llm-sizer completion bash|zsh|fish`: a completion script for the shell, written from the
command line's own parser, so that every command, action, flag and known value is offered.

    source <(llm-sizer completion bash)                 # in ~/.bashrc
    source <(llm-sizer completion zsh)                  # in ~/.zshrc, after compinit
    llm-sizer completion fish > ~/.config/fish/completions/llm-sizer.fish
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from estimator.vocabulary import METHODS, TASKS

from ..i18n import LANGUAGES

SHELLS = ("bash", "zsh", "fish")
PROG = "llm-sizer"
FUNCTION = "_llm_sizer"
# Values of flags that argparse takes as free text but that have a fixed set.
VALUES: dict[str, tuple[str, ...]] = {
    "lang": LANGUAGES,
    "task": TASKS,
    "method": METHODS,
    "lora_targets": ("all", "attention"),
    "adapter_precision": ("fp32", "bf16"),
}


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser("completion", help="print a shell completion script")
    p.add_argument("shell", choices=SHELLS, help="bash, zsh or fish")
    p.set_defaults(func=run)


@dataclass
class Option:
    flags: list[str]
    help: str
    takes_value: bool
    values: tuple[str, ...]


@dataclass
class Node:
    """A command (the program, `profile`, `profile set`): its flags, its first positional's
    choices and its subcommands."""

    help: str = ""
    options: list[Option] = field(default_factory=list)
    choices: tuple[str, ...] = ()
    commands: dict[str, Node] = field(default_factory=dict)


def tree(parser: argparse.ArgumentParser, help_text: str = "") -> Node:
    node = Node(help=help_text)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                node.commands[name] = tree(sub, helps.get(name, ""))
        elif action.option_strings:
            values = tuple(action.choices) if action.choices else VALUES.get(action.dest, ())
            node.options.append(
                Option(list(action.option_strings), action.help or "", action.nargs != 0, values)
            )
        elif action.choices and not node.choices:
            node.choices = tuple(action.choices)
    return node


def _paths(node: Node, path: str = "") -> list[tuple[str, Node]]:
    found = [(path, node)]
    for name, sub in node.commands.items():
        found += _paths(sub, f"{path}/{name}" if path else name)
    return found


def bash(root: Node) -> str:
    paths = _paths(root)
    descend = "|".join(
        f"{path.rpartition('/')[0]}/{path.rpartition('/')[2]}" for path, _ in paths if path
    )
    value_cases = []
    for flag, values in sorted(
        {f: o.values for _, n in paths for o in n.options if o.takes_value for f in o.flags}.items()
    ):
        reply = f'COMPREPLY=($(compgen -W "{" ".join(values)}" -- "$cur"))' if values else ""
        value_cases.append(f"        {flag}) {reply}{'; ' if reply else ''}return ;;")
    node_cases = []
    for path, node in paths:
        words = [*node.commands, *node.choices, *(f for o in node.options for f in o.flags)]
        node_cases.append(f'        "{path}") words="{" ".join(words)}" ;;')
    return "\n".join(
        [
            f"# {PROG} completion for bash: source <({PROG} completion bash)",
            f"{FUNCTION}() {{",
            '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
            '    local node="" word words=""',
            '    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do',
            '        case "$node/$word" in',
            f'            {descend}) node="${{node:+$node/}}$word" ;;',
            "        esac",
            "    done",
            '    case "$prev" in',
            *value_cases,
            "    esac",
            '    case "$node" in',
            *node_cases,
            "    esac",
            '    COMPREPLY=($(compgen -W "$words" -- "$cur"))',
            "}",
            f"complete -o default -F {FUNCTION} {PROG}",
            "",
        ]
    )


def zsh(root: Node) -> str:
    """zsh runs the bash function through its bashcompinit."""
    return "\n".join(
        [
            f"#compdef {PROG}",
            f"# {PROG} completion for zsh: source <({PROG} completion zsh), after compinit",
            "autoload -U +X bashcompinit && bashcompinit",
            bash(root),
        ]
    )


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish(root: Node) -> str:
    out = [
        f"# {PROG} completion for fish: {PROG} completion fish | source",
        f"complete -c {PROG} -f",
    ]
    for path, node in _paths(root):
        names = path.split("/") if path else []
        if names:
            seen = " ".join(names)
            condition = " ; and ".join(f"__fish_seen_subcommand_from {n}" for n in names)
        else:
            seen, condition = "", "__fish_use_subcommand"
        if node.commands:
            subs = " ".join(node.commands)
            here = (
                f"{condition} ; and not __fish_seen_subcommand_from {subs}" if seen else condition
            )
            for name, sub in node.commands.items():
                out.append(f"complete -c {PROG} -n {_quote(here)} -a {name} -d {_quote(sub.help)}")
        if node.choices:
            out.append(
                f"complete -c {PROG} -n {_quote(condition)} -a {_quote(' '.join(node.choices))}"
            )
        if not names:
            continue
        for option in node.options:
            spec = " ".join(
                f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}"
                for flag in option.flags
            )
            value = ""
            if option.takes_value:
                value = f" -x -a {_quote(' '.join(option.values))}" if option.values else " -r -F"
            out.append(
                f"complete -c {PROG} -n {_quote(condition)} {spec}{value} -d {_quote(option.help)}"
            )
    return "\n".join([*out, ""])


def script(shell: str) -> str:
    from ..cli import parser

    root = tree(parser())
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](root)


def run(args: argparse.Namespace) -> int:
    print(script(args.shell), end="")
    return 0
