"""Level codes and level encryption: each level is locked by the solution of the one before.

The rule comes from the original game's article ("Как взломать игру" and "Сохранение
пройденных уровней") as restated in :doc:`/triplex`, "Levels chained by solutions": the
data of level N+1 can only be decoded with a checksum of level N's solution, the player
may write (level number, code) on paper to restore progress, and the same code proves to
the leaderboard server that level N was solved.

Everything here works on bytes and uses only hashlib/hmac, because the browser game
re-implements it in JavaScript; docs/polyomino-pack.md gives the algorithm step by step
with a test vector. In brief:

* **code** of level ``n`` (1-based): the first 40 bits of
  ``HMAC-SHA256(salt, "boardlab-polyomino-code" 0x00 u32(n) S)``, where ``S`` is the
  canonical solution encoding of level ``n - 1`` (empty for level 1), written as 8
  Crockford base-32 characters, grouped ``XXXX-XXXX``;
* **key**: ``K = HMAC-SHA256(salt, "boardlab-polyomino-key" 0x00 u32(n) code40)``,
  ``enc = HMAC-SHA256(K, "encrypt")``, ``mac = HMAC-SHA256(K, "authenticate")``;
* **ciphertext** = plaintext XOR keystream, keystream block ``i`` = ``SHA-256(enc u32(i))``;
* **tag** = the first 16 bytes of ``HMAC-SHA256(mac, u32(n) ciphertext)``; a wrong code
  fails the tag and is rejected (:class:`WrongCodeError`), never decrypted to garbage.

``u32(n)`` is 4 bytes big-endian.
"""

from __future__ import annotations

import hashlib
import hmac

from boardlab.errors import PuzzleError

#: Crockford's base-32 digits: no I, L, O, U.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of a code (5 bits each: 40 bits).
CODE_LENGTH = 8
CODE_BYTES = CODE_LENGTH * 5 // 8
#: Bytes of the authentication tag.
TAG_BYTES = 16
#: Read as the digit they look like (Crockford): O -> 0, I and L -> 1.
CONFUSABLES = {"O": "0", "I": "1", "L": "1"}
#: Characters ignored when reading a code.
SEPARATORS = " -\t"

_CODE_LABEL = b"boardlab-polyomino-code\x00"
_KEY_LABEL = b"boardlab-polyomino-key\x00"


class WrongCodeError(PuzzleError):
    """A well-formed code that does not unlock the level (or the level data is corrupted)."""


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def _check_number(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number < 2 ** 32:
        raise PuzzleError(f"a level number must be an integer from 1, got {number!r}")


def _check_salt(salt: bytes) -> None:
    if not isinstance(salt, bytes | bytearray) or not salt:
        raise PuzzleError("the pack salt must be non-empty bytes")


def format_code(value: bytes) -> str:
    """The 8-character text of a 40-bit code value, grouped ``XXXX-XXXX``.

    >>> format_code(bytes(5)), format_code(b"\\xff" * 5)
    ('0000-0000', 'ZZZZ-ZZZZ')
    """
    if len(value) != CODE_BYTES:
        raise PuzzleError(f"a code value has {CODE_BYTES} bytes, got {len(value)}")
    number = int.from_bytes(value, "big")
    digits = "".join(ALPHABET[(number >> (5 * (CODE_LENGTH - 1 - i))) & 31]
                     for i in range(CODE_LENGTH))
    return f"{digits[:4]}-{digits[4:]}"


def code_value(code: str) -> bytes:
    """The 40-bit value of a code as typed by a player.

    Case does not matter; spaces and dashes are ignored; ``O`` reads as ``0`` and ``I``,
    ``L`` as ``1``. :class:`PuzzleError` names a character that is not a code digit or a
    wrong length.

    >>> code_value("7kq2 m9xd") == code_value("7KQ2-M9XD")
    True
    >>> code_value("oOiL-0011") == code_value("0011-0011")
    True
    """
    if not isinstance(code, str):
        raise PuzzleError(f"a code is text, got {code!r}")
    digits = []
    for position, ch in enumerate(code, start=1):
        if ch in SEPARATORS:
            continue
        up = CONFUSABLES.get(ch.upper(), ch.upper())
        if not ch.isascii() or up not in ALPHABET:
            raise PuzzleError(f"code {code!r}: character {position} ({ch!r}) is not a code "
                              f"character (use 0-9 and A-Z without U)")
        digits.append(up)
    if len(digits) != CODE_LENGTH:
        raise PuzzleError(f"code {code!r}: a code has {CODE_LENGTH} characters, got "
                          f"{len(digits)}")
    number = 0
    for ch in digits:
        number = number * 32 + ALPHABET.index(ch)
    return number.to_bytes(CODE_BYTES, "big")


def normalize_code(code: str) -> str:
    """A code in its printed form ``XXXX-XXXX`` (see :func:`code_value`).

    >>> normalize_code(" 7kq2m9xd ")
    '7KQ2-M9XD'
    """
    return format_code(code_value(code))


def level_code(salt: bytes, number: int, previous_solution: bytes) -> str:
    """The code unlocking level ``number`` of the pack with ``salt``.

    ``previous_solution`` is the canonical solution encoding of level ``number - 1``
    (:meth:`Level.solution_checksum <boardlab.puzzles.polyomino.level.Level.solution_checksum>`),
    ``b""`` for level 1. The code after the last level proves the last level solved.
    """
    _check_salt(salt)
    _check_number(number)
    digest = hmac.new(bytes(salt), _CODE_LABEL + _u32(number) + bytes(previous_solution),
                      hashlib.sha256).digest()
    return format_code(digest[:CODE_BYTES])


def level_keys(salt: bytes, number: int, code: str) -> tuple[bytes, bytes]:
    """The (encryption, authentication) keys of level ``number`` under ``code``."""
    _check_salt(salt)
    _check_number(number)
    master = hmac.new(bytes(salt), _KEY_LABEL + _u32(number) + code_value(code),
                      hashlib.sha256).digest()
    return (hmac.new(master, b"encrypt", hashlib.sha256).digest(),
            hmac.new(master, b"authenticate", hashlib.sha256).digest())


def keystream(key: bytes, length: int) -> bytes:
    """``length`` bytes of SHA-256 in counter mode: blocks ``SHA-256(key u32(i))``."""
    blocks = (hashlib.sha256(key + _u32(i)).digest() for i in range((length + 31) // 32))
    return b"".join(blocks)[:length]


def _tag(mac_key: bytes, number: int, ciphertext: bytes) -> bytes:
    return hmac.new(mac_key, _u32(number) + ciphertext, hashlib.sha256).digest()[:TAG_BYTES]


def seal(salt: bytes, number: int, code: str, plaintext: bytes) -> tuple[bytes, bytes]:
    """Encrypt level ``number``'s data under ``code``: (ciphertext, tag)."""
    enc, mac = level_keys(salt, number, code)
    ciphertext = bytes(p ^ k for p, k in zip(plaintext, keystream(enc, len(plaintext)),
                                             strict=True))
    return ciphertext, _tag(mac, number, ciphertext)


def unseal(salt: bytes, number: int, code: str, ciphertext: bytes, tag: bytes) -> bytes:
    """Decrypt what :func:`seal` made; :class:`WrongCodeError` if the tag does not match
    (a wrong code, or data that was altered)."""
    enc, mac = level_keys(salt, number, code)
    if not hmac.compare_digest(_tag(mac, number, ciphertext), bytes(tag)):
        raise WrongCodeError(f"code {normalize_code(code)} does not unlock level {number}")
    return bytes(c ^ k for c, k in zip(ciphertext, keystream(enc, len(ciphertext)),
                                       strict=True))
