"""What the pages keep between requests: the least recently used forgotten past a bound."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class Kept(Generic[Value]):
    def __init__(self, most: int) -> None:
        self._most = most
        self._values: OrderedDict[Hashable, Value] = OrderedDict()

    def get(self, key: Hashable) -> Value | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: Hashable, value: Value) -> Value:
        self._values[key] = value
        self._values.move_to_end(key)
        if len(self._values) > self._most:
            self._values.popitem(last=False)
        return value
