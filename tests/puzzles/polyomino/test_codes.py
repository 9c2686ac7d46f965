"""Level codes and level encryption against the documented test vector, an independent
Python implementation written from docs/polyomino-pack.md, and (when node is installed) a
JavaScript one; wrong codes and altered data are rejected."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.errors import PuzzleError
from boardlab.puzzles.polyomino import codes
from boardlab.puzzles.polyomino.codes import (
    ALPHABET,
    WrongCodeError,
    code_value,
    format_code,
    level_code,
    level_keys,
    normalize_code,
    seal,
    unseal,
)
from boardlab.puzzles.polyomino.level import Level, canonical_json
from boardlab.puzzles.polyomino.pack import Pack

DOC = Path(__file__).resolve().parents[3] / "docs" / "polyomino-pack.md"

# The documented vector, restated here so a change to the page alone is caught too.
SALT = b"boardlab test vector"
LEVEL_1 = Level.parse("level 4x2\nabbc\naacc\ndifficulty 2\n")
LEVEL_2 = Level.parse("level 4x2\nabbb\naacc\nrotatable c shown 1\ndifficulty 3\n")
CODES = ("QH4K-8XYN", "ARYG-MASZ", "S6J9-BCXS")
TAG_2 = "e9cd8f17abfa9fa26ee6f8c0af75a370"


def doc_vector() -> dict[str, str]:
    """The ``name: value`` lines of the test-vector block in docs/polyomino-pack.md."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## 8. Test vector", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.S)[1]
    return dict(line.split(": ", 1) for line in block.splitlines() if line.strip())


# -- an independent implementation, written from the documentation -----------------------

def reference_code(salt: bytes, n: int, previous: bytes) -> tuple[bytes, str]:
    digest = hmac.new(salt, b"boardlab-polyomino-code\0" + n.to_bytes(4, "big") + previous,
                      hashlib.sha256).digest()
    value = int.from_bytes(digest[:5], "big")
    chars = "".join("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[(value >> (35 - 5 * i)) & 31]
                    for i in range(8))
    return digest, chars[:4] + "-" + chars[4:]


def reference_seal(salt: bytes, n: int, code: str, plaintext: bytes):
    digits = code.replace("-", "")
    value = 0
    for ch in digits:
        value = value * 32 + "0123456789ABCDEFGHJKMNPQRSTVWXYZ".index(ch)
    k = hmac.new(salt, b"boardlab-polyomino-key\0" + n.to_bytes(4, "big")
                 + value.to_bytes(5, "big"), hashlib.sha256).digest()
    e = hmac.new(k, b"encrypt", hashlib.sha256).digest()
    m = hmac.new(k, b"authenticate", hashlib.sha256).digest()
    stream = b""
    i = 0
    while len(stream) < len(plaintext):
        stream += hashlib.sha256(e + i.to_bytes(4, "big")).digest()
        i += 1
    ciphertext = bytes(a ^ b for a, b in zip(plaintext, stream, strict=False))
    tag = hmac.new(m, n.to_bytes(4, "big") + ciphertext, hashlib.sha256).digest()[:16]
    return k, e, m, ciphertext, tag


def test_documented_vector_matches_the_code_and_the_reference():
    vector = doc_vector()
    assert vector["salt (hex)"] == SALT.hex()
    assert vector["salt (ASCII)"].encode() == SALT
    previous = b""
    for n, level in ((1, LEVEL_1), (2, LEVEL_2)):
        shown_previous = vector[f"level {n} previous solution"]
        assert shown_previous == ("(empty)" if n == 1 else previous.decode())
        digest, code = reference_code(SALT, n, previous)
        assert vector[f"level {n} code digest"] == digest.hex()
        assert vector[f"level {n} code"] == code == level_code(SALT, n, previous) == CODES[n - 1]
        plaintext = canonical_json(level.puzzle().to_json())
        assert vector[f"level {n} plaintext"].encode() == plaintext
        k, e, m, ciphertext, tag = reference_seal(SALT, n, code, plaintext)
        assert vector[f"level {n} key K"] == k.hex()
        assert (vector[f"level {n} key E"], vector[f"level {n} key M"]) == \
            (e.hex(), m.hex())
        assert level_keys(SALT, n, code) == (e, m)
        assert vector[f"level {n} ciphertext"] == ciphertext.hex()
        assert vector[f"level {n} tag"] == tag.hex()
        assert seal(SALT, n, code, plaintext) == (ciphertext, tag)
        assert unseal(SALT, n, code, ciphertext, tag) == plaintext
        previous = level.solution_checksum()
    assert vector["completion previous solution"] == previous.decode() == "abbb/aacc"
    assert vector["completion code"] == reference_code(SALT, 3, previous)[1] == CODES[2]
    assert vector["level 2 tag"] == TAG_2


def test_documented_vector_as_a_pack():
    pack = Pack.build([LEVEL_1, LEVEL_2], SALT, "triplex", name="test vector")
    assert pack.solve_chain() == CODES
    assert pack.sealed[1].tag.hex() == TAG_2
    assert pack.to_json()["levels"][0]["data"] in DOC.read_text(encoding="utf-8")


JS = r"""
const crypto = require("crypto");
const A = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const u32 = n => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
const hmac = (k, m) => crypto.createHmac("sha256", k).update(m).digest();
const sha = m => crypto.createHash("sha256").update(m).digest();
function code(salt, n, prev) {
  const d = hmac(salt, Buffer.concat([Buffer.from("boardlab-polyomino-code\0"), u32(n),
                                      Buffer.from(prev, "ascii")]));
  let v = BigInt("0x" + d.subarray(0, 5).toString("hex")), s = "";
  for (let i = 0; i < 8; i++) s += A[Number((v >> BigInt(35 - 5 * i)) & 31n)];
  return s.slice(0, 4) + "-" + s.slice(4);
}
function value(text) {
  let v = 0n;
  for (let ch of text.toUpperCase().replace(/[\s-]/g, "")) {
    ch = {O: "0", I: "1", L: "1"}[ch] || ch;
    v = v * 32n + BigInt(A.indexOf(ch));
  }
  return Buffer.from(v.toString(16).padStart(10, "0"), "hex");
}
function unseal(salt, n, text, data, tag) {
  const k = hmac(salt, Buffer.concat([Buffer.from("boardlab-polyomino-key\0"), u32(n),
                                      value(text)]));
  const e = hmac(k, "encrypt"), m = hmac(k, "authenticate");
  const t = hmac(m, Buffer.concat([u32(n), data])).subarray(0, 16);
  if (!crypto.timingSafeEqual(t, tag)) return null;
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) {
    if (i % 32 === 0) var block = sha(Buffer.concat([e, u32(i / 32)]));
    out[i] = data[i] ^ block[i % 32];
  }
  return JSON.parse(out.toString("utf8"));
}
const pack = JSON.parse(require("fs").readFileSync(0, "utf8"));
const salt = Buffer.from(pack.salt, "hex");
let c = code(salt, 1, ""), out = [c], puzzles = [];
pack.levels.forEach((lv, i) => {
  const data = Buffer.from(lv.data, "base64"), tag = Buffer.from(lv.tag, "hex");
  puzzles.push(unseal(salt, lv.number, c.toLowerCase().replace("0", "o"), data, tag));
  puzzles.push(unseal(salt, lv.number, "ZZZZ-ZZZZ", data, tag));
  c = code(salt, lv.number + 1, pack.solutions[i]);
  out.push(c);
});
console.log(JSON.stringify({codes: out, puzzles: puzzles}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_javascript_implementation_agrees():
    pack = Pack.build([LEVEL_1, LEVEL_2], SALT, "triplex")
    run = subprocess.run(["node", "-e", JS], input=json.dumps(pack.to_json(with_solutions=True)),
                         capture_output=True, text=True, timeout=60, check=True)
    result = json.loads(run.stdout)
    assert tuple(result["codes"]) == CODES
    assert result["puzzles"] == [LEVEL_1.puzzle().to_json(), None,
                                 LEVEL_2.puzzle().to_json(), None]


# -- reading codes -------------------------------------------------------------------------

def test_format_and_read():
    assert format_code(bytes(5)) == "0000-0000"
    assert format_code(b"\xff" * 5) == "ZZZZ-ZZZZ"
    assert code_value("1230-0000") == ((1 << 35) | (2 << 30) | (3 << 25)).to_bytes(5, "big")
    assert format_code(code_value("1230-0000")) == "1230-0000"
    assert normalize_code("  qh4k 8xyn ") == "QH4K-8XYN"
    assert normalize_code("QH4K8XYN") == normalize_code("q-h-4-k-8-x-y-n") == "QH4K-8XYN"


def test_confusables_read_as_digits():
    assert normalize_code("OoIi-Ll01") == "0011-1101"


@pytest.mark.parametrize(("text", "message"), [
    ("QH4K-8XYU", r"character 9 \('U'\) is not a code character"),
    ("QH4K_8XYN", r"character 5 \('_'\)"),
    ("QH4K-8XYÑ", r"character 9"),
    ("QH4K-8XY", r"a code has 8 characters, got 7"),
    ("QH4K-8XYNN", r"got 9"),
    ("", r"got 0"),
])
def test_malformed_codes_are_named(text, message):
    with pytest.raises(PuzzleError, match=message):
        code_value(text)
    assert not issubclass(PuzzleError, WrongCodeError)


def test_dotless_i_is_not_a_one():
    with pytest.raises(PuzzleError, match="not a code character"):
        code_value("ıııı-ıııı")


@given(st.binary(min_size=5, max_size=5))
def test_format_then_read_round_trips(value):
    text = format_code(value)
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", text)
    assert code_value(text) == value
    assert code_value(text.lower().replace("-", " ")) == value
    assert code_value(text.replace("0", "O").replace("1", "l")) == value


@given(st.binary(min_size=1, max_size=40), st.integers(1, 10 ** 6), st.binary(max_size=200))
def test_codes_are_short_and_deterministic(salt, n, previous):
    code = level_code(salt, n, previous)
    assert len(code) == 9 and code[4] == "-"
    assert all(ch in ALPHABET for ch in code.replace("-", ""))
    assert level_code(salt, n, previous) == code


def test_code_inputs_are_checked():
    with pytest.raises(PuzzleError, match="salt"):
        level_code(b"", 1, b"")
    with pytest.raises(PuzzleError, match="level number"):
        level_code(SALT, 0, b"")


# -- wrong codes and altered data are rejected -----------------------------------------------

def _vector_level_2():
    plaintext = canonical_json(LEVEL_2.puzzle().to_json())
    return plaintext, *seal(SALT, 2, CODES[1], plaintext)


def test_every_single_character_change_is_rejected_except_confusables():
    plaintext, data, tag = _vector_level_2()
    good = CODES[1].replace("-", "")
    accepted = rejected = 0
    for position in range(len(good)):
        for ch in string.ascii_letters + string.digits + "!?*":
            changed = good[:position] + ch + good[position + 1:]
            equivalent = codes.CONFUSABLES.get(ch.upper(), ch.upper()) == good[position]
            if equivalent:
                assert unseal(SALT, 2, changed, data, tag) == plaintext
                accepted += 1
            else:
                with pytest.raises(PuzzleError):
                    unseal(SALT, 2, changed, data, tag)
                rejected += 1
    # A R Y G M A S Z: case only (no 0/1 in this code), 8 lowercase variants
    assert accepted == 8 + 8
    assert rejected == 8 * 65 - accepted


def test_confusable_substitution_in_a_code_with_zero_and_one():
    # a code containing 0 and 1: every spelling of them unlocks
    salt = b"x"
    n = next(n for n in range(1, 5000) if {"0", "1"} <= set(level_code(salt, n, b"")))
    code = level_code(salt, n, b"")
    data, tag = seal(salt, n, code, b"secret")
    for zero in "0oO":
        for one in "1iIlL":
            assert unseal(salt, n, code.replace("0", zero).replace("1", one), data, tag) == \
                b"secret"


def test_wrong_code_message():
    _, data, tag = _vector_level_2()
    with pytest.raises(WrongCodeError, match=r"code QH4K-8XYN does not unlock level 2"):
        unseal(SALT, 2, CODES[0], data, tag)


def test_altered_data_number_or_salt_is_rejected():
    plaintext, data, tag = _vector_level_2()
    for i in range(len(data)):
        altered = bytearray(data)
        altered[i] ^= 1 << (i % 8)
        with pytest.raises(WrongCodeError):
            unseal(SALT, 2, CODES[1], bytes(altered), tag)
    for i in range(len(tag)):
        altered = bytearray(tag)
        altered[i] ^= 0x80
        with pytest.raises(WrongCodeError):
            unseal(SALT, 2, CODES[1], data, bytes(altered))
    with pytest.raises(WrongCodeError):
        unseal(SALT, 2, CODES[1], data[:-1], tag)
    with pytest.raises(WrongCodeError):
        unseal(SALT, 3, CODES[1], data, tag)
    with pytest.raises(WrongCodeError):
        unseal(SALT + b"!", 2, CODES[1], data, tag)


@given(st.binary(min_size=1, max_size=16), st.integers(1, 1000), st.binary(max_size=300),
       st.binary(min_size=5, max_size=5))
def test_seal_round_trips(salt, n, plaintext, value):
    code = format_code(value)
    data, tag = seal(salt, n, code, plaintext)
    assert len(data) == len(plaintext) and len(tag) == codes.TAG_BYTES
    assert unseal(salt, n, code, data, tag) == plaintext
    assert reference_seal(salt, n, code, plaintext)[3:] == (data, tag)
