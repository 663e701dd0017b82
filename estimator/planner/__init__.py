"""The planner: the ways a practitioner would run a workload (engine, weight format, KV cache,
how the GPUs are used, what goes to RAM; for training the method, sharding and optimizer),
each estimated, ranked by what they optimise: runs on what the user has, then quality, then
speed, then cost."""

from .search import plans
from .types import ANY, CLOUD, MORE_GPUS, YOURS, Plan, PlanOffload

__all__ = ["ANY", "CLOUD", "MORE_GPUS", "YOURS", "Plan", "PlanOffload", "plans"]
