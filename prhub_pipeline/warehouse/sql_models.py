"""SQL models: `.sql` files that each define one view or table over the warehouse.

A model refers to other models with `{{ ref('name') }}` and to the pipeline's tables with
`{{ source('name') }}`; the dependency graph comes from those calls alone. `{{ bot_name('expr') }}`
is the reports' test for a machine account's login. An optional header of
`-- key: value` lines at the top sets `materialized` (view or table) and `description`.
The `sql_models` table (migration 012) names every relation a model made, so that one whose
file is gone can be dropped without touching anything else, and the digest of the rendered SQL
that made it (migration 016), so that one made from another definition is told of.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Literal, NamedTuple

import duckdb
import jinja2
from pydantic import BaseModel

from prhub_pipeline.records import BOT_LOGIN
from prhub_pipeline.warehouse.connection import pipeline_tables, transaction

HEADER_LINE = re.compile(r"^--\s*(?P<key>[a-z_]+)\s*:\s*(?P<value>.*?)\s*$")
MODEL_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
HEADER_KEYS = {"materialized", "description"}


Materialized = Literal["view", "table"]


class SqlModelError(Exception):
    """A model file is malformed, refers to something unknown, or is part of a cycle."""


class SqlModel(BaseModel):
    name: str
    path: Path
    materialized: Materialized = "view"
    description: str = ""
    sql: str
    refs: list[str]
    sources: list[str]


class _Header(NamedTuple):
    materialized: Materialized
    description: str


def _header(path: Path, text: str) -> _Header:
    header: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        match = HEADER_LINE.match(line)
        if not match or match.group("key") not in HEADER_KEYS:
            break
        header[match.group("key")] = match.group("value")
    written = header.get("materialized", "view")
    materialized: Materialized
    if written == "view":
        materialized = "view"
    elif written == "table":
        materialized = "table"
    else:
        raise SqlModelError(f"{path.name}: materialized must be view or table, not {written!r}")
    return _Header(materialized, header.get("description", ""))


def _calls(path: Path, text: str) -> tuple[list[str], list[str]]:
    """The names a template passes to ref() and source(), found by rendering it once."""
    refs: list[str] = []
    sources: list[str] = []

    def ref(name: str) -> str:
        refs.append(name)
        return name

    def source(name: str) -> str:
        sources.append(name)
        return name

    try:
        jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(text).render(
            ref=ref, source=source, bot_name=bot_name
        )
    except jinja2.TemplateError as exc:
        raise SqlModelError(f"{path.name}: template error: {exc}") from exc
    return sorted(set(refs)), sorted(set(sources))


def load_models(folder: Path, known_sources: Iterable[str]) -> list[SqlModel]:
    """Every model in `folder`, in dependency order. Fails naming the file at fault."""
    known = set(known_sources)
    # schema_migrations and sql_models are no source, but a model must not replace them either.
    reserved = known | pipeline_tables()
    models: dict[str, SqlModel] = {}
    for path in sorted(folder.glob("*.sql")):
        name = path.stem
        if not MODEL_NAME.match(name):
            raise SqlModelError(f"{path.name}: a model name must be lower_snake_case")
        if name in reserved:
            raise SqlModelError(f"{path.name}: {name} is a pipeline table; name the model apart")
        text = path.read_text(encoding="utf-8")
        header = _header(path, text)
        refs, sources = _calls(path, text)
        for source in sources:
            if source not in known:
                raise SqlModelError(
                    f"{path.name}: source('{source}') is not a warehouse table"
                    f" (known: {', '.join(sorted(known))})"
                )
        models[name] = SqlModel(
            name=name,
            path=path,
            materialized=header.materialized,
            description=header.description,
            sql=text,
            refs=refs,
            sources=sources,
        )
    for model in models.values():
        for ref in model.refs:
            if ref not in models:
                raise SqlModelError(f"{model.path.name}: ref('{ref}') names no model in {folder}")
    return _in_dependency_order(models)


def model_names(folder: Path) -> set[str]:
    """The names of the models `folder` holds now, a file that does not load too: its model
    keeps the relation it made until the file is mended or removed."""
    return {path.stem for path in folder.glob("*.sql")}


def definition_sha256(text: str) -> str:
    """The digest `sql_models` records of the SQL that made a relation: its model file's text
    as rendered (`render`)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def model_definitions(folder: Path) -> dict[str, str]:
    """Each model file of `folder` by name, as `definition_sha256` of its rendered text; of its
    text as written where it does not render (a file that does not load: its relation is not
    the file's either)."""
    definitions = {}
    for path in folder.glob("*.sql"):
        text = path.read_text(encoding="utf-8")
        try:
            definitions[path.stem] = definition_sha256(_rendered(text))
        except jinja2.TemplateError:
            definitions[path.stem] = definition_sha256(text)
    return definitions


def unlike_their_files(con: duckdb.DuckDBPyConnection, definitions: Mapping[str, str]) -> list[str]:
    """Of the models `definitions` names (`model_definitions`), those whose relation was made
    from another text than their file's now (another prhub's model or `bot_name` rule, an
    edited file, or one made before the warehouse recorded it), sorted: they answer as that
    text did until the models are refreshed. One not made yet is none: a query of it fails
    naming it. Needs migration 016."""
    made = dict(con.execute("SELECT name, definition_sha256 FROM sql_models").fetchall())
    return sorted(
        name for name, digest in definitions.items() if name in made and made[name] != digest
    )


def _in_dependency_order(models: dict[str, SqlModel]) -> list[SqlModel]:
    ordered: list[SqlModel] = []
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            cycle = " -> ".join([*trail[trail.index(name) :], name])
            raise SqlModelError(f"{models[name].path.name}: ref cycle {cycle}")
        state[name] = "visiting"
        for ref in models[name].refs:
            visit(ref, [*trail, name])
        state[name] = "done"
        ordered.append(models[name])

    for name in sorted(models):
        visit(name, [])
    return ordered


def bot_name(login: str) -> str:
    """A template's test that the SQL expression `login` names a machine account, by the
    pattern scoring and the reports use (`records.BOT_LOGIN`): one rule, not a copy per model."""
    pattern = BOT_LOGIN.pattern.replace("'", "''")
    return f"regexp_matches(coalesce({login}, ''), '{pattern}', 'i')"


def _rendered(text: str) -> str:
    return (
        jinja2.Environment(undefined=jinja2.StrictUndefined)
        .from_string(text)
        .render(ref=lambda name: name, source=lambda name: name, bot_name=bot_name)
    )


def render(model: SqlModel) -> str:
    """The model's SELECT with refs and sources replaced by the relation names."""
    return _rendered(model.sql)


def materialize(con: duckdb.DuckDBPyConnection, model: SqlModel) -> int:
    """Create or replace the model's view or table; returns its row count."""
    rendered = render(model)
    body = rendered.strip().rstrip(";")
    kind = "TABLE" if model.materialized == "table" else "VIEW"
    try:
        with transaction(con):
            # A model may switch between view and table; drop whichever kind exists.
            existing = con.execute(
                "SELECT table_type FROM information_schema.tables"
                " WHERE table_schema = 'main' AND table_name = ?",
                [model.name],
            ).fetchone()
            if existing:
                dropped = "VIEW" if existing[0] == "VIEW" else "TABLE"
                con.execute(f"DROP {dropped} {model.name}")
            con.execute(f"CREATE {kind} {model.name} AS {body}")
            # The header's description, where a SQL user finds it (`SELECT table_name,
            # table_comment FROM information_schema.tables`): it was the UI's alone. DuckDB
            # binds no parameter in COMMENT ON, so the text is a quoted literal.
            if model.description:
                quoted = "'" + model.description.replace("'", "''") + "'"
                con.execute(f"COMMENT ON {kind} {model.name} IS {quoted}")
            con.execute(
                "INSERT OR REPLACE INTO sql_models"
                " (name, materialized, stored_at, definition_sha256) VALUES (?, ?, now(), ?)",
                # Of the SQL as rendered, not the file: a model's `bot_name()` is
                # records.BOT_LOGIN's pattern, which a newer prhub may change in no model file.
                [model.name, model.materialized, definition_sha256(rendered)],
            )
    except duckdb.Error as exc:
        raise SqlModelError(f"{model.path.name}: {exc}") from exc
    row = con.execute(f"SELECT count(*) FROM {model.name}").fetchone()
    return int(row[0]) if row else 0


def drop_stale_models(con: duckdb.DuckDBPyConnection, current: Collection[str]) -> list[str]:
    """Drop the views and tables earlier runs made of models that `current` no longer names
    (a file removed or renamed), which would otherwise look current forever; returns their
    names. Only relations `sql_models` names go, never a pipeline table."""
    keep = set(current) | pipeline_tables()
    with transaction(con):
        made = con.execute("SELECT name FROM sql_models ORDER BY name").fetchall()
        # Only names a model could have: the table is the user's to write, and the name goes
        # into a DROP statement.
        stale = [name for (name,) in made if name not in keep and MODEL_NAME.match(name)]
        for name in stale:
            existing = con.execute(
                "SELECT table_type FROM information_schema.tables"
                " WHERE table_schema = 'main' AND table_name = ?",
                [name],
            ).fetchone()
            if existing:  # a user may have dropped it already
                con.execute(f"DROP {'VIEW' if existing[0] == 'VIEW' else 'TABLE'} {name}")
            con.execute("DELETE FROM sql_models WHERE name = ?", [name])
    return stale
