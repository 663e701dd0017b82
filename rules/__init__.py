"""The advice engine: estimator facts in, ordered recommendations out (durable-rules)."""

from .advice import Advice, Recommendation, advise, advise_ml

__all__ = ["Advice", "Recommendation", "advise", "advise_ml"]
