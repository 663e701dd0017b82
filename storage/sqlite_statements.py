"""SQLAlchemy Core statements run on the sqlite3 driver's own connection, for the hot paths on
SQLite (storage.sqlite_direct): compiled once for SQLite, and each run converts its parameters
and result columns with the column types' own processors (JSON, UTC datetimes, booleans: what
SQLAlchemy applies) and nothing else.

Through SQLAlchemy's Connection each transaction also paid for a pool checkout, events, an
execution context and result metadata per statement: a claim (one INSERT) cost 0.10-0.17 ms of
CPU through `engine.begin()` and 0.04-0.10 ms on the driver (5,000 claims on pysqlite), and
in the bot the three transactions of a message spent more in SQLAlchemy than in SQLite
(py-spy over 3,000 answers of bench/telegram_speed.py's harness: 0.9 ms against 0.5 ms).

`Statements` is what both paths give a hot path's work: `execute(statement, parameters)` and
its result's `first()` and `one()`, rows read by attribute or `_asdict()`.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound, StatementError
from sqlalchemy.sql import Executable

R = TypeVar("R")
Processor = Callable[[Any], Any] | None
Begin = Literal["DEFERRED", "IMMEDIATE"]


class Result(Protocol):
    def first(self) -> Any: ...

    def one(self) -> Any: ...


class Statements(Protocol):
    """A transaction's connection: SQLAlchemy's (PostgreSQL) or `Driver` (SQLite)."""

    def execute(
        self, statement: Executable, parameters: Mapping[str, Any] | None = None, /
    ) -> Result: ...


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    binds: tuple[tuple[str, Processor], ...]
    fixed: dict[str, Any]  # the values written into the statement itself
    results: tuple[Processor, ...]


class Compiler:
    """Statements compiled for SQLite, kept for every later run (the hot statements are built
    once at import, so this holds a handful)."""

    def __init__(self, dialect: Dialect) -> None:
        self._dialect = dialect
        self._compiled: dict[tuple[Executable, frozenset[str]], _Compiled] = {}
        self._rows: dict[tuple[str, ...], Callable[..., tuple[Any, ...]]] = {}

    def compiled(self, statement: Executable, keys: frozenset[str]) -> _Compiled:
        found = self._compiled.get((statement, keys))
        if found is None:
            found = self._compiled[(statement, keys)] = self._compile(statement, keys)
        return found

    def row(self, names: tuple[str, ...]) -> Callable[..., tuple[Any, ...]]:
        """A named tuple type for the columns `names`."""
        found = self._rows.get(names)
        if found is None:
            found = self._rows[names] = namedtuple("Row", names, rename=True)  # type: ignore[misc]
        return found

    def _compile(self, statement: Executable, keys: frozenset[str]) -> _Compiled:
        dialect = self._dialect
        compiled: Any = statement.compile(dialect=dialect, column_keys=sorted(keys))  # type: ignore[attr-defined]
        if compiled.insert_prefetch or compiled.update_prefetch:
            # A column default SQLAlchemy's execution context would compute: not done here.
            raise TypeError(f"give every column a value to run it on the driver: {statement}")
        fixed = {
            name: compiled.binds[name].effective_value
            for name in compiled.positiontup or ()
            if name not in keys
        }
        binds = tuple(
            (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
            for name in compiled.positiontup or ()
        )
        columns = getattr(statement, "exported_columns", ())
        results = tuple(
            c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns
        )
        return _Compiled(compiled.string, binds, fixed, results)


class _Rows:
    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self._rows = rows

    def first(self) -> Any:
        return self._rows[0] if self._rows else None

    def one(self) -> Any:
        if not self._rows:
            raise NoResultFound("expected one row, found none")
        if len(self._rows) > 1:
            raise MultipleResultsFound(f"expected one row, found {len(self._rows)}")
        return self._rows[0]


class Driver:
    """`Statements` on a sqlite3 connection, inside a transaction `transaction` began."""

    def __init__(self, connection: sqlite3.Connection, compiler: Compiler) -> None:
        self._connection = connection
        self._compiler = compiler

    def execute(
        self, statement: Executable, parameters: Mapping[str, Any] | None = None, /
    ) -> _Rows:
        parameters = parameters or {}
        compiled = self._compiler.compiled(statement, frozenset(parameters))
        if compiled.fixed:
            parameters = {**compiled.fixed, **parameters}
        values = [
            parameters[name] if process is None else process(parameters[name])
            for name, process in compiled.binds
        ]
        try:
            cursor = self._connection.execute(compiled.sql, values)
            fetched = cursor.fetchall()
        except sqlite3.Error as error:
            raise _as_sqlalchemy(compiled.sql, error) from error
        if not fetched:
            return _Rows([])
        names = tuple(d[0] for d in cursor.description)
        row = self._compiler.row(names)
        processors = compiled.results or (None,) * len(names)
        return _Rows(
            [
                row(*(v if p is None else p(v) for v, p in zip(found, processors, strict=True)))
                for found in fetched
            ]
        )


def transaction(
    connection: sqlite3.Connection,
    compiler: Compiler,
    begin: Begin,
    work: Callable[[Driver], R],
) -> R:
    """`work` in one transaction on `connection` (in autocommit mode, as the engines open
    them: the transaction is ours to begin), committed when it returns, else rolled back."""
    statement = f"BEGIN {begin}"
    try:
        connection.execute(statement)
        outcome = work(Driver(connection, compiler))
        statement = "COMMIT"
        connection.execute(statement)
    except sqlite3.Error as error:
        _roll_back(connection)
        raise _as_sqlalchemy(statement, error) from error
    except BaseException:
        _roll_back(connection)
        raise
    return outcome


def _roll_back(connection: sqlite3.Connection) -> None:
    # A rollback that fails leaves nothing to undo (SQLite ended the transaction itself); the
    # error that led here is the one to raise.
    with contextlib.suppress(sqlite3.Error):
        if connection.in_transaction:
            connection.execute("ROLLBACK")


def _as_sqlalchemy(sql: str, error: sqlite3.Error) -> StatementError:
    """The driver's error as SQLAlchemy raises it, so that a lock (OperationalError) or a
    conflict (IntegrityError) is told apart the same way on every path."""
    return DBAPIError.instance(sql, None, error, sqlite3.Error)
