"""The optimizers' device kernels: one launch per parameter tensor and step.

SGD without dampening, Nesterov or maximize (the article's, and PyTorch's default
form) is the library's clrt_nn_sgd_step. The other SGD variants and Adam/AdamW are
the kernels below, compiled once per context and dtype through clrt.Program. Their
scalars (1 - dampening, -lr, 1 - beta2, -lr / (1 - beta1^t), ...) are computed on the
host in double, as PyTorch computes them in Python, and rounded to the tensor's dtype
once; FP_CONTRACT is off so that a * b + c rounds twice, as PyTorch's CPU kernels do.

A kernel object is made per parameter, so that its buffers (the parameter, its
momentum or moments) are set once; a step sets what changed since the last one (the
gradient, which backward() makes anew, and the step's scalars), a few calls where
setting every argument would take a dozen or twenty.
"""
import ctypes

import numpy as np

from .._kernel import Program
from .._lib import check, lib
from ..nn import _bridge as T

SGD_MAXIMIZE, SGD_FIRST, SGD_NESTEROV = 1, 2, 4
ADAM_MAXIMIZE, ADAM_AMSGRAD, ADAM_DECOUPLED = 1, 2, 4

SOURCE = r"""
#pragma OPENCL FP_CONTRACT OFF
#ifdef CLRT_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif

/* PyTorch's SGD on one tensor of n elements, an element a work-item:
 * d = g (-g when maximize) + wd p; with momentum (mu != 0) buf = d on the first
 * step, else buf mu + (1 - dampening) d, then d = d + mu buf (Nesterov) or buf;
 * p = p + (-lr) d. */
__kernel void sgd_step(const ulong n, __global real *p, const ulong po, __global const real *g, const ulong go,
                       __global real *buf, const ulong bo, const real neg_lr, const real mu,
                       const real one_minus_dampening, const real wd, const int flags)
{
    const ulong i = get_global_id(0);
    if (i >= n)
        return;
    const real w = p[po + i];
    real d = (flags & 1) ? -g[go + i] : g[go + i];
    if (wd != 0)
        d = d + wd * w;
    if (mu != 0) {
        const real b = (flags & 2) ? d : buf[bo + i] * mu + one_minus_dampening * d;
        buf[bo + i] = b;
        d = (flags & 4) ? d + mu * b : b;
    }
    p[po + i] = w + neg_lr * d;
}

/* PyTorch's Adam and AdamW on one tensor: g (-g when maximize), + wd p (Adam's
 * L2 form) or p * (1 - lr wd) first (AdamW's decoupled form, decay = 1 - lr wd);
 * m = lerp(m, g, 1 - beta1); v = v beta2 + (1 - beta2) g g; with amsgrad
 * vmax = max(vmax, v) stands for v; p = p + (-lr / bc1) (m / (sqrt(v) / sqrt(bc2) + eps)). */
__kernel void adam_step(const ulong n, __global real *p, const ulong po, __global const real *g, const ulong go,
                        __global real *m, const ulong mo, __global real *v, const ulong vo, __global real *vmax,
                        const ulong xo, const real one_minus_beta1, const real beta2, const real one_minus_beta2,
                        const real eps, const real wd, const real decay, const real neg_step_size,
                        const real bc2_sqrt, const int flags)
{
    const ulong i = get_global_id(0);
    if (i >= n)
        return;
    real w = p[po + i];
    real d = (flags & 1) ? -g[go + i] : g[go + i];
    if (flags & 4)
        w = w * decay;
    else if (wd != 0)
        d = d + wd * w;
    const real mi = m[mo + i];
    /* torch.lerp: the form exact at each end for its weight */
    const real mn = one_minus_beta1 < (real)0.5 ? mi + one_minus_beta1 * (d - mi)
                                                 : d - (d - mi) * ((real)1 - one_minus_beta1);
    m[mo + i] = mn;
    real vn = v[vo + i] * beta2 + one_minus_beta2 * d * d;
    v[vo + i] = vn;
    if (flags & 2) { /* torch.maximum: a NaN on either side wins */
        const real a = vmax[xo + i];
        vn = (isnan(a) || a > vn) ? a : vn;
        vmax[xo + i] = vn;
    }
    const real denom = sqrt(vn) / bc2_sqrt + eps;
    p[po + i] = w + neg_step_size * (mn / denom);
}
"""

_programs = {}  # (id(context), dtype) -> (context, Program)


def _program(ctx, dtype):
    key = (id(ctx), dtype)
    hit = _programs.get(key)
    if hit is None or hit[0] is not ctx or hit[1].ptr is None:
        opts = "-DCLRT_DOUBLE" if dtype == np.float64 else None
        hit = _programs[key] = (ctx, Program(ctx, SOURCE, opts))
    return hit[1]


class Launch:
    """One kernel object, kept for one parameter: arguments set only when changed."""

    def __init__(self, ctx, dtype, name):
        self.ctx, self.dtype = ctx, np.dtype(dtype)
        self.kernel = _program(ctx, self.dtype).kernel(name)
        self.real = ctypes.c_double if self.dtype == np.float64 else ctypes.c_float
        self.last = {}
        # work-groups of 64 (or the most this kernel runs with here: llvmpipe takes 32),
        # the global size rounded up to them and the extra work-items returning at once;
        # the driver's own choice for a 1-D launch can be far slower
        self.local = (ctypes.c_size_t * 1)(max(1, min(64, self.kernel.work_group_size)))

    def tensor(self, i, t):
        """Arguments i and i + 1: a contiguous tensor's storage and element offset."""
        st, ptr, offset = T.storage(t)
        prev = self.last.get(i)
        # the storage object is held, so that its handle cannot be freed and another
        # buffer made at its address while the kernel still names the old one
        if prev is None or prev[0] is not st or prev[1] != ptr:
            check(lib.clrt_kernel_set_buffer(self.kernel.ptr, i, ptr))
            self.last[i] = (st, ptr)
        self.ulong_arg(i + 1, offset)

    def _scalar(self, i, value, ctype):
        if self.last.get(i) != value:
            v = ctype(value)
            check(lib.clrt_kernel_set_scalar(self.kernel.ptr, i, ctypes.sizeof(v), ctypes.byref(v)))
            self.last[i] = value

    def real_arg(self, i, value):
        self._scalar(i, float(value), self.real)

    def int_arg(self, i, value):
        self._scalar(i, int(value), ctypes.c_int)

    def ulong_arg(self, i, value):
        self._scalar(i, int(value), ctypes.c_uint64)

    def run(self, n):
        size = (ctypes.c_size_t * 1)(n)
        check(lib.clrt_kernel_launch_rounded(self.ctx._handles("optimizer step")[1],
                                             self.kernel.ptr, 1, size, self.local))


class LibraryStep:
    """clrt_nn_sgd_step for one parameter (and its momentum buffer, or None), the
    handles that stay the same from step to step taken once."""

    def __init__(self, p, buf):
        self.p, self.buf, self.key = p, buf, T.layout_key(p)
        self.q = T.context(p)._handles("SGD.step")[1]
        self.ph = T.handle(p)
        self.bh = T.handle(buf) if buf is not None else None

    def fits(self, p, state, momentum):
        """Whether this is still p's form: its storage and layout, and its buffer."""
        buf = state.get("momentum_buffer") if momentum != 0 else None
        return self.p is p and self.key == T.layout_key(p) and buf is self.buf

    def run(self, g, lr, momentum, weight_decay):
        status = _sgd_step(self.q, self.ph, T.handle(g), self.bh, lr, momentum, weight_decay)
        if status:
            check(status)
        T.bump_version(self.p)
        if self.buf is not None:
            T.bump_version(self.buf)


_sgd_step = lib.clrt_nn_sgd_step


def sgd_kernel(launch, p, g, buf, lr, momentum, dampening, weight_decay, nesterov, maximize, first):
    launch.ulong_arg(0, T.numel(p))
    launch.tensor(1, p)
    launch.tensor(3, g)
    launch.tensor(5, buf if buf is not None else p)
    launch.real_arg(7, -lr)
    launch.real_arg(8, momentum)
    launch.real_arg(9, 1.0 - dampening)
    launch.real_arg(10, weight_decay)
    launch.int_arg(11, (SGD_MAXIMIZE if maximize else 0) | (SGD_FIRST if first else 0)
                   | (SGD_NESTEROV if nesterov else 0))
    launch.run(T.numel(p))


def adam_kernel(launch, p, g, m, v, vmax, *, step, lr, beta1, beta2, eps, weight_decay,
                decoupled, amsgrad, maximize):
    bc1 = 1.0 - beta1 ** step
    bc2 = 1.0 - beta2 ** step
    launch.ulong_arg(0, T.numel(p))
    launch.tensor(1, p)
    launch.tensor(3, g)
    launch.tensor(5, m)
    launch.tensor(7, v)
    launch.tensor(9, vmax if vmax is not None else v)
    launch.real_arg(11, 1.0 - beta1)
    launch.real_arg(12, beta2)
    launch.real_arg(13, 1.0 - beta2)
    launch.real_arg(14, eps)
    launch.real_arg(15, weight_decay)
    launch.real_arg(16, 1.0 - lr * weight_decay)
    launch.real_arg(17, -(lr / bc1))
    launch.real_arg(18, bc2 ** 0.5)
    launch.int_arg(19, (ADAM_MAXIMIZE if maximize else 0) | (ADAM_AMSGRAD if amsgrad else 0)
                   | (ADAM_DECOUPLED if decoupled else 0))
    launch.run(T.numel(p))
