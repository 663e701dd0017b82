"""What a user can set once and have every answer follow: charts, units, electricity price,
default engine. Stored in the user's settings document; unreadable values fall back to the
defaults rather than breaking the conversation."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..i18n import Language

ENGINES = ("transformers", "vllm", "llama.cpp")
MAX_KWH_PRICE = 100.0


class Preferences(BaseModel):
    model_config = ConfigDict(extra="ignore")

    language: Language | None = None  # chosen with /lang; beats the client's
    charts: bool = True
    units: Literal["GiB", "GB"] = "GiB"
    kwh_price: float | None = Field(default=None, ge=0, le=MAX_KWH_PRICE)
    engine: Literal["transformers", "vllm", "llama.cpp"] | None = None

    @classmethod
    def of(cls, settings: dict[str, Any] | None) -> Preferences:
        try:
            return cls.model_validate(settings or {})
        except ValidationError:
            return cls()
