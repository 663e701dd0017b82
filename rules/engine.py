"""The one adapter over durable-rules. Nothing else in the project imports `durable`.

It applies what was measured on this engine (durable-rules 2.0.28):
- no background host threads: the stock Host starts timers that can run a session's pending
  actions on another thread, so a call sometimes returned without them (about 2 in 10,000);
- one fixed session id, calls serialised under a lock, delete_state after every evaluation:
  session ids are compared by a 32-bit hash only, and each live session costs ~580 KB;
- a catch-all rule of the lowest priority, because delete_state crashes after a fact that
  matched no rule;
- floats rounded before they are asserted (the C JSON parser rejects exponent floats);
- an exception raised inside an action is stored in the state, not raised: raise it here.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

from durable import engine as durable_engine
from durable import lang

SID = 1
CATCH_ALL_PRIORITY = 65535


class RuleError(RuntimeError):
    """A rule's action failed; the evaluation's advice is incomplete and is not returned."""


class _SyncHost(durable_engine.Host):
    def _run(self) -> None:
        """No dispatch timers: every action runs inside assert_fact, on the caller's thread."""


def clean(value: Any) -> Any:
    """Facts the C engine accepts: integral floats as ints, others rounded to 6 places."""
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"a rule fact cannot be {value}")
        # JSON writes what is below 1e-4 or 1e16 and above in exponent form, which the C
        # parser rejects: what small is 0 to the rules, what large an integer.
        if abs(value) >= 1e15 or value.is_integer():
            return int(value)
        return 0 if abs(value) < 1e-4 else round(value, 6)
    if isinstance(value, Mapping):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean(v) for v in value]
    raise TypeError(f"a rule fact cannot hold {type(value).__name__}")


class RuleEngine:
    """A ruleset defined once per process, evaluated one fact at a time."""

    def __init__(self, name: str, define: Callable[[], None]) -> None:
        """`define` declares the rules with durable's `ruleset`/`when_all` DSL under `name`;
        a catch-all rule is added here."""
        with lang.ruleset(name):
            define()

            @lang.when_all(lang.pri(CATCH_ALL_PRIORITY), +lang.m.t)
            def catch_all(c: Any) -> None:
                """Matches every fact so that delete_state always has a session to delete."""

        definitions = {}
        # durable keeps declared rulesets in a module-level registry until a host takes them.
        for key, ruleset in list(lang._rulesets.items()):
            if key == name:
                full_name, definition = ruleset.define()
                definitions[full_name] = definition
                del lang._rulesets[key]
        self.name = name
        self._host = _SyncHost()
        self._host.register_rulesets(definitions)
        self._lock = threading.Lock()

    def evaluate(self, fact: Mapping[str, Any]) -> dict[str, Any]:
        """Assert one fact; return the state its rules left (their advice)."""
        payload = clean({**fact, "sid": SID})
        with self._lock:
            try:
                state = self._host.assert_fact(self.name, payload)
            finally:
                self._host.delete_state(self.name, SID)
        if "exception" in state:
            raise RuleError(str(state["exception"])[:500])
        return state
