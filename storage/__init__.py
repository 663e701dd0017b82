"""Storage: SQLAlchemy models, repositories and Alembic migrations, on SQLite or PostgreSQL.

Knows nothing of Telegram or the terminal. Repositories take and return the pydantic objects of
storage.schemas; errors are StorageError(code, **params) for the front ends to word.
"""

from .errors import StorageError
from .migrate import migrate
from .schemas import HardwareSpec, NewQuery
from .settings import StorageSettings
from .store import Storage

__all__ = ["HardwareSpec", "NewQuery", "Storage", "StorageError", "StorageSettings", "migrate"]
