"""What the conversation answers, before any front end formats it: a status, the text, the
choices to offer, and for answers the JSON contract of `--json`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, PrivateAttr

from ..render import numbers
from .slots import Draft


class Choice(BaseModel):
    label: str  # what a button or menu shows
    message: str  # what choosing it sends, as if the user had typed it


class Reply(BaseModel):
    # "info": a conversation act answered (a greeting, help, thanks, out of scope): no estimate.
    status: Literal["answered", "need_more", "error", "reset", "info"]
    language: Literal["en", "nl"]
    text: str  # the reply as plain text lines
    missing: list[str] = []
    question_to_user: str | None = None
    choices: list[Choice] = []
    parsed: Draft = Draft()  # the question so far, after merging
    verdict: str | None = None
    total_bytes: int | None = None
    per_device_bytes: int | None = None
    # A comparison: each option with its verdict, memory per device and speed (the JSON list).
    comparison: list[dict[str, Any]] = []
    # The reader's preferences, for front ends that draw (a chart in their units, or none).
    units: Literal["GiB", "GB"] = "GiB"
    charts: bool = True
    _body: Callable[[], dict[str, Any]] | None = PrivateAttr(default=None)

    def with_body(self, make: Callable[[], dict[str, Any]]) -> Reply:
        """This reply with `make` to build its `--json` contract when it is read: only `ask
        --json` and tests read it, and on every chat answer it cost a tenth of the answer."""
        self._body = make
        return self

    @property
    def body(self) -> dict[str, Any] | None:
        """The `--json` contract of an answer, in the reader's units."""
        if self._body is None:
            return None
        units = numbers.UNITS.set(self.units)
        try:
            return self._body()
        finally:
            numbers.UNITS.reset(units)

    @property
    def about_one_workload(self) -> bool:
        """An answer with one memory breakdown (not a question, an inverse answer or classical
        machine learning): what has a calculation to show, a chart and refinements."""
        return self.status == "answered" and self.per_device_bytes is not None

    def as_json(self) -> dict[str, Any]:
        """`llm-sizer ask --json`: the answer's contract with status, or what is missing."""
        out: dict[str, Any] = {"status": self.status, "language": self.language}
        if self.status == "need_more":
            out.update(missing=self.missing, question_to_user=self.question_to_user)
            out["choices"] = [c.model_dump() for c in self.choices]
        out.update(self.body or {})
        if self.comparison:
            out["comparison"] = self.comparison
        out["status"] = self.status
        out["parsed"] = self.parsed.model_dump(exclude_none=True)
        out["text"] = self.text
        return out
