"""`llm-sizer fit QUESTION`: the inverse questions (the largest context, the most users, the best
precision, the largest model, the smallest GPU, how many GPUs, the cheapest cloud instance)."""

from __future__ import annotations

import argparse
import json
import sys

from estimator.errors import EstimatorError

from .. import questions
from ..i18n import language
from ..render import errors, estimate_json, estimate_text
from .estimate import build

PLACEHOLDER_MODEL = "7B"  # `fit model` searches the catalog; the flag's model is not used


def run(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    try:
        if args.question == "model" and not args.model:
            args.model = PLACEHOLDER_MODEL
        workload, machine, _ = build(args)
        laptops = bool(machine and machine.gpu and machine.gpu.laptop)
        answer = questions.answer(args.question, workload, machine, laptops=laptops)
    except EstimatorError as exc:
        print(f"error: {errors.message(exc, lang)}", file=sys.stderr)
        return 2
    text = questions.sentence(args.question, answer, lang)
    if args.json:
        body = {
            "question": args.question,
            "answer": questions.plain_value(answer),
            "answer_text": text,
            **questions.fields(answer),
            "estimate": None
            if answer.estimate is None
            else json.loads(estimate_json.answer(answer.estimate, lang).model_dump_json()),
        }
        print(json.dumps(body, indent=2, ensure_ascii=False))
    else:
        print(text)
        if answer.estimate is not None:
            print()
            print(estimate_text.render(answer.estimate, lang))
    return 0 if answer.value is not None else 1
