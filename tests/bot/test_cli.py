"""The command line's own texts against the registries they name."""

import argparse

from bot.cli import parser
from estimator.engines import ENGINES
from estimator.frameworks import FRAMEWORKS


def _help(command: str, flag: str) -> str:
    sub = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    return next(a.help for a in sub._actions if flag in a.option_strings)


def test_the_engine_flag_names_every_engine_and_framework():
    text = _help("estimate", "--engine")
    inference, training = text.split("training:")
    assert [n for n in ENGINES if n not in inference] == []
    assert [n for n in FRAMEWORKS if n not in training] == []
