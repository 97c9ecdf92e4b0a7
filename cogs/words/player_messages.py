"""What the bot says about players: ratings and their changes, the leaderboard, a player's
totals, statistics and settings.

Like :mod:`cogs.words.game_messages`, no Discord calls and no rules: :mod:`bot.players` decides.
"""

from __future__ import annotations

from datetime import timedelta

import discord

from bot.games.matches import PlayerTotals
from bot.games.model import RatingChange
from bot.games.ratings import PlayerRating
from bot.games.statistics import PlayerStatistics, Tally
from bot.languages import _, language_name, ngettext, numeral, spoken
from bot.players.glicko2 import Rating, is_provisional
from bot.players.service import PlayerProfile
from bot.timekeeping.control import describe_duration
from cogs.words.formatting import display
from rendering.statistics import BarRow, Section, StatisticsCard, StatisticsWords
from tak import ResultKind


def rating_label(rating: Rating) -> str:
    """'1623', or '1623?' while provisional."""
    return f"{rating.rating:.0f}{'?' if is_provisional(rating) else ''}"


def rating_change_text(change: RatingChange) -> str:
    delta = change.after.rating - change.before.rating
    return f"{display(change.player.name)} {rating_label(change.after)} ({delta:+.0f})"


def ratings_changed_text(changes: tuple[RatingChange, ...]) -> str:
    """ "Ratings: alice 1662? (+162), bob 1338? (-162)", with what the ? means when shown."""
    text = _("Ratings: {changes}.", changes=", ".join(map(rating_change_text, changes)))
    if any(is_provisional(change.after) for change in changes):
        text += _(" A ? marks a provisional rating: it settles after a few rated games.")
    return text


def games_count(games: int) -> str:
    return ngettext("{count} game", "{count} games", games)


def ratings_text(ratings: list[PlayerRating], name: str) -> str:
    """One line of `/profile scores`: the player's rating on each board size."""
    if not ratings:
        return _("{name} has no rating yet: ratings come from rated games.", name=name)
    sizes = ", ".join(
        f"{r.size}x{r.size} **{r.label()}** ({games_count(r.games)})" for r in ratings
    )
    return _("Ratings: {sizes}. A ? marks a provisional rating.", sizes=sizes)


def anywhere_ratings_text(ratings: list[PlayerRating]) -> str:
    """`/profile scores`, to the player themself: the pool of their games outside servers."""
    sizes = ", ".join(
        f"{r.size}x{r.size} **{r.label()}** ({games_count(r.games)})" for r in ratings
    )
    return _("Anywhere (your games outside servers, rated apart): {sizes}.", sizes=sizes)


def leaderboard_embed(size: int, board: list[PlayerRating]) -> discord.Embed:
    lines = [
        f"{place}. **{display(r.player.name)}** {r.label()} ({games_count(r.games)})"
        for place, r in enumerate(board, start=1)
    ]
    empty = _(
        "Nobody has an established {size}x{size} rating yet: a rating stops being provisional "
        "after a few rated games.",
        size=size,
    )
    title = _("Leaderboard, {size}x{size}", size=size)
    return discord.Embed(title=title, description="\n".join(lines) or empty)


def totals_text(totals: PlayerTotals | None, name: str) -> str:
    if totals is None:
        return _("{name} has no finished games in this server yet.", name=name)
    return _(
        "**{name}**: {points} points all-time in this server ({games}: {wins} won, {losses} "
        "lost, {draws} drawn).",
        name=name,
        points=totals.points,
        games=games_count(totals.games),
        wins=totals.wins,
        losses=totals.losses,
        draws=totals.draws,
    )


def settings_text(profile: PlayerProfile) -> str:
    """`/profile settings`' answer: the theme, automatic vacation and the language (spoken in
    the player's: with none chosen, their Discord's)."""
    if profile.auto_vacation:
        auto = _(
            "**on**: when your time runs out and vacation days are left, one is taken instead "
            "of the loss"
        )
    else:
        auto = _("**off**")
    if profile.language is None:
        language = _("as your Discord (**{language}** now)", language=language_name(spoken()))
    else:
        language = f"**{language_name(profile.language)}**"
    return "\n".join(
        [
            _("Your board theme: **{theme}**.", theme=profile.theme or _("default")),
            _("Automatic vacation: {setting}.", setting=auto),
            _("Language: {language}.", language=language),
        ]
    )


def _where(size: int | None) -> str:
    """ "in this server", or "on 6x6 in this server"."""
    if size is None:
        return _("in this server")
    return _("on {size}x{size} in this server", size=size)


def _record(tally: Tally) -> str:
    return _(
        "{wins} won, {losses} lost, {draws} drawn",
        wins=tally.wins,
        losses=tally.losses,
        draws=tally.draws,
    )


def no_statistics_text(name: str, size: int | None, against_bot: Tally) -> str:
    """`/profile stats` for a player with no finished game against a player (there)."""
    text = _(
        "{name} has no finished game against a player {where} yet.", name=name, where=_where(size)
    )
    if against_bot.games:
        text += " " + _("Against me: {record}.", record=_record(against_bot))
    return text


def statistics_text(stats: PlayerStatistics, name: str, size: int | None) -> str:
    """The line that goes with the picture: the record in a few words."""
    return _(
        "**{name}**: {games} {where}, {record}; {plies} plies on average.",
        name=name,
        games=games_count(stats.games),
        where=_where(size),
        record=_record(stats.overall),
        plies=numeral(round(stats.average_plies, 1)),
    )


def _bar(label: str, tally: Tally) -> BarRow:
    return BarRow(label, tally.wins, tally.losses, tally.draws)


def _ending_words() -> dict[ResultKind, str]:
    return {
        ResultKind.ROAD: _("Road"),
        ResultKind.FLATS: _("Flats"),
        ResultKind.RESIGNATION: _("Resignation"),
        ResultKind.TIME: _("Time"),
        ResultKind.OTHER: _("Other"),
    }


def statistics_card(
    stats: PlayerStatistics, name: str, size: int | None, bot_name: str
) -> StatisticsCard:
    """The picture of `/profile stats`, in the language spoken: sections by size, colour, how
    the games ended, openings and opponents; Bredon's games (`bot_name`) apart."""
    endings = [
        BarRow(word, stats.wins_by.get(kind, 0), stats.losses_by.get(kind, 0), 0)
        for kind, word in _ending_words().items()
        if kind is not ResultKind.OTHER or stats.wins_by.get(kind) or stats.losses_by.get(kind)
    ]
    if stats.overall.draws:
        endings.append(BarRow(_("Draw"), 0, 0, stats.overall.draws))
    sections = [
        Section(
            _("By board size"),
            tuple(_bar(f"{s}x{s}", tally) for s, tally in stats.by_size.items()),
        ),
        Section(
            _("By colour"),
            (_bar(_("As white"), stats.as_white), _bar(_("As black"), stats.as_black)),
        ),
        Section(_("How the games ended"), tuple(endings)),
    ]
    if stats.openings:
        sections.append(
            Section(
                _("Openings played most (the first two moves)"),
                tuple(
                    _bar(o.moves if size is not None else f"{o.size}x{o.size} {o.moves}", o.tally)
                    for o in stats.openings
                ),
            )
        )
    sections.append(
        Section(
            _("Head-to-head"),
            tuple(_bar(h.opponent.name, h.tally) for h in stats.opponents),
        )
    )
    if stats.against_bot.games:
        sections.append(
            Section(_("Against me, counted apart"), (_bar(bot_name, stats.against_bot),))
        )
    facts = [_("Average length: {plies} plies", plies=numeral(round(stats.average_plies, 1)))]
    if stats.move_seconds is not None:
        facts.append(
            _(
                "Time per move (median): {time}",
                time=describe_duration(timedelta(seconds=stats.move_seconds)),
            )
        )
    return StatisticsCard(
        player=name,
        summary=_(
            "{games} {where} · {record}",
            games=games_count(stats.games),
            where=_where(size),
            record=_record(stats.overall),
        ),
        sections=tuple(sections),
        facts=tuple(facts),
        footnote=_(
            "Finished games only, aborted ones left out; games against me are practice and "
            "counted apart. Time per move: from the move before (or the start) to the "
            "player's move, a vacation or pause included."
        ),
        words=StatisticsWords(player=_("Player"), won=_("won"), lost=_("lost"), drawn=_("drawn")),
    )
