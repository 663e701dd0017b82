"""One friendly line for an estimator error, in the user's language."""

from __future__ import annotations

from estimator.errors import EstimatorError

from ..i18n import has, t


def message(error: EstimatorError, lang: str) -> str:
    params = dict(error.params)
    key = f"error.{error.code}"
    for name in ("suggestions", "known", "options"):
        if name in params:
            values = [str(v) for v in params[name]]
            if name == "suggestions" and not values:
                key += "_no_suggestion"
            params[name] = ", ".join(values)
    if not has(key, lang):
        return f"{t('error.prefix', lang)}: {error.code}"
    return t(key, lang, **params)
