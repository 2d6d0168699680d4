"""One place that configures numba for the package: ``jit`` is ``numba.njit(cache=True)``,
compiled without numba's wraparound of negative indices (PackageCompiler).

numba's on-disk cache checks only the source file of the function it compiled, not the files
of the functions that were inlined into it nor the constants it froze, so a change to a rules
module could leave a stale compiled loop behind. We stamp each module's cached code with a
fingerprint of every module its compiled code reads (modules_read) and drop that module's cached
code when it differs: an edit recompiles what it touches, never loads stale code.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import warnings
from pathlib import Path

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.registry import CPUDispatcher
from numba.core.typed_passes import NativeLowering
from numba.cpython.unsafe.numbers import trailing_zeros  # noqa: F401  (for compiled modules)
from numba.extending import intrinsic
from numba.np import arrayobj

PACKAGE_DIR = Path(__file__).resolve().parent


def _module_files(base: Path, dotted: str) -> list[Path]:
    """The file of module `dotted` under folder `base` (a module or a package's __init__)."""
    stem = base.joinpath(*dotted.split(".")) if dotted else base
    return [f for f in (stem.with_suffix(".py"), stem / "__init__.py") if f.is_file()]


def _imported_modules(path: Path) -> set[Path]:
    """The package's modules that `path` imports (relative imports, and absolute ones of
    simstats, as a plugin's file writes them), as files. `from . import api` counts api alone,
    not the package's __init__, whose code compiled code does not read."""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = path.parent
            for _ in range(node.level - 1):
                base = base.parent
            dotted = node.module or ""
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "simstats":
            base, dotted = PACKAGE_DIR, node.module.partition(".")[2]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "simstats":
                    found.update(_module_files(PACKAGE_DIR, alias.name.partition(".")[2]))
            continue
        else:
            continue
        for alias in node.names:
            submodule = _module_files(base, f"{dotted}.{alias.name}".strip("."))
            found.update(submodule or _module_files(base, dotted))
    return {file.resolve() for file in found}


@functools.cache
def modules_read(path: Path) -> frozenset[Path]:
    """`path` and, transitively, every package module it imports: what the compiled code of
    its functions may read (numba freezes module-level constants into the machine code, and
    links the compiled functions it calls into the caller's cached code)."""
    seen: set[Path] = set()
    todo = [Path(path).resolve()]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(_imported_modules(current) - seen)
    return frozenset(seen)


@functools.cache
def _modules_with_compiled_code() -> tuple[Path, ...]:
    return tuple(sorted(p.resolve() for p in PACKAGE_DIR.rglob("*.py")
                        if b"@jit" in p.read_bytes() and p.resolve() != Path(__file__).resolve()))


def fingerprint(paths) -> str:
    """A hash of numba's version, this file, and every module that code compiled from the files
    `paths` reads (modules_read): it changes exactly when their compiled code may."""
    files = {Path(__file__).resolve()}
    for path in paths:
        files |= modules_read(Path(path))
    digest = hashlib.sha256(numba.__version__.encode())
    for file in sorted(files):
        name = file.relative_to(PACKAGE_DIR).as_posix() if file.is_relative_to(PACKAGE_DIR) \
            else file.as_posix()
        digest.update(name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def cache_dir() -> Path:
    """Where generated loop modules and their compiled code live: $SIMSTATS_CACHE_DIR, else
    the user's cache folder."""
    if os.environ.get("SIMSTATS_CACHE_DIR"):
        return Path(os.environ["SIMSTATS_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "simstats"


def numba_cache_folder(source: Path) -> Path:
    """Where numba keeps the compiled code of module `source`: under $NUMBA_CACHE_DIR (a folder
    per source folder, named after it and a hash of its path, as numba names it), else in the
    __pycache__ beside it."""
    folder = source.resolve().parent
    if os.environ.get("NUMBA_CACHE_DIR"):
        tag = hashlib.sha1(str(folder).encode()).hexdigest()
        return Path(os.environ["NUMBA_CACHE_DIR"]).resolve() / f"{folder.name}_{tag}"
    return folder / "__pycache__"


def _cache_files(source: Path) -> list[Path]:
    """numba's cached code of the compiled functions of module `source`."""
    return list(numba_cache_folder(source).glob(f"{source.stem}.*.nb[ic]"))


# The stamp file's entry for _sources_stamp (the others are modules, keyed by their path).
SOURCES_KEY = "sources as last checked"


def _stamp_file() -> Path:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "simstats-numba-fingerprints.json"
    return PACKAGE_DIR / "__pycache__" / "numba-fingerprints.json"


def _sources_stamp() -> str:
    """numba's version and each package module's path, size, modification time and inode: read
    with one `stat` a file, it changes whenever a file is edited, added, removed or checked out,
    so the fingerprints (which parse and hash every module) are worked out only then."""
    stamp = [numba.__version__]
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        status = path.stat()
        stamp.append(f"{path.relative_to(PACKAGE_DIR).as_posix()} {status.st_size} "
                     f"{status.st_mtime_ns} {status.st_ino}")
    return hashlib.sha256("\n".join(stamp).encode()).hexdigest()


def _drop_stale_cache() -> None:
    """Drop the cached code of each module whose fingerprint changed since it was cached, and
    only of those: an edit to one policy recompiles that policy (and what imports it). Nothing
    is fingerprinted when no module's file changed since the last check (_sources_stamp)."""
    stamp = _stamp_file()
    try:
        stamped = json.loads(stamp.read_text())
    except (OSError, ValueError):
        stamped = {}
    sources = _sources_stamp()
    if stamped.get(SOURCES_KEY) == sources:
        return
    wanted = {p.relative_to(PACKAGE_DIR).as_posix(): fingerprint([p])
              for p in _modules_with_compiled_code()}
    try:
        for name, print_ in wanted.items():
            if stamped.get(name) != print_:
                for cached in _cache_files(PACKAGE_DIR / name):
                    cached.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        partial = stamp.with_name(f".{stamp.name}.{os.getpid()}")
        partial.write_text(json.dumps({**wanted, SOURCES_KEY: sources}, indent=0,
                                      sort_keys=True))
        partial.replace(stamp)
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


class PackageDispatcher(CPUDispatcher):
    """numba's dispatcher, but a call from compiled code compiles the callee for its arguments'
    types, never for the constants they are (`f(x, 0)` and `f(x, i)` share one compiled `f`):
    numba otherwise compiles a function again for each constant it is called with."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def _package_jit(**options):
    def decorate(function):
        dispatcher = PackageDispatcher(py_func=function, locals={}, pipeline_class=PackageCompiler,
                                       targetoptions={"nopython": True, **options})
        dispatcher.enable_caching()
        return dispatcher

    return decorate


# No reference counting (_nrt=False): passing arrays between functions otherwise costs an atomic
# increment and decrement per call, which was half of a Tournament deal's time. Compiled code
# therefore never allocates: callers pass buffers in.
jit = _package_jit(nogil=True, _nrt=False)
# Small functions on the hot path are also inlined at numba's level (another 2x); big ones are
# not, which keeps compilation to seconds rather than minutes. The bounds-checked build
# (NUMBA_BOUNDSCHECK=1, tests/policies/test_indices.py) checks indices, not speed: there they
# are compiled once each and called, which compiles it in a fraction of the time.
jit_inline = _package_jit(nogil=True, _nrt=False,
                          inline="never" if numba.config.BOUNDSCHECK else "always")
# Inlined in every build: functions that return a view of their arguments' arrays (compiled
# code without reference counting may return only an argument itself), and the play loops
# that take the policy's choose as an argument (numba caches such a loop only inlined).
jit_always = _package_jit(nogil=True, _nrt=False, inline="always")
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


@intrinsic
def plain_array(typingctx, array):
    """The array of a record's field (numba's nestedarray, whose type holds its shape) as a
    plain C array of the same memory. Functions then compile once for every shape: the search
    takes its working memory from records of several sizes (the solver's, the oracle's deep
    one, the planner's) and from plain arrays, and compiled anew for each (a minute each)."""
    if isinstance(array, types.NestedArray):
        plain = types.Array(array.dtype, array.ndim, "C")

        def codegen(context, builder, signature, args):
            field = context.make_array(signature.args[0])(context, builder, args[0])
            result = context.make_array(signature.return_type)(context, builder)
            arrayobj.populate_array(result, data=field.data,
                                    shape=cgutils.unpack_tuple(builder, field.shape),
                                    strides=cgutils.unpack_tuple(builder, field.strides),
                                    itemsize=field.itemsize, meminfo=None)
            return result._getvalue()

        return plain(array), codegen
    if isinstance(array, types.Array) and array.layout == "C":
        return array(array), lambda context, builder, signature, args: args[0]
    return None


def record_as(record_type: types.Record):
    """An intrinsic that gives a record as `record_type`, whose fields are the record's first
    ones (same names, types and offsets): a function that reads the smaller record then compiles
    once for both. The planner passes its parameters to solver's and lookahead's choices this
    way, which would otherwise compile again for its record (the search: half a minute)."""

    @intrinsic
    def view(typingctx, record):
        if not isinstance(record, types.Record) or record.size < record_type.size or any(
                record.fields.get(name) != field for name, field in record_type.fields.items()):
            return None

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(record_type))

        return record_type(record), codegen

    return view
