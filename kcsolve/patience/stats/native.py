"""The forced course of a chunk of deals as machine code that starts without numba.

Importing numba and loading its cached functions costs a process about 0.3 s,
a fifth of the work of two million deals on one core: start-up alone kept two
jobs of `stats` from running twice as fast as one. numba compiles the chunk
loop (:func:`.compiled.course_kernel`, a C function of pointers) once; llvmlite,
which numba itself runs on, turns its LLVM code into an object file for this
processor, kept in the user's cache; later runs load that file with llvmlite
alone, in about 0.04 s, and call it through ctypes.

The file is used only if a SHA-256 of it and of its facts (the function's
symbol, the symbols it needs) matches the one written beside them, under a
key of the code that made it (this folder's course, numba's and llvmlite's
builds, the processor and Python), and only if every symbol it needs resolves
in this process, so a damaged or stale file is built again, never run. Where
anything fails (no writable cache, a platform llvmlite cannot load objects on),
:func:`course_codes` runs numba's own compiled course: same verdicts, slower
start.
"""

from __future__ import annotations

import builtins
import ctypes
import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from kcsolve.common.cache import cache_root
from kcsolve.common.cards import DECK_SIZE, TEN
from kcsolve.common.files import read_regular, write_atomically
from kcsolve.patience.rules import Goal, Rules
from kcsolve.patience.stats.tables import KEEP

KERNEL = ctypes.CFUNCTYPE(
    None,
    ctypes.c_uint64,
    ctypes.c_int64,
    ctypes.c_bool,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
    ctypes.c_void_p,
)

NUMBA_COURSE = "KCSOLVE_NUMBA_COURSE"  # set to 1: numba's compiled course, as before this module (for benchmarks)
LARGEST_OBJECT = 1 << 20  # the object is about 8 kB; anything larger is not ours
# the code that the object file is made from, under kcsolve/
SOURCES = (
    "patience/stats/compiled.py",
    "patience/stats/native.py",
    "patience/stats/tables.py",
    "patience/solve/theory.py",
    "common/cards.py",
)


def course_codes(first: int, count: int, rules: Rules) -> np.ndarray:
    """The verdict code of every deal numbered first .. first + count - 1 under ``rules`` (sets must be pairs)."""
    loaded = None if os.environ.get(NUMBA_COURSE) == "1" else kernel()
    if loaded is None:
        from kcsolve.patience.stats.compiled import course_codes as numba_codes

        return numba_codes(first, count, rules)
    codes = np.empty(count, np.uint8)
    ranks = np.empty(DECK_SIZE, np.int8)
    counts = np.empty(TEN + 1, np.int64)
    loaded[0](
        first,
        count,
        rules.goal is Goal.COURTS,
        codes.ctypes.data,
        KEEP.ctypes.data,
        ranks.ctypes.data,
        counts.ctypes.data,
    )
    return codes


@lru_cache(maxsize=1)
def kernel() -> tuple[Callable[..., None], Any] | None:
    """The chunk loop as a ctypes function, with the engine that holds its code; None where it cannot be loaded."""
    try:
        import llvmlite.binding as ll

        ll.initialize_native_target()
        ll.initialize_native_asmprinter()
        machine = ll.Target.from_default_triple().create_target_machine(
            cpu=ll.get_host_cpu_name(), features=ll.get_host_cpu_features().flatten(), codemodel="jitdefault"
        )
        folder = cache_root() / "native"
        name = f"course-{_key(ll)}"
        found = _read(folder, name)
        if found is None or not _resolvable(ll, found[2]):
            found = _build(ll, machine)
            _write(folder, name, *found)
        return _load(ll, machine, *found)
    except (ImportError, OSError, RuntimeError, ValueError):
        return None


def _key(ll: Any) -> str:
    """A digest of everything the object file depends on: its sources, numba, llvmlite, the processor, Python."""
    digest = hashlib.sha256()
    package = Path(__file__).parents[2]
    for source in SOURCES:
        digest.update((package / source).read_bytes())
    numba = importlib.util.find_spec("numba")
    if numba is None or numba.origin is None:
        raise ImportError("numba is not installed")
    stat = os.stat(numba.origin)
    facts = (
        ll.llvm_version_info,
        ll.get_process_triple(),
        ll.get_host_cpu_name(),
        ll.get_host_cpu_features().flatten(),
        numba.origin,
        stat.st_size,
        stat.st_mtime_ns,
        sys.version,
    )
    digest.update(repr(facts).encode())
    return digest.hexdigest()[:32]


def _read(folder: Path, name: str) -> tuple[bytes, str, list[str]] | None:
    """The kept object, its function's symbol and the symbols it needs, if they are whole and match; else None."""
    try:
        facts = json.loads(read_regular(str(folder / f"{name}.json"), LARGEST_OBJECT))
        code = read_regular(str(folder / f"{name}.o"), LARGEST_OBJECT)
    except (OSError, ValueError, RecursionError):  # json meets deep nesting with RecursionError
        return None
    if not (
        isinstance(facts, dict)
        and isinstance(facts.get("symbol"), str)
        and isinstance(facts.get("needs"), list)
        and all(isinstance(need, str) for need in facts["needs"])
        and len(code) <= LARGEST_OBJECT
        and facts.get("sha256") == _digest(code, facts["symbol"], facts["needs"])
    ):
        return None
    return code, facts["symbol"], facts["needs"]


def _digest(code: bytes, symbol: str, needs: list[str]) -> str:
    """The SHA-256 of the object and its facts: a symbol changed, even to one defined, would call the wrong code."""
    return hashlib.sha256(json.dumps([symbol, needs]).encode() + b"\0" + code).hexdigest()


def _build(ll: Any, machine: Any) -> tuple[bytes, str, list[str]]:
    """Compile the chunk loop with numba: its object code, its C symbol, and the symbols it leaves to the process."""
    from numba.core.errors import NumbaError

    from kcsolve.patience.stats.compiled import course_kernel

    try:
        compiled = course_kernel()
    except NumbaError as exc:  # NUMBA_DISABLE_JIT=1 leaves the loop a Python function, which a C function cannot call
        raise RuntimeError(f"numba cannot compile the chunk loop: {exc}") from exc
    module = ll.parse_assembly(compiled.inspect_llvm())
    module.verify()
    needs = sorted(
        {f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")}
        | {g.name for g in module.global_variables if g.is_declaration}
    )
    return machine.emit_object(module), compiled.native_name, needs


def _write(folder: Path, name: str, code: bytes, symbol: str, needs: list[str]) -> None:
    """Keep the object and its facts, each written whole or not at all; a cache that cannot be written is not used."""
    facts = json.dumps({"symbol": symbol, "needs": needs, "sha256": _digest(code, symbol, needs)})
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(str(folder / f"{name}.o"), code)
        write_atomically(str(folder / f"{name}.json"), facts)
    except OSError:
        pass


def _resolvable(ll: Any, needs: list[str]) -> bool:
    """Whether every symbol the object needs has an address here (an unresolved one would abort the process)."""
    _offer_symbols(ll, needs)
    return all(ll.address_of_symbol(need) for need in needs)


def _offer_symbols(ll: Any, needs: list[str]) -> None:
    """Give llvmlite the addresses numba gives it for the object's error paths, without importing numba itself.

    numba's helper functions are static in its extension modules and known only
    through their ``c_helpers`` tables, so those modules are loaded on their own,
    and the symbols named as numba names them (``numba.core.base``,
    ``numba.core.runtime.nrt``).
    """
    missing = {need for need in needs if not ll.address_of_symbol(need)}
    if not missing:
        return
    numba = importlib.util.find_spec("numba")
    if numba is None or not numba.submodule_search_locations:
        return
    folder = Path(next(iter(numba.submodule_search_locations)))
    for name, prefix in (("_helperlib", "numba_"), ("_dynfunc", "numba_"), ("core/runtime/_nrt_python", "NRT_")):
        for path in folder.glob(f"{name}.*.so"):
            spec = importlib.util.spec_from_file_location("numba." + name.replace("/", "."), path)
            if spec is None:
                continue
            module = importlib.util.module_from_spec(spec)
            for helper, address in getattr(module, "c_helpers", {}).items():
                ll.add_symbol(helper if helper.startswith("_") else prefix + helper, address)
    for need in missing:
        if need.startswith("PyExc_") and isinstance(getattr(builtins, need[6:], None), type):
            ll.add_symbol(need, id(getattr(builtins, need[6:])))  # numba's error code takes the class itself
        elif not ll.address_of_symbol(need) and need.startswith("Py") and hasattr(ctypes.pythonapi, need):
            ll.add_symbol(need, ctypes.cast(getattr(ctypes.pythonapi, need), ctypes.c_void_p).value)
    ll.add_symbol("_Py_NoneStruct", id(None))


def _load(ll: Any, machine: Any, code: bytes, symbol: str, needs: list[str]) -> tuple[Callable[..., None], Any]:
    """Link the object into a new engine and return its function (and the engine, which must outlive it)."""
    if not _resolvable(ll, needs):
        raise RuntimeError(f"symbols the compiled course needs are missing: {needs!r}")
    engine = ll.create_mcjit_compiler(ll.parse_assembly(""), machine)
    engine.add_object_file(ll.ObjectFileRef.from_data(code))
    engine.finalize_object()
    address = engine.get_function_address(symbol)
    if not address:
        raise RuntimeError(f"the compiled course has no function {symbol!r}")
    return KERNEL(address), engine
