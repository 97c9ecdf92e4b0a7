"""`/tak games`: a player's games with a link to each game's thread, a page at a time.

The Previous and Next buttons carry everything a page needs in their custom_id (who asked, whose
games, which games, the moment of the listing, the page), so they work after a restart; only
the member who asked may turn the pages. Every page is read as the listing stood at its moment
(:mod:`bot.games.lookup`), so games that move on, start or end between two presses do not
shift the pages.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import discord

from bot.games.lookup import GamesPage, Listing
from bot.games.model import GameView
from bot.languages import _, ngettext
from cogs.components.buttons import pressed
from cogs.delivery.conversations import guild_of
from cogs.delivery.sharing import wording_for
from cogs.interactions import Refusal
from cogs.words import game_messages
from cogs.words.formatting import display, mention

MAX_NAME = 24  # names are cut in list lines, so that a page fits an embed at any length
MAX_AWAITING = 15  # game numbers named in "awaiting your move"
LISTING_CODE = {Listing.ACTIVE: "a", Listing.FINISHED: "f"}


def title(listing: Listing) -> str:
    return _("Games in progress") if listing is Listing.ACTIVE else _("Finished games")


def jump_url(game: GameView) -> str:
    """The game's thread, else its board message in the channel (else the channel)."""
    base = f"https://discord.com/channels/{game.guild_id}"
    if game.thread_id is not None:
        return f"{base}/{game.thread_id}"
    if game.message_id is not None:
        return f"{base}/{game.channel_id}/{game.message_id}"
    return f"{base}/{game.channel_id}"


def _name(name: str) -> str:
    short = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    return f"**{display(short)}**"


def list_line(game: GameView, viewer_id: int | None) -> str:
    """One game: its link, its players (names cut short), whose move and the clock, or its
    result (:func:`cogs.words.game_messages.game_state`)."""
    head = _(
        "[#{game}]({link}) {white} vs {black}",
        game=game.id,
        link=jump_url(game),
        white=_name(game.white.name),
        black=_name(game.black.name),
    )
    return head + game_messages.game_state(game, viewer_id)


def page_embed(
    page: GamesPage, listing: Listing, whose: int, viewer_id: int | None
) -> discord.Embed:
    """The page as an embed: whose games, those awaiting their move, the games' lines."""
    yours, player = whose == viewer_id, mention(whose)
    if page.total:
        head = (
            _("Your games in this server.")
            if yours
            else _("{player}'s games in this server.", player=player)
        )
    else:
        head = (
            _("Your games in this server: none.")
            if yours
            else _("{player}'s games in this server: none.", player=player)
        )
    lines = [head]
    if page.awaiting and listing is Listing.ACTIVE:
        named = ", ".join(f"#{number}" for number in page.awaiting[:MAX_AWAITING])
        more = len(page.awaiting) - MAX_AWAITING
        if more > 0:
            named = _("{games} and {count} more", games=named, count=more)
        lines.append(
            _("Awaiting your move: {games}.", games=named)
            if yours
            else _("Awaiting {player}'s move: {games}.", player=player, games=named)
        )
    lines.append("")
    lines.extend(list_line(game, viewer_id) for game in page.games)
    embed = discord.Embed(
        title=title(listing), description="\n".join(lines).rstrip(), timestamp=page.as_of
    )
    footer = ngettext(
        "Page {number} of {pages} · {count} game · listed",
        "Page {number} of {pages} · {count} games · listed",
        page.total,
        number=page.number + 1,
        pages=page.pages,
    )
    embed.set_footer(text=footer)
    return embed


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=(
        r"bredon:games:(?P<caller>\d+):(?P<whose>\d+):(?P<listing>[af]):(?P<moment>\d+)"
        r":(?P<page>\d+)"
    ),
):
    """Previous or Next under a list of games: turns to page `page` of the same listing."""

    def __init__(
        self,
        caller: int,
        whose: int,
        listing: Listing,
        moment: int,
        page: int,
        *,
        label: str = "Next",
        disabled: bool = False,
    ) -> None:
        code = LISTING_CODE[listing]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"bredon:games:{caller}:{whose}:{code}:{moment}:{page}",
            )
        )
        self.caller = caller
        self.whose = whose
        self.listing = listing
        self.moment = moment
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        listing = next(kind for kind, code in LISTING_CODE.items() if code == match["listing"])
        caller, whose, moment, page = (int(match[k]) for k in ("caller", "whose", "moment", "page"))
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(caller, whose, listing, moment, page, label=label or "Next")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Only the member who asked turns the pages; the message is edited in place."""

        async def turn() -> None:
            if interaction.user.id != self.caller:
                raise Refusal(
                    _(
                        "Only {player} can turn these pages: `/tak games` lists games for you.",
                        player=mention(self.caller),
                    )
                )
            message = interaction.message
            ephemeral = message is not None and message.flags.ephemeral
            async with wording_for(interaction, not ephemeral):  # a shown list: the server's
                embed, view = await listing_page(
                    interaction,
                    caller=self.caller,
                    whose=self.whose,
                    listing=self.listing,
                    as_of=from_moment(self.moment),
                    number=self.page,
                    viewer_id=self.caller if ephemeral else None,
                )
            await interaction.response.edit_message(embed=embed, view=view)

        await pressed(interaction, "the games list", self.whose, turn())


def to_moment(as_of: datetime) -> int:
    """A listing's moment as a whole number of microseconds (for a custom_id)."""
    return round(as_of.timestamp() * 1_000_000)


def from_moment(moment: int) -> datetime:
    return datetime.fromtimestamp(moment / 1_000_000, tz=UTC)


def page_buttons(caller: int, whose: int, listing: Listing, page: GamesPage) -> discord.ui.View:
    """Previous and Next (greyed out at either end); nothing when one page holds all."""
    view = discord.ui.View(timeout=None)
    if page.pages > 1:
        moment = to_moment(page.as_of)
        for label, number, enabled in (
            (_("Previous"), page.number - 1, page.has_previous),
            (_("Next"), page.number + 1, page.has_next),
        ):
            button = PageButton(
                caller, whose, listing, moment, max(number, 0), label=label, disabled=not enabled
            )
            view.add_item(button)
    return view


async def listing_page(
    interaction: discord.Interaction,
    *,
    caller: int,
    whose: int,
    listing: Listing,
    as_of: datetime,
    number: int,
    viewer_id: int | None,
) -> tuple[discord.Embed, discord.ui.View]:
    """Page `number` of the listing, as an embed with its buttons."""
    services = interaction.client.services  # type: ignore[attr-defined]
    page = await services.lookup.games_page(
        whose, guild_of(interaction), listing, as_of=as_of, number=number
    )
    embed = page_embed(page, listing, whose, viewer_id)
    return embed, page_buttons(caller, whose, listing, page)
