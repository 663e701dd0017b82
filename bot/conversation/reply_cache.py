"""Replies worked out before, given again to the next reader who asks the same question.

Working out an answer takes 5-25 ms of CPU (estimates, plans, rules, the reply's text), and
people ask the same questions again and again: the examples under /start, the refinement
buttons, "can I run Llama 3 8B on a 4090". An answer is a function of the question as read
(its Draft), what the turn adds to it (an implied task, hardware from a profile and the notes
saying so), the reader's settings that change numbers (units, default engine, electricity
price) and the language, so a reply whose inputs are all equal to an earlier one's is that
reply. Not kept: answers that read something outside the process, which may change under
them: a Hub repository (its config, or a lookup that failed for now) and files on the
terminal user's disk.

Only the event loop touches it (before and after an answer worker computes), so it needs no
lock. A Reply is never changed once made (`with_section` and `model_copy` make new ones), so
one can be handed to several readers."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from estimator.result import Note

from ..i18n import Language
from ..model_source import needs_download
from .dialogue import Turn
from .preferences import Preferences
from .reply import Reply

# Distinct answers kept. A kept reply holds what its chart draws and its JSON contract needs:
# about 26 KB each besides the estimator's own caches (tracemalloc over the 224 phrasings of
# tests/bot/conversation), so 1,000 of them take about 26 MB.
SIZE = 1000


def _from_the_process(model: str | None) -> bool:
    """Whether a model name is answered from the catalog or a bare size (not the Hub)."""
    return model is None or not needs_download(model.strip())


class ReplyCache:
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, Reply] = OrderedDict()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(
        turn: Turn,
        profile_text: str | None,
        prefs: Preferences,
        lang: Language,
        notes: tuple[Note, ...],
    ) -> Hashable | None:
        """What the reply to `turn` depends on; None when it may depend on more (a Hub
        repository) and must be worked out anew."""
        draft = turn.state.draft
        models = [draft.model, *(option.model for option in draft.compare or ())]
        if not all(_from_the_process(m) for m in models):
            return None
        return (
            draft.model_dump_json(exclude_defaults=True),
            turn.missing,
            turn.unknown_model,
            turn.implied_task,
            turn.from_profile,
            profile_text,
            prefs.units,
            prefs.engine,
            prefs.kwh_price,
            lang,
            tuple((n.key, repr(n.params)) for n in notes),
        )

    def get(self, key: Hashable | None) -> Reply | None:
        if key is None:
            return None
        found = self._kept.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self._kept.move_to_end(key)
        return found

    def put(self, key: Hashable | None, reply: Reply) -> None:
        if key is None:
            return
        self._kept[key] = reply
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
