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

    # Webhook mode (`llm-sizer bot --webhook`, several replicas): this process listens on
    # LISTEN:PORT at PATH behind TLS termination; `llm-sizer set-webhook` registers URL once.
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: SecretStr | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(default=8080, ge=0, le=65535)
    telegram_webhook_path: str = "/telegram"

    @property
    def file_url(self) -> str:
        return self.telegram_api_file_url or self.telegram_api_base_url.replace("/bot", "/file/bot")
