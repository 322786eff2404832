"""Configuration from the environment (design.md §6): DATABASE_URL, SECRET_KEY, REDIS_URL."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

LANGUAGES = ("en", "cs", "hu")


def default_instance_path() -> Path:
    """``instance/`` beside the package: where the SQLite database and the secret key live."""
    return Path(os.environ.get("SCRIBE_INSTANCE", Path(__file__).resolve().parent.parent
                               / "instance"))


def _secret_key(instance: Path) -> str:
    """SECRET_KEY from the environment, else one made once and kept in instance/ (never in git)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    key_file = instance / "secret_key"
    if not key_file.exists():
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(48))
    return key_file.read_text().strip()


class Config:
    """Production defaults: SQLite in instance/, in-process fan-out, CSRF on every form."""

    TESTING = False
    LANGUAGES = LANGUAGES
    BABEL_DEFAULT_LOCALE = "en"
    BABEL_TRANSLATION_DIRECTORIES = str(Path(__file__).resolve().parent / "translations")
    MAX_CONTENT_LENGTH = 1024 * 1024           # no document we accept is anywhere near 1 MiB
    WTF_CSRF_TIME_LIMIT = None                 # a score form may stay open a whole game night
    SESSION_COOKIE_SAMESITE = "Lax"

    def __init__(self, instance_path: Path | None = None):
        self.INSTANCE_PATH = Path(instance_path or default_instance_path())
        self.DATABASE_URL = os.environ.get("DATABASE_URL") or \
            f"sqlite:///{self.INSTANCE_PATH / 'scribe.db'}"
        self.REDIS_URL = os.environ.get("REDIS_URL")    # used by the live-table fan-out
        self.SECRET_KEY = _secret_key(self.INSTANCE_PATH)


class TestConfig(Config):
    """Tests: a throwaway database (DATABASE_URL if set, e.g. PostgreSQL in CI), a fixed key."""

    TESTING = True

    def __init__(self, instance_path: Path, database_url: str | None = None):
        os.environ.setdefault("SECRET_KEY", "test-secret-not-for-production")
        super().__init__(instance_path)
        self.DATABASE_URL = database_url or f"sqlite:///{instance_path / 'test.db'}"
