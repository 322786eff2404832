"""Alembic migrations build exactly the schema the models describe, up and down."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect
from sqlmodel import SQLModel

import companion.models  # noqa: F401
from companion import db

pytestmark = pytest.mark.db


def test_head_matches_the_models_and_downgrade_empties(app):
    url = app.config["DATABASE_URL"]
    engine = create_engine(url)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
    command.downgrade(db.alembic_config(url), "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    db.upgrade(url)
    assert {"game_table", "seat", "result", "player", "player_group"} <= set(
        inspect(engine).get_table_names())
    engine.dispose()
