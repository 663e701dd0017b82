"""What the conversation answers, before any front end formats it: a status, the reply as
sections (what each part is, so every front end can lay it out its own way), the choices to
offer, the data to draw, and for answers the JSON contract of `--json`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, PrivateAttr, model_validator

from estimator.result import Estimate
from estimator.vocabulary import Verdict

from ..i18n import Language
from ..render import numbers
from .slots import Draft

SectionKind = Literal[
    "headline",  # what was understood: model, task, precision, context, hardware
    "verdict",  # fits or not, and the numbers behind it
    "breakdown",  # memory by component
    "plan",  # the plan that works, with its command
    "advice",  # ordered recommendations, each with its rule
    "speed",
    "cost",
    "comparison",  # options side by side
    "inverse",  # the answer of an inverse question ("the largest model that fits is ...")
    "assumptions",
    "refinements",  # follow-ups, each with what it would need
    "choices",  # what a question offers to answer it with
    "team",  # which of a team's machines it fits on
    "text",  # plain sentences: a question to the user, a greeting, an error
    "calculation",  # the whole calculation, a table best shown in monospace
    "hint",  # how to see more; each front end words it its own way
]


class Item(BaseModel):
    text: str
    detail: str | None = None
    command: str | None = None  # something to paste: a launch command or a config
    rule: str | None = None  # the rule behind a piece of advice, shown when asked "why"
    primary: bool = False  # the one to do: the verdict that matters, the recommended step


class Section(BaseModel):
    kind: SectionKind
    items: list[Item] = []
    title: str | None = None


class Choice(BaseModel):
    label: str  # what a button or menu shows
    message: str  # what choosing it sends, as if the user had typed it


@dataclass(frozen=True, slots=True)
class Drawing:
    """What a chart of an answer draws: the estimate and, for inference, memory against context."""

    estimate: Estimate
    curve: list[tuple[int, int]] | None


class Reply(BaseModel):
    status: Literal["answered", "need_more", "error", "reset", "info"]
    language: Language
    sections: list[Section] = []
    text: str = ""  # the reply as plain text (the terminal chat's rendering of the sections)
    missing: list[str] = []
    question_to_user: str | None = None
    choices: list[Choice] = []
    parsed: Draft = Draft()  # the question so far, after merging
    verdict: Verdict | None = None
    total_bytes: int | None = None
    per_device_bytes: int | None = None
    # A comparison: each option with its verdict, memory per device and speed (the JSON list).
    comparison: list[dict[str, Any]] = []
    # The reader's preferences, for front ends that draw (a chart in their units, or none).
    units: Literal["GiB", "GB"] = "GiB"
    charts: bool = True
    _body: Callable[[], dict[str, Any]] | None = PrivateAttr(default=None)
    _drawing: Callable[[], Drawing | None] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _plain_text(self) -> Reply:
        return self._with_text()

    def _with_text(self) -> Reply:
        """This reply with its text rendered from its sections, or one section of its text."""
        if not self.text and self.sections:
            from ..render import plain

            self.text = plain.render(self)
        if not self.sections and self.text:
            self.sections = [Section(kind="text", items=[Item(text=self.text)])]
        return self

    def with_section(self, section: Section, *, first: bool = False) -> Reply:
        """This reply with one more section at the end, or `first` (its text rendered anew)."""
        sections = [section, *self.sections] if first else [*self.sections, section]
        out = self.model_copy(update={"sections": sections, "text": ""})
        out._body, out._drawing = self._body, self._drawing
        return out._with_text()

    def with_body(self, make: Callable[[], dict[str, Any]]) -> Reply:
        """This reply with `make` to build its `--json` contract when it is read: only `ask
        --json` and tests read it, and on every chat answer it cost a tenth of the answer."""
        self._body = make
        return self

    def with_drawing(self, make: Callable[[], Drawing | None]) -> Reply:
        """This reply with `make` to give what its chart draws, computed only when drawn."""
        self._drawing = make
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

    def drawing(self) -> Drawing | None:
        """What a chart of this reply draws; None when it has nothing to draw."""
        return None if self._drawing is None else self._drawing()

    def section(self, kind: SectionKind) -> Section | None:
        return next((s for s in self.sections if s.kind == kind), None)

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
