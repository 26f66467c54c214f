"""Loading libclrt and declaring the C functions the binding calls (ctypes).

Where the library comes from, first match wins:
  1. $CLRT_LIBRARY, a path to libclrt.so (tests point it at a build tree);
  2. the copy bundled in this package (clrt/_libs/), put there by `pip install ./python`;
  3. the system's libclrt (ctypes.util.find_library: an installed clrt).
"""
import ctypes
import ctypes.util
import os
import pathlib
import sys
import threading
import time

from ._errors import Error

c_size_p = ctypes.POINTER(ctypes.c_size_t)
c_void_pp = ctypes.POINTER(ctypes.c_void_p)


class DeviceInfo(ctypes.Structure):
    """clrt_device_info (include/clrt/clrt.h), field for field."""
    _fields_ = [
        ("index", ctypes.c_size_t),
        ("platform_index", ctypes.c_uint),
        ("device_index", ctypes.c_uint),
        ("type", ctypes.c_int),
        ("name", ctypes.c_char * 256),
        ("vendor", ctypes.c_char * 256),
        ("platform", ctypes.c_char * 256),
        ("driver", ctypes.c_char * 256),
        ("compute_units", ctypes.c_uint),
        ("global_mem", ctypes.c_uint64),
        ("max_alloc", ctypes.c_uint64),
        ("local_mem", ctypes.c_uint64),
        ("max_work_group", ctypes.c_size_t),
        ("has_fp64", ctypes.c_int),
    ]


def _candidates():
    env = os.environ.get("CLRT_LIBRARY")
    if env:
        return [env]  # an explicit choice: never fall back to another library
    here = pathlib.Path(__file__).resolve().parent / "_libs"
    found = sorted(here.glob("libclrt.so*")) + sorted(here.glob("libclrt*.dylib")) + \
        sorted(here.glob("clrt*.dll"))
    system = ctypes.util.find_library("clrt")
    return [str(p) for p in found] + ([system] if system else [])


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError("clrt: libclrt not found. Install the package with `pip install ./python` "
                      "from the clrt source tree (it builds and bundles the library), install "
                      "clrt system-wide, or set CLRT_LIBRARY to libclrt.so. Tried: "
                      + ("; ".join(tried) or "nothing found"))


lib, path = _load()

I, V, P, S, D = ctypes.c_int, None, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_double
_PROTOTYPES = {
    # name: (restype, argtypes)
    "clrt_version": (ctypes.c_char_p, []),
    "clrt_status_name": (ctypes.c_char_p, [I]),
    "clrt_error_message": (ctypes.c_char_p, []),
    "clrt_live_objects": (ctypes.c_long, []),
    "clrt_device_list": (I, [ctypes.POINTER(DeviceInfo), S, c_size_p]),
    "clrt_device_select": (I, [ctypes.c_char_p, ctypes.POINTER(DeviceInfo)]),
    "clrt_device_is_emulator": (I, [ctypes.POINTER(DeviceInfo)]),
    "clrt_device_type_name": (ctypes.c_char_p, [I]),
    "clrt_context_create": (I, [c_void_pp, ctypes.c_char_p]),
    "clrt_context_destroy": (V, [P]),
    "clrt_context_device": (I, [P, ctypes.POINTER(DeviceInfo)]),
    "clrt_queue_create": (I, [c_void_pp, P]),
    "clrt_queue_finish": (I, [P]),
    "clrt_queue_destroy": (V, [P]),
    "clrt_buffer_create": (I, [c_void_pp, P, I, S, S]),
    "clrt_buffer_destroy": (V, [P]),
    "clrt_buffer_view": (I, [c_void_pp, P, S, S, S, S]),
    "clrt_buffer_reshape": (I, [c_void_pp, P, S, S]),
    "clrt_buffer_write": (I, [P, P, P, S]),
    "clrt_buffer_read": (I, [P, P, P, S]),
    "clrt_gemm": (I, [P, I, I, D, P, P, D, P]),
    "clrt_gemm_strided_batched": (I, [P, I, I, S, S, S, D, P, S, P, S, D, P, S, S]),
    "clrt_binary": (I, [P, I, P, P, P]),
    "clrt_unary": (I, [P, I, P, P]),
    "clrt_scale": (I, [P, P, D, P]),
    "clrt_fill": (I, [P, P, D]),
    "clrt_copy": (I, [P, P, P]),
    "clrt_transpose": (I, [P, P, P]),
    "clrt_reduce": (I, [P, I, I, P, P]),
    "clrt_argmax_rows": (I, [P, P, P]),
    "clrt_program_create": (I, [c_void_pp, P, ctypes.c_char_p, ctypes.c_char_p]),
    "clrt_program_destroy": (V, [P]),
    "clrt_kernel_create": (I, [c_void_pp, P, ctypes.c_char_p]),
    "clrt_kernel_destroy": (V, [P]),
    "clrt_kernel_num_args": (ctypes.c_uint, [P]),
    "clrt_kernel_work_group_size": (S, [P]),
    "clrt_kernel_set_buffer": (I, [P, ctypes.c_uint, P]),
    "clrt_kernel_set_scalar": (I, [P, ctypes.c_uint, S, P]),
    "clrt_kernel_set_local": (I, [P, ctypes.c_uint, S]),
    "clrt_kernel_launch": (I, [P, P, ctypes.c_uint, c_size_p, c_size_p]),
    "clrt_kernel_launch_rounded": (I, [P, P, ctypes.c_uint, c_size_p, c_size_p]),
}
# Declared in clrt_nn.h; bound only where the library has them.
_OPTIONAL = {
    "clrt_nn_relu_forward": (I, [P, P, P]),
    "clrt_nn_relu_backward": (I, [P, P, P, P]),
    "clrt_nn_linear_forward": (I, [P, P, P, P, P]),
    "clrt_nn_linear_backward": (I, [P, P, P, P, P, P, P]),
    "clrt_nn_softmax_xent": (I, [P, P, P, P, P]),
    "clrt_nn_sgd_step": (I, [P, P, P, P, D, D, D]),
    "clrt_nn_init_kaiming_uniform": (I, [P, P, P, ctypes.c_uint64]),
    "clrt_nn_conv2d_forward": (I, [P, P, P, P, P, P]),
    "clrt_nn_conv2d_backward": (I, [P, P, P, P, P, P, P, P]),
    "clrt_nn_maxpool_forward": (I, [P, P, P, P, P]),
    "clrt_nn_maxpool_backward": (I, [P, P, P, P, P]),
    "clrt_nn_conv2d_output": (I, [P, c_size_p, c_size_p]),
    "clrt_nn_pool2d_output": (I, [P, c_size_p, c_size_p]),
}


def _declare(table, required):
    for name, (res, args) in table.items():
        try:
            f = getattr(lib, name)
        except AttributeError:
            if required:
                raise ImportError(f"clrt: {path} has no {name}: an older libclrt?") from None
            continue
        f.restype, f.argtypes = res, args


_declare(_PROTOTYPES, True)
_declare(_OPTIONAL, False)
_cdll = lib


def has(name):
    """Whether the loaded library exports name."""
    return hasattr(_cdll, name) and getattr(_cdll, name).argtypes is not None


# ---- interpreter exit while other threads still compute
# At exit the binding closes every context (_context._close_all), which must not happen
# under a call another thread has in the library (POCL aborts: "PTHREAD ERROR in
# can_run_command"). Every call goes through a guard that counts the calls in flight per
# thread; at exit, once a thread has started closing, a call from any other thread waits
# forever (such threads are daemons the interpreter is about to drop), and the closing
# thread first waits for the calls already in flight to return.
_in_flight = {}  # thread ident -> calls in the library now (written by that thread only)
_parked = set()  # threads stopped at the door of a call since the exit began
_closing = {"by": None}


def _park():
    _parked.add(threading.get_ident())
    threading.Event().wait()  # never set: the thread sleeps until the process ends


def _guard(f, may_park):
    def call(*args):
        tid = threading.get_ident()
        _in_flight[tid] = _in_flight.get(tid, 0) + 1  # counted first, then the check:
        by = _closing["by"]                             # the closer sees one or the other
        if may_park and by is not None and by != tid:
            _in_flight[tid] -= 1
            _park()
        try:
            return f(*args)
        finally:
            _in_flight[tid] -= 1
    call.__name__ = getattr(f, "__name__", "clrt_call")
    return call


class _Guarded:
    """The library with every function behind _guard (attributes made on first use)."""

    def __init__(self, cdll):
        self._cdll = cdll

    def __getattr__(self, name):
        f = getattr(self._cdll, name)
        # a *_destroy goes through: its handle has left the binding's records already
        # (parked there, it would never be destroyed), and it starts no work
        g = _guard(f, not name.endswith("_destroy")) if callable(f) else f
        setattr(self, name, g)
        return g


def begin_exit(settle=2.0, timeout=30.0):
    """Stop other threads' calls into the library (at exit): wait for the calls in flight
    to return, and for a while (settle) for each thread that has used the library to stop
    at its next call, so that what its last call made is registered (and gets closed)."""
    me = threading.get_ident()
    _closing["by"] = me
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        alive = {t.ident for t in threading.enumerate()}
        busy = [t for t, n in list(_in_flight.items()) if t != me and n]
        running = [t for t in list(_in_flight) if t != me and t in alive and t not in _parked]
        if not busy and (not running or time.monotonic() - start >= settle):
            return
        time.sleep(0.001)


lib = _Guarded(_cdll)


def check(status):
    """Raise clrt.Error for a failed call, with the library's status name and message."""
    if status != 0:
        raise Error(status, lib.clrt_status_name(status).decode(),
                    lib.clrt_error_message().decode(errors="replace"))


# ---- the build log: one line on stderr the first time clrt compiles kernels
# for a while (a first run on empty caches), so that it is not taken for a hang.
class BuildEvent(ctypes.Structure):
    """clrt_build_event (clrt.h)."""
    _fields_ = [("kernel", ctypes.c_char_p), ("dtype", ctypes.c_char_p), ("variant", ctypes.c_char_p),
                ("device", ctypes.c_char_p), ("cache_dir", ctypes.c_char_p), ("seconds", ctypes.c_double),
                ("source", ctypes.c_int), ("uncached", ctypes.c_char_p)]


_LOG_FN = ctypes.CFUNCTYPE(None, ctypes.POINTER(BuildEvent), ctypes.c_char_p, ctypes.c_void_p)


def _env_seconds(name, fallback):
    try:
        x = float(os.environ.get(name) or fallback)
    except ValueError:
        return fallback
    return x if x >= 0 else fallback


# a build from the driver's cache takes hundredths of a second, a compile tenths or more;
# after the notice, a line at most every _STILL_SECONDS while compiles go on (as the C
# tools; $CLRT_TOOLS_COMPILE_S and $CLRT_TOOLS_STILL_S set them: 0 in the tests)
_COMPILE_SECONDS = _env_seconds("CLRT_TOOLS_COMPILE_S", 0.25)
_STILL_SECONDS = _env_seconds("CLRT_TOOLS_STILL_S", 5.0)
# $CLRT_LOG on (the library's reading: 1, on, yes, true in any case): every build's line
# too, as the library prints it without this callback
_LOG_LINES = os.environ.get("CLRT_LOG", "").lower() in ("1", "on", "yes", "true")
_notice = {"said": False, "last": 0.0, "programs": 0, "pending": 0, "pending_s": 0.0, "names": []}
_notice_lock = threading.Lock()  # builds may be reported from several threads


def _say(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _build_name(ev):
    """'matmul float32', as the C tools name a build"""
    kernel = ev.kernel.decode(errors="replace") if ev.kernel else ""
    dtype = ev.dtype.decode(errors="replace") if ev.dtype else ""
    return f"{kernel} {dtype}" if dtype else kernel


def _notice_of(ev):
    where = ev.cache_dir.decode(errors="replace") if ev.cache_dir else ""
    why_not = ev.uncached.decode(errors="replace") if ev.uncached else ""
    device = ev.device.decode(errors="replace")
    took = f"{_build_name(ev)} took {ev.seconds:.2f} s"
    if where:
        return f"clrt: compiling kernels for {device} (first run only; cached in {where}): {took}"
    if why_not:
        return f"clrt: compiling kernels for {device} (not cached: {why_not}): {took}"
    return f"clrt: compiling kernels for {device} (first run only): {took}"


def _stored_since(folder, seconds):
    """Whether a build that just ended after `seconds` stored anything new in folder (a
    folder or a non-empty file made or changed since it began: POCL's cache adds one for
    a program it compiles, nothing for one it serves); None when folder cannot be read."""
    since = time.time() - seconds - 0.05
    try:
        with os.scandir(folder) as entries:
            for e in entries:
                if e.name.startswith("."):
                    continue
                try:
                    st = e.stat()
                except OSError:
                    continue
                if (e.is_dir() or st.st_size > 0) and st.st_mtime >= since:
                    return True
    except OSError:
        return None
    return False


def _say_pending(now):
    """the compiles since the last line, said and forgotten (under the lock)"""
    n = _notice["pending"]
    if not n:
        return
    names = ", ".join(_notice["names"])
    _say(f"clrt: compiled {n} more program{'' if n == 1 else 's'} in {_notice['pending_s']:.1f} s "
         f"({names}); {_notice['programs']} so far")
    _notice.update(pending=0, pending_s=0.0, names=[], last=now)


def _count_compile(ev, now):
    """one more compile after the notice (under the lock)"""
    _notice["programs"] += 1
    _notice["pending"] += 1
    _notice["pending_s"] += ev.seconds
    names = _notice["names"]
    if len(", ".join(names + [_build_name(ev)])) < 150:
        names.append(_build_name(ev))
    elif not names or names[-1] != "...":
        names.append("...")
    if now - _notice["last"] >= _STILL_SECONDS:
        _say_pending(now)


def _on_build(event, line, user):
    ev = event.contents
    if _LOG_LINES:
        _say(line.decode(errors="replace"))
    if ev.source != 1:
        return
    # served by the cache it names, however long it took (a loaded machine)
    if ev.cache_dir and _stored_since(ev.cache_dir.decode(errors="replace"), ev.seconds) is False:
        return
    with _notice_lock:
        now = time.monotonic()
        if _notice["said"]:
            _count_compile(ev, now)
        elif ev.seconds >= _COMPILE_SECONDS:
            _notice.update(said=True, last=now, programs=1)
            _say(_notice_of(ev))


_log_callback = _LOG_FN(_on_build)  # kept alive as long as the module
if hasattr(_cdll, "clrt_set_log"):
    _cdll.clrt_set_log.restype, _cdll.clrt_set_log.argtypes = None, [_LOG_FN, ctypes.c_void_p]
    _cdll.clrt_set_log(_log_callback, None)
