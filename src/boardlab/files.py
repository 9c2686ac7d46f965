"""The files users name on the command line: read, checked before work, written whole.

Every command reads and writes through these functions, so one problem has one wording
everywhere (``PATH: no such file``, ``PATH: is a directory, not a file``, ``PATH: not
UTF-8 text (byte 0xff at offset 12)``, ``PATH: cannot write: ...``), and every output path
is checked before a long run starts rather than after it. Writes are atomic: a temporary
file in the same folder is renamed over the target, so an interrupted write never leaves
half a file behind.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = write_atomic(folder / "level.txt", "3x3\\n")
>>> read_text(folder / "level.txt")
'3x3\\n'
>>> read_text(folder / "missing.txt")
Traceback (most recent call last):
...
boardlab.errors.FileError: ...missing.txt: no such file
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

from boardlab.errors import FileError

#: The largest file a command reads (level files, packs, piece sets are far smaller):
#: a bound on the memory one mistaken argument can take.
MAX_READ_BYTES = 64 * 1024 * 1024


def _reason(error: OSError) -> str:
    """What the operating system said, as the middle of a sentence (``permission
    denied``)."""
    text = error.strerror or str(error) or type(error).__name__
    if text[:1].isupper() and text[1:2].islower():
        text = text[:1].lower() + text[1:]
    return text


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of the file ``path``; :class:`FileError` when it is missing, a directory,
    unreadable or larger than ``limit`` bytes."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise FileError(f"{path}: no such file", path=str(path)) from None
    except IsADirectoryError:
        raise FileError(f"{path}: is a directory, not a file", path=str(path)) from None
    except OSError as e:
        raise FileError(f"{path}: cannot read: {_reason(e)}", path=str(path)) from None
    if len(data) > limit:
        raise FileError(f"{path}: too large (more than {limit:,} bytes)", path=str(path))
    return data


def decode(data: bytes, where: str) -> str:
    """``data`` as UTF-8 text (a byte order mark is dropped); :class:`FileError` naming the
    first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        bad = data[e.start]
        raise FileError(f"{where}: not UTF-8 text (byte 0x{bad:02x} at offset {e.start})",
                        path=where) from None


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_READ_BYTES) -> str:
    """The UTF-8 text of the file ``path``; :class:`FileError` as :func:`read_bytes`, or
    when the file is not UTF-8."""
    return decode(read_bytes(path, limit=limit), str(path))


def check_output(path: str | os.PathLike[str]) -> Path:
    """``path`` as a :class:`~pathlib.Path` if a file can be written there, checked before any
    work: it is not a directory, its folder exists and is writable, and an existing file
    there is writable. :class:`FileError` otherwise; nothing is created."""
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise FileError(f"{path}: cannot write: is a directory, not a file", path=str(path))
    if not folder.is_dir():
        problem = "is not a folder" if folder.exists() else "does not exist"
        raise FileError(f"{path}: cannot write: the folder {folder} {problem}",
                        path=str(path))
    # Permission bits do not tell (root ignores them; /proc and read-only mounts refuse
    # anyway): a file really made and removed in the folder does.
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
        os.close(fd)
        os.unlink(probe)
        if path.exists():
            os.close(os.open(path, os.O_WRONLY))
    except OSError as e:
        raise FileError(f"{path}: cannot write: {_reason(e)}", path=str(path)) from None
    return path


def write_atomic(path: str | os.PathLike[str], content: str | bytes, *,
                 mode: int | None = None, sync: bool = False) -> Path:
    """Write ``content`` (text is written as UTF-8) to ``path`` through a temporary file
    renamed over it, so readers see the old file or the whole new one, never a part.

    The file keeps the permissions of the file it replaces (new files get ``mode``, by
    default 0o644); ``sync`` flushes it to the disk before the rename. Returns ``path``;
    :class:`FileError` when it cannot be written (the temporary file is removed).
    """
    path = check_output(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise FileError(f"{path}: cannot write: {_reason(e)}", path=str(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        try:
            keep = path.stat().st_mode & 0o777
        except FileNotFoundError:
            keep = 0o644 if mode is None else mode
        os.chmod(temp, keep)
        os.replace(temp, path)
    except BaseException as e:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        if isinstance(e, OSError):
            reason = "the disk is full" if e.errno == errno.ENOSPC else _reason(e)
            raise FileError(f"{path}: cannot write: {reason}", path=str(path)) from None
        raise
    return path
