"""One repository per entity, each method one short transaction returning pydantic
objects (storage.schemas), never ORM rows; and turns, what answering one message reads and
writes, gathered into as few transactions as it allows."""

from .chats import ChatRepository
from .conversations import ConversationRepository
from .outbox import OutboxRepository
from .privacy import PrivacyRepository
from .profiles import ProfileRepository
from .queries import QueryRepository
from .shared import SharedQuestionRepository
from .team_hardware import TeamHardwareRepository
from .turns import TurnContext, TurnRepository
from .updates import UpdateRepository
from .users import UserRepository

__all__ = [
    "ChatRepository",
    "ConversationRepository",
    "OutboxRepository",
    "PrivacyRepository",
    "ProfileRepository",
    "QueryRepository",
    "SharedQuestionRepository",
    "TeamHardwareRepository",
    "TurnContext",
    "TurnRepository",
    "UpdateRepository",
    "UserRepository",
]
