"""Tournaments through the real discord.py: a round robin created, joined, started and played to
the end by `/tak move`, with the standings, ratings and exports read back; a loss on time that
moves a round on; organizer-only commands refused to everyone else."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import discord
import pytest
import simcord
from simcord.backend.errors import SetupError

from bot.games.model import GameView
from rendering.bracket import bracket_layout, render_bracket
from rendering.chart import render_rating_history
from rendering.standings import render_standings, standings_layout
from tak import Position
from tak.ptn import Game
from tests.bot.setups import games_in_channel
from tests.cogs.commands.test_tree import check_limits, walk
from tests.cogs.conftest import World, advance, allow_command, decoded_image

# On 3x3: white's road a1-b1-c1 (the first two plies place the opponent's flat), and black's
# road c1-c2-c3.
WHITE_ROAD = "a3 a1 b1 b3 c1"
BLACK_ROAD = "a1 c3 c2 b1 b3 c1"
ORGANIZER_REFUSAL = "Only a tournament organizer (Manage Server or the organizer role) can {}."


# The options that moved from `/organize create` to the commands that follow it.
FOLLOW_UPS = {
    "organize settings": (
        "scoring",
        "max_players",
        "rated",
        "vacations",
        "checkin",
        "start",
        "requested_bye",
    ),
    "organize clocks": (
        "bank",
        "increment",
        "maximum",
        "tiebreak_games",
        "tiebreak_days",
        "tiebreak_bank",
        "tiebreak_increment",
        "tiebreak_maximum",
    ),
}


class Club:
    """The world with a fourth player and an organizer who has Manage Server."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.env = world.env
        self.channel = world.channel
        guild = world.guild
        managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
        self.olga = guild.add_member(self.env.create_user("olga"), roles=(managers,))
        self.dave = guild.add_member(self.env.create_user("dave"))
        self.players = [world.alice, world.bob, world.carol, self.dave]
        self.by_id = {actor.id: actor for actor in [*self.players, self.olga]}

    @property
    def services(self):
        return self.env.bot.services

    def thread(self, thread_id: int | None) -> simcord.ChannelHandle:
        return next(t for t in self.channel.threads if t.id == thread_id)

    def channel_posts(self) -> list[discord.Message]:
        return self.world.bot_messages(self.channel)

    async def create(self, by=None, **options) -> simcord.InteractionResult:
        """`/organize create` with its options, then `/organize settings` and `/organize
        clocks` with theirs (each only when given), for the tournament just made; the first
        answer that is not a tournament's, or the last."""
        for name, value in {"name": "Spring Open", "format": "round_robin", "size": 3}.items():
            options.setdefault(name, value)
        options.setdefault("komi", 0)
        options.setdefault("days", 1)
        actor = by or self.olga
        steps = {
            command: {name: options.pop(name) for name in names if name in options}
            for command, names in FOLLOW_UPS.items()
        }
        made = await actor.slash(self.channel, "organize create", **options)
        for command, given in steps.items():
            if given and "is open for sign-up" in made.response.content:
                changed = await actor.slash(
                    self.channel, command, tournament=options["name"], **given
                )
                if "settings are changed" not in changed.response.content:
                    return changed
        return made

    async def sign_up_and_start(self, **options) -> None:
        created = await self.create(**options)
        assert "is open for sign-up" in created.response.content, created.response.content
        for player in self.players:
            joined = await player.slash(self.channel, "tournament join")
            assert joined.ephemeral and joined.response.content.startswith("You are in")
        started = await self.olga.slash(self.channel, "organize start")
        assert started.ephemeral and "has started" in started.response.content

    async def play(self, game_id: int, moves: str) -> None:
        """Each move by the player to move, through `/tak move` in the game's thread."""
        for text in moves.split():
            game = await self.services.games.get(game_id)
            mover = self.by_id[game.player_to_move.id]
            result = await mover.slash(self.thread(game.thread_id), "tak move", ptn=text)
            # The post where they moved says it; privately, only the next game awaiting them.
            assert result.response is None or (
                result.ephemeral and result.response.content.startswith("Next: game #")
            ), result.response.content

    async def win(self, game: GameView, winner_id: int) -> None:
        await self.play(game.id, WHITE_ROAD if game.white.id == winner_id else BLACK_ROAD)

    async def active_games(self) -> list[GameView]:
        return await games_in_channel(self.services, self.channel.id)


@pytest.fixture
async def club(world: World) -> Club:
    return Club(world)


def embed_titles(messages: list[discord.Message]) -> list[str]:
    return [embed.title or "" for message in messages for embed in message.embeds]


def table_rows(embed: discord.Embed) -> list[list[str]]:
    """The body rows of a standings embed's monospaced table, split into cells."""
    assert embed.description is not None
    lines = embed.description.strip("`\n").splitlines()
    assert lines[0].split()[:5] == ["#", "Player", "W-D-L", "Score", "GP"]
    return [line.split() for line in lines[1:]]


async def test_a_four_player_round_robin_played_through_discord(club: Club) -> None:
    alice, bob, carol, dave = club.players
    created = await club.create(games=2)
    assert created.ephemeral
    [announcement] = club.channel_posts()
    assert announcement.embeds[0].title == "New tournament: Spring Open"
    assert "round robin, 2 games a match" in (announcement.embeds[0].description or "")
    suggested = await alice.autocomplete(club.channel, "tournament join", "tournament", "spr")
    assert suggested == [{"name": "Spring Open (signup)", "value": "Spring Open"}]
    for player in club.players:
        joined = await player.slash(club.channel, "tournament join", tournament="Spring Open")
        assert joined.ephemeral and joined.response.content.startswith("You are in")
    started = await club.olga.slash(club.channel, "organize start")
    assert started.ephemeral and "has started" in started.response.content

    assert "Spring Open: round 1 of 3" in embed_titles(club.channel_posts())
    [round_one] = [
        m for m in club.channel_posts() if "Spring Open: round 1 of 3" in embed_titles([m])
    ]
    assert round_one.attachments == []  # no standings before a result
    pairings = await bob.slash(club.channel, "tournament pairings")
    [attachment] = pairings.response.attachments
    assert attachment.filename == "pairings.png"
    assert (await decoded_image(pairings.response)).format == "PNG"
    assert len(club.channel.threads) == 2  # one per match, under its announcement
    for thread in club.channel.threads:
        first = club.world.last_bot_message(thread)
        [game] = await games_in_channel(club.services, thread.id)
        assert f"<@{game.white.id}>, your move" in first.content
        assert (await decoded_image(first)).format == "PNG"

    strength = [p.id for p in club.players]

    def winner_of(game: GameView) -> int:
        """The stronger player wins, except that carol and dave each win with white."""
        if {game.white.id, game.black.id} == {carol.id, dave.id}:
            return game.white.id
        return min(game.white.id, game.black.id, key=strength.index)

    played = 0
    while active := await club.active_games():
        for game in active:
            await club.win(game, winner_of(game))
            played += 1
    assert played == 12  # six matches of two games
    assert len(club.channel.threads) == 6
    titles = embed_titles(club.channel_posts())
    assert "Spring Open: round 2 of 3" in titles and "Spring Open: round 3 of 3" in titles

    final = club.channel_posts()[-1]
    assert final.content == f"🏆 **Spring Open** is over: {alice.mention} wins!"
    expected = [
        ["1", "alice", "3-0-0", "9"],
        ["2", "bob", "2-0-1", "6"],
        ["3", "carol", "0-1-2", "1"],  # carol and dave drew their match
        ["3", "dave", "0-1-2", "1"],
    ]
    assert [row[:4] for row in table_rows(final.embeds[0])] == expected
    chosen = await carol.slash(club.channel, "profile settings", theme="paper")
    assert "paper" in chosen.response.content
    asked = await carol.slash(club.channel, "tournament standings", tournament="Spring Open")
    [embed] = asked.response.embeds
    assert asked.ephemeral and embed.title == "Spring Open: standings (final)"
    assert [row[:4] for row in table_rows(embed)] == expected
    await check_standings_pictures(club, asked.response, final)

    guild_id = club.world.guild.id
    ratings = {p.id: (await club.services.ratings.player(guild_id, p.id))[0] for p in club.players}
    assert all(r.games == 6 and r.size == 3 for r in ratings.values())
    assert ratings[alice.id].rating.rating > ratings[bob.id].rating.rating > 1500
    assert max(ratings[carol.id].rating.rating, ratings[dave.id].rating.rating) < 1500

    # Every game's end shows both rating changes; scores show the ratings, "?" while provisional.
    endings = [
        m.content
        for t in club.channel.threads
        for m in club.world.bot_messages(t)
        if "wins by road" in m.content
    ]
    assert len(endings) == 12
    change = re.compile(r"Ratings: \w+ \d+\?? \([+-]\d+\), \w+ \d+\?? \([+-]\d+\)\.")
    assert all(change.search(text) for text in endings), endings[0]
    scores = await alice.slash(club.channel, "profile scores")
    [chart] = scores.response.attachments
    assert chart.filename == "rating-3x3.png"
    history = await club.services.pictures.rating_history(guild_id, alice.id, "alice", 3)
    assert len(history.points) == 6
    assert history.points[-1].rating == ratings[alice.id].rating.rating
    assert await chart.read() == render_rating_history(history, "default")
    assert f"3x3 **{ratings[alice.id].label()}** (6 games)" in scores.response.content
    assert all(r.provisional for r in ratings.values())  # six games are not enough
    empty = await alice.slash(club.channel, "profile leaderboard", size=3)
    [board] = empty.response.embeds
    assert (board.description or "").startswith("Nobody has an established 3x3 rating yet")
    await club.services.db.write_one(  # alice and bob have played enough to be established
        "UPDATE ratings SET deviation = 60 WHERE guild_id = ? AND player_id IN (?, ?)",
        (guild_id, alice.id, bob.id),
    )
    leaders = await carol.slash(club.channel, "profile leaderboard", size=3)
    [board] = leaders.response.embeds
    assert board.title == "Leaderboard, 3x3"
    assert [line.split()[:2] for line in (board.description or "").splitlines()] == [
        ["1.", "**alice**"],
        ["2.", "**bob**"],
    ]

    exported = await bob.slash(club.channel, "tournament export", tournament="Spring Open")
    table_file, games_file = exported.response.attachments
    assert (table_file.filename, games_file.filename) == (
        "spring-open-standings.csv",
        "spring-open.ptn",
    )
    table = list(csv.reader(io.StringIO((await table_file.read()).decode())))
    assert [row[2] for row in table[1:]] == ["alice", "bob", "carol", "dave"]
    text = (await games_file.read()).decode()
    games = [Game.parse(chunk) for chunk in re.split(r"\n\n(?=\[)", text.strip())]
    assert len(games) == 12 and {g.tag("Event") for g in games} == {"Spring Open"}


async def check_standings_pictures(
    club: Club, asked: discord.Message, final: discord.Message
) -> None:
    """The standings command attaches the table drawn in the asker's theme (carol chose
    paper); each round after the first and the final post attach it in the default theme."""
    [picture] = asked.attachments
    assert picture.filename == "standings.png"
    tournament = (await club.services.tournaments.in_guild(club.world.guild.id, live_only=False))[0]
    table = (await club.services.pictures.tournament(tournament.id)).standings
    assert table is not None
    assert await picture.read() == render_standings(table, "paper")
    layout = standings_layout(table, "paper")
    assert [layout.picture.labelled(f"name:{i}").text for i in range(4)] == [
        "alice", "bob", "carol", "dave",
    ]  # fmt: skip
    assert layout.cross  # a round robin of four: the cross table
    [attached] = final.attachments
    assert await attached.read() == render_standings(table, "default")
    for number in (2, 3):
        title = f"Spring Open: round {number} of 3"
        [post] = [m for m in club.channel_posts() if title in embed_titles([m])]
        assert [a.filename for a in post.attachments] == ["standings.png"]


async def test_a_knockout_posts_its_bracket_every_round(club: Club) -> None:
    await club.sign_up_and_start(name="Cup", format="elimination", games=1)
    [first] = [m for m in club.channel_posts() if "round 1" in " ".join(embed_titles([m]))]
    assert [a.filename for a in first.attachments] == ["bracket.png"]
    strength = [p.id for p in club.players]
    while active := await club.active_games():
        for game in active:
            await club.win(game, min(game.white.id, game.black.id, key=strength.index))
    final = club.channel_posts()[-1]
    assert [a.filename for a in final.attachments] == ["bracket.png", "standings.png"]
    tournament = (await club.services.tournaments.in_guild(club.world.guild.id, live_only=False))[0]
    bracket = (await club.services.pictures.tournament(tournament.id)).bracket
    assert bracket is not None
    assert await final.attachments[0].read() == render_bracket(bracket, "default")
    assert bracket_layout(bracket).picture.labelled("champion").text == "alice"
    asked = await club.dave.slash(club.channel, "tournament standings", tournament="Cup")
    assert [a.filename for a in asked.response.attachments] == ["bracket.png", "standings.png"]


async def test_a_loss_on_time_moves_the_round_on(club: Club) -> None:
    await club.sign_up_and_start(games=1, days=1)
    finished, idle = await club.active_games()
    await club.win(finished, finished.white.id)
    await club.play(idle.id, "a1")  # white's first move; black never answers
    assert "Spring Open: round 2 of 3" not in embed_titles(club.channel_posts())

    for _ in range(5):  # a day and a bit, in steps the scheduler wakes at least once in
        await advance(club.env, timedelta(hours=5))

    timed_out = club.world.bot_messages(club.thread(idle.thread_id))
    assert any("Time is up." in m.content and "wins on time" in m.content for m in timed_out)
    assert "Spring Open: round 2 of 3" in embed_titles(club.channel_posts())
    assert len(club.channel.threads) == 4
    pairings = await club.world.alice.slash(club.channel, "tournament pairings", round=1)
    [embed] = pairings.response.embeds
    assert embed.title == "Spring Open: round 1 of 3"
    assert embed.description is not None and "(playing)" not in embed.description


async def test_only_organizers_run_a_tournament(club: Club) -> None:
    alice, bob, carol = club.players[:3]
    guild = club.world.guild
    # Discord shows /organize to server managers only...
    with pytest.raises(SetupError, match="default-member-permissions"):
        await club.create(by=carol)
    # ...unless a manager lets others see it; the bot still refuses whoever is no organizer.
    await allow_command(club.env, guild, "organize", guild.default_role)
    refused = await club.create(by=carol)
    assert refused.ephemeral
    assert refused.response.content == ORGANIZER_REFUSAL.format("create a tournament")
    assert club.channel_posts() == []

    await club.create()
    for player in (alice, bob):
        await player.slash(club.channel, "tournament join")
    again = await alice.slash(club.channel, "tournament join")
    assert again.response.content == "You are already signed up for Spring Open."
    unknown = await alice.slash(club.channel, "tournament join", tournament="Autumn Cup")
    assert unknown.response.content == "There is no tournament called 'Autumn Cup' in this server."
    early = await carol.slash(club.channel, "organize start")
    assert early.response.content == ORGANIZER_REFUSAL.format("start")
    assert club.channel.threads == []

    # A member with the guild's organizer role may run it too.
    referees = guild.create_role("Referees")
    rita = guild.add_member(club.env.create_user("rita"), roles=(referees,))
    configured = await club.olga.slash(club.channel, "bredon config", organizer=referees)
    assert "Organizer role" in configured.response.content
    started = await rita.slash(club.channel, "organize start")
    assert "has started" in started.response.content
    [thread] = club.channel.threads

    for command, options in (("forfeit", {"player": alice}), ("disqualify", {"player": bob})):
        denied = await carol.slash(club.channel, f"organize {command}", **options)
        assert denied.ephemeral and denied.response.content.startswith(
            "Only a tournament organizer"
        )
    cancel = await bob.slash(club.channel, "organize cancel")
    assert cancel.response.content == ORGANIZER_REFUSAL.format("cancel")
    [game] = await club.active_games()
    assert game.ply == 0  # nothing changed

    awarded = await club.olga.slash(club.channel, "organize forfeit", player=alice)
    assert awarded.ephemeral and "alice is awarded" in awarded.response.content
    assert "is stopped" in club.world.last_bot_message(thread).content
    final = club.channel_posts()[-1]
    assert final.content == f"🏆 **Spring Open** is over: {alice.mention} wins!"
    assert await club.active_games() == []


async def test_the_tournament_commands_fit_discords_limits(club: Club) -> None:
    tree = club.env.bot.tree
    problems = []
    for group in (c for c in tree.get_commands() if c.name in ("tournament", "organize")):
        for path, item in walk(group.to_dict(tree)):
            problems += check_limits(path, item)
    assert problems == []
    available = set(club.world.alice.available_commands(club.channel))
    assert {f"tournament {name}" for name in ("join", "standings", "export")} <= available
    assert not any(name.startswith(("organize", "bredon")) for name in available)
    managing = set(club.olga.available_commands(club.channel))
    assert {"organize create", "organize start", "bredon config"} <= managing


async def test_a_player_who_left_the_server_can_still_be_named(club: Club) -> None:
    """Discord resolves a pasted mention of someone who has left as a user, not a member: an
    organizer can still disqualify them and anyone can look them up, while a command that needs
    a member says why it cannot take them."""
    bob = club.world.bob
    await club.sign_up_and_start()
    club.world.guild.remove_member(bob)
    await club.env.settle()

    scores = await club.world.alice.slash(club.channel, "profile scores", user=bob.user)
    assert scores.ephemeral and "bob" in scores.response.content
    out = await club.olga.slash(club.channel, "organize disqualify", player=bob.user)
    assert out.ephemeral and out.response.content.startswith(
        "bob is disqualified from Spring Open."
    )
    [tournament] = await club.services.tournaments.in_guild(club.world.guild.id)
    entrants = await club.services.tournaments.entrants(tournament.id)
    assert {e.player.name: e.status.value for e in entrants}["bob"] == "disqualified"
    refused = await club.world.alice.slash(club.channel, "tak challenge", opponent=bob.user)
    assert refused.ephemeral
    assert refused.response.content == "That user is not a member of this server."
    # /tak challenge takes any user (a DM sends users, not members) and refuses this one
    # itself: no error reaches the tree.
    assert club.env.errors == []


async def test_the_sign_up_command_shown_can_be_copied_as_it_is(club: Club) -> None:
    """Markdown escapes inside a code span show as backslashes, and a name pasted with them
    names no tournament."""
    for name in ("Spring_Open *2*", "The `quoted` cup", "x`` [Join](https://x.example) ``"):
        await club.create(name=name)
        posted = club.channel_posts()[-1].embeds[0].description or ""
        span = posted.rsplit("Sign up with ", 1)[1].rstrip(".")
        fence = span[: len(span) - len(span.lstrip("`"))]
        assert fence not in name  # no run of backticks in the name closes the span early
        assert span.strip("`").strip() == f"/tournament join tournament:{name}"
        joined = await club.world.alice.slash(club.channel, "tournament join", tournament=name)
        assert joined.response.content.startswith("You are in"), joined.response.content


async def test_a_thematic_event_starts_every_game_from_its_opening(club: Club) -> None:
    created = await club.create(format="swiss", swiss_rounds=1, games=1, start="a1 c3")
    assert created.ephemeral and "is open for sign-up" in created.response.content
    post = club.channel_posts()[-1]  # the sign-up call again, with the start (/organize settings)
    announced = " ".join(
        [post.content, *(str(field.value) for e in post.embeds for field in e.fields)]
        + [str(e.description) for e in post.embeds]
    )
    assert "from a set position (move 2, white to move)" in announced, announced
    assert "unrated" in announced
    for player in club.players:
        await player.slash(club.channel, "tournament join")
    await club.olga.slash(club.channel, "organize start")
    games = [
        game
        for player in club.players
        for game in await club.services.lookup.games_for_player(player.id)
    ]
    opening = Position(3)
    for move in ("a1", "c3"):
        opening.play(move)
    assert {(game.id, game.ply, game.tps) for game in games} == {
        (1, 2, opening.tps()),
        (2, 2, opening.tps()),
    }


async def test_a_thematic_opening_that_cannot_be_played_is_refused(club: Club) -> None:
    await club.create()
    before = club.channel_posts()
    refused = await club.olga.slash(club.channel, "organize settings", start="a1 a1")
    assert refused.ephemeral
    assert refused.response.content.startswith("The opening's move a1:"), refused.response.content
    assert club.channel_posts() == before


async def test_organize_settings_shows_then_changes_until_the_start(club: Club) -> None:
    await club.create(format="swiss", swiss_rounds=2, games=1)
    posts = len(club.channel_posts())
    shown = await club.olga.slash(club.channel, "organize settings")
    assert shown.ephemeral and shown.response.content == "Spring Open's settings:"
    settings = shown.response.embeds[0].description or ""
    assert "Requested byes:** 1 point, as a draw" in settings
    assert len(club.channel_posts()) == posts  # shown, nothing changed: nothing posted

    changed = await club.olga.slash(
        club.channel, "organize settings", requested_bye="zero", vacations=False
    )
    assert changed.response.content == "Spring Open's settings are changed:"
    assert "Requested byes:** 0 points" in (changed.response.embeds[0].description or "")
    timed = await club.olga.slash(club.channel, "organize clocks", bank="2d")
    assert "1d per move + 2d bank" in (timed.response.embeds[0].description or "")
    [told, *_] = club.channel_posts()[posts:]
    assert told.content == "The settings of **Spring Open** changed:"
    tournament = await club.services.tournaments.get(1)
    assert not tournament.vacation_allowed and tournament.setup.clock.bank == timedelta(days=2)

    for player in club.players:
        await player.slash(club.channel, "tournament join")
    await club.olga.slash(club.channel, "organize start")
    late = await club.olga.slash(club.channel, "organize clocks", bank="3d")
    assert late.response.content == "You cannot change it: Spring Open has already started."
    assert (await club.services.tournaments.get(1)).setup.clock.bank == timedelta(days=2)
