"""Configuration from the environment (design.md §6): DATABASE_URL, SECRET_KEY, REDIS_URL,
PUBLIC_URL, LIVE_POLL_SECONDS, REQUEST_BODY_SECONDS."""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path

LANGUAGES = ("en", "cs", "hu")
DEFAULT_PORT = 8000
# A documentation address (RFC 5737), never a real host: connecting a UDP socket to it only
# asks the kernel which local address the route out would use; no packet is sent.
_ROUTE_PROBE = ("192.0.2.1", 9)


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


def lan_address() -> str | None:
    """This machine's address on the local network (the one phones on the same Wi-Fi reach),
    found without sending anything; None when the machine has no network but loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            address = probe.getsockname()[0]
    except OSError:
        address = None
    if address and not address.startswith("127.") and address != "0.0.0.0":
        return address
    try:
        candidates = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        candidates = []
    return next((a for a in candidates if not a.startswith("127.")), None)


def lan_url(port: int = DEFAULT_PORT) -> str:
    """Where phones on this network open Scribe served on ``port``: the LAN address, else
    this machine's name (never 127.0.0.1, which on a phone is the phone itself)."""
    return f"http://{lan_address() or socket.gethostname()}:{port}"


SERVED_URL_FILE = "serving_url"     # in the instance folder: the address `serve` last printed


def remember_served_url(instance: Path, url: str) -> None:
    """Keep the address `serve` printed, for printouts made from the command line later."""
    instance.mkdir(parents=True, exist_ok=True)
    (instance / SERVED_URL_FILE).write_text(url + "\n")


def served_url(instance: Path) -> str | None:
    """The address `serve` last printed for this instance folder, if it ever served."""
    try:
        return clean_public_url((instance / SERVED_URL_FILE).read_text())
    except (OSError, ValueError):
        return None


def clean_public_url(url: str | None) -> str | None:
    """``PUBLIC_URL`` without its trailing slash; anything but an http(s) URL is refused."""
    if not url or not url.strip():
        return None
    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")) or "://" == url[-3:]:
        raise ValueError(f"PUBLIC_URL must be an http:// or https:// address, not {url!r}")
    return url


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
        # The base of every join link and QR code. Unset: the LAN address (set by `serve`
        # with its port, else found when the app is created). Never the request's Host.
        self.PUBLIC_URL = clean_public_url(os.environ.get("PUBLIC_URL"))
        # How often each server process reads the versions of the tables its phones watch.
        poll = os.environ.get("LIVE_POLL_SECONDS")
        self.LIVE_POLL_SECONDS = float(poll) if poll else None   # None: 0.1 s, 1 s with Redis
        # `serve`: the longest silence while a request's body arrives (then 408; asgi.py).
        silence = os.environ.get("REQUEST_BODY_SECONDS")
        self.REQUEST_BODY_SECONDS = float(silence) if silence else 10.0
        # Rate limits per device (web/limits.py has the defaults), e.g. "20 per minute".
        for key in RATE_LIMIT_KEYS:
            if os.environ.get(key):
                setattr(self, key, _rate_limit(key, os.environ[key]))
        self.SECRET_KEY = _secret_key(self.INSTANCE_PATH)


RATE_LIMIT_KEYS = ("RATE_LIMIT_JOIN", "RATE_LIMIT_OPEN_TABLE", "RATE_LIMIT_OPEN_GROUP",
                   "RATE_LIMIT_IMPORT", "RATE_LIMIT_SCORE", "RATE_LIMIT_PRINT")


def _rate_limit(key: str, value: str) -> str:
    """A limit as the ``limits`` library reads it ("10 per minute; 60 per hour"), checked at start-up
    so that a typo stops the server with its name rather than failing every request."""
    from limits import parse_many

    try:
        parse_many(value)
    except ValueError:
        raise ValueError(f"{key}={value!r} is not a rate limit such as '20 per minute'") from None
    return value


class TestConfig(Config):
    """Tests: a throwaway database (DATABASE_URL if set, e.g. PostgreSQL in CI), a fixed key."""

    TESTING = True
    # Tests score and print far more often than any table (the fuzz test, thousands of
    # times); tests/web/test_rate_limits.py checks these limits, and their defaults, itself.
    RATE_LIMIT_SCORE = "100000 per minute"
    RATE_LIMIT_PRINT = "100000 per minute"

    def __init__(self, instance_path: Path, database_url: str | None = None):
        os.environ.setdefault("SECRET_KEY", "test-secret-not-for-production")
        super().__init__(instance_path)
        self.DATABASE_URL = database_url or f"sqlite:///{instance_path / 'test.db'}"
