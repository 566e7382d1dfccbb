"""Files written whole or not at all, and kept files read without waiting on a pipe or a device."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from typing import BinaryIO

# The one bound on a file kcsolve reads, in characters (a deck, a record, a list or lines of records, a saved game,
# a position): the daily page's Export all of a few years is under it, and its Import takes as much. More is refused
# unread past this, so a huge file costs no memory or time.
MAX_TEXT = 4 * 1024 * 1024
TOO_LONG = f"more than {MAX_TEXT:,} characters (the most kcsolve reads)"  # every reader's words for it
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")  # the byte-order marks that Windows tools write before UTF-16 text


def not_utf8(head: bytes) -> str:
    """Why a file starting ``head`` is not text kcsolve reads: UTF-16 is named where its byte-order mark shows it."""
    if head.startswith(UTF16_MARKS):
        return "it is UTF-16, not UTF-8 text"
    return "it is not UTF-8 text"


# What a path may name besides a regular file (a device or a pipe has a size of 0)
SPECIAL_FILES = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def write_atomically(path: str, data: str | bytes) -> None:
    """Write a file whole or not at all: a temporary file beside it, then a rename (text in UTF-8).

    A symbolic link is followed, so the link stays and its target is replaced.
    Only a regular file is replaced: renaming over a device, a pipe or a folder
    would swap it for a plain file (``save /dev/full`` once turned the device
    into one), so those raise OSError (EINVAL, "not a regular file"). A file
    replaced keeps its permissions; a new one gets what the umask allows.
    """
    path = os.path.realpath(path)
    try:
        found = os.stat(path)
    except FileNotFoundError:
        mode = None
    else:
        if not stat.S_ISREG(found.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        mode = stat.S_IMODE(found.st_mode)
    temporary = os.path.join(os.path.dirname(path), f".kcsolve-{secrets.token_hex(8)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def read_regular(path: str, limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of a regular file, so that a caller can tell one larger than ``limit``."""
    with open_regular(path) as source:
        return source.read(limit + 1)


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """A regular file opened for reading in binary; OSError (EINVAL) naming anything else.

    A pipe or a terminal where a file should be would make open() or read()
    wait for ever, and opening a device can act on it, so anything but a regular
    file raises OSError (EINVAL, "it is a named pipe (FIFO), not a regular file")
    before it is opened; the open does not wait, and the check is made again on
    what was opened, in case the file was swapped in between.
    """
    path = os.fspath(path)  # os.stat would take an integer as a file descriptor: stdout, say
    _check_regular(os.stat(path).st_mode, path)
    source = os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb")
    try:
        _check_regular(os.fstat(source.fileno()).st_mode, path)
    except OSError:
        source.close()
        raise
    return source


def special_kind(mode: int) -> str:
    """What a file of ``mode`` that is not a regular file is, in words: 'a directory', 'a named pipe (FIFO)'..."""
    return next((name for test, name in SPECIAL_FILES if test(mode)), "a special file")


def _check_regular(mode: int, path: str) -> None:
    """Raise OSError (EINVAL) saying what ``path`` is unless its ``mode`` is a regular file's."""
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, f"it is {special_kind(mode)}, not a regular file", path)
