"""Messages to the conversation service as the terminal sends them, for the service tests."""

from bot.conversation.service import Conversation, Incoming


def message(text, user="alice", chat="c1", language=None, one_shot=False):
    return Incoming(
        platform="local",
        chat_id=chat,
        chat_type="terminal",
        user_id=user,
        text=text,
        language=language,
        one_shot=one_shot,
    )


async def say(storage, *texts, **kw):
    """Each text in turn to one conversation; the replies."""
    conversation = Conversation(storage)
    return [await conversation.handle(message(t, **kw)) for t in texts]
