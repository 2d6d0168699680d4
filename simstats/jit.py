"""One place that configures numba for the package: ``jit`` is ``numba.njit(cache=True)``.

numba's on-disk cache checks only the source file of the function it compiled, not the files
of the functions that were inlined into it, so a change to a rules module could leave a stale
compiled loop behind. We stamp the cache with a fingerprint of every module with compiled code and
drop the cached code when it differs.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numba

PACKAGE_DIR = Path(__file__).resolve().parent


def _fingerprint() -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        source = path.read_bytes()
        if b"@jit" in source or path.name == "jit.py":  # only modules with compiled code
            digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode())
            digest.update(source)
    return digest.hexdigest()


def _drop_stale_cache() -> None:
    stamp = PACKAGE_DIR / "__pycache__" / "numba-fingerprint"
    fingerprint = _fingerprint()
    try:
        if stamp.read_text() == fingerprint:
            return
    except OSError:
        pass
    try:
        for cached in PACKAGE_DIR.rglob("__pycache__/*.nb[ic]"):
            cached.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(fingerprint)
    except OSError:
        pass  # a read-only install: numba then compiles in memory, still correct


_drop_stale_cache()

# No reference counting (_nrt=False): passing arrays between functions otherwise costs an atomic
# increment and decrement per call, which was half of a Tournament deal's time. Compiled code
# therefore never allocates: callers pass buffers in.
jit = numba.njit(cache=True, nogil=True, _nrt=False)
# Small functions on the hot path are also inlined at numba's level (another 2x); big ones are
# not, which keeps compilation to seconds rather than minutes.
jit_inline = numba.njit(cache=True, nogil=True, inline="always", _nrt=False)
