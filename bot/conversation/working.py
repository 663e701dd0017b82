"""The work of an answer, off the event loop: first the Hub models it names are fetched (in the
Hub lookups' own threads, within the asking user's limit), then the answer is computed in the
answer workers within its time budget. An answer that cannot be given becomes one line."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from estimator.errors import EstimatorError
from storage.schemas import User

from ..i18n import Language, t
from ..model_source import HubLimiter
from ..model_source.lookups import HubLookups, shared_lookups
from ..render import errors
from .reply import Reply
from .slots import Draft
from .time_budget import AnswerPool, OverBudget, shared_pool

R = TypeVar("R")


class Work:
    """`await work(user, draft, fn, *args)`: `fn(*args)` in an answer worker (OverBudget past
    its budget), once the Hub models `draft` names are fetched; `user` ("platform:id") is
    whose limit the lookups count against, when there is a `hub_limiter`."""

    def __init__(
        self,
        hub_limiter: HubLimiter | None = None,
        pool: AnswerPool | None = None,
        lookups: HubLookups | None = None,
    ) -> None:
        self.hub_limiter = hub_limiter
        self.pool = pool or shared_pool()
        self.lookups = lookups or shared_lookups()

    async def __call__(self, user: str | None, draft: Draft, fn: Callable[..., R], *args: Any) -> R:
        limiter = self.hub_limiter
        allowed = None if limiter is None or user is None else partial(limiter.allow, user)
        # Its own model and those of the options it compares.
        models = [draft.model, *(option.model for option in draft.compare or ())]
        await self.lookups.fetch(models, allowed)
        return await self.pool.run(fn, *args)


def asker(user: User) -> str:
    """Whose Hub lookups an answer counts against."""
    return f"{user.platform}:{user.external_id}"


def failed(exc: EstimatorError | OverBudget, lang: Language, draft: Draft | None = None) -> Reply:
    """The one line for an answer that could not be given: the estimator's reason, or that it
    took too long."""
    text = (
        t("reply.over_budget", lang) if isinstance(exc, OverBudget) else errors.message(exc, lang)
    )
    return Reply(status="error", language=lang, text=text, parsed=draft or Draft())
