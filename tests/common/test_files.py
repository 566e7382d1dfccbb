"""Files written whole or not at all: through links, never over devices, with the permissions a file should have;
kept files read without waiting on a pipe."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kcsolve.common.files import read_regular, write_atomically


def test_a_new_file_gets_the_umask_s_permissions_and_a_replaced_one_keeps_its_own(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_atomically(str(tmp_path / "new.json"), "{}\n")
        assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644
        (tmp_path / "kept.json").write_text("old")
        (tmp_path / "kept.json").chmod(0o640)
        write_atomically(str(tmp_path / "kept.json"), "new")
        assert (tmp_path / "kept.json").read_text() == "new"
        assert stat.S_IMODE((tmp_path / "kept.json").stat().st_mode) == 0o640
    finally:
        os.umask(umask)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json", "new.json"]  # no temporary file left


def test_a_link_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    write_atomically(str(tmp_path / "link.json"), "new")
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "real.json").read_text() == "new"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_what_is_not_a_regular_file_is_never_replaced(tmp_path: Path, kind: str) -> None:
    """A pipe stands for devices too: a test that got it wrong on /dev/null would replace the machine's."""
    target = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    with pytest.raises(OSError, match="not a regular file"):
        write_atomically(str(target), "x")
    assert target.exists() and not target.is_file()
    assert not list(tmp_path.glob(".kcsolve-*"))


def test_a_kept_file_is_read_up_to_one_byte_past_its_limit_through_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"0123456789")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_regular(str(tmp_path / "link"), 4) == b"01234"
    assert read_regular(str(tmp_path / "real"), 100) == b"0123456789"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_what_is_not_a_regular_file_is_never_read(tmp_path: Path, kind: str) -> None:
    """A pipe with no writer would block open() for ever."""
    target = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    with pytest.raises(OSError, match="not a regular file"):
        read_regular(str(target), 10)
