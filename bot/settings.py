"""The bot's configuration: one frozen object read from the environment and `.env`.

Nothing else in the project reads `os.environ`. Every variable is documented in `.env.example`.
The token is a `SecretStr`, so it never shows up in a log line, a repr or a traceback.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from ipaddress import ip_network
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.service.shards import Shards

DEFAULT_DATABASE_URL = "sqlite:///data/tessera.sqlite3"

# A bot token is three URL-safe base64 parts separated by dots: user id, timestamp, HMAC.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{18,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
_DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")
SECRET_BITS = 96
"""The least entropy a WEB_SECRET may show (its characters' frequencies times its length): 32 hex digits
have about 120 bits, `secrets.token_urlsafe(32)` about 200, 40 times one character none."""
MAKE_SECRET = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'


def secret_bits(secret: str) -> float:
    """An estimate of a secret's entropy in bits: the Shannon entropy of its characters' frequencies, times
    its length (a repeated character or a short pattern shows little)."""
    counts = Counter(secret)
    total = len(secret)
    return -total * sum(n / total * math.log2(n / total) for n in counts.values()) if total else 0.0


_S = TypeVar("_S", bound=BaseSettings)


class SettingsError(Exception):
    """The configuration cannot be used; the message is one line fit to print to an operator."""


class DatabaseSettings(BaseSettings):
    """The settings that tools without a bot need (check-db): where the database is."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        frozen=True,
        case_sensitive=False,
    )

    database_url: str = Field(
        DEFAULT_DATABASE_URL,
        description="Where matches are stored: sqlite:///relative/path, sqlite:////abs, or postgresql://...",
    )

    @field_validator("database_url")
    @classmethod
    def _database_is_sqlite_or_postgresql(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith(_DATABASE_SCHEMES) or value in _DATABASE_SCHEMES:
            raise ValueError(
                "DATABASE_URL must look like sqlite:///data/tessera.sqlite3 or postgresql://user@host/tessera"
            )
        if not value.startswith("sqlite:///"):
            try:
                port = urlsplit(value).port  # ValueError when it is not a number from 0 to 65535
            except ValueError:
                port = 0
            if port == 0:
                raise ValueError("DATABASE_URL has a port that is not a number from 1 to 65535")
        return value

    @property
    def database_path(self) -> Path | None:
        """The SQLite file (`sqlite:///data/x.db` is relative, `sqlite:////srv/x.db` absolute); None for
        PostgreSQL."""
        if not self.database_url.startswith("sqlite:///"):
            return None
        return Path(self.database_url.removeprefix("sqlite:///"))


class WebSettings(DatabaseSettings):
    """The web board's settings (bot/web/): off unless WEB_PORT is set; `python -m bot web` runs it as a
    process of its own with only these and the database."""

    web_port: int | None = Field(
        None, ge=1, le=65535, description="Serve the web board on this port (off when unset)."
    )
    web_host: str = Field("127.0.0.1", description="The address the web board binds (behind a proxy).")
    web_base_url: str = Field(
        "http://127.0.0.1:8080", description="The public https address of the web board, for links and login."
    )
    web_secret: SecretStr | None = Field(
        None, description="Signs sessions and match links (32+ random characters); required with WEB_PORT."
    )
    discord_token: SecretStr | None = Field(
        None,
        description="The bot token; a web process of its own uses it, when set, for players' names and the "
        "Activity's instance check.",
    )
    discord_client_id: str | None = Field(None, description="The application's OAuth2 client id (login).")
    discord_client_secret: SecretStr | None = Field(None, description="The application's OAuth2 secret.")
    discord_api_url: str = Field("https://discord.com/api", description="Discord's API (tests use a fake).")
    web_disabled_guilds: Annotated[tuple[int, ...], NoDecode] = Field(
        (), description="Comma-separated server ids whose matches have no web board."
    )
    web_trusted_proxies: Annotated[tuple[str, ...], NoDecode] = Field(
        (),
        description="Comma-separated addresses or networks of the reverse proxy in front of the web board: "
        "only from these are X-Forwarded-For/-Proto/-Host believed (the real client, for limits).",
    )
    activity_enabled: bool = Field(
        False,
        description="The application has its Discord Activity set up (README, Activity): board messages get "
        "a Play in Discord button and /play without an opponent launches it.",
    )

    @field_validator("web_port", "web_secret", "discord_client_id", "discord_client_secret", mode="before")
    @classmethod
    def _blank_web_value_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_unset(cls, value: Any) -> Any:
        """A web process of its own may run without a token (the bot's own settings require one)."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("web_disabled_guilds", mode="before")
    @classmethod
    def _comma_separated_guilds(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(int(part) for part in value.replace(" ", "").split(",") if part)
        return value

    @field_validator("web_trusted_proxies", mode="before")
    @classmethod
    def _comma_separated_proxies(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = tuple(part.strip() for part in value.split(",") if part.strip())
        for part in value:
            try:
                ip_network(str(part), strict=False)
            except ValueError:
                raise ValueError(
                    f"{part!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/8)"
                ) from None
        return value

    @field_validator("web_base_url")
    @classmethod
    def _base_url_is_a_web_address(cls, value: str) -> str:
        """Every "Open board" link and the login's redirect start with it: an http(s) address with a host,
        nothing else (a `javascript:` URL would make every link a script)."""
        value = value.strip()
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 (raises ValueError when the port is not a number)
        except ValueError:
            parts = urlsplit("")
        if (
            parts.scheme not in ("http", "https")
            or not parts.hostname
            or parts.username is not None
            or parts.query
            or parts.fragment
            or any(c.isspace() or c in "\"'<>\\" for c in value)
        ):
            raise ValueError(
                "WEB_BASE_URL must be the board's http(s) address, e.g. https://tessera.example.org"
            )
        return value

    @model_validator(mode="after")
    def _secret_with_port(self) -> WebSettings:
        secret = self.web_secret.get_secret_value() if self.web_secret is not None else None
        if self.web_port is not None and secret is None:
            raise ValueError("WEB_SECRET must be set (32 or more random characters) when WEB_PORT is set")
        if secret is not None and len(secret) < 32:
            raise ValueError("WEB_SECRET must be 32 or more random characters: it makes the match links")
        if secret is not None and secret_bits(secret) < SECRET_BITS:
            raise ValueError(
                f"WEB_SECRET is too guessable (too few different characters); make one: {MAKE_SECRET}"
            )
        return self


class Settings(WebSettings):
    """Tessera's settings; field names are the environment variables in lower case."""

    discord_token: SecretStr = Field(description="The bot token from the Discord developer portal.")
    dev_guild_id: int | None = Field(None, description="Sync commands to this one guild (instant) when set.")
    log_level: str = Field("INFO", description="CRITICAL, ERROR, WARNING, INFO or DEBUG.")
    shard_count: int | None = Field(None, ge=1, description="Total shards across all processes.")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None, description="Shards this process runs, comma separated: 0,1."
    )
    health_port: int | None = Field(
        None, ge=1, le=65535, description="Serve /healthz and /metrics on this port; empty: off."
    )
    health_host: str = Field("127.0.0.1", description="The address the health and metrics server binds.")
    log_format: Literal["text", "json"] = Field("text", description="text, or json: one object per line.")
    puzzle_mining: bool = Field(
        True, description="Mine finished matches for puzzles in the AI pool, at its lowest priority."
    )
    puzzle_starters: bool = Field(
        True,
        description="Serve the starter puzzles shipped with the games until a game has 100 of its own.",
    )

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_unset(cls, value: Any) -> Any:
        """The bot needs its token: a blank one is refused by the check below, with what to do."""
        return value

    @field_validator("discord_token")
    @classmethod
    def _token_has_the_shape_of_a_token(cls, value: SecretStr) -> SecretStr:
        text = value.get_secret_value().strip()
        if not text:
            raise ValueError("DISCORD_TOKEN is empty: put your bot token in .env (see the README, section 1)")
        if not _TOKEN_SHAPE.match(text):
            raise ValueError("DISCORD_TOKEN does not look like a bot token (three dot-separated parts)")
        return SecretStr(text)

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_log_level(cls, value: Any) -> str:
        level = str(value).strip().upper()
        if level not in _LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}")
        return level

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_case_format(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("dev_guild_id", "shard_count", "health_port", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated_ids(cls, value: Any) -> Any:
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",") if part.strip()]
            if not parts:
                return None
            try:
                return tuple(int(part) for part in parts)
            except ValueError:
                raise ValueError("SHARD_IDS must be whole numbers separated by commas: 0,1") from None
        return value

    @model_validator(mode="after")
    def _shards_fit_the_count(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            bad = [shard for shard in self.shard_ids if not 0 <= shard < self.shard_count]
            if bad or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to {self.shard_count - 1}")
        return self

    @property
    def shards(self) -> Shards | None:
        """The shards whose guilds' timed work this process runs; None when it runs every shard."""
        if self.shard_ids is None or self.shard_count is None:
            return None
        return Shards(self.shard_count, frozenset(self.shard_ids))


class _LogFormatSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True, case_sensitive=False
    )

    log_format: str = "text"


def requested_log_format() -> Literal["text", "json"]:
    """`LOG_FORMAT` alone, read leniently (text unless it says json), for the one-line errors printed when
    the other settings cannot be used; never raises (an unreadable .env means text)."""
    try:
        value = _LogFormatSettings().log_format
    except Exception:
        return "text"
    return "json" if value.strip().lower() == "json" else "text"


def load_settings(**overrides: Any) -> Settings:
    """Read the settings from the environment and `.env`; raises SettingsError with one readable line."""
    return _load(Settings, overrides)


def load_web_settings(**overrides: Any) -> WebSettings:
    """The web board's settings and the database's (no bot token needed)."""
    return _load(WebSettings, overrides)


def load_database_settings(**overrides: Any) -> DatabaseSettings:
    """Only the database settings (no token needed); raises SettingsError with one readable line."""
    return _load(DatabaseSettings, overrides)


def _load(kind: type[_S], overrides: dict[str, Any]) -> _S:
    try:
        return kind(**overrides)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]).upper() or "settings"
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "missing":
            message = f"{field} is not set; put it in the environment or in .env (see .env.example)"
        elif field not in message:
            message = f"{field}: {message}"
        raise SettingsError(message) from None
