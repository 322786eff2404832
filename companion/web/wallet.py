"""What a phone holds: its tables' and groups' tokens, in two bounded cookies (issue 10).

Before, every table set ``seat_<id>`` and ``host_<id>`` and every group ``grp_<id>``: a phone
that had been at about 113 tables sent so many cookies that every request was answered 431.
Now a phone keeps two cookies whatever it did:

* ``scribe_tables``: ``kind:table_id:token`` entries joined by ``.``, most recent first,
  where kind is ``h`` (the host's token), ``s`` (a seat's) or ``k`` (the keeper's token of a
  score-only game this phone saved);
* ``scribe_groups``: ``group_id:token`` entries, most recent first.

Each holds at most ``MAX_TABLES`` tables (``MAX_GROUPS`` groups) and ``MAX_COOKIE_BYTES``
bytes (well under the 4 KB a browser keeps per cookie); the oldest entries are dropped first.
Tokens and ids are URL-safe base64 or digits, so the value needs no quoting; an entry that is
not of this shape is ignored. Nothing is signed: a token proves itself against its hash in the
database, so a phone gains nothing by editing its own cookie.

A phone that still has old per-table or per-group cookies has them moved in here when it is
next seen (the newest ``MAX_*`` survive) and the old cookies are deleted.

"My tables" is read from here (:func:`held_tables`): a phone sees the tables it opened, sits at
or saved, and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from typing import Iterable

from flask import Flask, Response, g, request

from ..guard import secure_site

TABLES_COOKIE = "scribe_tables"
GROUPS_COOKIE = "scribe_groups"
MAX_TABLES = 24
MAX_GROUPS = 24
MAX_COOKIE_BYTES = 3000
COOKIE_AGE = 365 * 24 * 3600

HOST, SEAT, KEEPER = "host", "seat", "keeper"
_LETTER = {HOST: "h", SEAT: "s", KEEPER: "k"}          # how a kind is written in the cookie
_KIND = {letter: kind for kind, letter in _LETTER.items()}

_ID = r"[A-Za-z0-9_-]{1,32}"
_TOKEN = r"[A-Za-z0-9_-]{16,64}"
_TABLE_ENTRY = re.compile(rf"([hsk]):({_ID}):({_TOKEN})")
_GROUP_ENTRY = re.compile(rf"([0-9]{{1,10}}):({_TOKEN})")
_LEGACY_TABLE = re.compile(rf"(seat|host)_({_ID})")
_LEGACY_GROUP = re.compile(r"grp_([0-9]{1,10})")
_PLAIN_TOKEN = re.compile(_TOKEN)


@dataclass
class Wallet:
    """This request's view of the two cookies; ``dirty`` when they must be written back."""

    tables: list[tuple[str, str, str]] = field(default_factory=list)   # (kind, id, token)
    groups: list[tuple[int, str]] = field(default_factory=list)        # (group id, token)
    dirty: bool = False
    legacy: list[str] = field(default_factory=list)     # old cookie names to delete


def _parse_tables(value: str) -> list[tuple[str, str, str]]:
    entries, seen = [], set()
    for part in value.split(".")[:MAX_TABLES * 3]:
        match = _TABLE_ENTRY.fullmatch(part)
        if match and (match[1], match[2]) not in seen:
            seen.add((match[1], match[2]))
            entries.append((_KIND[match[1]], match[2], match[3]))
    return entries


def _parse_groups(value: str) -> list[tuple[int, str]]:
    entries, seen = [], set()
    for part in value.split(".")[:MAX_GROUPS]:
        match = _GROUP_ENTRY.fullmatch(part)
        if match and int(match[1]) not in seen:
            seen.add(int(match[1]))
            entries.append((int(match[1]), match[2]))
    return entries


def _wallet() -> Wallet:
    """The wallet of this request, read once (with old cookies moved in)."""
    if "wallet" in g:
        return g.wallet
    wallet = Wallet(_parse_tables(request.cookies.get(TABLES_COOKIE, "")),
                    _parse_groups(request.cookies.get(GROUPS_COOKIE, "")))
    for name, token in request.cookies.items():
        legacy_table = _LEGACY_TABLE.fullmatch(name)
        legacy_group = _LEGACY_GROUP.fullmatch(name)
        if legacy_table is None and legacy_group is None:
            continue
        wallet.legacy.append(name)
        wallet.dirty = True
        if not _PLAIN_TOKEN.fullmatch(token):
            continue
        if legacy_table is not None:
            kind, table_id = legacy_table[1], legacy_table[2]
            if not any(k == kind and t == table_id for k, t, _ in wallet.tables):
                wallet.tables.append((kind, table_id, token))     # older than what is here
        else:
            group_id = int(legacy_group[1])
            if not any(gid == group_id for gid, _ in wallet.groups):
                wallet.groups.append((group_id, token))
    g.wallet = wallet
    return wallet


def _encode_tables(entries: list[tuple[str, str, str]]) -> str:
    """The newest entries that fit: at most MAX_TABLES tables and MAX_COOKIE_BYTES bytes."""
    kept: list[str] = []
    tables: set[str] = set()
    size = 0
    for kind, table_id, token in entries:
        if table_id not in tables and len(tables) == MAX_TABLES:
            continue
        part = f"{_LETTER[kind]}:{table_id}:{token}"
        if size + len(part) + 1 > MAX_COOKIE_BYTES:
            break
        tables.add(table_id)
        kept.append(part)
        size += len(part) + 1
    return ".".join(kept)


def _encode_groups(entries: list[tuple[int, str]]) -> str:
    kept: list[str] = []
    size = 0
    for group_id, token in entries[:MAX_GROUPS]:
        part = f"{group_id}:{token}"
        if size + len(part) + 1 > MAX_COOKIE_BYTES:
            break
        kept.append(part)
        size += len(part) + 1
    return ".".join(kept)


# ---- tables ----------------------------------------------------------------------------------


def table_token(kind: str, table_id: str) -> str | None:
    """This phone's token of ``kind`` (HOST, SEAT, KEEPER) for ``table_id``, if it holds one."""
    for held_kind, held_id, token in _wallet().tables:
        if held_kind == kind and held_id == table_id:
            return token
    return None


def remember_table(kind: str, table_id: str, token: str) -> None:
    """Keep ``token`` for the table, as the most recent entry (the oldest may drop out)."""
    wallet = _wallet()
    wallet.tables = [(kind, table_id, token)] + [
        entry for entry in wallet.tables if not (entry[0] == kind and entry[1] == table_id)]
    wallet.dirty = True


def forget_table(table_id: str, kind: str | None = None) -> None:
    """Drop this phone's tokens for the table (of one kind, or all)."""
    wallet = _wallet()
    kept = [entry for entry in wallet.tables
            if not (entry[1] == table_id and kind in (None, entry[0]))]
    if kept != wallet.tables:
        wallet.tables = kept
        wallet.dirty = True


def held_tables() -> list[tuple[str, str, str]]:
    """Every (kind, table id, token) this phone holds, most recent first."""
    return list(_wallet().tables)


# ---- groups ----------------------------------------------------------------------------------


def group_token(group_id: int) -> str | None:
    """This phone's invite or admin token for the group, if it holds one."""
    for held_id, token in _wallet().groups:
        if held_id == group_id:
            return token
    return None


def remember_group(group_id: int, token: str) -> None:
    """Keep ``token`` for the group, as the most recent entry."""
    wallet = _wallet()
    wallet.groups = [(group_id, token)] + [e for e in wallet.groups if e[0] != group_id]
    wallet.dirty = True


def held_groups() -> list[tuple[int, str]]:
    """Every (group id, token) this phone holds, most recent first."""
    return list(_wallet().groups)


def _write_back(response: Response) -> Response:
    """Write the cookies back when they changed; delete the old per-table cookies."""
    wallet = g.get("wallet")
    if wallet is None or not wallet.dirty:
        return response
    secure = secure_site()
    for name, value in ((TABLES_COOKIE, _encode_tables(wallet.tables)),
                        (GROUPS_COOKIE, _encode_groups(wallet.groups))):
        if value:
            response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True,
                                samesite="Lax", secure=secure)
        elif name in request.cookies:
            response.delete_cookie(name, httponly=True, samesite="Lax", secure=secure)
    for name in wallet.legacy:
        response.delete_cookie(name)
    return response


def init_app(app: Flask, pages: Iterable[str]) -> None:
    """Write the wallet back after the requests of the ``pages`` blueprints (only pages use
    it)."""
    for name in pages:
        app.after_request_funcs.setdefault(name, []).append(_write_back)
