"""Pure-Python port of lz-string 1.5's URI-safe compression (pieroxy/lz-string).

ptn.ninja links carry a game as ``compressToEncodedURIComponent(ptn_text)``, so the
output here must match the JavaScript library character for character. JavaScript
strings are sequences of UTF-16 code units, so text is turned into code units first
(characters outside the BMP become surrogate pairs) and turned back after decompressing.
"""

from tak.errors import PTNError

_URI_SAFE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$"
_BITS_PER_CHAR = 6
# Each character's six bits reversed, so that the stream's next bit is the lowest. Only the low
# six bits are ever read: "$" (64) decodes as zeros, exactly as in JS.
_REVERSED_VALUES = {
    char: int(format(index & 0x3F, "06b")[::-1], 2) for index, char in enumerate(_URI_SAFE_ALPHABET)
}
# Real games make links of a few kilobytes; this keeps decoding any link well under a second.
MAX_DECOMPRESSED_LENGTH = 300_000
_TOO_LONG = "The link {} characters, more than any game record: it was not decoded."

# Codes 0-2 are reserved in the stream: 8-bit literal follows, 16-bit literal follows, end.
_LITERAL_8 = 0
_LITERAL_16 = 1
_END_OF_STREAM = 2

# In JS the dictionary is a plain object, where assigning to the key "__proto__" is
# silently ignored; that phrase must never enter our dictionary either, or outputs differ.
_JS_IGNORED_KEY = "__proto__"


def _to_code_units(text: str) -> str:
    """Spell text with one char per UTF-16 code unit, the way a JS string sees it."""
    if text.isascii():
        return text
    return "".join(
        char
        if ord(char) <= 0xFFFF
        else chr(0xD800 + ((ord(char) - 0x10000) >> 10)) + chr(0xDC00 + (ord(char) & 0x3FF))
        for char in text
    )


def _from_code_units(units: str) -> str:
    """Join surrogate pairs back into characters; lone surrogates are kept, as in JS."""
    if units.isascii():
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class _BitWriter:
    """Collects bits in stream order and packs them six at a time, as the JS loop does."""

    def __init__(self) -> None:
        self._chunks: list[str] = []

    def write(self, value: int, width: int) -> None:
        """Append the low ``width`` bits of value, least significant bit first."""
        self._chunks.append(format(value & ((1 << width) - 1), f"0{width}b")[::-1])

    def finish(self) -> str:
        """Pad and encode; JS always pads 1-6 zero bits, even when already aligned."""
        bits = "".join(self._chunks)
        bits += "0" * (_BITS_PER_CHAR - len(bits) % _BITS_PER_CHAR)
        return "".join(
            _URI_SAFE_ALPHABET[int(bits[start : start + _BITS_PER_CHAR], 2)]
            for start in range(0, len(bits), _BITS_PER_CHAR)
        )


def _compress(units: str) -> str:
    """LZW over UTF-16 code units, mirroring LZString._compress step for step.

    JS keys its dictionary by the phrases themselves; here a phrase is a node of a trie (its code
    and the next char lead to the longer phrase's code), so each char costs the same however long
    the phrase: string keys made a run of one char cost its length to the power 1.5.
    """
    codes: dict[str, int] = {}  # the single chars seen
    extensions: dict[tuple[int, str], int] = {}  # (a phrase's code, char) -> phrase + char's
    pending_literals: set[str] = set()  # single chars not yet sent as literals
    writer = _BitWriter()
    enlarge_in = 2  # the first literal does not count, as in JS
    dict_size = 3
    num_bits = 2

    def count_code() -> None:
        """Widen codes once the dictionary outgrows the current bit width."""
        nonlocal enlarge_in, num_bits
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1

    def emit(code: int, single: str | None) -> None:
        """Send a phrase: as a literal the first time a char is seen, else by code."""
        if single is not None and single in pending_literals:
            code_unit = ord(single)
            if code_unit < 256:
                writer.write(_LITERAL_8, num_bits)
                writer.write(code_unit, 8)
            else:
                writer.write(_LITERAL_16, num_bits)
                writer.write(code_unit, 16)
            count_code()
            pending_literals.remove(single)
        else:
            writer.write(code, num_bits)
        count_code()

    phrase = -1  # the current phrase's code; -1 before the first char
    single: str | None = None  # the phrase's char while it is one char long
    # The phrase's text while it may still be the start of the phrase JS ignores.
    head: str | None = None
    for char in units:
        if char not in codes:
            codes[char] = dict_size
            dict_size += 1
            pending_literals.add(char)
        if phrase < 0:
            phrase, single, head = codes[char], char, char
            continue
        extended = extensions.get((phrase, char))
        if extended is not None:
            phrase, single = extended, None
            head = head + char if head is not None and len(head) < len(_JS_IGNORED_KEY) else None
            continue
        emit(phrase, single)
        if head is None or head + char != _JS_IGNORED_KEY:
            extensions[(phrase, char)] = dict_size
        dict_size += 1
        phrase, single, head = codes[char], char, char

    if phrase >= 0:
        emit(phrase, single)
    writer.write(_END_OF_STREAM, num_bits)
    return writer.finish()


def _decompress(units: str) -> str | None:
    """Inverse of _compress over link characters, mirroring LZString._decompress; raises
    :class:`tak.PTNError` as soon as the output passes MAX_DECOMPRESSED_LENGTH."""
    length = len(units)
    values = [_REVERSED_VALUES.get(char, 0) for char in units]
    loaded = 0  # characters whose bits are in `buffer`
    buffer = 0  # bits loaded and not read yet, the next one lowest
    buffered = 0
    consumed = 0  # bits read

    def read(width: int) -> int:
        """Read ``width`` bits, least significant first; past the end reads zeros."""
        nonlocal loaded, buffer, buffered, consumed
        while buffered < width:
            if loaded < length:
                buffer |= values[loaded] << buffered
            loaded += 1
            buffered += _BITS_PER_CHAR
        value = buffer & ((1 << width) - 1)
        buffer >>= width
        buffered -= width
        consumed += width
        return value

    first = read(2)
    if first == _END_OF_STREAM:
        return ""
    if first not in (_LITERAL_8, _LITERAL_16):
        # JS carries on with `undefined` here and yields junk or throws; call it invalid.
        return None
    char = chr(read(8 if first == _LITERAL_8 else 16))
    dictionary = ["", "", "", char]  # codes 0-2 are control codes, never looked up
    phrase = char
    result = [char]
    produced = 1
    enlarge_in = 4
    num_bits = 3

    while True:
        if 1 + consumed // _BITS_PER_CHAR > length:
            return ""  # JS gives up silently on truncated input
        code = read(num_bits)
        if code == _END_OF_STREAM:
            return "".join(result)
        if code in (_LITERAL_8, _LITERAL_16):
            dictionary.append(chr(read(8 if code == _LITERAL_8 else 16)))
            code = len(dictionary) - 1
            enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1

        if code < len(dictionary):
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = phrase + phrase[0]
        else:
            return None
        produced += len(entry)
        if produced > MAX_DECOMPRESSED_LENGTH:
            raise PTNError(_TOO_LONG.format(f"decodes to more than {MAX_DECOMPRESSED_LENGTH:,}"))
        result.append(entry)
        dictionary.append(phrase + entry[0])
        enlarge_in -= 1
        phrase = entry
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1


def compress_to_encoded_uri_component(text: str) -> str:
    """Compress text exactly like LZString.compressToEncodedURIComponent, for ptn.ninja."""
    return _compress(_to_code_units(text))


def decompress_from_encoded_uri_component(data: str) -> str | None:
    """Undo compress_to_encoded_uri_component; None on invalid input, like JS's null.

    As in JS, "" gives None, spaces count as "+" (a URL decoder may have turned "+"
    into " "), characters outside the alphabet read as zero bits, and truncated input
    gives "". Unlike JS, a link longer than MAX_DECOMPRESSED_LENGTH, or one that decodes to
    more (LZW can grow a few kilobytes into millions of characters), raises
    :class:`tak.PTNError`.
    """
    if data == "":
        return None
    if len(data) > MAX_DECOMPRESSED_LENGTH:
        raise PTNError(_TOO_LONG.format(f"is longer than {MAX_DECOMPRESSED_LENGTH:,}"))
    decoded = _decompress(_to_code_units(data).replace(" ", "+"))
    return None if decoded is None else _from_code_units(decoded)
