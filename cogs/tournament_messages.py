"""What the bot says about tournaments: service results put into text and embeds.

Like :mod:`cogs.game_messages`, no Discord calls and no rules: the tournament service decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

import discord

from bot.games.model import PlayerRef
from bot.notifications.outbox import Headline
from bot.tournaments import ScoringSystem, group_name
from bot.tournaments.entry import EntryState
from bot.tournaments.tournament import (
    ByeRequest,
    Entrant,
    EntrantStatus,
    PairingView,
    RoundView,
    StandingRow,
    TournamentFormat,
    TournamentStatus,
    TournamentView,
)
from cogs.clock_messages import describe_clock
from cogs.formatting import display, mention, timestamp
from cogs.game_messages import describe_setup

MAX_DESCRIPTION = 4096
MAX_FIELD = 1024
MAX_TABLE_NAME = 14

FORMAT_NAMES = {
    TournamentFormat.ROUND_ROBIN: "round robin",
    TournamentFormat.DOUBLE_ROUND_ROBIN: "double round robin",
    TournamentFormat.SWISS: "Swiss",
    TournamentFormat.ELIMINATION: "single elimination",
    TournamentFormat.GROUPS: "groups -> knockout",
}
SCORING_NAMES = {
    ScoringSystem.MATCH_POINTS: "match points",
    ScoringSystem.GAME_POINTS: "game points (squares + unplayed pieces per win)",
}
STATUS_MARKS = {EntrantStatus.WITHDRAWN: " (withdrew)", EntrantStatus.DISQUALIFIED: " (DQ)"}


def format_text(tournament: TournamentView) -> str:
    text = FORMAT_NAMES[tournament.format]
    if tournament.swiss_rounds is not None:
        text += f" of {tournament.swiss_rounds} rounds"
    if tournament.group_count is not None:
        text += (
            f" ({tournament.group_count} round-robin groups, the top {tournament.group_advance} "
            "of each into a single-elimination bracket)"
        )
    return text


def tiebreak_text(tournament: TournamentView) -> str | None:
    """How a drawn knockout match is settled; None for the other formats."""
    if tournament.format not in (TournamentFormat.ELIMINATION, TournamentFormat.GROUPS):
        return None
    rule = tournament.tiebreaks
    control = describe_clock(rule.setup(tournament.setup))
    if rule.games is None:
        return f"**Tiebreaks:** a drawn knockout match goes on, one game at a time ({control})"
    games = f"{rule.games} tiebreak game{'s' if rule.games > 1 else ''}"
    return (
        f"**Tiebreaks:** a drawn knockout match gets up to {games} ({control}); "
        "still drawn after them, the better seed goes through"
    )


def settings_text(tournament: TournamentView) -> str:
    scoring = tournament.scoring
    ranking = SCORING_NAMES[scoring.system]
    if scoring.system is ScoringSystem.MATCH_POINTS:
        ranking += f" ({scoring.match_win:g} a win, {scoring.match_draw:g} a draw)"
    games = tournament.games_per_match
    lines = [
        f"**Format:** {format_text(tournament)}, "
        f"{games} game{'s' if games > 1 else ''} a match, colours alternating",
        f"**Games:** {describe_setup(tournament.setup)}",
        f"**Ranking:** {ranking}; ties broken by "
        + ", ".join(kind.label for kind in scoring.tie_breaks),
        f"**Players:** {tournament.player_count} of at most {tournament.max_players}",
        f"**Organizer:** {mention(tournament.organizer)}",
    ]
    tiebreaks = tiebreak_text(tournament)
    if tiebreaks is not None:
        lines.insert(3, tiebreaks)
    if tournament.format is TournamentFormat.SWISS:
        lines.insert(3, requested_bye_text(tournament))
    if tournament.status is TournamentStatus.SIGNUP and tournament.signup_deadline is not None:
        lines.append(f"**Sign-up closes** {timestamp(tournament.signup_deadline)}")
    return "\n".join(lines)


def requested_bye_worth(tournament: TournamentView) -> str:
    """What a Swiss requested bye scores: "1 point, as a draw", "0 points"."""
    points = tournament.scoring.requested_bye_points()
    worth = f"{points:g} point{'' if points == 1 else 's'}"
    if tournament.scoring.system is ScoringSystem.MATCH_POINTS and points:
        worth += ", as a draw"
    return worth


def requested_bye_text(tournament: TournamentView) -> str:
    return (
        f"**Requested byes:** {requested_bye_worth(tournament)}; ask before the round with "
        "`/tournament bye`"
    )


def created_embed(tournament: TournamentView) -> discord.Embed:
    """The sign-up call. The command is shown as typed, in a code span (where nothing is
    markdown and nothing pings), so it can be copied as it is."""
    command = f"/tournament join tournament:{tournament.name}"
    fence = "`" * (max(map(len, re.findall("`+", command)), default=0) + 1)
    span = f"{fence} {command} {fence}" if len(fence) > 1 else f"`{command}`"
    return discord.Embed(
        title=f"New tournament: {display(tournament.name)}",
        description=f"{settings_text(tournament)}\n\nSign up with {span}.",
    )


def round_title(tournament: TournamentView, number: int) -> str:
    total = f" of {tournament.rounds_total}" if tournament.rounds_total else ""
    stage = ""
    if tournament.format is TournamentFormat.GROUPS:
        stage = " (knockout)" if tournament.is_knockout_round(number) else " (groups)"
    return f"{display(tournament.name)}: round {number}{total}{stage}"


def pairing_line(pairing: PairingView) -> str:
    """One pairing with its result so far: "**ann** 32 - 0 **ben**: ann wins"."""
    if pairing.player2 is None:
        asked = " (requested)" if pairing.requested else ""
        return f"**{display(pairing.player1.name)}** has a bye{asked}"
    score = f"**{display(pairing.player1.name)}** {pairing.points1} - {pairing.points2} "
    score += f"**{display(pairing.player2.name)}**"
    if not pairing.is_decided:
        return f"{score} (playing)"
    if pairing.winner is None:
        return f"{score}: drawn match"
    verdict = "wins by forfeit" if pairing.forfeit else "wins"
    if pairing.requested:
        verdict += " (a bye was asked for)"
    return f"{score}: {display(pairing.winner.name)} {verdict}"


def second_bye_line(player: PlayerRef) -> str:
    """Why a Swiss player has the odd player's bye again."""
    return (
        f"{display(player.name)} has a second bye: everyone else still in has had one, and "
        "the byes asked for left an odd number to pair."
    )


def round_embed(tournament: TournamentView, round_view: RoundView) -> discord.Embed:
    lines = [pairing_line(p) for p in round_view.pairings]
    lines += map(second_bye_line, round_view.second_byes)
    description = "\n".join(lines) or "No pairings."
    if len(description) > MAX_DESCRIPTION:  # 32 pairings of long names: see /tournament pairings
        description = description[: MAX_DESCRIPTION - 2] + "\n…"
    return discord.Embed(title=round_title(tournament, round_view.number), description=description)


def match_anchor_text(tournament: TournamentView, pairing: PairingView, game_id: int) -> str:
    assert pairing.player2 is not None
    return (
        f"{display(tournament.name)}, round {pairing.round}: {mention(pairing.player1)} vs "
        f"{mention(pairing.player2)} (game #{game_id})."
    )


def _score(value: float) -> str:
    return f"{value:g}"


def standings_table(tournament: TournamentView, rows: list[StandingRow]) -> str:
    """A monospaced table: place, player, W-D-L, the ranking score, game points, tie-breaks; a
    groups -> knockout event's one table a group, each under its letter."""
    numbers = sorted({row.group for row in rows if row.group is not None})
    if numbers:
        return "\n".join(
            f"**Group {group_name(number)}**\n"
            + _table(tournament, [row for row in rows if row.group == number])
            for number in numbers
        )
    return _table(tournament, rows)


def _table(tournament: TournamentView, rows: list[StandingRow]) -> str:
    breaks = tournament.scoring.tie_breaks
    short = {"head_to_head": "H2H", "sonneborn_berger": "SB", "buchholz": "BH"}
    header = ["#", "Player", "W-D-L", "Score", "GP", *(short[kind.value] for kind in breaks)]
    body = []
    for row in rows:
        s = row.standing
        name = row.player.name[:MAX_TABLE_NAME] + STATUS_MARKS.get(row.status, "")
        record = f"{s.won}-{s.drawn}-{s.lost}" + (f"+{s.byes}b" if s.byes else "")
        body.append(
            [
                str(s.place),
                name,
                record,
                _score(s.score),
                str(s.game_points),
                *(_score(value) for value in s.tie_breaks),
            ]
        )
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(width) if i == 1 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in [header, *body]
    ]
    return "```\n" + "\n".join(lines) + "\n```"


def standings_embed(tournament: TournamentView, rows: list[StandingRow]) -> discord.Embed:
    if not rows:
        description = "No standings yet: fewer than two players have joined."
    else:
        description = standings_table(tournament, rows)
        if len(description) > MAX_DESCRIPTION:
            description = description[: MAX_DESCRIPTION - 8] + "\n…\n```"
    status = {
        TournamentStatus.SIGNUP: "signing up",
        TournamentStatus.RUNNING: f"after round {tournament.current_round}",
        TournamentStatus.FINISHED: "final",
        TournamentStatus.CANCELLED: "cancelled",
    }[tournament.status]
    title = f"{display(tournament.name)}: standings ({status})"
    embed = discord.Embed(title=title, description=description)
    embed.set_footer(text=f"Score: {SCORING_NAMES[tournament.scoring.system]}. GP: game points.")
    if tournament.format is TournamentFormat.SWISS:
        embed.set_footer(text=f"{embed.footer.text} {byes_legend(tournament)}")
    return embed


def byes_legend(tournament: TournamentView) -> str:
    """What a Swiss table's "+Nb" counts: the byes asked for with the odd player's."""
    return f"+Nb: byes, those asked for included (one scores {requested_bye_worth(tournament)})."


def finished_text(tournament: TournamentView) -> str:
    if tournament.winner is None:
        return f"🏆 **{display(tournament.name)}** is over: first place is shared."
    return f"🏆 **{display(tournament.name)}** is over: {mention(tournament.winner)} wins!"


def decided_text(decided: list[PairingView]) -> str | None:
    """The matches decided without being played to the end (forfeits) worth a line."""
    lines = [f"Round {p.round}: {pairing_line(p)}" for p in decided if p.forfeit]
    return "\n".join(lines) or None


def stopped_text(tournament: TournamentView, game_id: int) -> str:
    if tournament.status is TournamentStatus.CANCELLED:
        why = f"{display(tournament.name)} was cancelled"
    else:
        why = "its match was decided by a forfeit"
    return f"Game #{game_id} is stopped: {why}. It is not rated or counted; its moves are kept."


def headline_text(tournament: TournamentView, headline: Headline, player_id: int | None) -> str:
    """The tournament's start, or a player's withdrawal or disqualification."""
    name, who = display(tournament.name), mention(player_id or 0)
    return {
        Headline.STARTED: f"**{name}** has started!",
        Headline.WITHDREW: f"{who} withdrew from **{name}**.",
        Headline.DISQUALIFIED: f"{who} is disqualified from **{name}**.",
    }[headline]


def cancelled_text(tournament: TournamentView) -> str:
    return f"**{display(tournament.name)}** was cancelled by an organizer. Results so far are kept."


def joined_text(tournament: TournamentView) -> str:
    return (
        f"You are in **{display(tournament.name)}** ({tournament.player_count} of at most "
        f"{tournament.max_players} players). Good luck!"
    )


def info_embed(tournament: TournamentView, entrants: list[Entrant]) -> discord.Embed:
    embed = discord.Embed(
        title=f"{display(tournament.name)} ({tournament.status.value})",
        description=settings_text(tournament),
    )
    lines = [
        f"{entrant.seed or number}. {display(entrant.player.name)}"
        + ("" if entrant.group is None else f" (group {group_name(entrant.group)})")
        + STATUS_MARKS.get(entrant.status, "")
        for number, entrant in enumerate(entrants, start=1)
    ]
    players = "\n".join(lines) or "Nobody yet."
    if len(players) > MAX_FIELD:
        players = players[: MAX_FIELD - 2] + "\n…"
    embed.add_field(name="Players (by seed)" if tournament.started_at else "Players", value=players)
    return embed


def file_stem(tournament: TournamentView) -> str:
    """A file name from the tournament's name: "Spring Open" -> "spring-open"."""
    slug = re.sub(r"[^a-z0-9]+", "-", tournament.name.lower()).strip("-")
    return slug or f"tournament-{tournament.id}"


# ----------------------------------------------------------------- entries (check-in, seeds...)


def _mentions(players: Sequence[PlayerRef | int]) -> str:
    return ", ".join(mention(p) for p in players)


def _closes(tournament: TournamentView) -> str:
    if tournament.signup_deadline is None:
        return "when the organizer starts it"
    return timestamp(tournament.signup_deadline)


def checkin_open_text(state: EntryState) -> str:
    tournament = state.tournament
    text = (
        f"✅ Check-in for **{display(tournament.name)}** is open: check in with "
        f"`/tournament checkin` before it starts ({_closes(tournament)}). "
        "Whoever has not checked in by then is left out."
    )
    if state.missing:
        text += f"\nStill to check in: {_mentions(state.missing)}"
    return text


def checkin_reminder_text(state: EntryState) -> str:
    tournament = state.tournament
    if not state.missing:
        return f"Everyone in **{display(tournament.name)}** has checked in."
    return (
        f"⏰ Reminder: {_mentions(state.missing)}, check in for **{display(tournament.name)}** "
        f"with `/tournament checkin` ({_closes(tournament)}), or you will be left out."
    )


def dropped_text(dropped: Sequence[int]) -> str:
    return f"Left out for not checking in: {_mentions(dropped)}."


def late_entry_text(tournament: TournamentView, player_id: int, first_round: int | None) -> str:
    start = f" from round {first_round}" if first_round else ""
    return (
        f"{mention(player_id)} joins **{display(tournament.name)}** late, with 0 points, and is "
        f"paired{start}."
    )


def replaced_text(tournament: TournamentView, old_id: int, new_id: int) -> str:
    return (
        f"{mention(new_id)} takes over {mention(old_id)}'s place in "
        f"**{display(tournament.name)}**: their seed, their match in progress and every later "
        "one. The results so far stay as played and count for the place."
    )


def seed_order_text(state: EntryState) -> str:
    """The order the tournament would start in, one player a line."""
    lines = [
        f"{number}. {display(entrant.player.name)}"
        for number, entrant in enumerate(state.entrants, start=1)
    ]
    return _fitted("\n".join(lines) or "Nobody yet.")


def _fitted(text: str) -> str:
    """Lines cut to an embed field's length, "…" on a line of its own where cut."""
    return text if len(text) <= MAX_FIELD else text[: MAX_FIELD - 2] + "\n…"


def replacements_text(replaced: Sequence[tuple[PlayerRef, PlayerRef, int]]) -> str | None:
    """Under the standings: who holds whose place (the row counts the old player's results)."""
    if not replaced:
        return None
    return "\n".join(
        f"{display(new.name)} replaced {display(old.name)} in round {number}; the row counts "
        f"{display(old.name)}'s results."
        for old, new, number in replaced
    )


def bye_requests_text(requests: Sequence[ByeRequest]) -> str | None:
    """The byes asked for rounds not yet paired, a round a line; None without any."""
    rounds: dict[int, list[str]] = {}
    for request in requests:
        rounds.setdefault(request.round, []).append(display(request.player.name))
    if not rounds:
        return None
    return _fitted(
        "\n".join(f"Round {n}: {', '.join(names)}" for n, names in sorted(rounds.items()))
    )


def kept_apart_text(pairs: Sequence[tuple[PlayerRef, PlayerRef]]) -> str | None:
    """The pairs the Swiss pairing keeps apart, one a line; None without any."""
    if not pairs:
        return None
    return _fitted("\n".join(f"{display(a.name)} – {display(b.name)}" for a, b in pairs))


def bye_request_text(
    tournament: TournamentView, who: str, round_number: int, *, withdrawn: bool
) -> str:
    """The confirmation of a bye asked for (or withdrawn); `who` is "You" or a name."""
    name = display(tournament.name)
    if withdrawn:
        return f"{who} will be paired in round {round_number} of {name} after all."
    if tournament.format is not TournamentFormat.SWISS:
        return (
            f"{who} will forfeit {'your' if who == 'You' else 'their'} round {round_number} match "
            f"of {name} (a round robin's schedule is fixed): the opponent wins it when the round "
            "begins. It can be withdrawn until then."
        )
    return (
        f"{who} will sit out round {round_number} of {name} with a requested bye "
        f"({requested_bye_worth(tournament)}). "
        "It can be withdrawn until the round is paired."
    )


def checkin_field(state: EntryState, now: datetime) -> str:
    """The check-in as `/tournament info` shows it during sign-up."""
    opens = state.checkin.opens_at
    assert opens is not None
    if not state.checkin.is_open(now):
        return f"Opens {timestamp(opens)}."
    count = len(state.entrants)
    text = f"Open: {count - len(state.missing)} of {count} checked in."
    if state.missing:
        text += " Still to check in: " + ", ".join(display(p.name) for p in state.missing)
    return text if len(text) <= MAX_FIELD else text[: MAX_FIELD - 1] + "…"
