"""The chunk loop loaded as machine code without numba: numba's verdicts, and a kept file trusted only when whole."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kcsolve.patience.rules import parse_rules
from kcsolve.patience.stats import compiled, native

# in a fresh process: the codes of 200,000 deals, and whether numba had to be imported for them
CHILD = """
import hashlib, sys
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.stats import native
codes = native.course_codes(7_000_000, 200_000, parse_rules("standard"))
print(native.kernel() is not None, "numba" in sys.modules, hashlib.sha256(codes.tobytes()).hexdigest())
"""


def numba_digest() -> str:
    """The digest of the same 200,000 codes from numba's own compiled course."""
    import hashlib

    return hashlib.sha256(compiled.course_codes(7_000_000, 200_000, parse_rules("standard")).tobytes()).hexdigest()


def child(cache: Path, timeout: float = 120) -> tuple[bool, bool, str]:
    """Run CHILD with ``cache`` as kcsolve's cache folder: (loaded, numba imported, digest)."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        env={"KCSOLVE_CACHE_DIR": str(cache), "PATH": ""},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    ).stdout.split()
    return out[0] == "True", out[1] == "True", out[2]


def kept_files(cache: Path) -> list[Path]:
    """The object and facts files in the cache, sorted (.json before .o)."""
    return sorted((cache / "native").glob("course-*"))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "swap+goal=clear"])
@pytest.mark.parametrize("first", [0, 5_000_000, 2**63 - 50_000, 2**64 - 100_000])
def test_the_machine_code_gives_numba_s_verdicts(preset: str, first: int) -> None:
    """100,000 deals per case, at the edges of the seeds too, under both goals: the same codes as numba's course."""
    assert native.kernel() is not None  # else the codes below would be numba's on both sides
    rules = parse_rules(preset)
    ours = native.course_codes(first, 100_000, rules)
    assert ours.dtype == np.uint8 and ours.tolist() == compiled.course_codes(first, 100_000, rules).tolist()
    assert 0.2 < float(np.mean(ours == 0)) < 0.8  # wins and losses both, not a constant


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache folder where a first process built and kept the code, and the digest numba's course gives."""
    cache = tmp_path_factory.mktemp("native-cache")
    expected = numba_digest()
    assert child(cache) == (True, True, expected)  # built with numba, then kept
    assert [p.suffix for p in kept_files(cache)] == [".json", ".o"]
    return cache, expected


@pytest.mark.slow
def test_a_second_process_loads_the_kept_code_without_numba(built: tuple[Path, str]) -> None:
    cache, expected = built
    assert child(cache) == (True, False, expected)


@pytest.mark.slow
@pytest.mark.parametrize(
    "damage",
    [
        "flip a byte of the object",
        "facts not JSON",
        "facts of the wrong shape",
        "a huge object",
        "a symbol nowhere to be found",
        "another function's symbol",
        "a function symbol nowhere to be found",
        "needs left out",
        "facts nested too deep",
    ],
)
def test_a_damaged_kept_file_is_built_again_never_run(built: tuple[Path, str], tmp_path: Path, damage: str) -> None:
    shutil.copytree(built[0], tmp_path, dirs_exist_ok=True)
    facts_path, object_path = kept_files(tmp_path)
    facts = json.loads(facts_path.read_text())
    if damage == "flip a byte of the object":
        code = bytearray(object_path.read_bytes())
        code[len(code) // 2] ^= 0xFF
        object_path.write_bytes(bytes(code))
    elif damage == "facts not JSON":
        facts_path.write_bytes(b"\x00\xff{" * 1000)
    elif damage == "facts nested too deep":  # json raises RecursionError, not ValueError
        facts_path.write_bytes(b"[" * 100_000)
    elif damage == "facts of the wrong shape":
        facts_path.write_text(json.dumps({**facts, "needs": "NRT_Free"}))
    elif damage == "a huge object":
        object_path.write_bytes(b"\x7fELF" + b"\x00" * (native.LARGEST_OBJECT + 10))
    elif damage == "a symbol nowhere to be found":
        facts_path.write_text(json.dumps({**facts, "needs": [*facts["needs"], "kcsolve_no_such_symbol"]}))
    elif damage == "another function's symbol":  # NRT_decref returns at once: the codes would be whatever was in memory
        facts_path.write_text(json.dumps({**facts, "symbol": "NRT_decref"}))
    elif damage == "a function symbol nowhere to be found":
        facts_path.write_text(json.dumps({**facts, "symbol": facts["symbol"] + "x"}))
    else:
        facts_path.write_text(json.dumps({**facts, "needs": []}))
    assert child(tmp_path) == (True, True, built[1])  # numba was needed: the kept file was not used
    assert native._read(tmp_path / "native", facts_path.stem) == native._read(built[0] / "native", facts_path.stem)


@pytest.mark.slow
@pytest.mark.parametrize("kept", [".json", ".o"])
def test_a_pipe_in_place_of_a_kept_file_is_not_waited_on(built: tuple[Path, str], tmp_path: Path, kept: str) -> None:
    """open() of a FIFO waits for a writer for ever: the run must build the code instead, and leave the pipe alone."""
    shutil.copytree(built[0], tmp_path, dirs_exist_ok=True)
    path = next(p for p in kept_files(tmp_path) if p.suffix == kept)
    path.unlink()
    os.mkfifo(path)
    assert child(tmp_path, timeout=30) == (True, True, built[1])
    assert stat.S_ISFIFO(path.stat().st_mode)


@pytest.mark.slow
def test_a_cache_that_cannot_be_written_still_gives_the_codes(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("where the cache folder would be")
    assert child(blocker) == (True, True, numba_digest())


@pytest.mark.slow
def test_where_numba_cannot_compile_the_loop_its_own_course_answers(tmp_path: Path) -> None:
    """NUMBA_DISABLE_JIT=1 leaves the course plain Python, which C code cannot call: numba's course, no traceback."""
    script = (
        "from kcsolve.patience.rules import parse_rules\nfrom kcsolve.patience.stats import native\n"
        "print(native.course_codes(0, 2_000, parse_rules('standard')).tolist(), native.kernel())"
    )
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={"KCSOLVE_CACHE_DIR": str(tmp_path), "PATH": "", "NUMBA_DISABLE_JIT": "1"},
    )
    assert out.returncode == 0 and out.stderr == ""
    expected = compiled.course_codes(0, 2_000, parse_rules("standard")).tolist()
    assert out.stdout == f"{expected} None\n"
    assert not kept_files(tmp_path)


def test_an_unresolved_symbol_is_refused_before_linking() -> None:
    """The check that keeps LLVM from aborting the process on a symbol it cannot find."""
    import llvmlite.binding as ll

    assert not native._resolvable(ll, ["kcsolve_no_such_symbol"])
    with pytest.raises(RuntimeError, match="kcsolve_no_such_symbol"):
        native._load(ll, None, b"", "f", ["kcsolve_no_such_symbol"])


def test_where_the_code_cannot_be_loaded_numba_s_course_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "kernel", lambda: None)
    rules = parse_rules("standard")
    assert native.course_codes(123, 5_000, rules).tolist() == compiled.course_codes(123, 5_000, rules).tolist()
