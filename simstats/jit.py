"""One place that configures numba for the package: ``jit`` is ``numba.njit(cache=True)``,
compiled without numba's wraparound of negative indices (PackageCompiler).

numba's on-disk cache checks only the source file of the function it compiled, not the files
of the functions that were inlined into it nor the constants it froze, so a change to a rules
module could leave a stale compiled loop behind. We stamp the cache with a fingerprint of every
module compiled code reads and drop the cached code when it differs.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import warnings
from pathlib import Path

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.typed_passes import NativeLowering
from numba.cpython.unsafe.numbers import trailing_zeros  # noqa: F401  (for compiled modules)
from numba.extending import intrinsic
from numba.np import arrayobj

PACKAGE_DIR = Path(__file__).resolve().parent


def _imported_modules(path: Path) -> set[Path]:
    """The package's modules that `path` imports (relative imports), as files."""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            stem = base.joinpath(*(node.module or "").split(".")) if node.module else base
            names = [stem] + [stem / alias.name for alias in node.names]
            for candidate in names:
                for file in (candidate.with_suffix(".py"), candidate / "__init__.py"):
                    if file.is_file():
                        found.add(file.resolve())
    return found


def compiled_modules() -> list[Path]:
    """Every module whose code or constants compiled code may read: the modules with compiled
    functions and, transitively, the package modules they import (numba freezes their
    module-level constants into the machine code)."""
    todo = [p.resolve() for p in PACKAGE_DIR.rglob("*.py") if b"@jit" in p.read_bytes()]
    todo.append(Path(__file__).resolve())
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(_imported_modules(path) - seen)
    return sorted(seen)


@functools.cache
def package_fingerprint() -> str:
    """A hash of numba's version and every module compiled code reads."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in compiled_modules():
        digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_dir() -> Path:
    """Where generated loop modules and their compiled code live: $SIMSTATS_CACHE_DIR, else
    the user's cache folder."""
    if os.environ.get("SIMSTATS_CACHE_DIR"):
        return Path(os.environ["SIMSTATS_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "simstats"


def _package_cache_files() -> tuple[Path, list[Path]]:
    """The stamp file and the files of numba's cache of the package's compiled functions:
    next to the sources, or under $NUMBA_CACHE_DIR (in a folder per source folder, named
    after it and a hash of its path)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        root = Path(os.environ["NUMBA_CACHE_DIR"])
        files = [cached for path in PACKAGE_DIR.rglob("*.py")
                 for cached in root.glob(f"{path.parent.name}_*/{path.stem}.*.nb[ic]")]
        return root / "simstats-numba-fingerprint", files
    return (PACKAGE_DIR / "__pycache__" / "numba-fingerprint",
            list(PACKAGE_DIR.rglob("__pycache__/*.nb[ic]")))


def _drop_stale_cache() -> None:
    fingerprint = package_fingerprint()
    try:
        stamp, files = _package_cache_files()
        if stamp.read_text() == fingerprint:
            return
    except OSError:
        pass
    try:
        for cached in files:
            cached.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(fingerprint)
    except OSError:
        pass  # a read-only install: numba then compiles in memory, still correct


_drop_stale_cache()


def _index_as_given(context, builder, idxty, idx, size):
    """numba.np.arrayobj.fix_integer_index without the wraparound of negative indices."""
    return context.cast(builder, idx, idxty, types.intp if idxty.signed else types.uintp)


@register_pass(mutates_CFG=True, analysis_only=False)
class LoweringWithoutWraparound(NativeLowering):
    """numba's lowering, with array indices taken as given: numba checks every signed index
    for a negative value to wrap around (numba issue 3205: no option turns it off), a compare
    and a select on each array access of the search's hot loop. The package's compiled code
    never indexes from the end (tests/policies/test_indices.py runs it bounds-checked, where a
    negative index raises). Measured: the exact searches 8-11% more positions a second
    (benchmarks/search_speed.md)."""

    _name = "simstats_lowering_without_wraparound"

    def run_pass(self, state):
        given = arrayobj.fix_integer_index
        arrayobj.fix_integer_index = _index_as_given  # numba compiles under a global lock
        try:
            return super().run_pass(state)
        finally:
            arrayobj.fix_integer_index = given


class PackageCompiler(CompilerBase):
    """numba's nopython pipeline with LoweringWithoutWraparound for its lowering."""

    def define_pipelines(self):
        passes = DefaultPassBuilder.define_nopython_pipeline(self.state)
        passes.passes = [(LoweringWithoutWraparound if step is NativeLowering else step, name)
                         for step, name in passes.passes]
        return [passes]


# No reference counting (_nrt=False): passing arrays between functions otherwise costs an atomic
# increment and decrement per call, which was half of a Tournament deal's time. Compiled code
# therefore never allocates: callers pass buffers in.
jit = numba.njit(cache=True, nogil=True, _nrt=False, pipeline_class=PackageCompiler)
# Small functions on the hot path are also inlined at numba's level (another 2x); big ones are
# not, which keeps compilation to seconds rather than minutes.
jit_inline = numba.njit(cache=True, nogil=True, inline="always", _nrt=False,
                        pipeline_class=PackageCompiler)
# The compiled loop of a policy written outside the package (inlined into it) keeps Python's
# indexing, where a negative index counts from the end (policies/compiled.py).
jit_wraparound = numba.njit(cache=True, nogil=True, _nrt=False)

# Policies that share code read their parameters by name from records of different layouts;
# numba then calls a record with more fields a subtype of one with fewer (same offsets): correct,
# and said on every compile.
warnings.filterwarnings("ignore", message=r".*has been considered a subtype of Record",
                        category=numba.core.errors.NumbaExperimentalFeatureWarning)


@intrinsic
def prefetch_row(typingctx, table, row):
    """Ask the processor to start fetching row `row` of a 2-d array into its caches (LLVM's
    prefetch: a hint, no effect on results), so that a lookup made a little later does not
    wait for memory: the exact search's table lookups were its largest single cost."""

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        column = context.get_constant(numba.types.intp, 0)
        address = cgutils.get_item_pointer(context, builder, array_type, array,
                                           [args[1], column])
        address = builder.bitcast(address, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [address.type, i32, i32, i32]),
            "llvm.prefetch.p0")
        builder.call(prefetch, [address, i32(0), i32(3), i32(1)])  # read, keep, data
        return context.get_dummy_value()

    return numba.types.void(table, row), codegen
