"""A knockout of 33 players through the real discord.py: its bracket (a play-in, then 32) is
posted as one picture per section of 16 and one of the last rounds, each as the renderer draws
it, and so is the answer to `/tournament standings` (issue 38: one picture 880x5251 for 64)."""

from __future__ import annotations

import io

from PIL import Image

from rendering.bracket import bracket_pictures, render_bracket
from tests.cogs.commands.test_tournament import Club, embed_titles
from tests.cogs.conftest import World


async def test_a_knockout_of_33_players_posts_its_bracket_in_sections(world: World) -> None:
    club = Club(world)
    extra = [world.guild.add_member(world.env.create_user(f"player{n}")) for n in range(5, 34)]
    club.players = [*club.players, *extra]
    await club.sign_up_and_start(name="Big Cup", format="elimination", games=1, size=3)
    [first] = [m for m in club.channel_posts() if "round 1" in " ".join(embed_titles([m]))]
    names = ["bracket-1.png", "bracket-2.png", "bracket-3.png"]
    assert [a.filename for a in first.attachments] == names
    tournament = (await club.services.tournaments.in_guild(world.guild.id))[0]
    bracket = (await club.services.pictures.tournament(tournament.id)).bracket
    assert bracket is not None
    parts = bracket_pictures(bracket)
    assert len(parts) == 3
    for attachment, part in zip(first.attachments, parts, strict=True):
        png = await attachment.read()
        assert png == render_bracket(part, "default")
        width, height = Image.open(io.BytesIO(png)).size
        assert height * 400 / width <= 900  # a screen or two on a phone
    asked = await club.dave.slash(club.channel, "tournament standings", tournament="Big Cup")
    assert [a.filename for a in asked.response.attachments] == [*names, "standings.png"]
