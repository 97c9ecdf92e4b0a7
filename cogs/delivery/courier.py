"""The courier: delivers the outbox (:mod:`bot.notifications.outbox`) to Discord.

It runs in the background, woken when something was enqueued (:meth:`Courier.kick`) or when the next
retry is due, and delivers every item that is ready, one at a time, each through
:meth:`cogs.delivery.table.GameTable.show` (to the presenter of its kind, :mod:`cogs.presenters`).
Whoever acted (a move, a resignation) first has their game's items delivered at once
(:meth:`Courier.deliver_stream`) so the reply can link the post, or say truthfully that it is late.

What a failure does:
- Discord refused the place for good (403/404) and every fallback too
  (:class:`cogs.delivery.table.Undeliverable`): logged as an error with the game, settled as given
  up.
- Discord failed for now (5xx, 429, the network): retried with backoff, for as long as it takes;
  a game waiting for its announcement cannot lose on time meanwhile.
- The store could not answer (busy, unwritable, unreachable: :func:`bot.work.waking.store_outage`)
  while an item was being shown: its claim is given back, no attempt counted, and the whole loop
  waits for the store (:class:`bot.work.waking.Waker`), then delivers it.
- Anything else (another 4xx, a bug of ours): logged with the traceback, retried with backoff,
  and given up after :data:`MAX_ATTEMPTS_AFTER_A_BUG` such failures, so it cannot hold its
  game's stream for ever.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta

import aiohttp
import discord
from discord.ext import commands

from bot.deadlines.service import DeadlineReport
from bot.languages import _
from bot.notifications.outbox import Item, Outcome
from bot.work.waking import Waker, store_outage
from cogs.client import BredonBot
from cogs.delivery.table import GameTable, Shown, Undeliverable

log = logging.getLogger(__name__)

MAX_ATTEMPTS_AFTER_A_BUG = 8
IDLE_LOOK = timedelta(minutes=10)  # look at the outbox at least this often (other processes)


def transient(error: BaseException) -> bool:
    """A failure of Discord that time cures: its 5xx and rate limits, the network."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError)


@dataclass
class StreamReport:
    """What delivering one stream now did, for the reply to whoever acted."""

    shown: list[Shown] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    pending: int = 0  # still to deliver afterwards

    @property
    def last_shown(self) -> Shown | None:
        return next((s for s in reversed(self.shown) if s.link is not None), None)

    @property
    def last_link(self) -> str | None:
        last = self.last_shown
        return None if last is None else last.link

    @property
    def given_up(self) -> bool:
        """Nothing left to try: Discord refused a post everywhere it could go."""
        return self.pending == 0 and any(s.outcome is Outcome.GIVEN_UP for s in self.shown)

    def posted_in(self, channel_id: int | None) -> bool:
        """Whether everything went out, the last post where it belongs and in `channel_id`
        (where whoever acted is looking, so the post itself tells them)."""
        last = self.last_shown
        if self.pending or self.failures or last is None or last.link is None:
            return False
        if last.outcome is not Outcome.POSTED:
            return False
        return channel_id is not None and last.link.split("/")[-2] == str(channel_id)

    def reply(self, done: str, late: str) -> str:
        """The truth for whoever acted: `done` with a link to the post, or `late` (what was
        saved) and what became of its post."""
        outcomes = {s.outcome for s in self.shown}
        if self.given_up:
            return _(
                "{late}, but Discord refused the post everywhere (the game's thread, its channel "
                "and the players' DMs); a server manager should check my permissions.",
                late=late,
            )
        if self.pending == 0 and self.shown and all(s.by_dm_only for s in self.shown):
            return _("{done}, told to both players by DM", done=done)
        if self.pending == 0 and Outcome.FALLBACK in outcomes:
            last = self.last_shown
            if last is not None and last.in_guild:
                return _(
                    "{done} (the game's thread is gone or closed to me, so elsewhere): {link}",
                    done=done,
                    link=last.link,
                )
            return _(
                "{done} (the game's thread is gone or closed to me, so elsewhere), by DM", done=done
            )
        if self.pending == 0 and self.last_link is not None:
            return f"{done}: {self.last_link}"
        if self.failures:
            return _(
                "{late}, but I couldn't post it in the game's thread; I'll keep trying.", late=late
            )
        return _("{late}; the post will follow shortly.", late=late)


class Courier:
    def __init__(self, bot: BredonBot, table: GameTable) -> None:
        self._bot = bot
        self.table = table
        self._outbox = bot.services.outbox
        self._waker = Waker()

    def start(self, before: Callable[[], Awaitable[object]] | None = None) -> None:
        self._waker.start(
            self._look,
            before,
            failure="The courier failed; looking again in a minute.",
            retry_after=timedelta(minutes=1).total_seconds(),
            name="bredon-courier",
        )

    async def stop(self) -> None:
        await self._waker.halt()

    def kick(self) -> None:
        """Something was enqueued: deliver it now (the loop's nap is cut short)."""
        self._waker.kick()

    async def deliver_stream(self, stream: str) -> StreamReport:
        """Deliver what is ready in one stream now (the acting player's game), then wake the
        background loop for whatever the change started elsewhere (a next game, a round)."""
        report = StreamReport()
        try:
            while items := await self._outbox.due(stream=stream):
                progressed = False
                for item in items:
                    shown, error = await self._deliver(item)
                    if shown is not None:
                        report.shown.append(shown)
                        progressed = True
                    if error is not None:
                        report.failures.append(error)
                if not progressed:
                    break
            report.pending = await self._outbox.pending(stream)
        except Exception as error:  # the change is saved: the loop delivers it later
            log.warning("Delivering %s now failed (%s); the courier will retry.", stream, error)
            report.failures.append(str(error))
            report.pending = max(report.pending, 1)
        finally:
            self.kick()
        return report

    async def deliver_due(self) -> int:
        """Deliver every item that is ready; returns how many were settled."""
        settled = 0
        while items := await self._outbox.due():
            before = settled
            for item in items:
                shown, _ = await self._deliver(item)
                settled += shown is not None
            if settled == before:
                break
        return settled

    async def _deliver(self, ready: Item) -> tuple[Shown | None, str | None]:
        """Claim and show one item; (what was shown, or None; the failure, or None)."""
        item = await self._outbox.claim(ready.id)
        if item is None:
            return None, None  # another deliverer has it, or it was settled meanwhile
        where = f"announcement {item.id} ({item.payload.KIND}, {item.stream})"
        try:
            shown = await self.table.show(item)
        except Undeliverable as error:
            log.error("Could not deliver %s anywhere: %s. Given up.", where, error)
            await self._settle(item, Outcome.GIVEN_UP, str(error))
            return Shown(None, Outcome.GIVEN_UP), str(error)
        except Exception as error:
            if store_outage(error):  # not Discord's failure, nor a bug: the loop waits
                await self._outbox.release(item)
                raise
            if transient(error):
                retry_at = await self._outbox.failed(item, f"{type(error).__name__}: {error}")
                log.warning("Discord failed %s: %s; retrying at %s.", where, error, retry_at)
                return None, str(error)
            log.exception("Showing %s failed.", where)
            bugs = item.progress.get("bugs", 0) + 1
            if bugs >= MAX_ATTEMPTS_AFTER_A_BUG:
                await self._settle(item, Outcome.GIVEN_UP, repr(error))
                return Shown(None, Outcome.GIVEN_UP), repr(error)
            await self._outbox.save_progress(item, bugs=bugs)
            await self._outbox.failed(item, repr(error))
            return None, repr(error)
        await self._settle(item, shown.outcome)
        return shown, None

    async def _settle(self, item: Item, outcome: Outcome, error: str | None = None) -> None:
        """Mark the item settled, shown or given up: either way what waited on it goes on (the
        bot's move in a game against it waits until the player's move is settled)."""
        await self._outbox.delivered(item, outcome, error)
        self._bot.dispatch("outbox_settled", item)

    async def _look(self) -> float:
        await self.deliver_due()
        return (await self._pause()).total_seconds()

    async def _pause(self) -> timedelta:
        idle = self._bot.idle_look(IDLE_LOOK)
        next_due = await self._outbox.next_due_at()
        if next_due is None:
            return idle
        wait = next_due - self._bot.services.clock.now()
        return max(timedelta(seconds=1), min(wait, idle))


class CourierCog(commands.Cog):
    """Runs the courier with the bot, and wakes it when the deadline scheduler settled
    something."""

    def __init__(self, bot: BredonBot) -> None:
        table = GameTable(bot, bot.services)  # the presenters register on it: tree.install
        self.courier = Courier(bot, table)
        self._bot = bot

    async def cog_load(self) -> None:
        self.courier.start(before=self._bot.wait_until_ready)

    async def cog_unload(self) -> None:
        await self.courier.stop()
        await self.courier.table.close()

    @commands.Cog.listener()
    async def on_deadline_report(self, report: DeadlineReport) -> None:
        self.courier.kick()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """An interaction from a conversation Bredon is not in: what the next post there
        answers (:class:`cogs.delivery.conversations.Conversations`)."""
        self.courier.table.conversations.remember(interaction)

    @commands.Cog.listener()
    async def on_outbox_written(self) -> None:
        """The scheduler's other duties (the digests) wrote to the outbox."""
        self.courier.kick()


def courier_of(client: discord.Client) -> Courier:
    """The bot's courier, for code that only has the interaction (buttons, forms)."""
    cog = client.get_cog(CourierCog.__cog_name__) if isinstance(client, commands.Bot) else None
    if not isinstance(cog, CourierCog):
        raise RuntimeError("cogs.commands.tree has not set up the courier")
    return cog.courier
