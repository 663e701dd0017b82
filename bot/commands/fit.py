"""`llm-sizer fit QUESTION`: the inverse questions (the largest context, the most users, the best
precision, the largest model, the smallest GPU, how many GPUs, the cheapest cloud instance)."""

from __future__ import annotations

import argparse
import sys

from estimator import inverse
from estimator.errors import EstimatorError

from .. import searches
from ..i18n import language
from ..render import errors, estimate_json, estimate_text
from ..schemas import FitOut
from . import output
from .estimate import build, tokens_of

PLACEHOLDER_MODEL = "7B"  # `fit model` searches the catalog; the flag's model is not used
# The exit code of an inverse question answered "nothing fits", in `fit` and `ask` alike: an
# answer (not bad input, 2) that a script can still tell apart from one that found a value.
NOTHING_FITS = 1


def answer(args: argparse.Namespace) -> tuple[inverse.Answer, FitOut]:
    """The inverse question the flags ask, answered, and its `--json` contract (`fit` and the
    MCP server's `fit` tool)."""
    lang = language(args.lang)
    if args.question == "model" and not args.model:
        args.model = PLACEHOLDER_MODEL
    workload, machine, _ = build(args)
    laptops = bool(machine and machine.gpu and machine.gpu.laptop)
    found = searches.search(
        args.question, workload, machine, laptops=laptops, tokens=tokens_of(args)
    )
    body = FitOut(
        question=args.question,
        answer=searches.plain_value(found),
        answer_text=searches.sentence(args.question, found, lang),
        **searches.fields(found),
        estimate=None if found.estimate is None else estimate_json.answer(found.estimate, lang),
    )
    return found, body


def run(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    try:
        found, body = answer(args)
    except EstimatorError as exc:
        print(f"error: {errors.message(exc, lang)}", file=sys.stderr)
        return 2
    match output.chosen(args):
        case "json":
            print(body.model_dump_json(indent=2))
        case "markdown":
            from ..conversation.answer import Outcome
            from ..conversation.compose import answered
            from ..conversation.slots import Draft
            from ..render import markdown

            outcome = Outcome(Draft(), question=args.question, inverse=found)
            print(markdown.render(answered(outcome, [], lang), found.estimate), end="")
        case _:
            print(body.answer_text)
            if found.estimate is not None:
                print()
                print(estimate_text.render(found.estimate, lang))
    return 0 if found.value is not None else NOTHING_FITS
