"""One repository per entity; each method is one short transaction and returns pydantic
objects (storage.schemas), never ORM rows."""

from .chats import ChatRepository
from .conversations import ConversationRepository
from .privacy import PrivacyRepository
from .profiles import ProfileRepository
from .queries import QueryRepository
from .team_hardware import TeamHardwareRepository
from .updates import UpdateRepository
from .users import UserRepository

__all__ = [
    "ChatRepository",
    "ConversationRepository",
    "PrivacyRepository",
    "ProfileRepository",
    "QueryRepository",
    "TeamHardwareRepository",
    "UpdateRepository",
    "UserRepository",
]
