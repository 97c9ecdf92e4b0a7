"""Clocks, coins, notifications and players in German: a German server's clock news, a German
player's DMs and digest in an English server (its thread's posts stay English), and private
answers in the asker's language (a public one in the server's)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from simcord import assert_error

from tests.cogs.commands.test_clock import opened
from tests.cogs.commands.test_coins import labels
from tests.cogs.conftest import World, advance
from tests.cogs.presenters.test_digests import choose_digest, digests, dms


async def speaks_german(world: World, actor) -> None:
    chosen = await actor.slash(world.channel, "profile settings", language="de")
    assert "Sprache: **Deutsch**." in chosen.response.content


async def server_speaks(world: World, language: str) -> None:
    guilds = world.env.bot.services.guilds
    await guilds.save(replace(await guilds.get(world.guild.id), language=language))


async def test_a_german_servers_clock_news_are_in_german(world: World) -> None:
    """A pause proposed, more time given and a vacation taken: the posts in the server's
    language (German), each private reply in its asker's (Alice German, Bob English)."""
    alice, bob = world.alice, world.bob
    thread = await opened(world, days=2)
    await server_speaks(world, "de")
    await speaks_german(world, alice)

    await alice.slash(thread, "clock pause")
    proposal = world.last_bot_message(thread).content
    assert proposal.startswith(f"{alice.mention} schlägt vor, Partie #1 zu pausieren")
    assert "`/uhr fortsetzen`" in proposal and f"{bob.mention}, bist du einverstanden?" in proposal

    given = await bob.slash(thread, "clock moretime", time="12h")
    assert given.response.content.startswith("You gave alice 12h more")  # Bob's English
    news = world.last_bot_message(thread).content
    assert news.startswith(f"{bob.mention} hat {alice.mention} in Partie #1 12h mehr geschenkt.")
    assert " Die Zeit läuft <t:" in news

    taken = await alice.slash(thread, "clock vacation start", days=3)
    assert taken.response.content.startswith("Du bist im Urlaub bis <t:")
    assert "(Partien: #1)" in taken.response.content
    assert taken.response.content.endswith("Urlaubstage übrig in diesem Jahr: 11.")
    vacation = world.last_bot_message(thread).content
    assert vacation.startswith(f"{alice.mention} ist bis <t:")
    assert "Die Uhr von Partie #1 steht bis dahin. Züge sind weiter möglich." in vacation
    twice = await alice.slash(thread, "clock vacation start", days=1)
    assert twice.response.content.startswith("Du bist schon bis <t:")
    status = await bob.slash(thread, "clock vacation status")
    assert status.response.content == (
        "You have used 0 of 14 vacation days this year; 14 left."  # Bob still in English
    )


async def test_a_german_players_reminder_dm_is_german_while_the_thread_is_english(
    world: World,
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await speaks_german(world, bob)
    await choose_digest(bob, world, 8, "Asia/Tokyo")  # 23:00 UTC: after the reminder
    thread = await world.start_game(size=5, days=1)
    await world.move(alice, thread, "a1")
    await advance(env, timedelta(hours=19, minutes=13))  # 80% of a day
    posted = world.last_bot_message(thread).content
    assert posted.startswith(f"{bob.mention}, reminder: it is your move in game #1.")
    [reminder] = [m for m in dms(bob) if "Erinnerung" in m.content]
    assert reminder.content.startswith(
        f"{bob.mention}, Erinnerung: Du bist in Partie #1 am Zug. Die Zeit läuft <t:"
    )
    assert f"/{thread.id}/" in reminder.content
    assert not [m for m in dms(bob) if "reminder" in m.content]


async def test_a_german_players_digest_is_german_in_an_english_server(world: World) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    await speaks_german(world, bob)
    reply = await bob.slash(
        world.channel, "profile settings", notify="digest", digest_hour=8, time_zone="UTC"
    )
    assert "**eine tägliche Zusammenfassung** per Direktnachricht um 08:00 Uhr UTC" in (
        reply.response.content
    )
    thread = await world.start_game(size=5, days=7)
    await world.move(alice, thread, "a1")
    assert "a1" in world.last_bot_message(thread).content  # the thread's post
    await advance(env, timedelta(hours=24))
    [digest] = [m for m in dms(bob) if "Tak-Zusammenfassung" in m.content]
    lines = digest.content.splitlines()
    assert lines[0] == (
        "Deine tägliche Tak-Zusammenfassung für **Tak Club**: 1 Partie wartet auf deinen Zug."
    )
    assert lines[1].startswith("- Partie #1, ") and "noch 6 Tage" in lines[1]
    assert f"/{thread.id}" in lines[1]
    assert digests(bob) == []  # nothing in English


async def test_wallet_and_scores_answer_in_the_askers_language(world: World) -> None:
    alice, bob = world.alice, world.bob
    services = world.env.bot.services
    await services.wallets.configure(world.guild.id, enabled=True, starting_balance=100)
    await speaks_german(world, alice)

    wallet = await alice.slash(world.channel, "coins wallet")
    assert wallet.ephemeral
    assert wallet.response.content.splitlines()[:2] == [
        "**alice** hat **100** Münzen auf diesem Server.",
        "Letzte Bewegungen:",
    ]
    assert wallet.response.content.splitlines()[2].startswith("+100 Startmünzen (<t:")
    english = await bob.slash(world.channel, "coins wallet")
    assert english.response.content.startswith("**bob** has **100** coins in this server.")

    scores = await alice.slash(world.channel, "profile scores")
    assert scores.ephemeral
    assert scores.response.content == (
        "alice hat auf diesem Server noch keine beendete Partie.\n"
        "alice hat noch keine Wertung: Wertungen entstehen aus gewerteten Partien."
    )
    # Shown to the channel: in the server's language (English here), whoever asks.
    await alice.slash(world.channel, "profile scores", public=True)
    shown = world.last_bot_message(world.channel).content
    assert shown.startswith("alice has no finished games in this server yet.")
    board = await alice.slash(world.channel, "coins leaderboard")
    assert board.response.embeds[0].title == "Münzen"


@pytest.mark.error_logs
async def test_an_apology_is_in_the_askers_language_even_when_the_store_fails(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread = await world.start_game(size=4)
    await speaks_german(world, world.alice)

    async def broken(*args: object) -> str:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.env.bot.services.lookup, "record", broken)
    result = await world.alice.slash(thread, "game ptn", game=1)
    assert result.ephemeral and result.response.content == (
        "Entschuldige, bei mir ist etwas schiefgegangen. Es wurde protokolliert; bitte versuch "
        "es später noch einmal."
    )
    english = await world.bob.slash(thread, "game ptn", game=1)
    assert english.response.content.startswith("Sorry, something went wrong on my side.")
    # The players' languages cannot be read either: their Discord's (English here) answers.
    monkeypatch.setattr(world.env.bot.services.players, "speaks_known", broken)
    blind = await world.alice.slash(thread, "game ptn", game=1)
    assert blind.response.content.startswith("Sorry, something went wrong on my side.")
    assert_error(world.env, RuntimeError, contains="disk on fire")


async def test_bidding_in_a_german_server_and_each_bidders_form_in_their_language(
    world: World,
) -> None:
    alice, bob = world.alice, world.bob
    await world.env.bot.services.wallets.configure(world.guild.id, enabled=True)
    message = await world.challenge(opponent=bob, stakes=True, size=5)
    await server_speaks(world, "de")
    await speaks_german(world, bob)
    await bob.click(message, label="Accept")
    bidding = world.last_bot_message(world.channel)
    assert labels(bidding) == ["Bieten"]
    assert "Die Partie wird um Münzen gespielt. Im Topf liegen **20** Münzen" in bidding.content

    form = await bob.click(bidding, label="Bieten")
    assert "Dein verdecktes Gebot für den ersten Zug" in str(form.modal)
    assert "Münzen, 0 bis 90" in str(form.modal)
    sealed = await bob.submit_modal(form, {"bid": "5"})
    sealed_text = sealed.response.content
    assert sealed_text.startswith("Dein verdecktes Gebot von **5** Münzen ist abgegeben.")
    form = await alice.click(bidding, label="Bieten")
    assert "Coins, 0 to 90" in str(form.modal)  # Alice's Discord speaks English
    started = await alice.submit_modal(form, {"bid": "3"})
    assert "Both bids are in: game #1 starts" in started.response.content
    revealed = world.bot_messages(world.channel)[1].content
    assert "Die Gebote: alice Gebot 3, bob Gebot 5. **bob** beginnt und hat **5** Münzen" in (
        revealed
    )
