"""The four tools' work, on the command line's own code paths: `estimate` and `plan` through
`llm-sizer estimate`'s, `fit` through `llm-sizer fit`'s, `ask` through the conversation as
`llm-sizer ask` has it. Bad input is a ToolError with the command line's one-line reason."""

from __future__ import annotations

import argparse
import getpass
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from estimator.errors import EstimatorError
from estimator.vocabulary import Verdict

from .. import sizing
from ..i18n import language, t
from ..render import errors
from ..schemas import AnswerOut, FitOut, PlanOut, RecommendationOut
from .requests import AskRequest, EstimateRequest, FitRequest, namespace

if TYPE_CHECKING:
    from storage import Storage

R = TypeVar("R")


class PlansOut(BaseModel):
    """The `plan` tool's answer: the verdict as asked, the planner's ranked plans (best first;
    the `--json` contract's `plans`), and the rules' recommendations."""

    verdict: Verdict
    plans: list[PlanOut]
    recommendations: list[RecommendationOut]


def estimate(request: EstimateRequest) -> AnswerOut:
    from ..commands.estimate import answer

    lang = language(request.lang)
    return sizing.as_json(_refused_as_tool_error(answer, namespace(request), lang), lang)


def plan(request: EstimateRequest) -> PlansOut:
    body = estimate(request)
    return PlansOut(
        verdict=body.verdict,
        plans=body.plans,
        recommendations=body.recommendations,
    )


def fit(request: FitRequest) -> FitOut:
    from ..commands.fit import answer

    lang = language(request.lang)
    _, body = _refused_as_tool_error(answer, namespace(request, "fit"), lang)
    return body


class Asker:
    """`ask` over the local user's storage, opened on the first question (the other tools need
    none): their saved profile answers for the hardware, and follow-ups build on this server's
    previous question, in a chat of its own beside the terminal's."""

    def __init__(self) -> None:
        self._storage: Storage | None = None

    async def ask(self, request: AskRequest) -> dict[str, Any]:
        from storage import StorageError

        from ..conversation.service import Conversation, Incoming
        from ..render.errors import storage_message

        lang = language(request.language)
        try:
            user = getpass.getuser()
        except (KeyError, OSError) as exc:
            raise ToolError(t("error.os_user_unknown", lang, reason=type(exc).__name__)) from None
        message = Incoming(
            platform="local",
            chat_id=f"mcp:{user}",
            chat_type="terminal",
            user_id=user,
            text=request.question,
            language=request.language,
        )
        try:
            reply = await Conversation(await self._open(), local_files=True).handle(message)
        except StorageError as exc:
            raise ToolError(storage_message(exc, lang)) from None
        if reply.status == "error":
            raise ToolError(reply.text)
        return reply.as_json()

    async def _open(self) -> Storage:
        from storage import Storage

        if self._storage is None:
            self._storage = await Storage.open()
        return self._storage

    async def close(self) -> None:
        if self._storage is not None:
            await self._storage.close()
            self._storage = None


def _refused_as_tool_error(
    work: Callable[[argparse.Namespace], R], args: argparse.Namespace, lang: str
) -> R:
    try:
        return work(args)
    except EstimatorError as exc:
        raise ToolError(errors.message(exc, lang)) from None
