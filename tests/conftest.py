"""Fixtures shared by the pytest groups (tests/python, tests/faults)."""

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def bindir() -> Path:
    build = Path(os.environ.get("ORDO_BUILD", Path(__file__).resolve().parents[1] / "build"))
    d = build.resolve() / "bin"
    if not (d / "ordorun").exists():
        pytest.fail(f"{d}/ordorun not built: run make first")
    return d
