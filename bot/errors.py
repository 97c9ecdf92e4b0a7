"""Every refusal the services can give, as a specific type with a sentence the bot can show as is.

The Discord layer catches :class:`BredonError` and replies with ``error.message``; tests and code
that needs to react to one case catch the subclass.
"""

from __future__ import annotations

from bot.engine_sentences import engine_sentence
from bot.languages import _, catalogue, language_name, ngettext
from bot.text_safety import one_line


class BredonError(Exception):
    """Base class: a request the services refused. Nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ----------------------------------------------------------------- lookups


class UnknownGame(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(_("There is no game #{game}.", game=game_id))
        self.game_id = game_id


class UnknownChallenge(BredonError):
    def __init__(self, challenge_id: int) -> None:
        super().__init__(_("There is no challenge #{challenge}.", challenge=challenge_id))
        self.challenge_id = challenge_id


class UnknownMatch(BredonError):
    def __init__(self, match_id: int) -> None:
        super().__init__(_("There is no match #{match}.", match=match_id))
        self.match_id = match_id


class UnknownPlayer(BredonError):
    def __init__(self, player_id: int) -> None:
        super().__init__(_("That player has not played here yet."))
        self.player_id = player_id


# ----------------------------------------------------------------- settings


class InvalidSetting(BredonError):
    """A size, komi, day count, colour, opening, reserve or preference the bot does not accept."""


class UnknownLanguage(InvalidSetting):
    """A language Bredon has no catalogue for."""

    def __init__(self) -> None:
        names = ", ".join(f"{language_name(code)} ({code})" for code in catalogue().languages)
        super().__init__(_("Bredon speaks {languages}.", languages=names))


# ----------------------------------------------------------------- challenges


class ChallengeYourself(BredonError):
    def __init__(self) -> None:
        super().__init__(_("You cannot accept or address your own challenge."))


class NotYourChallenge(BredonError):
    def __init__(self, action: str) -> None:
        """`action`: "cancel" (the only thing a challenger alone may do to it)."""
        texts = {"cancel": _("Only the player who made this challenge can cancel it.")}
        super().__init__(texts[action])


class ChallengeNotForYou(BredonError):
    def __init__(self) -> None:
        super().__init__(_("This challenge is addressed to someone else."))


class ChallengeClosed(BredonError):
    def __init__(self, challenge_id: int, status: str) -> None:
        """`status`: how it closed ("accepted", "declined", "cancelled" or "expired")."""
        texts = {
            "accepted": _("Challenge #{challenge} is no longer open: it was accepted."),
            "declined": _("Challenge #{challenge} is no longer open: it was declined."),
            "cancelled": _("Challenge #{challenge} is no longer open: it was cancelled."),
            "expired": _("Challenge #{challenge} is no longer open: it was expired."),
        }
        super().__init__(texts[status].format(challenge=challenge_id))
        self.status = status


class ChallengeExpired(BredonError):
    def __init__(self, challenge_id: int) -> None:
        super().__init__(_("Challenge #{challenge} has expired.", challenge=challenge_id))


class OpenChallengeDecline(BredonError):
    def __init__(self) -> None:
        super().__init__(_("An open challenge cannot be declined: just leave it for someone else."))


# ----------------------------------------------------------------- games


class NotInGame(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(_("You are not playing in game #{game}.", game=game_id))


class NotYourTurn(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(_("It is not your turn in game #{game}.", game=game_id))


class GameOver(BredonError):
    def __init__(self, game_id: int, result: str) -> None:
        """`result`: the game's PTN result (``R-0``), or "aborted"."""
        if result == "aborted":
            super().__init__(_("Game #{game} is over (aborted).", game=game_id))
        else:
            super().__init__(_("Game #{game} is over ({result}).", game=game_id, result=result))


class GameNotOver(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(_("Game #{game} is still being played.", game=game_id))


class PositionChanged(BredonError):
    """The move was meant for a ply the game has left: another move or an undo came first."""

    def __init__(self, game_id: int, expected_ply: int, actual_ply: int) -> None:
        super().__init__(
            _(
                "The position has changed in game #{game} (you saw ply {seen}, it is now ply "
                "{now}): look at the board again.",
                game=game_id,
                seen=expected_ply,
                now=actual_ply,
            )
        )
        self.expected_ply = expected_ply
        self.actual_ply = actual_ply


class IllegalMove(BredonError):
    """The engine refused the move; ``reason`` is its sentence."""

    def __init__(self, text: str, reason: str) -> None:
        reason = engine_sentence(reason)
        named = text and text in reason  # the engine's sentences name the move themselves
        super().__init__(reason if named or not text else f"{one_line(text)}: {reason}")
        self.text = text
        self.reason = reason


class TooLateToAbort(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            _(
                "Game #{game} can no longer be aborted: both players have moved. "
                "Resign or offer a draw instead.",
                game=game_id,
            )
        )


class NoDrawOffer(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(_("Your opponent has not offered a draw in game #{game}.", game=game_id))


class DrawAlreadyOffered(BredonError):
    def __init__(self, game_id: int, *, by_opponent: bool = False) -> None:
        if by_opponent:
            super().__init__(
                _(
                    "Your opponent has offered a draw in game #{game}: accept or decline it.",
                    game=game_id,
                )
            )
        else:
            super().__init__(_("You have already offered a draw in game #{game}.", game=game_id))


class NoUndoRequest(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            _("Your opponent has not asked to undo a move in game #{game}.", game=game_id)
        )


class UndoAlreadyRequested(BredonError):
    def __init__(self, game_id: int, *, by_opponent: bool = False) -> None:
        if by_opponent:
            super().__init__(
                _(
                    "Your opponent has asked to undo the last move in game #{game}: "
                    "accept or decline it.",
                    game=game_id,
                )
            )
        else:
            super().__init__(
                _("You have already asked to undo the last move in game #{game}.", game=game_id)
            )


class NothingToUndo(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(_("No move has been played in game #{game} yet.", game=game_id))


class OwnRequest(BredonError):
    def __init__(self, what: str) -> None:
        """`what`: "draw offer" or "undo request"."""
        texts = {
            "draw offer": _("You cannot answer your own draw offer: your opponent has to."),
            "undo request": _("You cannot answer your own undo request: your opponent has to."),
        }
        super().__init__(texts[what])


class RematchPending(BredonError):
    def __init__(self, game_id: int, challenge_id: int) -> None:
        super().__init__(
            _(
                "A rematch of game #{game} is already waiting for an answer "
                "(challenge #{challenge}).",
                game=game_id,
                challenge=challenge_id,
            )
        )
        self.challenge_id = challenge_id


# ----------------------------------------------------------------- tournaments


class UnknownTournament(BredonError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(_("There is no tournament #{tournament}.", tournament=tournament_id))
        self.tournament_id = tournament_id


class NotOrganizer(BredonError):
    def __init__(self, action: str) -> None:
        """`action` is what they may not do, in the words being spoken ("correct results")."""
        super().__init__(
            _(
                "Only a tournament organizer (Manage Server or the organizer role) can {action}.",
                action=action,
            )
        )


class TournamentNameTaken(BredonError):
    def __init__(self, name: str) -> None:
        super().__init__(
            _(
                "A tournament called {name} is already open here: pick another name.",
                name=repr(name),
            )
        )


class WrongTournamentStage(BredonError):
    """The tournament is not at the stage the request needs (sign-up, or running)."""

    def __init__(self, name: str, status: str, action: str) -> None:
        """`action` is what cannot be done, in the words being spoken ("start it")."""
        stage = {
            "signup": _("{name} is still taking sign-ups", name=name),
            "running": _("{name} has already started", name=name),
            "finished": _("{name} is over", name=name),
            "cancelled": _("{name} was cancelled", name=name),
        }[status]
        super().__init__(_("You cannot {action}: {stage}.", action=action, stage=stage))
        self.status = status


class SignupClosed(BredonError):
    def __init__(self, name: str) -> None:
        super().__init__(_("Sign-up for {name} has closed.", name=name))


class TournamentFull(BredonError):
    def __init__(self, name: str, max_players: int) -> None:
        super().__init__(_("{name} is full ({count} players).", name=name, count=max_players))


class AlreadyEntered(BredonError):
    def __init__(self, name: str) -> None:
        super().__init__(_("You are already signed up for {name}.", name=name))


class NotEntered(BredonError):
    def __init__(self, name: str, *, you: bool = True) -> None:
        if you:
            super().__init__(_("You are not playing in {name}.", name=name))
        else:
            super().__init__(_("That player is not playing in {name}.", name=name))


class NoLongerPlaying(BredonError):
    def __init__(self, name: str, status: str) -> None:
        if status == "disqualified":
            super().__init__(_("That player has already been disqualified from {name}.", name=name))
        else:
            super().__init__(_("That player has already withdrawn from {name}.", name=name))


class NotEnoughPlayers(BredonError):
    def __init__(self, name: str, needed: int, count: int) -> None:
        super().__init__(
            _(
                "{name} needs at least {needed} players to start; it has {count}.",
                name=name,
                needed=needed,
                count=count,
            )
        )


class NoMatchToForfeit(BredonError):
    def __init__(self, name: str, round_number: int) -> None:
        super().__init__(
            _(
                "That player has no match still being played in round {round} of {name}.",
                round=round_number,
                name=name,
            )
        )


class TournamentGameAbort(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            _(
                "Game #{game} is a tournament game and cannot be aborted: resign or offer a draw.",
                game=game_id,
            )
        )


# ----------------------------------------------------------------- the store


class StoreBusy(BredonError):
    """Another process held the database's write lock for longer than the store waits."""

    def __init__(self) -> None:
        super().__init__(_("The game store is busy right now; please try again in a moment."))


class StoreConflict(StoreBusy):
    """Another process changed what this change read before it could commit (PostgreSQL could
    not run the two as if one after the other): nothing was written, and doing it again is
    safe. Moves are tried again at once (:func:`bot.store.retried_on_conflict`)."""


class StoreClosed(BredonError):
    """Bredon is stopping (or has stopped): the database takes no new work."""

    def __init__(self) -> None:
        super().__init__(_("Bredon is restarting; please try again in a minute."))


class StoreUnwritable(BredonError):
    """The database cannot take a write: the disk is full, or the file or its folder is
    read-only. Users see the message; ``problem`` tells the operator what to fix."""

    def __init__(self, problem: str) -> None:
        super().__init__(
            _("The game store cannot save anything right now; please try again later.")
        )
        self.problem = problem


class CommitUnknown(StoreUnwritable):
    """The database stopped answering while a transaction committed: it may or may not have
    been saved. The services that can tell (a move, by its request key) look and say which."""


class MoveUnconfirmed(BredonError):
    """A move's commit got no answer, and the store still cannot say whether it was saved."""

    def __init__(self, game_id: int, move: str) -> None:
        super().__init__(
            _(
                "The game store stopped answering while saving your move {move} in game #{game}, "
                "so it may or may not be saved: look at the board before you play again.",
                move=one_line(move),
                game=game_id,
            )
        )
        self.game_id = game_id


class NotYourMoveToTakeBack(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            _(
                "Only the player who made the last move in game #{game} can ask to take it back.",
                game=game_id,
            )
        )


class TooManyChallenges(BredonError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            _(
                "You already have {limit} open challenges, the most allowed: cancel one, or wait "
                "until one is accepted or expires.",
                limit=limit,
            )
        )


class TooManyTournaments(BredonError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            _(
                "This server already has {limit} tournaments signing up or running, the most "
                "allowed: finish or cancel one first.",
                limit=limit,
            )
        )


class InvisibleName(InvalidSetting):
    def __init__(self, what: str) -> None:
        """`what`: what is named ("tournament")."""
        texts = {
            "tournament": _("A tournament needs a name with visible letters or digits."),
            "league": _("A league needs a name with visible letters or digits."),
        }
        super().__init__(texts[what])


# ----------------------------------------------------------------- coins (gambling rules)


class GamblingOff(BredonError):
    def __init__(self) -> None:
        super().__init__(
            _(
                "Playing for coins is off in this server; a server manager can turn it on with "
                "`/bredon gambling enabled:True`."
            )
        )


class NotEnoughCoins(BredonError):
    def __init__(self, who: str, needed: int, balance: int, what: str) -> None:
        """`who` is "You" or a player's name; `what` is what the coins were for."""
        fields = {"what": _coins_for(what), "needed": needed}
        if who == "You":
            text = ngettext(
                "You have {count} coin: not enough for {what} ({needed}).",
                "You have {count} coins: not enough for {what} ({needed}).",
                balance,
                **fields,
            )
        else:
            text = ngettext(
                "{who} has {count} coin: not enough for {what} ({needed}).",
                "{who} has {count} coins: not enough for {what} ({needed}).",
                balance,
                who=who,
                **fields,
            )
        super().__init__(text)
        self.needed = needed
        self.balance = balance


class MustPayOrResign(BredonError):
    def __init__(self, game_id: int, owed: int, balance: int) -> None:
        super().__init__(
            ngettext(
                "You owe {count} coin to the pot of game #{game} for your opponent's Tak, and you "
                "have {balance}: you cannot move, you must resign (`/tak resign`).",
                "You owe {count} coins to the pot of game #{game} for your opponent's Tak, and "
                "you have {balance}: you cannot move, you must resign (`/tak resign`).",
                owed,
                game=game_id,
                balance=balance,
            )
        )


class NoUndoWithStakes(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            _(
                "Game #{game} is played for coins: moves cannot be taken back, since coins moved "
                "with them.",
                game=game_id,
            )
        )


class NotBidding(BredonError):
    def __init__(self, stake_id: int, why: str) -> None:
        """`why`: "unknown", "started" (the game has) or "late" (its deadline has passed)."""
        texts = {
            "unknown": _("Bidding #{stake} is unknown."),
            "started": _("Bidding #{stake} is closed: the game has started."),
            "late": _("Bidding #{stake} is closed: its deadline has passed."),
        }
        super().__init__(texts[why].format(stake=stake_id))


class NotYourBidding(BredonError):
    def __init__(self) -> None:
        super().__init__(_("Only the two players of this game bid for its first move."))


def _coins_for(what: str) -> str:
    """What coins were wanted for, in the language spoken (a ledger reason or a phrase)."""
    phrases = {
        "the ante": _("the ante"),
        "ante": _("the ante"),
        "that bid": _("that bid"),
        "bid": _("that bid"),
        "taking back": _("taking back"),
        "tak": _("the Tak payment"),
    }
    return phrases.get(what, what)


# ----------------------------------------------------------------- clocks


class VacationRefused(BredonError):
    """A vacation that cannot start or end (turned off, none left, none on, already on)."""


class PauseRefused(BredonError):
    """A pause that cannot be proposed, accepted or ended."""


class MoreTimeRefused(BredonError):
    """More time that cannot be given (not waiting, too much, game over)."""


class EntryRefused(BredonError):
    """A check-in, seed, late entry or replacement the tournament cannot take (the message says
    why)."""


# ----------------------------------------------------------------- results by hand


class CorrectionRefused(BredonError):
    """A result an organizer cannot correct (not a finished game of the tournament, no change,
    a knockout whose next match has begun...)."""


class ReportRefused(BredonError):
    """A game reported from elsewhere that does not count: the file is unreadable, forged or
    does not fit the pairing, or there is no game waiting for it."""


# ----------------------------------------------------------------- team leagues


class LeagueRefused(BredonError):
    """A league request that cannot be done: not a captain, after the deadline, a player not on
    the roster or already on a team, too few players... (the message says why)."""


class LeagueGameAbort(BredonError):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            _(
                "Game #{game} is a league game and cannot be aborted: resign or offer a draw.",
                game=game_id,
            )
        )


# ----------------------------------------------------------------- seasons


class SeasonRefused(BredonError):
    """A season request that cannot be done now (:mod:`bot.seasons`); the message says why."""
