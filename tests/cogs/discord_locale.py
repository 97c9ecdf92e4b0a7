"""A member whose Discord is in another language. SimCord sends every interaction as from an
English (``en-US``) Discord; Discord itself sends each with the ``locale`` of its user's client.
:func:`discord_in` puts that locale on the wire: it listens to what SimCord's backend emits, ahead
of the gateway that hands it to discord.py, and sets the ``locale`` of the member's interactions,
so the bot reads it the way it reads a real one (``interaction.locale``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import simcord


def _sender(payload: Mapping[str, Any]) -> int | None:
    user = payload.get("member", {}).get("user") or payload.get("user") or {}
    return int(user["id"]) if "id" in user else None


@contextmanager
def discord_in(env: simcord.Env, member: simcord.MemberActor, locale: str) -> Iterator[None]:
    """While it lasts, every interaction of `member` (commands, buttons, forms) comes from a
    Discord in `locale` (``de``, ``en-US``…)."""

    def set_locale(event: str, payload: Mapping[str, Any]) -> None:
        if event == "INTERACTION_CREATE" and _sender(payload) == member.id:
            assert isinstance(payload, dict)  # what SimCord emits: the payload itself
            payload["locale"] = locale

    with rewriting(env, set_locale):
        yield


@contextmanager
def rewriting(
    env: simcord.Env, rewrite: Callable[[str, Mapping[str, Any]], None]
) -> Iterator[None]:
    """While it lasts, `rewrite` changes what SimCord's backend emits (each event's name and
    payload), before the gateway hands it to discord.py."""
    listeners = env.backend.subscribers
    listeners.insert(0, rewrite)
    try:
        yield
    finally:
        listeners.remove(rewrite)
