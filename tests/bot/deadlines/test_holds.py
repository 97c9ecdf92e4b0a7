"""Correspondence clocks with a clock that jumps: banks and increments to a loss on time to the
second (against a reference model written here), vacations over several games, a deadline that
falls inside a vacation, more time, pauses by agreement overlapping vacations, reminder times."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import errors
from bot.games.model import GameStatus
from bot.services import Services
from bot.timekeeping.control import TimeControl, parse_duration
from tak import ResultKind
from tak.ptn import Game
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play, with_announcements_delivered
from tests.bot.setups import create_challenge
from tests.bot.tournament_helpers import create_tournament
from tests.tak.test_ptn_ninja_files import assert_ninja_reads

DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)


async def game_between(services: Services, white, black, **settings):
    challenge = await create_challenge(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=white,
        opponent=black,
        colour="white",
        size=5,
        **settings,
    )
    return (await services.challenges.accept(challenge.id, black)).game


async def assert_lost_on_time_at(services: Services, clock, game_id: int, moment) -> None:
    """Nothing happens one second before `moment`; at `moment` the player to move loses."""
    clock.set(moment - SECOND)
    assert (await services.deadlines.run_due()).endings == []
    clock.set(moment)
    report = await services.deadlines.run_due()
    assert [(e.game.id, e.result.kind) for e in report.endings] == [(game_id, ResultKind.TIME)]


class ReferenceClock:
    """Each player's clock kept by hand, move by move, from the time control's rules alone."""

    def __init__(self, days: int, bank: timedelta, increment: timedelta, cap: timedelta) -> None:
        self.per_move = timedelta(0) if increment else timedelta(days=days)
        start = timedelta(days=days) if increment else bank
        self.left = [start, start]
        self.increment, self.cap = increment, cap

    def allowance(self, side: int) -> timedelta:
        return self.per_move + self.left[side]

    def move(self, side: int, used: timedelta) -> None:
        assert used < self.allowance(side)
        if self.increment:
            self.left[side] = min(self.cap, self.left[side] - used + self.increment)
        else:
            self.left[side] -= max(timedelta(0), used - self.per_move)


MOVES = ["a1", "e5", "c3", "c2", "b3", "d3", "b2", "d2", "a2", "d4"]


@pytest.mark.parametrize(
    ("days", "bank", "increment", "cap"),
    [(2, "7d", None, None), (1, "36h", None, None), (3, "", "1d", "5d"), (1, "", "12h", "2d")],
)
async def test_banks_and_increments_lose_on_time_to_the_second(
    services, clock, days, bank, increment, cap
) -> None:
    """Random thinking times (each within what the reference allows) for eight moves; after
    each, the stored deadline is the reference's; then the player to move thinks until the
    second the reference says they are out of time."""
    control = {
        "bank": parse_duration(bank, "bank") if bank else None,
        "increment": parse_duration(increment, "increment") if increment else None,
        "cap": parse_duration(cap, "maximum") if cap else None,
    }
    game = await game_between(services, ALICE, BOB, days_per_move=days, **control)
    clocks = game.setup.clock
    reference = ReferenceClock(days, clocks.bank, clocks.increment, clocks.cap)
    rng = random.Random(days * 100 + len(bank))
    turn_start = clock.now()
    for ply, text in enumerate(MOVES[:8]):
        side = ply % 2
        stored = await services.games.get(game.id)
        assert stored.deadline_at == turn_start + reference.allowance(side)
        used = timedelta(seconds=rng.randrange(int(reference.allowance(side).total_seconds())))
        clock.set(turn_start + used)
        await play(services, game.id, text)
        reference.move(side, used)
        turn_start = clock.now()
    stored = await services.games.get(game.id)
    assert list(stored.clock_left) == reference.left
    await assert_lost_on_time_at(services, clock, game.id, turn_start + reference.allowance(0))


async def test_a_bank_is_used_then_gone_and_never_refilled(services, clock) -> None:
    game = await game_between(services, ALICE, BOB, days_per_move=1, bank=2 * DAY)
    clock.advance(days=2)  # a day of the bank used
    await play(services, game.id, "a1")
    clock.advance(hours=1)
    await play(services, game.id, "e5")
    clock.advance(minutes=5)  # quick: the bank stays at a day, no more
    await play(services, game.id, "c3")
    clock.advance(hours=1)
    outcome = (await play(services, game.id, "c2"))[0]
    assert outcome.game.clock_left[0] == DAY
    assert outcome.game.deadline_at == clock.now() + 2 * DAY


async def test_time_controls_are_checked(services) -> None:
    for settings, reason in [
        ({"bank": DAY, "increment": DAY}, "not both"),
        ({"cap": 3 * DAY}, "only goes with an increment"),
        ({"bank": timedelta(days=90)}, "1 hour to 60 days"),
        ({"increment": timedelta(days=1), "cap": DAY}, "from the starting time"),
    ]:
        with pytest.raises(errors.InvalidSetting, match=reason):
            await game_between(services, ALICE, BOB, days_per_move=2, **settings)
    with pytest.raises(errors.InvalidSetting, match="duration like"):
        parse_duration("soon", "bank")
    assert parse_duration("1d12h", "bank") == timedelta(days=1, hours=12)
    assert TimeControl(bank=7 * DAY).describe(2) == "2d per move + 7d bank"


async def test_a_vacation_holds_every_game_and_lets_them_go(services, clock) -> None:
    """Alice to move in one game, Bob in another: a three-day vacation stops both; Bob's move
    during it starts Alice's turn, which counts from the vacation's end."""
    waiting = await game_between(services, ALICE, BOB, days_per_move=2)  # Alice to move
    other = await game_between(services, BOB, ALICE, days_per_move=2)
    await play(services, other.id, "a1 e5")  # Bob (white) and Alice moved; Bob to move
    start = clock.now()
    report = await services.holds.start_vacation(GUILD, ALICE, 3)
    assert sorted(g.id for g in report.held) == [waiting.id, other.id]
    assert report.days_left == 11
    clock.advance(days=2, hours=12)  # past the first deadline, which is held
    assert (await services.deadlines.run_due()).endings == []
    await play(services, other.id, "c3")  # Bob moves during the vacation
    clock.set(start + 3 * DAY)
    report = await services.deadlines.run_due()
    assert [r.vacation.player_id for r in report.vacations_ended] == [ALICE.id]
    assert (await services.games.get(waiting.id)).deadline_at == start + 3 * DAY + 2 * DAY
    assert (await services.games.get(other.id)).deadline_at == start + 3 * DAY + 2 * DAY
    assert (await services.holds.vacation_status(GUILD, ALICE.id)).days_used == 3


async def test_a_deadline_inside_a_vacation_moves_by_its_length_even_after_a_bot_down(
    services, clock
) -> None:
    """The deadline passes during the vacation; the bot is down when the vacation ends and when
    the moved deadline passes: on waking it ends the vacation where it ended, then the game."""
    start = clock.now()
    game = await game_between(services, ALICE, BOB, days_per_move=1)
    await play(services, game.id, "a1")
    clock.set(start + timedelta(hours=12))
    await services.holds.start_vacation(GUILD, BOB, 3)
    assert await services.deadlines.next_due_at() == start + timedelta(hours=12) + 3 * DAY
    clock.set(start + 5 * DAY)
    report = await services.deadlines.run_due()
    assert len(report.vacations_ended) == 1
    assert [e.game.id for e in report.endings] == [game.id]
    assert report.endings[0].game.winner == game.white
    assert report.endings[0].result.kind is ResultKind.TIME


async def test_the_moved_deadline_holds_to_the_second(services, clock) -> None:
    start = clock.now()
    game = await game_between(services, ALICE, BOB, days_per_move=1)
    clock.set(start + timedelta(hours=6))
    await services.holds.start_vacation(GUILD, ALICE, 2)
    clock.set(start + timedelta(hours=6) + 2 * DAY)
    await services.deadlines.run_due()  # the vacation ends; the clock runs again
    await play(services, game.id, "a1")  # Alice moves before the moved deadline
    await assert_lost_on_time_at(services, clock, game.id, clock.now() + DAY)


async def test_vacation_days_are_counted_per_calendar_year(services, clock) -> None:
    clock.set(datetime(2025, 12, 20, tzinfo=UTC))
    await services.holds.start_vacation(GUILD, ALICE, 10)
    with pytest.raises(errors.VacationRefused, match="already on vacation"):
        await services.holds.start_vacation(GUILD, ALICE, 1)
    clock.advance(days=2, hours=3)
    report = await services.holds.end_vacation(GUILD, ALICE.id)
    assert report.days_left == 14 - 3  # three days begun
    with pytest.raises(errors.VacationRefused, match="1 to 11"):
        await services.holds.start_vacation(GUILD, ALICE, 12)
    with pytest.raises(errors.VacationRefused, match="not on vacation"):
        await services.holds.end_vacation(GUILD, ALICE.id)
    clock.set(datetime(2026, 1, 2, tzinfo=UTC))
    status = await services.holds.vacation_status(GUILD, ALICE.id)
    assert (status.days_used, status.days_left) == (0, 14)
    settings = await services.guilds.get(GUILD)
    await services.guilds.save(replace(settings, vacation_days=0))
    with pytest.raises(errors.VacationRefused, match="turned off"):
        await services.holds.start_vacation(GUILD, ALICE, 1)


async def cup_without_vacations(services: Services, **rules):
    """A round robin of Alice's that forbids vacations, Alice and Bob signed up, not started."""
    tournament = await create_tournament(
        services,
        guild_id=GUILD,
        channel_id=CHANNEL,
        organizer=ALICE,
        name="Cup",
        format="round_robin",
        games_per_match=1,
        days_per_move=2,
        vacation_allowed=False,
        **rules,
    )
    for player in (ALICE, BOB):
        await services.tournaments.join(tournament.id, player)
    return tournament


async def test_a_tournament_can_forbid_vacations(services, clock) -> None:
    tournament = await cup_without_vacations(services, bank=3 * DAY)
    await services.holds.start_vacation(GUILD, BOB, 2)  # before the start: not held either
    await services.tournaments.start(tournament.id, actor_id=ALICE.id, is_organizer=True)
    [bobs] = await services.lookup.games_for_player(BOB.id, guild_id=GUILD)
    assert bobs.frozen_at is None and bobs.match_id is not None
    await services.holds.end_vacation(GUILD, BOB.id)
    friendly = await game_between(services, ALICE, CAROL, days_per_move=2)
    report = await services.holds.start_vacation(GUILD, ALICE, 5)
    assert [g.id for g in report.held] == [friendly.id]
    [cup_game] = report.not_held
    assert cup_game.frozen_at is None and cup_game.match_id is not None
    assert cup_game.setup.clock == TimeControl(bank=3 * DAY)  # the tournament's time control
    assert cup_game.deadline_at == cup_game.created_at + 5 * DAY


async def test_more_time_from_the_player_waiting(services, clock) -> None:
    game = await game_between(services, BOB, ALICE, days_per_move=2)
    game = (await play(services, game.id, "a1"))[0].game  # Alice (black) to move
    deadline = game.deadline_at
    with pytest.raises(errors.MoreTimeRefused, match="only your opponent"):
        await services.holds.give_time(game.id, ALICE.id, DAY)
    with pytest.raises(errors.MoreTimeRefused, match="1 hour to 7 days"):
        await services.holds.give_time(game.id, BOB.id, timedelta(days=8))
    with pytest.raises(errors.NotInGame):
        await services.holds.give_time(game.id, CAROL.id, DAY)
    given = await services.holds.give_time(game.id, BOB.id, timedelta(hours=36))
    assert given.deadline_at == deadline + timedelta(hours=36)
    for _ in range(8):  # 3.5 days, then 59.5 days
        given = await services.holds.give_time(game.id, BOB.id, timedelta(days=7))
    with pytest.raises(errors.MoreTimeRefused, match="more than 60 days"):
        await services.holds.give_time(game.id, BOB.id, timedelta(days=7))
    await assert_lost_on_time_at(services, clock, game.id, given.deadline_at)


async def test_a_pause_both_agree_to_and_either_ends(services, clock) -> None:
    game = await game_between(services, ALICE, BOB, days_per_move=1)
    with pytest.raises(errors.PauseRefused, match="Nobody has proposed"):
        await services.holds.accept_pause(game.id, BOB.id)
    await services.holds.propose_pause(game.id, ALICE.id)
    with pytest.raises(errors.PauseRefused, match="your own"):
        await services.holds.accept_pause(game.id, ALICE.id)
    paused = await services.holds.accept_pause(game.id, BOB.id)
    assert paused.frozen_at == clock.now()
    clock.advance(days=4)
    assert (await services.deadlines.run_due()).endings == []
    await play(services, game.id, "a1")  # moves still go in
    clock.advance(days=1)
    resumed = await services.holds.end_pause(game.id, ALICE.id)
    assert resumed.frozen_at is None
    assert resumed.deadline_at == clock.now() + DAY  # Bob's turn counts from the end
    with pytest.raises(errors.PauseRefused, match="not paused"):
        await services.holds.end_pause(game.id, BOB.id)


async def test_a_pause_and_a_vacation_that_overlap(services, clock) -> None:
    """Paused at day 0; Alice on vacation from day 1 to day 4; the pause ends at day 2: the
    clock stands still from day 0 to day 4, so the deadline moves by four days."""
    start = clock.now()
    game = await game_between(services, ALICE, BOB, days_per_move=2)
    await play(services, game.id, "a1")  # Bob to move
    await services.holds.propose_pause(game.id, BOB.id)
    await services.holds.accept_pause(game.id, ALICE.id)
    clock.set(start + DAY)
    await services.holds.start_vacation(GUILD, ALICE, 3)
    clock.set(start + 2 * DAY)
    still = await services.holds.end_pause(game.id, BOB.id)
    assert still.frozen_at == start  # the vacation still holds it
    clock.set(start + 4 * DAY)
    await services.deadlines.run_due()
    game = await services.games.get(game.id)
    assert (game.frozen_at, game.deadline_at) == (None, start + 6 * DAY)
    await assert_lost_on_time_at(services, clock, game.id, start + 6 * DAY)


async def test_a_game_begun_during_a_vacation_waits_for_its_end(services, clock) -> None:
    start = clock.now()
    await services.holds.start_vacation(GUILD, BOB, 2)
    clock.advance(hours=1)
    game = await game_between(services, ALICE, BOB, days_per_move=1)
    assert game.frozen_at == start + timedelta(hours=1)  # from its start, so its post says so
    clock.advance(hours=1)
    await services.deadlines.run_due()
    assert (await services.games.get(game.id)).frozen_at == start + timedelta(hours=1)
    clock.set(start + 2 * DAY)
    await services.deadlines.run_due()
    assert (await services.games.get(game.id)).deadline_at == start + 3 * DAY


async def test_reminders_at_the_chosen_times_each_sent_once(services, clock) -> None:
    await services.holds.set_reminders(GUILD, BOB, [DAY, timedelta(hours=2)])
    game = await game_between(services, ALICE, BOB, days_per_move=3)
    await play(services, game.id, "a1")
    turn = clock.now()
    assert (await services.games.get(game.id)).reminder_at == turn + 2 * DAY
    clock.set(turn + 2 * DAY)
    report = await services.deadlines.run_due()
    assert [(r.game.id, r.player) for r in report.reminders] == [(game.id, BOB)]
    assert (await services.deadlines.run_due()).reminders == []
    assert await services.deadlines.next_due_at() == turn + 3 * DAY - timedelta(hours=2)
    clock.set(turn + 3 * DAY - timedelta(hours=1))  # late: still one reminder, not two
    assert len((await services.deadlines.run_due()).reminders) == 1
    assert (await services.deadlines.run_due()).reminders == []
    with pytest.raises(errors.InvalidSetting, match="at most 5"):
        await services.holds.set_reminders(GUILD, BOB, [timedelta(hours=h) for h in range(1, 7)])
    with pytest.raises(errors.InvalidSetting, match="10 minutes to 30 days"):
        await services.holds.set_reminders(GUILD, BOB, [timedelta(minutes=1)])


async def test_a_restart_loses_no_vacation(db_path, clock) -> None:
    first = with_announcements_delivered(await Services.open(db_path, clock=clock))
    game = await game_between(first, ALICE, BOB, days_per_move=1)
    await first.holds.start_vacation(GUILD, ALICE, 2)
    await first.close()
    clock.advance(days=2, hours=1)
    second = with_announcements_delivered(await Services.open(db_path, clock=clock))
    try:
        report = await second.deadlines.run_due()
        assert len(report.vacations_ended) == 1 and report.endings == []
        stored = await second.games.get(game.id)
        assert stored.status is GameStatus.ACTIVE
        assert stored.deadline_at == game.deadline_at + 2 * DAY
        assert (await second.deadlines.run_due()).vacations_ended == []
    finally:
        await second.close()


async def test_an_undone_move_gives_back_no_increment(services, clock) -> None:
    """2 days + 1 day a move (max 4): White moves after 12 hours (2.5 days left), takes the move
    back an hour later: 1.5 days, what the move left before its increment (not 2.5 again); the
    same move again at once earns the increment once: 2.5 days."""
    game = await game_between(services, ALICE, BOB, days_per_move=2, increment=DAY, cap=4 * DAY)
    clock.advance(hours=12)
    await play(services, game.id, "a1")
    assert (await services.games.get(game.id)).clock_left[0] == 2.5 * DAY
    clock.advance(hours=1)
    await services.games.request_undo(game.id, ALICE.id)
    rewound = await services.games.accept_undo(game.id, BOB.id)
    assert rewound.clock_left[0] == 1.5 * DAY
    assert rewound.deadline_at == clock.now() + 1.5 * DAY
    assert (await services.games.get(game.id)).deadline_at == rewound.deadline_at
    await play(services, game.id, "a1")
    assert (await services.games.get(game.id)).clock_left[0] == 2.5 * DAY


async def test_the_time_control_is_the_ptn_clock_tag(services) -> None:
    game = await game_between(services, ALICE, BOB, days_per_move=5, increment=DAY, cap=10 * DAY)
    text = await services.lookup.ptn(game.id)
    assert Game.parse(text).tag("Clock") == "5d +1d a move (max 10d)"
    assert_ninja_reads(text)
    plain = await game_between(services, ALICE, BOB, days_per_move=3)
    assert Game.parse(await services.lookup.ptn(plain.id)).tag("Clock") == "3d per move"


HOURS = st.integers(min_value=1, max_value=24 * 30)


@given(
    days=st.integers(1, 10),
    bank_hours=st.integers(1, 24 * 60),
    shares=st.lists(st.floats(0, 0.999), min_size=1, max_size=30),
)
def test_a_bank_never_grows_and_all_time_used_is_accounted_for(days, bank_hours, shares) -> None:
    """Whatever the thinking times (each a share of the time allowed), the bank only shrinks,
    and the time used beyond the days per move is exactly what left the bank."""
    control = TimeControl(bank=timedelta(hours=bank_hours))
    left = control.starting_left(days)
    assert left is not None
    over = timedelta(0)
    for share in shares:
        allowed = control.allowance(days, left)
        used = allowed * share
        after = control.left_after_move(left, allowed - used)
        assert after is not None and timedelta(0) <= after <= left
        over += max(used - timedelta(days=days), timedelta(0))
        left = after
    assert abs(control.bank - left - over) < timedelta(milliseconds=len(shares))


@given(
    days=st.integers(1, 10),
    increment_hours=HOURS.filter(lambda h: h <= 24 * 7),
    shares=st.lists(st.floats(0, 0.999), min_size=1, max_size=30),
)
def test_an_increment_clock_never_passes_its_cap(days, increment_hours, shares) -> None:
    """The default maximum leaves room for at least one increment, never more than the cap."""
    control = TimeControl.create(days, increment=timedelta(hours=increment_hours))
    left = control.starting_left(days)
    for share in shares:
        assert left is not None
        allowed = control.allowance(days, left)
        assert allowed == left
        after = control.left_after_move(left, allowed * (1 - share))
        assert after is not None and after <= control.cap
        assert after >= control.increment  # even a move at the last second earns it
        left = after
