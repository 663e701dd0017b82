"""Errors the estimator raises for bad input: a code and parameters, never user-facing wording.

Front ends turn `code` into a sentence in the user's language through their message catalog.
"""

from __future__ import annotations

from typing import Any


class EstimatorError(ValueError):
    """Bad or unsupported input; `code` names the message, `params` fill it in."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params
