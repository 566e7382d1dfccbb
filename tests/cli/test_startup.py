"""Start-up: the light commands load neither numba nor numpy, and numba without a writable cache stays quiet."""

from __future__ import annotations

import subprocess
import sys

import pytest

LIGHT = [["--version"], ["rules"], ["deal", "--seed", "1"], ["solve", "--seed", "1"]]


@pytest.mark.parametrize("args", LIGHT, ids=" ".join)
def test_light_commands_import_neither_numba_nor_numpy(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "kcsolve", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    loaded = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines() if "|" in line}
    assert "kcsolve" in loaded and not loaded & {"numba", "numpy"}


def test_a_compiled_function_runs_without_a_cache_folder(monkeypatch: pytest.MonkeyPatch, capfd) -> None:  # type: ignore[no-untyped-def]
    """With no place numba may write its cache, the function is compiled uncached, with nothing printed."""
    from numba.core import caching

    from kcsolve.common.jit import jit

    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])

    def twice(x: int) -> int:
        return 2 * x

    with pytest.raises(RuntimeError, match="no locator"):  # what numba itself says, so the fallback is needed
        __import__("numba").njit(cache=True)(twice)
    compiled = jit("int64(int64)")(twice)
    assert compiled(21) == 42
    assert capfd.readouterr() == ("", "")
