"""An animated GIF written one frame at a time, so a long replay never holds all its frames.

Every frame is a "P" image on one shared 256-colour palette (the theme's, see
:mod:`rendering.palette`). After the first, a frame is stored as its change from the one before:
only the box around the pixels that differ, with the unchanged pixels inside it made transparent
(an index the frame does not use), so LZW packs the untouched parts of the board into almost
nothing. A ply changes the header and a few squares, so a delta is a sixth of a whole frame.
"""

from __future__ import annotations

import struct

from PIL import GifImagePlugin, Image, ImageChops

_TRAILER = b";"
# Leave each frame in place: the next frame's transparent pixels show it through.
_DO_NOT_DISPOSE = 1
# Maps a delta's zero (unchanged) pixels to 1 in a mask, every other value to 0.
_UNCHANGED = [255] + [0] * 255


class GifStream:
    """Frames in, GIF bytes out; :attr:`size` is what the file would weigh if it ended now."""

    def __init__(self, *, loop: int = 0) -> None:
        self._loop = loop
        self._parts: list[bytes] = []
        self._written = 0
        self._previous: Image.Image | None = None

    @property
    def size(self) -> int:
        return self._written + len(_TRAILER)

    def add(self, frame: Image.Image, duration_ms: int) -> None:
        """Append a "P" frame shown for `duration_ms`; every frame must have the first one's
        palette and size."""
        previous = self._previous
        params: dict[str, int] = {}  # the frame's transparent index, if it has one
        if previous is None:
            self._write(_header(frame, self._loop))
            box, image = (0, 0, *frame.size), frame
        else:
            if frame.size != previous.size:
                raise ValueError(f"Frame of {frame.size} after frames of {previous.size}.")
            delta = ImageChops.subtract_modulo(frame, previous)
            # An unchanged frame still needs an image block to carry its duration.
            box = delta.getbbox() or (0, 0, 1, 1)
            image = frame.crop(box)
            free = _unused_index(image)
            if free is not None:
                image.paste(free, mask=delta.crop(box).point(_UNCHANGED, "1"))
                params["transparency"] = free
        for part in GifImagePlugin.getdata(
            image, offset=box[:2], duration=duration_ms, disposal=_DO_NOT_DISPOSE, **params
        ):
            self._write(bytes(part))
        self._previous = frame

    def getvalue(self) -> bytes:
        """The finished file."""
        return b"".join(self._parts) + _TRAILER

    def _write(self, data: bytes) -> None:
        self._parts.append(data)
        self._written += len(data)


def _header(frame: Image.Image, loop: int) -> bytes:
    """Signature, screen size, the 256-colour global palette and the looping extension."""
    palette = bytes(frame.getpalette() or [])[: 3 * 256].ljust(3 * 256, b"\0")
    width, height = frame.size
    # 0xF7: a global colour table of 2 ** (7 + 1) entries, 8 bits a primary.
    screen = struct.pack("<6sHHBBB", b"GIF89a", width, height, 0xF7, 0, 0)
    looping = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\0"
    return screen + palette + looping


def _unused_index(image: Image.Image) -> int | None:
    """A palette index no pixel of `image` uses, free to mean "transparent"."""
    return next((index for index, count in enumerate(image.histogram()) if not count), None)
