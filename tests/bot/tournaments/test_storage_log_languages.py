"""The tournament log's lines of what followed a correction are kept as messages and fields, so
each reader sees them in their language (a German server's announcement in German, an English
organizer's `/tournament log` in English); a line written before the log kept them so is shown
as it was written."""

from __future__ import annotations

from bot.languages import speaking
from bot.services import Services
from bot.tournaments import storage
from bot.tournaments.corrections import Said, read_reported_game
from cogs.words.formatting import display
from cogs.words.result_messages import entry_text
from tests.bot.tournament_helpers import ANN, BEN, CAT, DAN, new_tournament, play_round, start
from tests.bot.tournaments.test_corrections_reported import (
    DOVE,
    REAL_GAMES,
    correct,
    finished_games,
    report_setup,
)


async def test_what_followed_a_correction_is_worded_for_each_reader(services: Services) -> None:
    tournament = await new_tournament(
        services, [ANN, BEN, CAT, DAN], format="swiss", swiss_rounds=3, games_per_match=1
    )
    await start(services, tournament.id)
    await play_round(services, tournament.id)
    game_id = (await finished_games(services, tournament.id))[0]
    game = await services.games.get(game_id)
    assert game.winner is not None
    loser = "black" if game.winner == game.white else "white"
    await correct(services, tournament.id, game_id, loser)

    [entry] = await services.corrections.log(tournament.id)
    assert all(isinstance(line, Said) for line in entry.consequences)
    score, stay = entry.consequences[:2]
    assert score.startswith("Round 1 match score now ")
    assert stay == "Pairings already made stay; later rounds are paired on these standings."
    assert f"- {score}\n- {stay}" in entry_text(entry)
    with speaking("de"):
        german = entry_text(entry)
    assert german.startswith(f"Partie #{game_id} auf **")
    assert f"- Runde 1: Matchstand jetzt {score.rsplit(' ', 1)[1]}" in german
    assert "- Schon gemachte Paarungen bleiben; spätere Runden werden nach dieser Tabelle" in german
    assert "match score" not in german

    # Lines stored before the log kept messages: shown as they were written, in any language.
    async with services.db.transaction() as tx:
        await storage.write_log(
            tx,
            tournament.id,
            kind="correction",
            actor_id=entry.actor.id,
            game_id=game_id,
            before="1-0",
            after="0-1",
            reason="before languages",
            consequences="Round 1 match score now 0-1.\nRatings are recomputed from this game on.",
            now=entry.created_at,
        )
    legacy = (await services.corrections.log(tournament.id))[-1]
    assert legacy.reason == "before languages" and legacy.consequences == (
        "Round 1 match score now 0-1.",
        "Ratings are recomputed from this game on.",
    )
    with speaking("de"):
        assert entry_text(legacy).endswith(
            "- Round 1 match score now 0-1.\n- Ratings are recomputed from this game on."
        )


async def test_a_reported_games_reason_is_worded_for_each_reader(services: Services) -> None:
    tournament_id, _ = await report_setup(services)
    text = (REAL_GAMES / "70709.ptn").read_text()
    with speaking("de"):  # reported by a German speaker: the log keeps no language
        await services.corrections.report(
            tournament_id, read_reported_game(text, "de"), reporter=DOVE, is_organizer=False
        )
    [entry] = await services.corrections.log(tournament_id)
    assert entry.reason.startswith("played elsewhere (") and entry.reason.endswith(" plies")
    plies = entry.reason.rsplit(" ", 2)[1]
    assert entry_text(entry).endswith(f"**0-R**: {display(entry.reason)}")
    with speaking("de"):
        german = entry_text(entry)
    assert german.startswith(f"Partie #{entry.game_id} gemeldet von <@{DOVE.id}>, **0-R**: ")
    where = entry.reason.split("(", 1)[1].rsplit(")", 1)[0]
    assert german.endswith(display(f"anderswo gespielt ({where}), {plies} Halbzüge"))
