"""Fixtures of the search tests: the search's buffers, shallow and deep, made once a module."""

from __future__ import annotations

import pytest

from simstats.search import DEEP, search_buffers


@pytest.fixture(scope="module")
def work():
    return search_buffers()


@pytest.fixture(scope="module")
def deep_work():
    """Room for deep searches, with info[DEEP] set: lines go on past the move guard."""
    work = search_buffers(deep=True)
    work.info[DEEP] = 1
    return work
