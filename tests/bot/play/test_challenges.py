"""Challenges: direct and open, accept, decline, cancel, expiry, guild defaults, rematch."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

import pytest

from bot import errors
from bot.games.model import ChallengeStatus, GameRequest, GameStatus
from bot.guild_settings import GuildSettings
from bot.play.challenges import ChallengeService
from bot.store import Database, load_migrations
from tak import Color
from tak.ptn import TIE_RULE_COMMENT, Game
from tests.bot.setups import create_challenge, open_challenges

# 4x4, the board full once White walls d1: 9 White flats to 6, and 7 to 8.
NINE_TO_SIX = "1,2,1,1/1,1,2,1/2,1,1,2/1,2,2,x 1 9"
SEVEN_TO_EIGHT = "2,1,2,1/1,2,1,2/2,1,2,1/2,2,1,x 1 9"

GUILD, CHANNEL = 11, 22


async def create(services, challenger, opponent=None, **settings):
    return await create_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=challenger,
        opponent=opponent,
        **settings,
    )


async def test_a_direct_challenge_starts_a_game_with_the_chosen_colours(
    services, alice, bob
) -> None:
    challenge = await create(services, alice, bob, colour="black", size=6, komi=2.5)
    assert challenge.is_open and challenge.opponent == bob
    accepted = await services.challenges.accept(challenge.id, bob)
    game = accepted.game
    assert (game.white, game.black) == (bob, alice)
    assert game.setup.size == 6 and game.setup.komi == 2.5 and game.ply == 0
    assert game.status is GameStatus.ACTIVE and accepted.match is None
    assert accepted.challenge.status is ChallengeStatus.ACCEPTED
    assert accepted.challenge.game_id == game.id and accepted.challenge.accepted_by == bob.id
    with pytest.raises(errors.ChallengeClosed):
        await services.challenges.accept(challenge.id, bob)


async def test_nobody_accepts_their_own_or_someone_elses_challenge(
    services, alice, bob, carol
) -> None:
    with pytest.raises(errors.ChallengeYourself):
        await create(services, alice, alice)
    direct = await create(services, alice, bob)
    with pytest.raises(errors.ChallengeYourself):
        await services.challenges.accept(direct.id, alice)
    with pytest.raises(errors.ChallengeNotForYou):
        await services.challenges.accept(direct.id, carol)
    open_challenge = await create(services, alice)
    with pytest.raises(errors.ChallengeYourself):
        await services.challenges.accept(open_challenge.id, alice)
    taken = await services.challenges.accept(open_challenge.id, carol)
    assert {taken.game.white, taken.game.black} == {alice, carol}
    with pytest.raises(errors.ChallengeClosed):
        await services.challenges.accept(open_challenge.id, bob)


async def test_decline_and_cancel_are_for_the_right_people(services, alice, bob, carol) -> None:
    direct = await create(services, alice, bob)
    with pytest.raises(errors.ChallengeNotForYou):
        await services.challenges.decline(direct.id, carol.id)
    with pytest.raises(errors.NotYourChallenge):
        await services.challenges.cancel(direct.id, bob.id)
    declined = await services.challenges.decline(direct.id, bob.id)
    assert declined.status is ChallengeStatus.DECLINED
    with pytest.raises(errors.ChallengeClosed, match="declined"):
        await services.challenges.cancel(direct.id, alice.id)

    open_challenge = await create(services, alice)
    with pytest.raises(errors.OpenChallengeDecline):
        await services.challenges.decline(open_challenge.id, bob.id)
    cancelled = await services.challenges.cancel(open_challenge.id, alice.id)
    assert cancelled.status is ChallengeStatus.CANCELLED
    assert await open_challenges(services, guild_id=GUILD) == []


async def test_challenges_expire(services, clock, alice, bob) -> None:
    challenge = await create(services, alice, bob, lifetime=timedelta(hours=1))
    assert await open_challenges(services, channel_id=CHANNEL) == [challenge]
    clock.advance(hours=1)
    assert await open_challenges(services, channel_id=CHANNEL) == []
    with pytest.raises(errors.ChallengeExpired):
        await services.challenges.accept(challenge.id, bob)
    report = await services.deadlines.run_due()
    assert [c.id for c in report.expired_challenges] == [challenge.id]
    assert (await services.challenges.get(challenge.id)).status is ChallengeStatus.EXPIRED


async def test_missing_settings_come_from_the_guild_defaults(services, alice, bob) -> None:
    defaults = await services.guilds.get(GUILD)
    assert (defaults.size, defaults.komi, defaults.days_per_move) == (6, 2.0, 3)
    await services.guilds.save(replace(defaults, size=5, komi=1.5, days_per_move=7))
    challenge = await create(services, alice, bob)
    assert challenge.setup.size == 5 and challenge.setup.komi == 1.5
    assert challenge.setup.days_per_move == 7
    explicit = await create(services, alice, bob, size=4, komi=0, days_per_move=1)
    assert (explicit.setup.size, explicit.setup.komi, explicit.setup.days_per_move) == (4, 0, 1)
    with pytest.raises(errors.InvalidSetting):
        await services.guilds.save(replace(defaults, size=9))


@pytest.mark.parametrize(
    "settings",
    [
        {"size": 2},
        {"size": 9},
        {"komi": 0.3},
        {"komi": 40},
        {"days_per_move": 0},
        {"days_per_move": 99},
        {"games": 0},
        {"games": 100},
        {"colour": "purple"},
        {"opening": "sideways"},
        {"stones": -1},
        {"stones": 0, "caps": 0},
        {"size": 5, "stones": 0, "caps": 1},  # the swap opening needs a stone each
        {"size": 3, "stones": 2},  # too few to ever build a road: only a race to run out
        {"size": 8, "stones": 6, "caps": 1},
        {"size": 5, "black_stones": 3, "black_caps": 1},  # black could never build a road
        {"black_caps": 201},
    ],
)
async def test_bad_settings_are_refused_and_nothing_is_stored(
    services, alice, bob, settings
) -> None:
    with pytest.raises(errors.InvalidSetting):
        await create(services, alice, bob, **settings)
    assert await services.db.fetchall("SELECT * FROM challenges") == []


async def test_reserve_overrides_reach_the_game(services, alice, bob) -> None:
    challenge = await create(services, alice, bob, size=5, stones=15, caps=2)
    game = (await services.challenges.accept(challenge.id, bob)).game
    assert game.setup.stones == (15, 15) and game.setup.caps == (2, 2)
    position = await services.games.position(game.id)
    assert position.reserves(Color.WHITE).stones == 15
    assert position.reserves(Color.BLACK).caps == 2


async def test_black_may_have_other_reserves_than_white(services, alice, bob) -> None:
    """A handicap: white (player 1) with 30 stones and 1 capstone as standard on 6x6, black
    (player 2) with 18 and none. Stored apart, played apart, exported as PTN Ninja writes it,
    and kept by a rematch."""
    challenge = await create(
        services, alice, bob, size=6, colour="white", black_stones=18, black_caps=0
    )
    assert challenge.setup.stones == (30, 18) and challenge.setup.caps == (1, 0)
    row = await services.db.fetchone("SELECT stones, caps, stones2, caps2 FROM challenges")
    assert row is not None and tuple(row) == (30, 1, 18, 0)
    game = (await services.challenges.accept(challenge.id, bob)).game
    assert game.setup.stones == (30, 18) and game.setup.caps == (1, 0)
    position = await services.games.position(game.id)
    assert position.reserves(Color.WHITE).stones == 30 and position.reserves(Color.BLACK).caps == 0
    ptn = await services.lookup.ptn(game.id)
    for tag in ('[Flats1 "30"]', '[Flats2 "18"]', '[Caps1 "1"]', '[Caps2 "0"]'):
        assert tag in ptn, ptn
    assert "[Flats " not in ptn and "[Caps " not in ptn
    await services.games.resign(game.id, alice.id)
    rematch = await services.challenges.rematch(game.id, bob)
    assert rematch.setup.stones == (30, 18) and rematch.setup.caps == (1, 0)


async def test_the_same_reserves_for_black_are_stored_as_white_s(services, alice, bob) -> None:
    challenge = await create(services, alice, bob, size=5, stones=15, black_stones=15)
    row = await services.db.fetchone("SELECT stones, stones2, caps2 FROM challenges")
    assert row is not None and tuple(row) == (15, None, None)
    assert challenge.setup.stones == (15, 15)


async def test_the_antiquity_tie_rule_gives_a_tie_to_black(services, alice, bob) -> None:
    challenge = await create(services, alice, bob, size=3, komi=1, stones=3, antiquity=True)
    assert challenge.setup.antiquity and challenge.setup.base_komi == 1
    assert challenge.setup.komi == 1.5  # as one number, for messages: it decides games alike
    game = (await services.challenges.accept(challenge.id, bob)).game
    assert game.setup == challenge.setup
    # White runs out with 3 flats to Black's 2 + komi 1: a tie, which goes to black, the
    # player who went second (test_a_tied_flat_count_is_a_draw_scoring_nothing without it).
    position = await services.games.position(game.id)
    for move in ("a3", "c1", "b2", "c3", "a2"):
        position.play(move)
    assert position.result is not None and position.result.ptn() == "0-F"
    record = await services.lookup.record(game.id)
    # PTN has no tag for the rule: the Komi tag is the real komi, the rule a comment.
    assert record.tag("Komi") == "1" and record.comments == [TIE_RULE_COMMENT]
    assert Game.parse(record.ptn()).start().ties_to_black
    rematch = await services.challenges.rematch(
        (await services.games.resign(game.id, alice.id)).game.id, bob
    )
    assert rematch.setup.antiquity and rematch.setup.base_komi == 1


@pytest.mark.parametrize(("tps", "komi"), [(NINE_TO_SIX, 2.5), (SEVEN_TO_EIGHT, -1.5)])
async def test_the_antiquity_tie_rule_leaves_a_half_flat_komi_alone(
    services, alice, bob, tps: str, komi: float
) -> None:
    # No flat count ties with a half-flat komi: White wins by half a flat (with the rule once
    # added to the komi, 2.5 became 3 and -1.5 became -1, and these games were draws).
    challenge = await create(
        services, alice, bob, komi=komi, antiquity=True, rated=False, start_tps=tps
    )
    assert challenge.setup.komi == komi
    game = (await services.challenges.accept(challenge.id, bob)).game
    position = await services.games.position(game.id)
    assert position.komi == komi and position.ties_to_black
    position.play("Sd1")
    assert position.result is not None and position.result.ptn() == "F-0"
    record = await services.lookup.record(game.id)
    assert record.tag("Komi") == f"{komi:g}"


@pytest.mark.sqlite_only
async def test_antiquity_games_stored_before_the_rule_keep_their_komi(db_path) -> None:
    # Before migration 0020 the komi column held the komi plus the rule's half flat.
    migrations = load_migrations()
    db = await Database.open(db_path, migrations=migrations[:19])
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO players (id, name, created_at, updated_at) VALUES (1, 'a', 'x', 'x')"
        )
        for komi, antiquity in ((3.0, 1), (2.5, 1), (2.5, 0)):
            await tx.execute(
                "INSERT INTO games (guild_id, channel_id, white_id, black_id, size, komi, "
                "opening, stones1, stones2, caps1, caps2, rated, days_per_move, tps, "
                "created_at, antiquity) VALUES (1, 1, 1, 1, 6, ?, 'swap', 30, 30, 1, 1, 0, 1, "
                "'x6/x6/x6/x6/x6/x6 1 1', 'x', ?)",
                (komi, antiquity),
            )
    await db.migrate(migrations)
    rows = await db.fetchall("SELECT komi, antiquity FROM games ORDER BY id")
    assert [(r["komi"], r["antiquity"]) for r in rows] == [(2.5, 1), (2.0, 1), (2.5, 0)]
    await db.close()


async def test_a_server_can_make_antiquity_the_default(services, alice, bob) -> None:
    defaults = await services.guilds.get(GUILD)
    assert defaults.antiquity is False
    await services.guilds.save(replace(defaults, komi=2, antiquity=True))
    assert (await create(services, alice, bob)).setup.komi == 2.5
    plain = await create(services, alice, bob, antiquity=False)
    assert not plain.setup.antiquity and plain.setup.komi == 2
    # The rule is no komi: any komi goes with it.
    await services.guilds.save(replace(defaults, komi=4.5, antiquity=True))
    most = await create(services, alice, bob)
    assert most.setup.antiquity and most.setup.base_komi == 4.5


async def test_random_colours_follow_the_service_random_source(db_path, clock, alice, bob):
    from bot.store import Database

    db = await Database.open(db_path)
    try:
        whites = set()
        for seed in range(8):
            service = ChallengeService(db, clock, random.Random(seed))
            challenge = await service.create(
                guild_id=GUILD,
                channel_id=CHANNEL,
                challenger=alice,
                opponent=bob,
                setup=GuildSettings(GUILD).game_setup(GameRequest()),
            )
            whites.add((await service.accept(challenge.id, bob)).game.white)
        assert whites == {alice, bob}
    finally:
        await db.close()


async def test_rematch_swaps_colours_once_the_game_is_over(services, new_game, alice, bob):
    game = await new_game(size=4, komi=1)
    with pytest.raises(errors.GameNotOver):
        await services.challenges.rematch(game.id, bob)
    await services.games.resign(game.id, alice.id)
    rematch = await services.challenges.rematch(game.id, bob)
    assert rematch.opponent == alice and rematch.rematch_of == game.id
    assert rematch.setup == game.setup
    with pytest.raises(errors.RematchPending):
        await services.challenges.rematch(game.id, alice)
    new = (await services.challenges.accept(rematch.id, alice)).game
    assert (new.white, new.black) == (bob, alice)


async def test_names_are_refreshed_and_preferences_kept(services, alice, bob) -> None:
    await create(services, alice, bob)
    renamed = replace(alice, name="Alice the Great")
    await services.players.set_notify(alice.id, "dm")
    await services.players.set_theme(alice.id, "classic")
    profile = await services.players.register(renamed)
    assert profile.name == "Alice the Great" and profile.notify.value == "dm"
    assert profile.theme == "classic"
    with pytest.raises(errors.InvalidSetting):
        await services.players.set_notify(alice.id, "pigeon")
    with pytest.raises(errors.UnknownPlayer):
        await services.players.get(999)
