"""The binding's own device kernels: elementwise work over any strides and broadcasting,
dtype conversion, random numbers and ranges, compiled through clrt's program API.

The library's math family works on matrices and views of them; tensors of more
dimensions, permuted or broadcast, need an index walk per element. These kernels take
each operand's storage (its whole buffer) with an element offset and up to MAX_DIMS
strides, so that a transposed, sliced or broadcast operand is read (and an out= view
written) where it lies, without a copy. Operands whose elements are one run in order
go to the library's own kernels instead (_ops.py), which are tuned.

Each program is compiled once per context and dtype (double only where a float64 tensor
asks for it, so a device without fp64 never compiles it); kernels are kept in the
context and closed with it. Setting a kernel's arguments and launching it happen under
the context's lock: two threads never interleave one kernel's arguments.
"""
import ctypes
import threading

from . import _errors
from ._lib import check, lib

MAX_DIMS = 8

# op codes shared by the source below and _ops.py
B_ADD, B_SUB, B_MUL, B_DIV, B_MIN, B_MAX, B_POW, B_REM, B_FLOORDIV, B_SECOND, B_AND, B_OR, \
    B_XOR, B_ATAN2 = range(1, 15)
C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE = range(1, 7)
U_NEG, U_ABS, U_EXP, U_LOG, U_SQRT, U_RELU, U_TANH, U_SIGMOID, U_COPY, U_FILL, U_POWS, U_RPOW, \
    U_AFFINE, U_SIGN, U_RECIP, U_SQUARE, U_CLAMP, U_LOG1P, U_EXPM1, U_SIN, U_COS, U_FLOOR, U_CEIL, \
    U_ROUND, U_TRUNC, U_NOT, U_BITNOT, U_RSQRT, U_ISNAN = range(1, 30)
FLOAT_ONLY_UNARY = {U_EXP, U_LOG, U_SQRT, U_TANH, U_SIGMOID, U_POWS, U_RPOW, U_RECIP, U_LOG1P,
                    U_EXPM1, U_SIN, U_COS, U_FLOOR, U_CEIL, U_ROUND, U_TRUNC, U_RSQRT, U_ISNAN}
R_UNIFORM, R_NORMAL, R_BERNOULLI = 0, 1, 2

_SOURCE = r"""
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define GEO long8 shape, long8 st_c, long8 st_a, long8 st_b, long8 meta
/* meta: s0 = element count, s1 = dimensions, s2..s4 = offsets of c, a, b, s5 = op */

inline void walk(long i, int nd, long8 shape, long8 s_c, long8 s_a, long8 s_b, long *oc,
                 long *oa, long *ob) {
    long sh[8], sc[8], sa[8], sb[8];
    vstore8(shape, 0, sh); vstore8(s_c, 0, sc); vstore8(s_a, 0, sa); vstore8(s_b, 0, sb);
    long r = i;
    for (int d = nd - 1; d >= 0; d--) {
        /* the remainder as r - q * n: LLVM turns r % n beside r / n into a `freeze`
           that Oclgrind's uninitialised-value checker cannot interpret */
        long q = r / sh[d], k = r - q * sh[d];
        r = q;
        *oc += k * sc[d]; *oa += k * sa[d]; *ob += k * sb[d];
    }
}

inline T binop(int op, T x, T y) {
    switch (op) {
    case 1: return x + y;
    case 2: return x - y;
    case 3: return x * y;
#if IS_FLOAT
    case 4: return x / y;
    case 5: return (x != x) ? x : (y != y) ? y : fmin(x, y);
    case 6: return (x != x) ? x : (y != y) ? y : fmax(x, y);
    case 7: return pow(x, y);
    case 8: { T r = fmod(x, y); return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r; }
    case 9: return floor(x / y);
    case 14: return atan2(x, y);
#else
    /* integer min, max, abs and clamp by arithmetic on comparisons: LLVM makes the
       usual forms llvm.smin/smax/abs intrinsics, which Oclgrind cannot run */
    case 4: return y == 0 ? 0 : x / y;
    case 5: { T lt = x < y; return lt * x + (1 - lt) * y; }
    case 6: { T gt = x > y; return gt * x + (1 - gt) * y; }
    case 7: { T r = 1; for (T e = y; e > 0; e--) r *= x; return y < 0 ? 0 : r; }
    case 8: {  /* Python's and PyTorch's remainder: the sign of y (0 for y == 0) */
        if (y == 0) return 0;
        T r = x % y;
        return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
    }
    case 9: {  /* floor division (0 for y == 0, where PyTorch raises) */
        if (y == 0) return 0;
        T q = x / y;
        return (q * y != x && ((x < 0) != (y < 0))) ? q - 1 : q;
    }
    case 11: return x & y;
    case 12: return x | y;
    case 13: return x ^ y;
#endif
    case 10: return y;
    }
    return x;
}

__kernel void ew_binary(__global T *c, __global const T *a, __global const T *b, GEO) {
    long i = get_global_id(0);
    if (i >= meta.s0) return;
    long oc = meta.s2, oa = meta.s3, ob = meta.s4;
    walk(i, (int)meta.s1, shape, st_c, st_a, st_b, &oc, &oa, &ob);
    c[oc] = binop((int)meta.s5, a[oa], b[ob]);
}

__kernel void ew_compare(__global int *c, __global const T *a, __global const T *b, GEO) {
    long i = get_global_id(0);
    if (i >= meta.s0) return;
    long oc = meta.s2, oa = meta.s3, ob = meta.s4;
    walk(i, (int)meta.s1, shape, st_c, st_a, st_b, &oc, &oa, &ob);
    T x = a[oa], y = b[ob];
    int r = 0;
    switch ((int)meta.s5) {
    case 1: r = x == y; break;
    case 2: r = x != y; break;
    case 3: r = x < y; break;
    case 4: r = x <= y; break;
    case 5: r = x > y; break;
    case 6: r = x >= y; break;
    }
    c[oc] = r;
}

inline T unop(int op, T x, T p, T q) {
    switch (op) {
    case 1: return -x;
#if IS_FLOAT
    case 2: return fabs(x);
    case 3: return exp(x);
    case 4: return log(x);
    case 5: return sqrt(x);
    case 6: return (x != x) ? x : fmax(x, (T)0);
    case 7: return tanh(x);
    case 8: return (T)1 / ((T)1 + exp(-x));
    case 11: return pow(x, p);
    case 12: return pow(p, x);
    case 14: return (x != x) ? x : (T)((x > 0) - (x < 0));
    case 15: return (T)1 / x;
    case 17: return (x != x) ? x : fmin(fmax(x, p), q);
    case 18: return log1p(x);
    case 19: return expm1(x);
    case 20: return sin(x);
    case 21: return cos(x);
    case 22: return floor(x);
    case 23: return ceil(x);
    case 24: return rint(x);
    case 25: return trunc(x);
    case 28: return rsqrt(x);
    case 29: return (T)(x != x);
#else
    case 2: return x * ((x > 0) - (x < 0));
    case 6: return x * (x > 0);
    case 14: return (x > 0) - (x < 0);
    case 17: { T lo = x < p, hi = x > q; return lo * p + hi * q + (1 - lo - hi) * x; }
    case 27: return ~x;
#endif
    case 9: return x;
    case 10: return p;
    case 13: return x * p + q;
    case 16: return x * x;
    case 26: return x == 0;
    }
    return x;
}

__kernel void ew_unary(__global T *c, __global const T *a, T p, T q, GEO) {
    long i = get_global_id(0);
    if (i >= meta.s0) return;
    long oc = meta.s2, oa = meta.s3, ob = 0;
    walk(i, (int)meta.s1, shape, st_c, st_a, st_b, &oc, &oa, &ob);
    c[oc] = unop((int)meta.s5, a[oa], p, q);
}

inline ulong mix64(ulong z) {
    z += 0x9e3779b97f4a7c15UL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    return z ^ (z >> 31);
}

/* uniform in [0, 1): 24 bits (float) or 53 bits (double) of a counter-based hash */
inline T uniform01(ulong seed, ulong k) {
    ulong z = mix64(seed ^ mix64(k));
#if IS_DOUBLE
    return (T)(z >> 11) * (T)1.1102230246251565e-16;
#else
    return (T)(uint)(z >> 40) * (T)5.9604644775390625e-08f;
#endif
}

__kernel void ew_random(__global T *c, ulong seed, ulong counter, long n, int kind, T p, T q) {
    long i = get_global_id(0);
    if (i >= n) return;
#if IS_FLOAT
    ulong k = counter + (ulong)i * 2;
    T u = uniform01(seed, k);
    if (kind == 0) {
        c[i] = p + (q - p) * u;
    } else if (kind == 1) {
        T u2 = uniform01(seed, k + 1);
        T r = sqrt((T)-2 * log((T)1 - u));  /* 1 - u in (0, 1]: never log(0) */
        c[i] = p + q * r * cospi((T)2 * u2);
    } else {
        c[i] = u < p ? (T)1 : (T)0;
    }
#endif
}

/* c = cond ? a : b, cond an int (bool) tensor: st_b is b's strides, cond's come in st_q
   with its offset in meta.s6 */
__kernel void ew_where(__global T *c, __global const int *cond, __global const T *a,
                       __global const T *b, GEO, long8 st_q) {
    long i = get_global_id(0);
    if (i >= meta.s0) return;
    long sh[8], sc[8], sa[8], sb[8], sq[8];
    vstore8(shape, 0, sh); vstore8(st_c, 0, sc); vstore8(st_a, 0, sa); vstore8(st_b, 0, sb);
    vstore8(st_q, 0, sq);
    long oc = meta.s2, oa = meta.s3, ob = meta.s4, oq = meta.s6, r = i;
    for (int d = (int)meta.s1 - 1; d >= 0; d--) {
        long q = r / sh[d], k = r - q * sh[d];  /* no %: see walk() */
        r = q;
        oc += k * sc[d]; oa += k * sa[d]; ob += k * sb[d]; oq += k * sq[d];
    }
    c[oc] = cond[oq] ? a[oa] : b[ob];
}

/* c = a with dimension meta.s5 indexed by idx (index_select): c's shape walks, and along
   that dimension the position is idx[meta.s6 + k * meta.s7] instead of k */
__kernel void ew_gather(__global T *c, __global const T *a, __global const int *idx, GEO) {
    long i = get_global_id(0);
    if (i >= meta.s0) return;
    long sh[8], sc[8], sa[8];
    vstore8(shape, 0, sh); vstore8(st_c, 0, sc); vstore8(st_a, 0, sa);
    long oc = meta.s2, oa = meta.s3, r = i;
    for (int d = (int)meta.s1 - 1; d >= 0; d--) {
        long q = r / sh[d], k = r - q * sh[d];  /* no %: see walk() */
        r = q;
        oc += k * sc[d];
        oa += (d == (int)meta.s5 ? (long)idx[meta.s6 + k * meta.s7] : k) * sa[d];
    }
    c[oc] = a[oa];
}

/* The gradient of ew_gather: c (a's shape, contiguous) = the sum of the rows of g whose
   index names them, along dimension meta.s5 (meta.s4 indices, g's strides in st_b) */
__kernel void ew_index_add(__global T *c, __global const T *g, __global const int *idx, GEO) {
    long i = get_global_id(0);
    if (i >= meta.s0) return;
    long sh[8], sc[8], sb[8];
    vstore8(shape, 0, sh); vstore8(st_c, 0, sc); vstore8(st_b, 0, sb);
    int dim = (int)meta.s5;
    long og = meta.s3, r = i, target = 0, oc = meta.s2;
    for (int d = (int)meta.s1 - 1; d >= 0; d--) {
        long q = r / sh[d], k = r - q * sh[d];  /* no %: see walk() */
        r = q;
        oc += k * sc[d];
        if (d == dim) target = k; else og += k * sb[d];
    }
    T acc = 0;
    for (long j = 0; j < meta.s4; j++)
        if ((long)idx[meta.s6 + j * meta.s7] == target) acc += g[og + j * sb[dim]];
    c[oc] = acc;
}

__kernel void ew_arange(__global T *c, long n, T start, T step) {
    long i = get_global_id(0);
    if (i < n) c[i] = start + (T)i * step;
}
"""

_CAST_SOURCE = r"""
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
__kernel void ew_cast(__global TO *c, __global const TI *a, long8 shape, long8 st_c, long8 st_a,
                      long8 meta) {
    long i = get_global_id(0);
    if (i >= meta.s0) return;
    long sh[8], sc[8], sa[8];
    vstore8(shape, 0, sh); vstore8(st_c, 0, sc); vstore8(st_a, 0, sa);
    long oc = meta.s2, oa = meta.s3, r = i;
    for (int d = (int)meta.s1 - 1; d >= 0; d--) {
        long q = r / sh[d], k = r - q * sh[d];  /* no %: see walk() */
        r = q;
        oc += k * sc[d]; oa += k * sa[d];
    }
#if TO_BOOL
    c[oc] = a[oa] != 0;
#else
    c[oc] = (TO)a[oa];
#endif
}
"""

_CTYPE = {1: "float", 2: "double", 3: "int"}
_CSCALAR = {1: ctypes.c_float, 2: ctypes.c_double, 3: ctypes.c_int32}  # a T kernel argument
_lock = threading.Lock()  # guards the per-context kernel tables


def _options(code, extra=""):
    t = _CTYPE[code]
    return (f"-DT={t} -DIS_FLOAT={int(code != 3)} -DIS_DOUBLE={int(code == 2)}"
            + (" -DUSE_FP64" if code == 2 else "") + extra)


def kernel(ctx, program, name, options):
    """The kernel `name` of one of the sources above for ctx, compiled on first use."""
    table = ctx.__dict__.setdefault("_strided", {})
    key = (program, name, options)
    k = table.get(key)
    if k is None or k.ptr is None:
        from ._kernel import Program
        with _lock:
            k = table.get(key)
            if k is None or k.ptr is None:
                src = _SOURCE if program == "main" else _CAST_SOURCE
                k = Program(ctx, src, options).kernel(name)
                table[key] = k
    return k


_L8 = ctypes.c_int64 * 8
_set_buffer, _set_scalar, _launch = (lib.clrt_kernel_set_buffer, lib.clrt_kernel_set_scalar,
                                     lib.clrt_kernel_launch_rounded)


def _vec(values):
    v = _L8()
    for i, x in enumerate(values):
        v[i] = x
    return v


def _run(ctx, k, args, n, who):
    """Set k's arguments and launch it over n work-items, under the context's lock (two
    threads never interleave one kernel's arguments)."""
    g = (ctypes.c_size_t * 1)(n)
    with ctx._klock:
        _set(k, args, who)
        check(_launch(ctx._q, k.ptr, 1, g, None))


def _count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _set(k, args, who):
    """Set every argument of k: a _Buffer, a ctypes scalar or an _L8 vector."""
    for i, a in enumerate(args):
        if hasattr(a, "handle"):
            status = _set_buffer(k.ptr, i, a.handle(who))
        else:
            status = _set_scalar(k.ptr, i, ctypes.sizeof(a), ctypes.byref(a))
        if status:
            check(status)


def collapse(shape, *strides):
    """Merge neighbouring dimensions that every operand walks as one (shape and strides
    of fewer dimensions, the same elements in the same order); size-1 dimensions go."""
    dims = [(n, [s[i] for s in strides]) for i, n in enumerate(shape) if n != 1]
    if not dims:
        return (1,), [(0,) for _ in strides]
    out = [dims[0]]
    for n, st in dims[1:]:
        pn, pst = out[-1]
        if all(p == s * n for p, s in zip(pst, st)):
            out[-1] = (pn * n, st)
        else:
            out.append((n, st))
    if len(out) > MAX_DIMS:
        raise _errors.runtime_error(f"clrt: {len(out)} dimensions that cannot be merged; "
                                    f"the binding's kernels walk at most {MAX_DIMS}")
    return tuple(n for n, _ in out), [tuple(st[i] for _, st in out) for i in range(len(strides))]


def launch_ew(ctx, name, code, op, out, a, b, p=None, q=None, who="clrt"):
    """One elementwise kernel over out's shape: out = a op b (binary, compare) or
    out = f(a) (unary, b None). out, a, b are (buffer, shape, strides, offset) with a's
    and b's strides already broadcast to out's shape (0 where broadcast)."""
    obuf, shape, ostr, ooff = out
    ops = [a] + ([b] if b is not None else [])
    n = _count(shape)
    sh, strides = collapse(shape, ostr, *[x[2] for x in ops])
    nd = len(sh)
    bstr = strides[2] if b is not None else (0,) * nd
    meta = _vec((n, nd, ooff, a[3], b[3] if b is not None else 0, op))
    k = kernel(ctx, "main", name, _options(code))
    args = [obuf, a[0]] + ([b[0]] if b is not None else [])
    if name == "ew_unary":
        ct = _CSCALAR[code]
        args += [ct(p or 0), ct(q or 0)]
    args += [_vec(sh), _vec(strides[0]), _vec(strides[1]), _vec(bstr), meta]
    _run(ctx, k, args, n, who)


def launch_where(ctx, code, out, cond, a, b, who):
    """out = cond ? a : b, every operand (buffer, shape, strides, offset) broadcast."""
    obuf, shape, ostr, ooff = out
    n = _count(shape)
    sh, (so, sa, sb, sq) = collapse(shape, ostr, a[2], b[2], cond[2])
    k = kernel(ctx, "main", "ew_where", _options(code))
    meta = _vec((n, len(sh), ooff, a[3], b[3], 0, cond[3]))
    args = [obuf, cond[0], a[0], b[0], _vec(sh), _vec(so), _vec(sa), _vec(sb), meta, _vec(sq)]
    _run(ctx, k, args, n, who)


def launch_gather(ctx, code, name, out, src, idx, dim, count, who):
    """ew_gather (out from src along dim through idx) or ew_index_add (out, src's shape
    but dim of its own size, summed from src through idx). idx: (buffer, offset, stride)."""
    obuf, shape, ostr, ooff = out
    n = _count(shape)
    if name == "ew_gather":
        strides = (_vec(ostr), _vec(src[2]), _vec((0,) * 8))
        meta = _vec((n, len(shape), ooff, src[3], 0, dim, idx[1], idx[2]))
    else:
        strides = (_vec(ostr), _vec((0,) * 8), _vec(src[2]))
        meta = _vec((n, len(shape), ooff, src[3], count, dim, idx[1], idx[2]))
    k = kernel(ctx, "main", name, _options(code))
    args = [obuf, src[0], idx[0], _vec(shape), *strides, meta]
    _run(ctx, k, args, n, who)


def launch_cast(ctx, code_in, code_out, to_bool, out, a, who):
    obuf, shape, ostr, ooff = out
    n = _count(shape)
    sh, (so, sa) = collapse(shape, ostr, a[2])
    extra = (f" -DTI={_CTYPE[code_in]} -DTO={_CTYPE[code_out]} -DTO_BOOL={int(to_bool)}"
             + (" -DUSE_FP64" if 2 in (code_in, code_out) else ""))
    k = kernel(ctx, "cast", "ew_cast", extra.strip())
    args = [obuf, a[0], _vec(sh), _vec(so), _vec(sa), _vec((n, len(sh), ooff, a[3]))]
    _run(ctx, k, args, n, who)


def launch_random(ctx, code, buf, n, seed, counter, kind, p, q, who):
    k = kernel(ctx, "main", "ew_random", _options(code))
    ct = _CSCALAR[code]
    args = [buf, ctypes.c_uint64(seed), ctypes.c_uint64(counter), ctypes.c_int64(n),
            ctypes.c_int32(kind), ct(p), ct(q)]
    _run(ctx, k, args, n, who)


def launch_arange(ctx, code, buf, n, start, step, who):
    k = kernel(ctx, "main", "ew_arange", _options(code))
    ct = _CSCALAR[code]
    args = [buf, ctypes.c_int64(n), ct(start), ct(step)]
    _run(ctx, k, args, n, who)
