"""The bot's configuration from the environment. The token is a SecretStr: printing the
settings, logging them or an error that holds them shows '**********'."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class BotSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    telegram_bot_token: SecretStr | None = None
    # A self-hosted Bot API server (https://github.com/tdlib/telegram-bot-api), or the tests'
    # loopback fake: "http://127.0.0.1:8081/bot".
    telegram_api_base_url: str = "https://api.telegram.org/bot"
    telegram_api_file_url: str | None = None
    # Telegram's documented overall limit for a bot is about 30 messages per second (Bots FAQ,
    # "My bot is hitting limits"); a self-hosted Bot API server or paid broadcasts allow more.
    telegram_max_messages_per_s: float = Field(default=30.0, gt=0, le=10_000)
    # The per-user rate limit: a burst of messages (and button presses), then this many a
    # minute; faster ones are not answered and the sender is told so once. A person asking
    # and refining stays far inside it; a script does not.
    telegram_user_burst: int = Field(default=10, ge=1, le=100_000)
    telegram_user_messages_per_minute: float = Field(default=30.0, gt=0, le=1_000_000)
    # Seconds to wait for the Bot API's reply to one request. A send whose reply is late may
    # still have been delivered, and retrying it would show the message twice: the wait is
    # long (Telegram answers in well under a second), so that only a lost request is retried.
    telegram_read_timeout_s: float = Field(default=20.0, gt=0, le=300)
    # How long a send is retried (5xx, network errors, timeouts, 429s) before its message is
    # kept in the outbox, to be sent when the API is back.
    telegram_retry_window_s: float = Field(default=30.0, ge=0, le=3600)
    # How long one getUpdates waits for news (long polling); below an idle cut-off of a proxy
    # between the bot and the API.
    telegram_poll_timeout_s: int = Field(default=10, ge=0, le=50)

    # Pruning, hourly. Update ids are kept to recognise Telegram's redeliveries (it gives up
    # after 24 hours) and must go before a week passes: after a quiet week Telegram may start
    # its ids anew (Bot API, getUpdates), and a kept id would drop a new update.
    telegram_update_retention_hours: float = Field(default=48, ge=24, le=144)
    # A conversation's state is no longer read 12 hours after its last message (the
    # conversation's STATE_MAX_AGE); untouched this long, it is deleted.
    conversation_retention_hours: float = Field(default=24, ge=12, le=24 * 365)

    # Webhook mode (`llm-sizer bot --webhook`, several replicas): this process listens on
    # LISTEN:PORT at PATH behind TLS termination; `llm-sizer set-webhook` registers URL once.
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(default=8080, ge=0, le=65535)
    telegram_webhook_path: str = "/telegram"

    @property
    def token(self) -> str:
        """The bot token, or "" when none is set."""
        return self.telegram_bot_token.get_secret_value() if self.telegram_bot_token else ""

    @property
    def file_url(self) -> str:
        return self.telegram_api_file_url or self.telegram_api_base_url.replace("/bot", "/file/bot")
