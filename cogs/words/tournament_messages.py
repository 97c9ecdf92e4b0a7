"""What the bot says about tournaments: service results put into text and embeds.

Like :mod:`cogs.words.game_messages`, no Discord calls and no rules: the tournament service decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

import discord

from bot.languages import _, ngettext, numeral
from bot.notifications.outbox import Headline
from bot.players.model import PlayerRef
from bot.tournaments import ScoringSystem, group_name
from bot.tournaments.entry import EntryState
from bot.tournaments.pictures import status_mark, tie_break_name, tie_break_short
from bot.tournaments.tournament import (
    ByeRequest,
    Entrant,
    PairingView,
    RoundView,
    StandingRow,
    TournamentFormat,
    TournamentStatus,
    TournamentView,
)
from cogs.words.clock_messages import describe_clock
from cogs.words.formatting import display, mention, timestamp
from cogs.words.game_messages import describe_setup

MAX_DESCRIPTION = 4096
MAX_FIELD = 1024
MAX_TABLE_NAME = 14


def format_name(format: TournamentFormat) -> str:
    return format.word()


def scoring_name(system: ScoringSystem) -> str:
    return {
        ScoringSystem.MATCH_POINTS: _("match points"),
        ScoringSystem.GAME_POINTS: _("game points (squares + unplayed pieces per win)"),
    }[system]


def format_text(tournament: TournamentView) -> str:
    name = format_name(tournament.format)
    if tournament.swiss_rounds is not None:
        name = ngettext(
            "{format} of {count} round",
            "{format} of {count} rounds",
            tournament.swiss_rounds,
            format=name,
        )
    if tournament.group_count is not None:
        name = _(
            "{format} ({groups} round-robin groups, the top {advance} of each into a "
            "single-elimination bracket)",
            format=name,
            groups=tournament.group_count,
            advance=tournament.group_advance,
        )
    return name


def tiebreak_text(tournament: TournamentView) -> str | None:
    """How a drawn knockout match is settled; None for the other formats."""
    if tournament.format not in (TournamentFormat.ELIMINATION, TournamentFormat.GROUPS):
        return None
    rule = tournament.tiebreaks
    control = describe_clock(rule.setup(tournament.setup))
    if rule.games is None:
        return _(
            "**Tiebreaks:** a drawn knockout match goes on, one game at a time ({control})",
            control=control,
        )
    return ngettext(
        "**Tiebreaks:** a drawn knockout match gets up to {count} tiebreak game ({control}); "
        "still drawn after them, the better seed goes through",
        "**Tiebreaks:** a drawn knockout match gets up to {count} tiebreak games ({control}); "
        "still drawn after them, the better seed goes through",
        rule.games,
        control=control,
    )


def settings_text(tournament: TournamentView) -> str:
    scoring = tournament.scoring
    ranking = scoring_name(scoring.system)
    if scoring.system is ScoringSystem.MATCH_POINTS:
        ranking = _(
            "{ranking} ({win} a win, {draw} a draw)",
            ranking=ranking,
            win=numeral(scoring.match_win),
            draw=numeral(scoring.match_draw),
        )
    lines = [
        ngettext(
            "**Format:** {format}, {count} game a match, colours alternating",
            "**Format:** {format}, {count} games a match, colours alternating",
            tournament.games_per_match,
            format=format_text(tournament),
        ),
        _("**Games:** {setup}", setup=describe_setup(tournament.setup)),
        _(
            "**Ranking:** {ranking}; ties broken by {tie_breaks}",
            ranking=ranking,
            tie_breaks=", ".join(tie_break_name(kind) for kind in scoring.tie_breaks),
        ),
        _(
            "**Players:** {count} of at most {most}",
            count=tournament.player_count,
            most=tournament.max_players,
        ),
        _("**Organizer:** {organizer}", organizer=mention(tournament.organizer)),
    ]
    tiebreaks = tiebreak_text(tournament)
    if tiebreaks is not None:
        lines.insert(3, tiebreaks)
    if tournament.format is TournamentFormat.SWISS:
        lines.insert(3, requested_bye_text(tournament))
    if tournament.status is TournamentStatus.SIGNUP and tournament.signup_deadline is not None:
        lines.append(_("**Sign-up closes** {when}", when=timestamp(tournament.signup_deadline)))
    return "\n".join(lines)


def requested_bye_worth(tournament: TournamentView) -> str:
    """What a Swiss requested bye scores: "1 point, as a draw", "0 points"."""
    points = tournament.scoring.requested_bye_points()
    shown = numeral(points)
    if tournament.scoring.system is ScoringSystem.MATCH_POINTS and points:
        if points == 1:
            return _("{points} point, as a draw", points=shown)
        return _("{points} points, as a draw", points=shown)
    return _("{points} point", points=shown) if points == 1 else _("{points} points", points=shown)


def requested_bye_text(tournament: TournamentView) -> str:
    return _(
        "**Requested byes:** {worth}; ask before the round with `/tournament bye`",
        worth=requested_bye_worth(tournament),
    )


def created_embed(tournament: TournamentView) -> discord.Embed:
    """The sign-up call. The command is shown as typed, in a code span (where nothing is
    markdown and nothing pings), so it can be copied as it is."""
    command = _("/tournament join tournament:{name}", name=tournament.name)
    fence = "`" * (max(map(len, re.findall("`+", command)), default=0) + 1)
    span = f"{fence} {command} {fence}" if len(fence) > 1 else f"`{command}`"
    return discord.Embed(
        title=_("New tournament: {name}", name=display(tournament.name)),
        description=_(
            "{settings}\n\nSign up with {command}.",
            settings=settings_text(tournament),
            command=span,
        ),
    )


def round_title(tournament: TournamentView, number: int) -> str:
    name = display(tournament.name)
    stage = ""
    if tournament.format is TournamentFormat.GROUPS:
        stage = _(" (knockout)") if tournament.is_knockout_round(number) else _(" (groups)")
    if tournament.rounds_total:
        return _(
            "{name}: round {number} of {total}{stage}",
            name=name,
            number=number,
            total=tournament.rounds_total,
            stage=stage,
        )
    return _("{name}: round {number}{stage}", name=name, number=number, stage=stage)


def pairing_line(pairing: PairingView) -> str:
    """One pairing with its result so far: "**ann** 32 - 0 **ben**: ann wins"."""
    first = display(pairing.player1.name)
    if pairing.player2 is None:
        if pairing.requested:
            return _("**{player}** has a bye (requested)", player=first)
        return _("**{player}** has a bye", player=first)
    score = f"**{first}** {pairing.points1} - {pairing.points2} "
    score += f"**{display(pairing.player2.name)}**"
    if not pairing.is_decided:
        return _("{score} (playing)", score=score)
    if pairing.winner is None:
        return _("{score}: drawn match", score=score)
    winner = display(pairing.winner.name)
    if pairing.forfeit:
        if pairing.requested:
            return _(
                "{score}: {winner} wins by forfeit (a bye was asked for)",
                score=score,
                winner=winner,
            )
        return _("{score}: {winner} wins by forfeit", score=score, winner=winner)
    if pairing.requested:
        return _("{score}: {winner} wins (a bye was asked for)", score=score, winner=winner)
    return _("{score}: {winner} wins", score=score, winner=winner)


def second_bye_line(player: PlayerRef) -> str:
    """Why a Swiss player has the odd player's bye again."""
    return _(
        "{player} has a second bye: everyone else still in has had one, and the byes asked for "
        "left an odd number to pair.",
        player=display(player.name),
    )


def round_embed(tournament: TournamentView, round_view: RoundView) -> discord.Embed:
    lines = [pairing_line(p) for p in round_view.pairings]
    lines += map(second_bye_line, round_view.second_byes)
    description = "\n".join(lines) or _("No pairings.")
    if len(description) > MAX_DESCRIPTION:  # 32 pairings of long names: see /tournament pairings
        description = description[: MAX_DESCRIPTION - 2] + "\n…"
    return discord.Embed(title=round_title(tournament, round_view.number), description=description)


def round_begins_text(tournament: TournamentView, number: int) -> str:
    """The line a round's pairings are posted under."""
    return _("**{round}** begins.", round=round_title(tournament, number))


def match_anchor_text(tournament: TournamentView, pairing: PairingView, game_id: int) -> str:
    assert pairing.player2 is not None
    return _(
        "{name}, round {round}: {player1} vs {player2} (game #{game}).",
        name=display(tournament.name),
        round=pairing.round,
        player1=mention(pairing.player1),
        player2=mention(pairing.player2),
        game=game_id,
    )


def _score(value: float) -> str:
    return numeral(value)


def standings_table(tournament: TournamentView, rows: list[StandingRow]) -> str:
    """A monospaced table: place, player, W-D-L, the ranking score, game points, tie-breaks; a
    groups -> knockout event's one table a group, each under its letter."""
    numbers = sorted({row.group for row in rows if row.group is not None})
    if numbers:
        return "\n".join(
            _("**Group {group}**", group=group_name(number))
            + "\n"
            + _table(tournament, [row for row in rows if row.group == number])
            for number in numbers
        )
    return _table(tournament, rows)


def _table(tournament: TournamentView, rows: list[StandingRow]) -> str:
    breaks = tournament.scoring.tie_breaks
    header = [
        "#",
        _("Player"),
        _("W-D-L"),
        _("Score"),
        _("GP"),
        *(tie_break_short(kind) for kind in breaks),
    ]
    body = []
    for row in rows:
        s = row.standing
        name = row.player.name[:MAX_TABLE_NAME] + status_mark(row.status)
        record = f"{s.won}-{s.drawn}-{s.lost}" + (_("+{byes}b", byes=s.byes) if s.byes else "")
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
        description = _("No standings yet: fewer than two players have joined.")
    else:
        description = standings_table(tournament, rows)
        if len(description) > MAX_DESCRIPTION:
            description = description[: MAX_DESCRIPTION - 8] + "\n…\n```"
    name = display(tournament.name)
    match tournament.status:
        case TournamentStatus.SIGNUP:
            title = _("{name}: standings (signing up)", name=name)
        case TournamentStatus.RUNNING:
            title = _(
                "{name}: standings (after round {round})",
                name=name,
                round=tournament.current_round,
            )
        case TournamentStatus.FINISHED:
            title = _("{name}: standings (final)", name=name)
        case TournamentStatus.CANCELLED:
            title = _("{name}: standings (cancelled)", name=name)
    embed = discord.Embed(title=title, description=description)
    embed.set_footer(
        text=_(
            "Score: {scoring}. GP: game points.", scoring=scoring_name(tournament.scoring.system)
        )
    )
    if tournament.format is TournamentFormat.SWISS:
        embed.set_footer(text=f"{embed.footer.text} {byes_legend(tournament)}")
    return embed


def byes_legend(tournament: TournamentView) -> str:
    """What a Swiss table's "+Nb" counts: the byes asked for with the odd player's."""
    return _(
        "+Nb: byes, those asked for included (one scores {worth}).",
        worth=requested_bye_worth(tournament),
    )


def finished_text(tournament: TournamentView) -> str:
    name = display(tournament.name)
    if tournament.winner is None:
        return _("🏆 **{name}** is over: first place is shared.", name=name)
    return _("🏆 **{name}** is over: {winner} wins!", name=name, winner=mention(tournament.winner))


def decided_text(decided: list[PairingView]) -> str | None:
    """The matches decided without being played to the end (forfeits) worth a line."""
    lines = [
        _("Round {round}: {pairing}", round=p.round, pairing=pairing_line(p))
        for p in decided
        if p.forfeit
    ]
    return "\n".join(lines) or None


def stopped_text(tournament: TournamentView, game_id: int) -> str:
    if tournament.status is TournamentStatus.CANCELLED:
        return _(
            "Game #{game} is stopped: {name} was cancelled. It is not rated or counted; its "
            "moves are kept.",
            game=game_id,
            name=display(tournament.name),
        )
    return _(
        "Game #{game} is stopped: its match was decided by a forfeit. It is not rated or "
        "counted; its moves are kept.",
        game=game_id,
    )


def headline_text(tournament: TournamentView, headline: Headline, player_id: int | None) -> str:
    """The tournament's start, or a player's withdrawal or disqualification."""
    name, who = display(tournament.name), mention(player_id or 0)
    match headline:
        case Headline.STARTED:
            return _("**{name}** has started!", name=name)
        case Headline.WITHDREW:
            return _("{player} withdrew from **{name}**.", player=who, name=name)
        case Headline.DISQUALIFIED:
            return _("{player} is disqualified from **{name}**.", player=who, name=name)
    raise KeyError(headline)


def cancelled_text(tournament: TournamentView) -> str:
    return _(
        "**{name}** was cancelled by an organizer. Results so far are kept.",
        name=display(tournament.name),
    )


def joined_text(tournament: TournamentView) -> str:
    return _(
        "You are in **{name}** ({count} of at most {most} players). Good luck!",
        name=display(tournament.name),
        count=tournament.player_count,
        most=tournament.max_players,
    )


def info_embed(tournament: TournamentView, entrants: list[Entrant]) -> discord.Embed:
    embed = discord.Embed(
        title=f"{display(tournament.name)} ({tournament.status.word()})",
        description=settings_text(tournament),
    )
    lines = [
        f"{entrant.seed or number}. {display(entrant.player.name)}"
        + ("" if entrant.group is None else _(" (group {group})", group=group_name(entrant.group)))
        + status_mark(entrant.status)
        for number, entrant in enumerate(entrants, start=1)
    ]
    players = "\n".join(lines) or _("Nobody yet.")
    if len(players) > MAX_FIELD:
        players = players[: MAX_FIELD - 2] + "\n…"
    embed.add_field(
        name=_("Players (by seed)") if tournament.started_at else _("Players"), value=players
    )
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
        return _("when the organizer starts it")
    return timestamp(tournament.signup_deadline)


def checkin_open_text(state: EntryState) -> str:
    tournament = state.tournament
    text = _(
        "✅ Check-in for **{name}** is open: check in with `/tournament checkin` before it "
        "starts ({closes}). Whoever has not checked in by then is left out.",
        name=display(tournament.name),
        closes=_closes(tournament),
    )
    if state.missing:
        text += "\n" + _("Still to check in: {players}", players=_mentions(state.missing))
    return text


def checkin_reminder_text(state: EntryState) -> str:
    tournament = state.tournament
    if not state.missing:
        return _("Everyone in **{name}** has checked in.", name=display(tournament.name))
    return _(
        "⏰ Reminder: {players}, check in for **{name}** with `/tournament checkin` ({closes}), "
        "or you will be left out.",
        players=_mentions(state.missing),
        name=display(tournament.name),
        closes=_closes(tournament),
    )


def dropped_text(dropped: Sequence[int]) -> str:
    return _("Left out for not checking in: {players}.", players=_mentions(dropped))


def late_entry_text(tournament: TournamentView, player_id: int, first_round: int | None) -> str:
    fields = {"player": mention(player_id), "name": display(tournament.name)}
    if first_round:
        return _(
            "{player} joins **{name}** late, with 0 points, and is paired from round {round}.",
            round=first_round,
            **fields,
        )
    return _("{player} joins **{name}** late, with 0 points, and is paired.", **fields)


def replaced_text(tournament: TournamentView, old_id: int, new_id: int) -> str:
    return _(
        "{new} takes over {old}'s place in **{name}**: their seed, their match in progress and "
        "every later one. The results so far stay as played and count for the place.",
        new=mention(new_id),
        old=mention(old_id),
        name=display(tournament.name),
    )


def seed_order_text(state: EntryState) -> str:
    """The order the tournament would start in, one player a line."""
    lines = [
        f"{number}. {display(entrant.player.name)}"
        for number, entrant in enumerate(state.entrants, start=1)
    ]
    return _fitted("\n".join(lines) or _("Nobody yet."))


def _fitted(text: str) -> str:
    """Lines cut to an embed field's length, "…" on a line of its own where cut."""
    return text if len(text) <= MAX_FIELD else text[: MAX_FIELD - 2] + "\n…"


def replacements_text(replaced: Sequence[tuple[PlayerRef, PlayerRef, int]]) -> str | None:
    """Under the standings: who holds whose place (the row counts the old player's results)."""
    if not replaced:
        return None
    return "\n".join(
        _(
            "{new} replaced {old} in round {round}; the row counts {old}'s results.",
            new=display(new.name),
            old=display(old.name),
            round=number,
        )
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
        "\n".join(
            _("Round {round}: {players}", round=n, players=", ".join(names))
            for n, names in sorted(rounds.items())
        )
    )


def kept_apart_text(pairs: Sequence[tuple[PlayerRef, PlayerRef]]) -> str | None:
    """The pairs the Swiss pairing keeps apart, one a line; None without any."""
    if not pairs:
        return None
    return _fitted("\n".join(f"{display(a.name)} – {display(b.name)}" for a, b in pairs))


def bye_request_text(
    tournament: TournamentView, who: str | None, round_number: int, *, withdrawn: bool
) -> str:
    """The confirmation of a bye asked for (or withdrawn) by the one who asks (`who` None) or
    by an organizer for the player named `who`."""
    fields = {"name": display(tournament.name), "round": round_number}
    swiss = tournament.format is TournamentFormat.SWISS
    worth = requested_bye_worth(tournament)
    if who is None:
        if withdrawn:
            return _("You will be paired in round {round} of {name} after all.", **fields)
        if not swiss:
            return _(
                "You will forfeit your round {round} match of {name} (a round robin's schedule "
                "is fixed): the opponent wins it when the round begins. It can be withdrawn "
                "until then.",
                **fields,
            )
        return _(
            "You will sit out round {round} of {name} with a requested bye ({worth}). It can be "
            "withdrawn until the round is paired.",
            worth=worth,
            **fields,
        )
    if withdrawn:
        return _(
            "{player} will be paired in round {round} of {name} after all.", player=who, **fields
        )
    if not swiss:
        return _(
            "{player} will forfeit their round {round} match of {name} (a round robin's schedule "
            "is fixed): the opponent wins it when the round begins. It can be withdrawn until "
            "then.",
            player=who,
            **fields,
        )
    return _(
        "{player} will sit out round {round} of {name} with a requested bye ({worth}). It can be "
        "withdrawn until the round is paired.",
        player=who,
        worth=worth,
        **fields,
    )


def checkin_field(state: EntryState, now: datetime) -> str:
    """The check-in as `/tournament info` shows it during sign-up."""
    opens = state.checkin.opens_at
    assert opens is not None
    if not state.checkin.is_open(now):
        return _("Opens {when}.", when=timestamp(opens))
    count = len(state.entrants)
    text = _(
        "Open: {checked} of {count} checked in.", checked=count - len(state.missing), count=count
    )
    if state.missing:
        text += " " + _(
            "Still to check in: {players}",
            players=", ".join(display(p.name) for p in state.missing),
        )
    return text if len(text) <= MAX_FIELD else text[: MAX_FIELD - 1] + "…"
