"""Text from users, made safe to keep and to show (no discord.py here: the services use it too).

Whatever a user typed or calls themselves can come back in a post: a display name on every move,
a tournament's name on every round, a move echoed in a refusal. Here it loses what could hurt a
message: control characters and the invisible marks that reverse the text after them (U+202E...);
and it is cut to a length that keeps a whole message within Discord's 2,000 characters. Markdown
and mentions are escaped where messages are written (:func:`cogs.words.formatting.display`).
"""

from __future__ import annotations

import re
import unicodedata

MAX_MESSAGE = 2000
MAX_NAME = 32  # Discord's own limit for a display name
ELLIPSIS = "…"

# Bidirectional embeddings, overrides and isolates, and the marks that steer them.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def strip_unsafe(text: str) -> str:
    """`text` without control characters (line breaks kept), bidi controls, or format
    characters such as zero-width spaces, with runs of white space folded."""
    kept = "".join(
        char
        for char in _BIDI.sub("", text)
        if char in "\n\u200d"  # the joiner holds emoji sequences together
        or unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs")
    )
    return "\n".join(" ".join(line.split()) for line in kept.split("\n")).strip()


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, an ellipsis showing the cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS


def visible_name(name: str) -> str | None:
    """A name as stored: unsafe characters removed, one line, at most :data:`MAX_NAME`
    characters; None when nothing visible is left."""
    cleaned = shorten(" ".join(strip_unsafe(name).split()), MAX_NAME)
    return cleaned if any(not char.isspace() for char in cleaned) else None


def one_line(user_input: str, limit: int = 40) -> str:
    """What a user typed, to quote back once: one line, short, no unsafe characters."""
    return shorten(" ".join(strip_unsafe(user_input).split()), limit)


def message_text(text: str) -> str:
    """A whole reply made safe to send: unsafe characters removed, within 2,000 characters."""
    return shorten(strip_unsafe(text), MAX_MESSAGE)


_QUOTES = str.maketrans({"’": "'", "‘": "'", "′": "'", "´": "'", "“": '"', "”": '"', "`": None})


def typed_move(text: str) -> str:
    """A move as typed on any keyboard, in plain PTN characters: full-width letters and digits
    (NFKC), the curly quotes phones insert for `'`, code backticks and spaces at either end
    undone; spaces within are kept (one for a run), so that a refusal shows it as typed."""
    normal = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return " ".join(normal.split())
