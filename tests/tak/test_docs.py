"""The examples in the engine's docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tak

MODULES = [info.name for info in pkgutil.iter_modules(tak.__path__, "tak.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(name), raise_on_error=False)
    assert failures == 0
