"""The words of the pages, in the reader's language (chosen by :func:`reader_language`)."""

from __future__ import annotations

from bot.games.board_words import board_words
from bot.languages import SOURCE_LANGUAGE, _, catalogue
from rendering.board import banner_text
from tak import Result


def reader_language(accept_language: str) -> str:
    """The language of Bredon's catalogue the reader's browser prefers most (``Accept-Language``,
    by its q-values), else English."""
    known = catalogue().languages
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        base = tag.strip().lower().split("-")[0]
        if base in known and quality > 0:
            wanted.append((-quality, index, base))
    return min(wanted)[2] if wanted else SOURCE_LANGUAGE


def result_words(result: Result, white: str, black: str) -> str:
    """How a game ended, as the board picture's banner says it ("alice wins by road · R-0")."""
    return banner_text(result, (white, black), board_words())


def page_words() -> dict[str, str]:
    """Every label of the templates, in the language being spoken."""
    return {
        "game": _("Game #{game}"),
        "board_alt": _("The board after ply {ply}: {white} against {black}"),
        "first": _("Start"),
        "previous": _("Previous"),
        "next": _("Next"),
        "last": _("Latest"),
        "arrow_keys": _("Arrow keys step through the moves."),
        "moves": _("Moves"),
        "no_moves": _("No move yet."),
        "in_progress": _("In progress: {player} to move."),
        "deadline": _("Deadline: {time} UTC"),
        "clock_left": _("{player}: {left} left"),
        "download_ptn": _("Download PTN"),
        "download_tps": _("Position as TPS"),
        "ninja": _("Open in PTN Ninja"),
        "settings": _("{size}x{size}, komi {komi}"),
        "rated": _("rated"),
        "unrated": _("unrated"),
        "live": _("This page updates itself when a move is made."),
        "standings": _("Standings"),
        "group": _("Group {group}"),
        "place": _("Place"),
        "player": _("Player"),
        "score": _("Score"),
        "played": _("Played"),
        "round": _("Round {number}"),
        "bye": _("bye"),
        "undecided": _("not decided"),
        "bracket": _("Bracket"),
        "rules": _("Rules"),
        "format": _("Format: {format}"),
        "status": _("Stage: {stage}"),
        "players": _("Players: {count}"),
        "signup_deadline": _("Sign-up closes: {time} UTC"),
        "started": _("Started: {time} UTC"),
        "finished": _("Finished: {time} UTC"),
        "winner": _("Winner: {name}"),
        "ratings": _("Ratings"),
        "size": _("Size"),
        "rating": _("Rating"),
        "games_count": _("Games"),
        "recent_games": _("Recent games"),
        "head_to_head": _("Head to head"),
        "opponent": _("Opponent"),
        "won_lost_drawn": _("Won / lost / drawn"),
        "rating_chart_alt": _("{name}'s rating on {size}x{size} after each rated game"),
        "lobby": _("Lobby"),
        "open_challenges": _("Open challenges"),
        "games_in_progress": _("Games in progress"),
        "events": _("Tournaments"),
        "none": _("None."),
        "anyone": _("anyone"),
        "against": _("{white} against {black}"),
        "server_lobby": _("The server's lobby"),
        "not_found": _("There is no such page, or its server does not show it."),
        "too_many": _("Too many requests: wait a few seconds and try again."),
    }
