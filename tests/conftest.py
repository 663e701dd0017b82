from pathlib import Path

import pytest

from estimator.models import catalog

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def arch():
    """Architecture of a catalog model by name."""

    def get(name: str):
        found = catalog.find(name)
        assert found is not None, name
        return found.architecture

    return get
