"""The advice engine: estimator facts in, ordered recommendations out (durable-rules)."""

from .advice import Advice, Recommendation, advise, advise_ml
from .situation import Situation

__all__ = ["Advice", "Recommendation", "Situation", "advise", "advise_ml"]
