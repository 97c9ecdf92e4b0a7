"""A tournament in a German-speaking server (`/bredon config language:de`) through the real
discord.py, with a German-speaking player (`/profile settings language:de`) and English-speaking
ones: its public posts (the call to sign up, a round's pairings, a forfeit, the stopped game,
an answer shown to the channel) are in German, and each player's private answers and refusals
in their own language; the longest German tournament texts still fit Discord's limits."""

from __future__ import annotations

from datetime import UTC, datetime

import discord
import pytest

from bot.games.model import GameSetup, TiebreakRule
from bot.languages import speaking
from bot.players.model import PlayerRef
from bot.timekeeping.control import PER_MOVE
from bot.tournaments import Scoring, Standing
from bot.tournaments.service import MAX_NAME_LENGTH
from bot.tournaments.tournament import (
    Entrant,
    EntrantStatus,
    PairingView,
    RoundView,
    StandingRow,
    TournamentFormat,
    TournamentStatus,
    TournamentView,
)
from cogs.words import tournament_messages
from rendering.pairings import render_pairings
from tak import Opening
from tests.cogs.commands.test_tournament import Club, embed_titles
from tests.cogs.conftest import World
from tests.cogs.test_translations import embed_size

GERMAN_TABLE_HEADER = ["#", "Spieler", "S-R-N", "Wertung", "PP"]


@pytest.fixture
async def club(world: World) -> Club:
    return Club(world)


def header(embed: discord.Embed) -> list[str]:
    assert embed.description is not None
    return embed.description.strip("`\n").splitlines()[0].split()[:5]


async def test_a_round_in_a_german_server_with_a_german_and_english_players(club: Club) -> None:
    alice, bob, carol, dave = club.players
    olga = club.olga
    configured = await olga.slash(club.channel, "bredon config", language="de")
    assert "**Deutsch**" in configured.response.content
    chosen = await alice.slash(club.channel, "profile settings", language="de")
    assert "Sprache: **Deutsch**." in chosen.response.content

    created = await club.create(format="swiss", swiss_rounds=3, games=1)
    assert "is open for sign-up" in created.response.content  # Olga's Discord speaks English
    [call] = club.channel_posts()
    assert call.embeds[0].title == "Neues Turnier: Spring Open"
    described = call.embeds[0].description or ""
    assert "**Format:** Schweizer System mit 3 Runden, 1 Partie je Match" in described
    assert "Melde dich an mit `/turnier anmelden turnier:Spring Open`." in described

    joined = await alice.slash(club.channel, "tournament join")
    assert joined.response.content.startswith("Du bist in **Spring Open** dabei (1 von höchstens")
    joined = await bob.slash(club.channel, "tournament join")
    assert joined.response.content.startswith("You are in **Spring Open** (2 of at most")
    for player in (carol, dave):
        await player.slash(club.channel, "tournament join")

    started = await olga.slash(club.channel, "organize start")
    assert "has started" in started.response.content
    again = await alice.slash(club.channel, "tournament join")
    assert again.response.content == "Du bist schon für Spring Open angemeldet."
    again = await bob.slash(club.channel, "tournament join")
    assert again.response.content == "You are already signed up for Spring Open."
    refused = await alice.slash(club.channel, "tournament leave")
    assert refused.ephemeral and refused.response.content == (
        "Das geht jetzt nicht (dich abmelden – zieh dich stattdessen zurück): Spring Open hat "
        "schon begonnen."
    )
    refused = await bob.slash(club.channel, "tournament leave")
    assert refused.response.content == (
        "You cannot leave it (withdraw instead): Spring Open has already started."
    )

    # The round's posts in the server's language.
    posts = club.channel_posts()
    assert "**Spring Open** hat begonnen!" in [m.content for m in posts]
    [round_one] = [m for m in posts if "Spring Open: Runde 1 von 3" in embed_titles([m])]
    assert round_one.content == "**Spring Open: Runde 1 von 3** beginnt."
    lines = (round_one.embeds[0].description or "").splitlines()
    assert len(lines) == 2 and all(line.endswith("0 - 0 **" + line.split("**")[-2] + "** (läuft)")
                                   for line in lines)  # fmt: skip
    anchors = [m.content for m in posts if m.content.startswith("Spring Open, Runde 1: <@")]
    assert len(anchors) == 2 and all(" gegen <@" in text for text in anchors), anchors

    # Private answers in each player's language.
    suggested = await alice.autocomplete(club.channel, "tournament info", "tournament", "spr")
    assert suggested == [{"name": "Spring Open (läuft)", "value": "Spring Open"}]
    suggested = await bob.autocomplete(club.channel, "tournament info", "tournament", "spr")
    assert suggested == [{"name": "Spring Open (running)", "value": "Spring Open"}]
    unknown = await alice.slash(club.channel, "tournament info", tournament="Autumn Cup")
    assert unknown.response.content == "Auf diesem Server gibt es kein Turnier namens 'Autumn Cup'."
    info = (await alice.slash(club.channel, "tournament info")).response
    assert info.ephemeral and info.embeds[0].title == "Spring Open (läuft)"
    assert "**Turnierleitung:** " in (info.embeds[0].description or "")
    assert info.embeds[0].fields[0].name == "Spieler (nach Setzplatz)"
    info = (await bob.slash(club.channel, "tournament info")).response
    assert info.embeds[0].title == "Spring Open (running)"
    assert info.embeds[0].fields[0].name == "Players (by seed)"
    standings = (await alice.slash(club.channel, "tournament standings")).response
    [embed] = standings.embeds
    assert embed.title == "Spring Open: Tabelle (nach Runde 1)"
    assert header(embed) == GERMAN_TABLE_HEADER
    assert embed.footer.text == (
        "Wertung: Matchpunkte. PP: Partiepunkte. "
        "+Nb: Freilose, erbetene mitgezählt (eines zählt 1 Punkt, wie ein Remis)."
    )
    standings = (await bob.slash(club.channel, "tournament standings")).response
    assert standings.embeds[0].title == "Spring Open: standings (after round 1)"
    assert header(standings.embeds[0]) == ["#", "Player", "W-D-L", "Score", "GP"]

    # The pairings picture speaks as its embed does.
    for player, language, title in ((alice, "de", "Runde 1 von 3"), (bob, "en", "round 1 of 3")):
        pairings = (await player.slash(club.channel, "tournament pairings")).response
        assert pairings.embeds[0].title == f"Spring Open: {title}"
        with speaking(language):
            shown = await club.services.pictures.round(1)
        assert shown.words.white == ("Weiß" if language == "de" else "White")
        [picture] = pairings.attachments
        assert await picture.read() == render_pairings(shown, "default")

    # Bob shows the standings to the channel: in the server's language, not his.
    shown = await bob.slash(club.channel, "tournament standings", public=True)
    assert shown.response.content.startswith("Shown in the channel")
    public = club.channel_posts()[-1]
    assert public.embeds[0].title == "Spring Open: Tabelle (nach Runde 1)"
    assert header(public.embeds[0]) == GERMAN_TABLE_HEADER

    # An organizer's forfeit is announced in German, and so is the game it stops.
    [game] = [g for g in await club.active_games() if alice.id in (g.white.id, g.black.id)]
    await olga.slash(club.channel, "organize forfeit", player=alice.user)
    forfeit = club.channel_posts()[-1].content
    assert forfeit.startswith("Runde 1: **") and forfeit.endswith("alice gewinnt kampflos")
    thread = club.thread(game.thread_id)
    stopped = club.world.last_bot_message(thread).content
    assert stopped == (
        f"Partie #{game.id} ist gestoppt: ihr Match wurde kampflos entschieden. Sie wird weder "
        "gewertet noch gezählt; ihre Züge bleiben erhalten."
    )


def longest_tournament() -> TournamentView:
    """A groups -> knockout event of 64 players under the longest name, in a late round, with
    every line its settings can have."""
    now = datetime(2026, 11, 26, tzinfo=UTC)
    setup = GameSetup(8, 2.5, Opening.SWAP, (50, 50), (2, 2), 14, True, clock=PER_MOVE)
    return TournamentView(
        id=1, guild_id=1, channel_id=1, name="W" * MAX_NAME_LENGTH,
        format=TournamentFormat.GROUPS, swiss_rounds=None, setup=setup, games_per_match=9,
        scoring=Scoring(), max_players=64, signup_deadline=now,
        organizer=PlayerRef(10**18, "o" * 32), status=TournamentStatus.RUNNING,
        current_round=19, rounds_total=20, winner=None, player_count=64, created_at=now,
        started_at=now, finished_at=None, group_count=8, group_advance=8,
        tiebreaks=TiebreakRule(games=9),
    )  # fmt: skip


def test_the_longest_german_tournament_texts_fit_discords_limits() -> None:
    tournament = longest_tournament()
    names = [PlayerRef(10**17 + i, chr(0x5A0 + i % 40) * 32) for i in range(64)]
    rows = [
        StandingRow(
            Standing(
                i + 1, player.id, 30, 10, 10, 10, 3, 99999, 100.5, 100.5, (99.5, 999.5, 999.5)
            ),
            player,
            EntrantStatus.DISQUALIFIED,
            group=i % 8,
        )
        for i, player in enumerate(names)
    ]
    pairings = tuple(
        PairingView(
            id=i, tournament_id=1, round=19, player1=names[2 * i], player2=names[2 * i + 1],
            match_id=i, points1=99, points2=98, winner=names[2 * i], forfeit=True,
            decided_at=None, requested=True,
        )
        for i in range(32)
    )  # fmt: skip
    entrants = [
        Entrant(p, 64 - i, EntrantStatus.WITHDRAWN, tournament.created_at, group=i % 8)
        for i, p in enumerate(names)
    ]
    sizes = {}
    for language in ("de", "en"):
        with speaking(language):
            embeds = [
                tournament_messages.created_embed(tournament),
                tournament_messages.info_embed(tournament, entrants),
                tournament_messages.standings_embed(tournament, rows),
                tournament_messages.round_embed(tournament, RoundView(19, pairings)),
            ]
            texts = [
                tournament_messages.round_begins_text(tournament, 19),
                tournament_messages.late_entry_text(tournament, names[0].id, 19),
                tournament_messages.replaced_text(tournament, names[0].id, names[1].id),
                tournament_messages.bye_request_text(
                    tournament, names[0].name, 19, withdrawn=False
                ),
                tournament_messages.decided_text(list(pairings)) or "",
            ]
        for embed in embeds:
            assert len(embed.title or "") <= 256, embed.title
            assert len(embed.description or "") <= 4096
            assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in embed.fields)
            assert len(embed.fields) <= 25 and embed_size(embed) <= 6000
        assert all(len(text) <= 2000 for text in texts[:4])
        sizes[language] = [embed_size(embed) for embed in embeds]
    # German is longer: the settings.
    assert sizes["de"][0] > sizes["en"][0]
    with speaking("de"):
        standings = tournament_messages.standings_embed(tournament, rows)
        created = tournament_messages.created_embed(tournament)
    assert (standings.title or "").endswith(": Tabelle (nach Runde 19)")
    assert (standings.description or "").endswith("\n…\n```")  # cut, its code block closed
    assert "**Stichkampf:** ein unentschiedenes K.-o.-Match bekommt bis zu 9" in (
        created.description or ""
    )
