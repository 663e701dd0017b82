"""One friendly line for an estimator error, in the user's language. It never raises: an error
whose parameters do not fill its message still gets a line."""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Any

from estimator.errors import EstimatorError

from ..i18n import catalog, has, t
from . import numbers

if TYPE_CHECKING:
    from storage.errors import StorageError

_LISTS = ("suggestions", "known", "options", "missing")
_COUNTS = ("params",)
_MAX_VALUE = 80


class _Filled(dict):
    """Format parameters where a name the message has but the error lacks stays empty."""

    def __missing__(self, name: str) -> str:
        return ""


def _shown(name: str, value: Any, lang: str) -> str:
    if name in _COUNTS and isinstance(value, int | float) and not isinstance(value, bool):
        return numbers.count(value, lang)
    if isinstance(value, int) and not isinstance(value, bool):
        # str() of a 5,000-digit integer raises (Python's int_max_str_digits).
        return "> 10^30" if abs(value) >= 10**30 else str(value)
    # A lone surrogate (bytes of argv that are not UTF-8, as Python decodes them) cannot be
    # printed: shown as "?" so that the line about it can.
    return str(value)[:_MAX_VALUE].encode("utf-8", "replace").decode("utf-8")


def message(error: EstimatorError | StorageError, lang: str) -> str:
    """The error's one line in the reader's language; never raises (a value it cannot show,
    a NaN or a 5,000-digit integer, gives the error's code instead of a second error)."""
    try:
        return _message(error, lang)
    except Exception:
        return f"{t('error.prefix', lang)}: {error.code}"


def _message(error: EstimatorError | StorageError, lang: str) -> str:
    params: dict[str, Any] = dict(error.params)
    key = f"error.{error.code}"
    for name in _LISTS:
        if name in params:
            values = [str(v)[:60] for v in params[name] or ()]
            if name == "suggestions" and not values:
                key += "_no_suggestion"
            params[name] = ", ".join(values)
    if not has(key, lang):
        return f"{t('error.prefix', lang)}: {error.code}"
    filled = _Filled({name: _shown(name, value, lang) for name, value in params.items()})
    return string.Formatter().vformat(catalog(lang)[key], (), filled)


def storage_message(error: StorageError, lang: str) -> str:
    """One line for a StorageError in the user's language."""
    key = f"error.{error.code}"
    if not has(key, lang):
        return error.code
    params: dict[str, Any] = {
        name: ", ".join(str(v) for v in value) if isinstance(value, list | tuple) else value
        for name, value in error.params.items()
    }
    return t(key, lang, **params)
