"""A team league through the real discord.py: three teams of two boards, one with a substitute
who plays a round, lineups set by the captains before the deadline, a bye each round, the games
made at each deadline and played by `/tak move`, and the final table; the refusals, in German
too."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest
import simcord

from tests.bot.setups import games_in_channel
from tests.cogs.commands.test_tournament import BLACK_ROAD, WHITE_ROAD, Club
from tests.cogs.conftest import World, advance
from tests.cogs.discord_locale import discord_in


class LeagueClub(Club):
    """The tournaments' club (an organizer with Manage Server, four players) and three more
    players: seven."""

    def __init__(self, world: World) -> None:
        super().__init__(world)
        self.eve, self.fay, self.gus = (
            world.guild.add_member(self.env.create_user(name)) for name in ("eve", "fay", "gus")
        )
        self.players += [self.eve, self.fay, self.gus]
        self.by_id = {actor.id: actor for actor in self.players}

    def posts(self) -> list[discord.Message]:
        return self.channel_posts()

    async def ask(self, actor: simcord.MemberActor, command: str, **options) -> str:
        result = await actor.slash(self.channel, command, **options)
        assert result.ephemeral, result.response.content
        return result.response.content

    async def play_round(self, stronger: set[int]) -> int:
        """Every game in progress won by the player of `stronger`, else by white."""
        played = 0
        for game in await games_in_channel(self.services, self.channel.id):
            white_wins = game.white.id in stronger or game.black.id not in stronger
            for text in (WHITE_ROAD if white_wins else BLACK_ROAD).split():
                current = await self.services.games.get(game.id)
                mover = self.by_id[current.player_to_move.id]
                result = await mover.slash(self.thread(game.thread_id), "tak move", ptn=text)
                assert result.response is None or result.ephemeral, result.response.content
            played += 1
        return played


@pytest.fixture
async def club(world: World) -> LeagueClub:
    return LeagueClub(world)


async def test_three_teams_of_two_boards_with_a_substitute_play_a_league(club: LeagueClub) -> None:
    alice, bob, carol = club.world.alice, club.world.bob, club.world.carol
    olga, dave, eve, fay, gus = club.olga, club.dave, club.eve, club.fay, club.gus
    created = await club.ask(
        olga,
        "organize league create",
        name="Winter League",
        boards=2,
        size=3,
        komi=0,
        days=2,
        round_days=1,
    )
    assert "**Winter League** is created: 2 boards a match" in created
    for team, captain in (("Rooks", alice), ("Bishops", carol), ("Knights", eve)):
        added = await club.ask(olga, "organize league addteam", name=team, captain=captain)
        assert f"**{team}** is in Winter League" in added
    for captain, player in ((alice, bob), (alice, gus), (carol, dave), (eve, fay)):
        roster = await club.ask(captain, "league roster add", player=player)
        assert player.name in roster
    assert "Only a team's captain" in await club.ask(bob, "league roster add", player=dave)
    assert "already on Rooks" in await club.ask(carol, "league roster add", player=gus)
    assert "needs at least 2 players" in await club.ask(carol, "league roster remove", player=dave)
    teams = await club.ask(fay, "league teams")
    assert "**Rooks** (captain alice): alice, bob, gus." in teams

    started = await club.ask(olga, "organize league start")
    assert "**Winter League** has started." in started
    schedule = club.posts()[-1]
    assert "has started" in schedule.content
    [embed] = schedule.embeds
    assert embed.title == "Winter League: the schedule"
    assert (embed.description or "").count("has a bye.") == 3

    league = await club.services.leagues.named(club.world.guild.id, "Winter League")
    rooks = next(t for t in await club.services.leagues.teams(league.id) if t.name == "Rooks")
    rooks_rounds = [
        m.round
        for m in await club.services.leagues.matches(league.id)
        if rooks.id in (m.home_id, m.away_id) and not m.is_bye
    ]
    substitute_round = rooks_rounds[0]
    # The captain fields the substitute on board 1 in the Rooks' first match.
    set_up = await club.ask(
        alice, "league lineup", board1=gus, board2=alice, round=substitute_round
    )
    assert f"Your lineup for round {substitute_round}" in set_up and "1: gus, 2: alice" in set_up
    refusal = await club.ask(alice, "league lineup", board1=dave, round=substitute_round)
    assert refusal == "That player is not on the roster of Rooks."
    with discord_in(club.env, alice, "de"):
        german = await club.ask(alice, "league lineup", board1=dave, round=substitute_round)
    assert german == "Dieser Spieler steht nicht im Kader von Rooks."
    assert "Only a team's captain" in await club.ask(bob, "league lineup", board1=bob)

    rounds = await club.services.leagues.rounds(league.id)
    for round_view in rounds:
        await advance(club.env, round_view.lineup_deadline - club.services.clock.now())
        await advance(club.env, timedelta(minutes=1))
        begun = [p for p in club.posts() if "the games begin" in p.content]
        assert len(begun) == round_view.number
        [boards] = begun[-1].embeds
        assert boards.title == f"Winter League: round {round_view.number}"
        text = boards.description or ""
        assert "has a bye." in text and "(white) vs" in text
        if round_view.number == substitute_round:
            assert f"Board 1: {gus.mention} (white)" in text or f"{gus.mention} (black)" in text
        anchors = [p.content for p in club.posts() if ": Board " in p.content]
        assert len([a for a in anchors if f"round {round_view.number}, " in a]) == 2
        assert all("(white) vs" in a for a in anchors)
        late = await club.ask(alice, "league lineup", board1=alice, round=round_view.number)
        assert late == f"The deadline for the lineups of round {round_view.number} has passed."
        assert await club.play_round({alice.id, bob.id, gus.id}) == 2  # the Rooks win

    [final] = [p for p in club.posts() if p.content.startswith("🏆 **Winter League** is over")]
    assert final.content == "🏆 **Winter League** is over: **Rooks** wins!"
    [table] = final.embeds
    assert table.title == "Winter League: standings (final)"
    assert [a.filename for a in final.attachments] == ["standings.png"]
    standings = await bob.slash(club.channel, "league standings")
    [embed] = standings.response.embeds
    rows = (embed.description or "").strip("`\n").splitlines()
    assert rows[0].split() == ["#", "Team", "W-D-L", "MP", "GP"]
    body = [row.split() for row in rows[1:]]
    # The Rooks won both their matches 2-0; the others drew theirs 1-1 (white won both boards)
    # and share second place.
    assert body[0] == ["1", "Rooks", "2-0-0", "4", "4"]
    assert sorted(body[1:]) == [
        ["2", "Bishops", "0-1-1", "1", "1"],
        ["2", "Knights", "0-1-1", "1", "1"],
    ]
    with discord_in(club.env, bob, "de"):
        german = await bob.slash(club.channel, "league standings")
    [tabelle] = german.response.embeds
    assert tabelle.title == "Winter League: Tabelle (Endstand)"
    assert (tabelle.description or "").strip("`\n").splitlines()[0].split() == [
        "#",
        "Team",
        "S-R-N",
        "MP",
        "PP",
    ]
    match = await gus.slash(club.channel, "league match", round=substitute_round)
    [shown] = match.response.embeds
    lines = (shown.description or "").splitlines()
    assert lines[0].startswith("**Rooks** 2–0 **") or lines[0].endswith(" 0–2 **Rooks**")
    boards = [line for line in lines if line.startswith("Board")]
    assert gus.mention in boards[0]
    for line in boards:  # each score in the order of the players named: white first
        rooks_white = line.split(" (white)")[0].split(": ")[1] in (alice.mention, gus.mention)
        assert line.endswith("— 1–0" if rooks_white else "— 0–1"), line


async def test_a_lineup_deadline_missed_while_the_bot_was_down_is_kept_at_start(
    club: LeagueClub, new_bot
) -> None:
    alice, carol = club.world.alice, club.world.carol
    await club.ask(club.olga, "organize league create", name="Duel", boards=1, round_days=1)
    for team, captain in (("Rooks", alice), ("Bishops", carol)):
        await club.ask(club.olga, "organize league addteam", name=team, captain=captain)
    await club.ask(club.olga, "organize league start")
    # The bot is down past the deadline: simulated time passes with no scheduler running.
    await club.env.restart_bot(new_bot())
    await club.env.bot.scheduler.stop()
    await advance(club.env, timedelta(days=2))
    assert not [p for p in club.posts() if "the games begin" in p.content]
    await club.env.restart_bot(new_bot())  # the schedule is rebuilt from the database
    [begun] = [p for p in club.posts() if "the games begin" in p.content]
    [boards] = begun.embeds
    description = boards.description or ""
    assert any(
        f"Board 1: {white.mention} (white) vs {black.mention} (black)" in description
        for white, black in ((alice, carol), (carol, alice))
    )


async def duel(club: LeagueClub, **options) -> str:
    """A league of one board a match: Rooks (alice, bob) and Bishops (carol, dave); what its
    creation answered."""
    alice, bob, carol, dave = club.world.alice, club.world.bob, club.world.carol, club.dave
    created = await club.ask(club.olga, "organize league create", name="Duel", boards=1, **options)
    for team, captain, mate in (("Rooks", alice, bob), ("Bishops", carol, dave)):
        await club.ask(club.olga, "organize league addteam", name=team, captain=captain)
        await club.ask(captain, "league roster add", player=mate)
    return created


async def test_captains_who_have_set_no_lineup_are_reminded_once(club: LeagueClub) -> None:
    alice, carol = club.world.alice, club.world.carol
    created = await duel(club, round_days=3, double=True)
    assert created.endswith("Each pair of teams meets twice, home and away swapped.")
    await club.olga.slash(club.channel, "bredon config", language="de")
    await club.ask(club.olga, "organize league start")
    await club.ask(alice, "league lineup", board1=alice)
    league = await club.services.leagues.named(club.world.guild.id, "Duel")
    [first, second] = await club.services.leagues.rounds(league.id)
    await advance(club.env, first.lineup_deadline - club.services.clock.now() - timedelta(hours=25))
    assert not [p for p in club.posts() if p.content.startswith("⏰")]
    await advance(club.env, timedelta(hours=1, minutes=1))
    [reminder] = [p for p in club.posts() if p.content.startswith("⏰")]
    assert reminder.content.startswith(
        f"⏰ {carol.mention}: eure Aufstellung für **Duel: Runde 1** ist <t:"
    )
    assert alice.mention not in reminder.content
    await advance(club.env, timedelta(hours=23))
    assert len([p for p in club.posts() if p.content.startswith("⏰")]) == 1
    # The return match: nobody has set a lineup, both captains are reminded.
    await advance(
        club.env, second.lineup_deadline - club.services.clock.now() - timedelta(hours=23)
    )
    *_, again = [p for p in club.posts() if p.content.startswith("⏰")]
    assert again.content.startswith(
        f"⏰ {carol.mention}, {alice.mention}: "
    ) or again.content.startswith(f"⏰ {alice.mention}, {carol.mention}: ")
    assert "**Duel: Runde 2**" in again.content


async def test_organizers_remove_a_team_change_a_captain_and_cancel(club: LeagueClub) -> None:
    alice, bob, carol, eve = club.world.alice, club.world.bob, club.world.carol, club.eve
    olga = club.olga
    await duel(club, round_days=1)
    await club.ask(olga, "organize league addteam", name="Knights", captain=eve)
    removed = await club.ask(olga, "organize league removeteam", team="knights")
    assert removed == "**Knights** is out of Duel."
    missing = await club.ask(olga, "organize league removeteam", team="Pawns")
    assert missing == "Duel has no team called 'Pawns'."
    with discord_in(club.env, olga, "de"):
        german = await club.ask(olga, "organize league removeteam", team="Pawns")
    assert german == "Duel hat keine Mannschaft namens 'Pawns'."
    await club.ask(olga, "organize league start")
    refused = await club.ask(olga, "organize league removeteam", team="Rooks")
    assert refused == "Duel has started: its teams stay."

    not_on = await club.ask(olga, "organize league captain", team="Rooks", player=carol)
    assert not_on == "That player is not on the roster of Rooks."
    changed = await club.ask(olga, "organize league captain", team="Rooks", player=bob)
    assert changed == "bob is now the captain of **Rooks**: they set its lineups."
    with discord_in(club.env, olga, "de"):
        again = await club.ask(olga, "organize league captain", team="Rooks", player=bob)
    assert again == "bob ist schon Mannschaftsführer von Rooks."
    assert "Only a team's captain" in await club.ask(alice, "league lineup", board1=alice)
    assert "Your lineup for round 1" in await club.ask(bob, "league lineup", board1=alice)

    await advance(club.env, timedelta(days=1, minutes=1))
    [game] = await games_in_channel(club.services, club.channel.id)
    cancelled = await club.ask(olga, "organize league cancel")
    assert cancelled == "**Duel** is cancelled: 1 game stopped."
    stopped = club.world.last_bot_message(club.thread(game.thread_id)).content
    assert stopped.startswith(f"Game #{game.id} is stopped: Duel was cancelled.")
    [news] = [p for p in club.posts() if "is cancelled by its organizers" in p.content]
    [table] = news.embeds
    assert table.title == "Duel: standings (cancelled)"
    assert [a.filename for a in news.attachments] == ["standings.png"]
    over = await club.ask(olga, "organize league cancel")
    assert over == "Duel is over."
    standings = await bob.slash(club.channel, "league standings")
    [picture] = standings.response.attachments
    assert picture.filename == "standings.png"
