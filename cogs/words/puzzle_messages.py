"""What the bot says about puzzles: a puzzle put to a player, the answer's verdict, a player's
puzzle rating and streak, the daily post. No rules: :mod:`bot.puzzles` decides."""

from __future__ import annotations

from bot.languages import _, ngettext, numeral
from bot.puzzles.service import Answer, DailyPuzzle, Puzzle, PuzzleStats
from tak import Color


def side(color: Color) -> str:
    return _("White") if color is Color.WHITE else _("Black")


def side_names() -> tuple[str, str]:
    """The names under a puzzle's board: no players, the two sides."""
    return side(Color.WHITE), side(Color.BLACK)


def puzzle_text(puzzle: Puzzle, *, daily_of: str | None = None) -> str:
    """The question: who moves, what to find, where it comes from."""
    if daily_of is not None:
        head = _("Daily puzzle of {day}:", day=daily_of)
    else:
        head = _(
            "Puzzle #{puzzle} (rated {rating}):", puzzle=puzzle.id, rating=f"{puzzle.rating:.0f}"
        )
    ask = _(
        "{side} to move. One move wins by force: a road at once, or a Tinuë (a road no reply "
        "can stop). Find it below, step by step.",
        side=side(puzzle.to_move),
    )
    text = f"{head} {ask}"
    if puzzle.source:
        text += "\n" + _("From {source}.", source=puzzle.source)
    return text


def answer_text(answer: Answer, move: str) -> str:
    """The verdict, privately: right or wrong, what it did to the rating and the streak."""
    if answer.solved:
        lines = [_("Right: **{move}** wins.", move=move)]
    else:
        lines = [_("**{move}** does not win.", move=move)]
        if answer.solution is not None:
            lines.append(_("The winning move was **{move}**.", move=answer.solution))
        elif answer.daily:
            lines.append(_("The solution is posted with tomorrow's puzzle."))
    if answer.counted:
        lines.append(
            _(
                "Puzzle rating: {rating} ({change}).",
                rating=f"{answer.rating:.0f}",
                change=numeral(round(answer.rating_change), sign=True),
            )
        )
        if answer.daily:
            lines.append(streak_text(answer.streak))
    else:
        lines.append(_("Only your first answer to a puzzle counts."))
    return "\n".join(lines)


def streak_text(streak: int) -> str:
    return ngettext("Daily streak: {count} day.", "Daily streak: {count} days.", streak)


def stats_text(stats: PuzzleStats, name: str) -> str:
    return "\n".join(
        (
            _(
                "{name}'s puzzle rating: {rating} (± {deviation}).",
                name=name,
                rating=f"{stats.rating:.0f}",
                deviation=f"{2 * stats.deviation:.0f}",
            ),
            _(
                "Solved {solved} of {attempted} puzzles answered.",
                solved=numeral(stats.solved),
                attempted=numeral(stats.attempted),
            ),
            streak_text(stats.streak) + " " + _("Best: {best}.", best=numeral(stats.best_streak)),
            _(
                "Solve the daily puzzle with your first answer each day (UTC) to keep the "
                "streak; a wrong first answer or a day missed ends it."
            ),
        )
    )


def daily_post_text(daily: DailyPuzzle) -> str:
    """The day's post in the server's puzzle channel: the question, and yesterday's answer."""
    lines = [
        _("**Daily puzzle of {day}**", day=daily.day.isoformat()),
        _(
            "{side} to move and win in one move: a road, or a Tinuë. Answer privately with "
            "`/puzzle daily`; the solution comes with tomorrow's puzzle.",
            side=side(daily.puzzle.to_move),
        ),
    ]
    if daily.puzzle.source:
        lines.append(_("From {source}.", source=daily.puzzle.source))
    if daily.yesterday is not None and daily.yesterday_solution is not None:
        lines.append(
            _(
                "Yesterday's puzzle: the winning move was **{move}**.",
                move=daily.yesterday_solution,
            )
        )
    return "\n".join(lines)


def channel_text(channel_id: int | None) -> str:
    if channel_id is None:
        return _("No daily puzzle is posted in this server.")
    return _("The daily puzzle is posted in <#{channel}> each day (UTC).", channel=channel_id)
