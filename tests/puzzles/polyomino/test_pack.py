"""Level packs: the chain of codes, unlocking, leaderboard proofs, master and public files,
atomic saving and clear errors for damaged files."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardlab.errors import FileError, PuzzleError
from boardlab.puzzles.polyomino import pack as pack_module
from boardlab.puzzles.polyomino.codes import WrongCodeError, level_code, seal
from boardlab.puzzles.polyomino.level import Level
from boardlab.puzzles.polyomino.pack import FORMAT, VERSION, Pack, SealedLevel
from tests.puzzles.polyomino.level_strategies import levels as random_levels

SALT = b"boardlab test vector"
LEVEL_1 = Level.parse("level 4x2\nabbc\naacc\ndifficulty 2\n")
LEVEL_2 = Level.parse("level 4x2\nabbb\naacc\nrotatable c shown 1\ndifficulty 3\n")
LEVEL_3 = Level.parse("level 3x3\naab\ncdb\ncdd\n")  # two identical vertical dominoes
CODES = ("QH4K-8XYN", "ARYG-MASZ", "S6J9-BCXS")


@pytest.fixture
def pack() -> Pack:
    return Pack.build([LEVEL_1, LEVEL_2, LEVEL_3], SALT, "triplex", name="three")


# -- the chain -------------------------------------------------------------------------------

def test_chain_of_the_test_vector(pack):
    codes = pack.solve_chain()
    assert codes[:3] == CODES  # level 3's code is the vector's completion code
    assert len(codes) == 4
    assert pack.first_code == CODES[0]
    assert pack.unlock(1) == pack.unlock(1, CODES[0]) == LEVEL_1.puzzle()
    assert pack.unlock(2, CODES[1]) == LEVEL_2.puzzle()
    assert pack.unlock(3, "s6j9 bcxs") == LEVEL_3.puzzle()
    assert [pack.level(n) for n in (1, 2, 3)] == [LEVEL_1, LEVEL_2, LEVEL_3]


def test_code_after_takes_any_form_of_the_solution(pack):
    for solution in (LEVEL_2, b"abbb/aacc", "abbb/aacc", ["xyyy", "xxzz"],
                     [[5, 6, 6, 6], [5, 5, 7, 7]]):
        assert pack.code_after(2, solution) == CODES[2]


def test_swapping_identical_pieces_does_not_change_the_code(pack):
    # b and c are identical vertical dominoes; labelling them the other way round, or
    # building the level with them swapped, gives the same code
    code = pack.code_after(3, LEVEL_3)
    assert pack.code_after(3, ["aac", "bdc", "bdd"]) == code
    swapped = Level(3, 3, LEVEL_3.pieces, (LEVEL_3.solution[0], LEVEL_3.solution[2],
                                           LEVEL_3.solution[1], LEVEL_3.solution[3]))
    assert pack.code_after(3, swapped) == code


def test_a_wrong_solution_gives_a_code_that_is_rejected(pack):
    wrong = pack.code_after(1, ["abbc", "aadc"])
    with pytest.raises(WrongCodeError, match=r"does not unlock level 2"):
        pack.unlock(2, wrong)


def test_codes_are_bound_to_their_level(pack):
    with pytest.raises(WrongCodeError):
        pack.unlock(3, CODES[1])
    with pytest.raises(WrongCodeError):
        pack.unlock(2, CODES[0])


def test_out_of_range_and_missing_codes(pack):
    for n in (0, 4, -1):
        with pytest.raises(PuzzleError, match=rf"level {n} is out of range: this pack has "
                                              r"levels 1\.\.3"):
            pack.unlock(n, CODES[0])
    with pytest.raises(PuzzleError, match="out of range"):
        pack.code_after(4, LEVEL_3)
    with pytest.raises(PuzzleError, match=r"level 2 needs a code \(the one after level 1\)"):
        pack.unlock(2)
    with pytest.raises(PuzzleError, match="not a code character"):
        pack.unlock(2, "ARYG-MAS!")


def test_same_levels_other_salt_other_codes(pack):
    other = Pack.build([LEVEL_1, LEVEL_2, LEVEL_3], b"another salt", "triplex")
    assert set(other.solve_chain()).isdisjoint(pack.solve_chain())
    with pytest.raises(WrongCodeError):
        other.unlock(2, CODES[1])
    assert Pack.build([LEVEL_1], "text salt").salt == b"text salt"


def test_the_solution_is_not_in_the_encrypted_data(pack):
    # only the puzzle is sealed: unlocking level 1 must not reveal level 2's code
    puzzle_json = pack.unlock(1).to_json()
    assert "solution" not in puzzle_json
    assert set(puzzle_json) == {"width", "height", "pieces", "rotatable", "difficulty"}


# -- leaderboard proofs ------------------------------------------------------------------

def test_proves_solved(pack):
    codes = pack.solve_chain()
    public = pack.public()
    for n in (1, 2, 3):
        assert pack.proves_solved(n, codes[n])
        assert not pack.proves_solved(n, codes[n - 1])
        assert not pack.proves_solved(n, "not a code")
    for n in (1, 2):
        assert public.proves_solved(n, codes[n].lower())
        assert not public.proves_solved(n, codes[n - 1])
    with pytest.raises(PuzzleError, match="cannot check the last level"):
        public.proves_solved(3, codes[3])


# -- building ----------------------------------------------------------------------------

def test_build_checks_the_piece_set():
    tetromino = Level.parse("level 4x2\naaab\nabbb\n")
    with pytest.raises(PuzzleError, match=r"level 2: piece ###/#\.\. is not in the piece set "
                                          r"'triplex'"):
        Pack.build([LEVEL_1, tetromino], SALT, "triplex")
    assert len(Pack.build([LEVEL_1, tetromino], SALT, "tetra")) == 2
    with pytest.raises(PuzzleError, match="unknown piece set 'hexa'"):
        Pack.build([LEVEL_1], SALT, "hexa")


def test_build_checks_its_arguments():
    with pytest.raises(PuzzleError, match="at least one level"):
        Pack.build([], SALT)
    with pytest.raises(PuzzleError, match="salt must not be empty"):
        Pack.build([LEVEL_1], b"")
    with pytest.raises(PuzzleError, match="level 1 is not a Level"):
        Pack.build(["level 4x2\nabbc\naacc\n"], SALT)


def test_public_pack_has_no_solutions(pack):
    public = pack.public()
    assert public.levels is None
    assert public.unlock(2, CODES[1]) == LEVEL_2.puzzle()
    with pytest.raises(PuzzleError, match="no solutions"):
        public.level(1)
    with pytest.raises(PuzzleError, match="no solutions"):
        public.solve_chain()
    with pytest.raises(PuzzleError, match="no solutions to save"):
        public.to_json(with_solutions=True)


# -- files ----------------------------------------------------------------------------------

def test_save_and_load_public(pack, tmp_path):
    path = tmp_path / "pack.json"
    pack.save(path)
    obj = json.loads(path.read_text())
    assert obj["format"] == FORMAT and obj["version"] == VERSION == 1
    assert obj["pieces"] == "triplex" and obj["salt"] == SALT.hex() and obj["name"] == "three"
    assert "solutions" not in obj
    assert [e["number"] for e in obj["levels"]] == [1, 2, 3]
    loaded = Pack.load(path)
    assert loaded == pack.public()
    assert loaded.unlock(3, CODES[2]) == LEVEL_3.puzzle()
    assert sorted(os.listdir(tmp_path)) == ["pack.json"]
    assert path.stat().st_mode & 0o777 == 0o644


def test_save_and_load_master(pack, tmp_path):
    path = tmp_path / "master.json"
    pack.save(path, with_solutions=True)
    assert json.loads(path.read_text())["solutions"] == ["abbc/aacc", "abbb/aacc",
                                                          "aab/cdb/cdd"]
    loaded = Pack.load(path)
    assert loaded == pack
    assert loaded.solve_chain() == pack.solve_chain()


def test_save_replaces_atomically(pack, tmp_path, monkeypatch):
    path = tmp_path / "pack.json"
    pack.save(path)
    before = path.read_bytes()
    os.chmod(path, 0o600)

    def crash(*args):
        raise OSError("disk on fire")

    monkeypatch.setattr(pack_module.os, "replace", crash)
    with pytest.raises(FileError, match="pack.json: cannot write: disk on fire"):
        Pack.build([LEVEL_1], b"other").save(path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["pack.json"]  # no temporary file left
    monkeypatch.undo()
    Pack.build([LEVEL_1], b"other").save(path)
    assert path.stat().st_mode & 0o777 == 0o600  # an existing file keeps its mode
    assert Pack.load(path).salt == b"other"


def _write(tmp_path: Path, obj) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return path


def test_truncated_file_is_named(pack, tmp_path):
    text = json.dumps(pack.to_json())
    for cut in (1, len(text) // 3, len(text) - 1):
        path = _write(tmp_path, text[:cut])
        with pytest.raises(PuzzleError, match=r"bad\.json: not valid JSON at line 1, column "
                                              r"\d+ .*is the file truncated\?"):
            Pack.load(path)


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(FileError, match=r"nope\.json: no such file$"):
        Pack.load(tmp_path / "nope.json")
    path = tmp_path / "bin.json"
    path.write_bytes(b"{\xff\xfe\x00garbage")
    with pytest.raises(FileError, match=r"bin\.json: not UTF-8 text \(byte 0xff at offset 1\)"):
        Pack.load(path)
    with pytest.raises(FileError, match=r": is a directory, not a file$"):
        Pack.load(tmp_path)


def _damaged(pack: Pack, change) -> dict:
    obj = pack.to_json(with_solutions=True)
    change(obj)
    return obj


@pytest.mark.parametrize(("change", "message"), [
    (lambda o: o.update(format="something-else"),
     r"field 'format': expected 'boardlab-polyomino-pack', got 'something-else'"),
    (lambda o: o.pop("format"), r"field 'format': .* got None"),
    (lambda o: o.update(version=2), r"field 'version': this boardlab reads version 1, got 2"),
    (lambda o: o.update(name=3), r"field 'name': expected text"),
    (lambda o: o.update(pieces="hexa"), r"field 'pieces': unknown piece set 'hexa'"),
    # A pack never makes its reader open a file.
    (lambda o: o.update(pieces="file:/etc/passwd"),
     r"field 'pieces': unknown piece set 'file:/etc/passwd'"),
    (lambda o: o.update(pieces=None), r"field 'pieces': expected the name of a piece set"),
    (lambda o: o.update(salt="xyz"), r"field 'salt': expected hex digits, got 'xyz'"),
    (lambda o: o.update(salt=""), r"field 'salt': must not be empty"),
    (lambda o: o.update(levels=[]), r"field 'levels': expected a non-empty list"),
    (lambda o: o["levels"].__setitem__(1, "x"), r"field 'levels\[1\]': expected an object"),
    (lambda o: o["levels"][1].update(number=5), r"field 'levels\[1\]\.number': expected 2, "
                                                r"got 5"),
    (lambda o: o["levels"][2].update(data="%%%"), r"field 'levels\[2\]\.data': expected base64"),
    (lambda o: o["levels"][2].pop("data"), r"field 'levels\[2\]\.data': expected base64"),
    (lambda o: o["levels"][0].update(tag="00ff"),
     r"field 'levels\[0\]\.tag': expected 16 bytes \(32 hex digits\), got 2"),
    (lambda o: o["levels"][0].update(tag=None), r"field 'levels\[0\]\.tag': expected hex"),
    (lambda o: o.update(solutions=["abbc/aacc"]), r"field 'solutions': expected 3 texts"),
    (lambda o: o["solutions"].__setitem__(0, "abbc/aadc"),
     r"field 'solutions\[0\]': the solution does not use the puzzle's pieces \(extra "),
    (lambda o: o["levels"][1].update(tag="0" * 32),
     r"field 'levels\[1\]': level 2 does not decrypt with the code from level 1's solution "
     r"\(the file is corrupted\)"),
    (lambda o: o["solutions"].__setitem__(2, "abb/acc/ddd"),
     r"field 'solutions\[2\]': the solution does not use the puzzle's pieces"),
    (lambda o: o["levels"][1].update(data="A" + o["levels"][1]["data"][1:]),
     r"field 'levels\[1\]': level 2 does not decrypt"),
    (lambda o: o["levels"][0].update(tag="0" * 32),
     r"field 'levels\[0\]': level 1 does not decrypt with the first code"),
])
def test_damaged_files_name_the_field(pack, tmp_path, change, message):
    path = _write(tmp_path, _damaged(pack, change))
    with pytest.raises(PuzzleError, match=rf"^{tmp_path}/bad\.json: {message}"):
        Pack.load(path)


def test_damage_in_a_public_pack_is_found_when_unlocking(pack, tmp_path):
    obj = pack.to_json()
    data = bytearray(base64.b64decode(obj["levels"][1]["data"]))
    data[3] ^= 4
    obj["levels"][1]["data"] = base64.b64encode(bytes(data)).decode()
    loaded = Pack.load(_write(tmp_path, obj))
    assert loaded.unlock(1) == LEVEL_1.puzzle()
    with pytest.raises(WrongCodeError, match="does not unlock level 2"):
        loaded.unlock(2, CODES[1])


def test_unknown_fields_are_ignored(pack, tmp_path):
    obj = pack.to_json()
    obj["generator"] = {"seed": 1}
    assert Pack.load(_write(tmp_path, obj)) == pack.public()


def test_not_a_pack(tmp_path):
    with pytest.raises(PuzzleError, match=r"not a level pack \(expected a JSON object\)"):
        Pack.load(_write(tmp_path, "[1, 2]"))


def test_a_level_from_another_program_is_refused(pack):
    # correctly sealed bytes that are not a puzzle
    data, tag = seal(pack.salt, 1, pack.first_code, b"\xff not json")
    broken = Pack(pack.salt, "triplex", (SealedLevel(1, data, tag),))
    with pytest.raises(PuzzleError, match="decrypts to something that is not a level"):
        broken.unlock(1)
    data, tag = seal(pack.salt, 1, pack.first_code, b'{"width": 4}')
    broken = Pack(pack.salt, "triplex", (SealedLevel(1, data, tag),))
    with pytest.raises(PuzzleError, match=r"level 1: missing field 'height'"):
        broken.unlock(1)


# -- properties ----------------------------------------------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(random_levels(max_side=5, max_piece=3, min_piece=2).filter(
    lambda level: max(p.size for p in level.pieces) <= 5), min_size=1, max_size=5),
       st.binary(min_size=1, max_size=16))
def test_random_packs_walk_and_round_trip(levels, salt):
    pack = Pack.build(levels, salt, "penta")
    codes = pack.solve_chain()
    assert len(codes) == len(levels) + 1
    for n, level in enumerate(levels, start=1):
        assert codes[n] == level_code(salt, n + 1, level.solution_checksum())
        assert pack.unlock(n, codes[n - 1]) == level.puzzle()
    assert Pack.from_json(json.loads(json.dumps(pack.to_json(with_solutions=True)))) == pack
    assert Pack.from_json(json.loads(json.dumps(pack.to_json()))) == pack.public()
