"""Errors storage raises: a code and parameters, never user-facing wording.

Front ends turn `code` into a sentence through their message catalog (key `error.<code>`), the
same way they render the estimator's errors. Parameters never hold a password: URLs are masked
before they get here.
"""

from __future__ import annotations

from typing import Any


class StorageError(Exception):
    """Storage could not do what was asked; `code` names the message, `params` fill it in.

    Not a ValueError on purpose: pydantic validators let it through unchanged, so the boundary
    models can refuse bad input with the same codes the repositories use.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params
