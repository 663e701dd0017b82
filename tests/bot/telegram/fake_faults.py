"""Faults the fake Bot API can inject into any method: what an unlucky day on the network looks
like from the bot's side.

- "500", "502": an error status (the 502 with an HTML body, as a proxy in front of the API
  sends it); the request was not carried out.
- "timeout": no reply at all (until the client gives up); not carried out.
- "late": carried out, then the reply waits `seconds`: a message that arrived although the
  bot's request may look as if it failed.
- "reset": the connection is closed without a reply; not carried out.
"""

from dataclasses import dataclass

KINDS = frozenset({"500", "502", "timeout", "late", "reset"})
HANG_S = 3600.0  # "timeout": until the client disconnects (the server cancels the handler)
PROXY_PAGE = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@dataclass
class Fault:
    method: str | None  # None: every method but getUpdates
    kind: str
    remaining: int
    seconds: float = 0.0

    def matches(self, method: str) -> bool:
        if self.remaining <= 0:
            return False
        if self.method is None:
            return method.lower() != "getupdates"
        return self.method == "*" or self.method == method.lower()


class FaultPlan:
    """The faults still to inject, first added first served."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.injected: list[tuple[str, str]] = []  # (method, kind) as they happened

    def add(self, method: str | None, kind: str, count: int = 1, seconds: float = 0.0) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown fault {kind!r}; one of {sorted(KINDS)}")
        name = method if method in (None, "*") else method.lower()
        self.faults.append(Fault(name, kind, count, seconds))

    def take(self, method: str) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method):
                fault.remaining -= 1
                self.injected.append((method, fault.kind))
                return fault
        return None

    def clear(self) -> None:
        self.faults.clear()
