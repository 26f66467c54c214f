"""User kernels: ctx.program(src).kernel(name), launched with global/local sizes and numpy
scalars / device arrays, Numba-style k[global, local](...) too; and their errors, malformed
build options among them (refused before the driver sees them)."""
import numpy as np
import pytest

import clrt
from conftest import SIZES, assert_close, rand

SRC = """
__kernel void axpy(const int n, const float alpha, __global const float *x,
                   __global float *y) {
    int i = get_global_id(0);
    if (i < n) y[i] = alpha * x[i] + y[i];
}
__kernel void scale2d(const uint rows, const uint cols, const double s,
                      __global const double *a, __global double *b) {
    size_t r = get_global_id(0), c = get_global_id(1);
    if (r < rows && c < cols) b[r * cols + c] = s * a[r * cols + c];
}
__kernel void block_sum(__global const float *x, __global float *out, __local float *tmp) {
    size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    tmp[l] = x[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        float s = 0;
        for (size_t i = 0; i < n; i++) s += tmp[i];
        out[get_group_id(0)] = s;
    }
}
"""


@pytest.mark.parametrize("n", SIZES)
def test_axpy(ctx, rng, n):
    k = ctx.program(SRC).kernel("axpy")
    assert k.num_args == 4 and 1 <= k.work_group_size <= ctx.device.max_work_group
    x, y = rand(rng, (n,), np.float32), rand(rng, (n,), np.float32)
    X, Y = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    k(np.int32(n), np.float32(2.5), X, Y, global_size=n)
    assert_close(Y.get(), 2.5 * x.astype(np.float64) + y, np.float32)
    k[n, 1](np.int32(n), np.float32(-1.0), X, Y)  # Numba-style launch
    assert_close(Y.get(), 1.5 * x.astype(np.float64) + y, np.float32, 2)
    k(np.int32(n), np.float32(1.0), X, Y, global_size=n, local_size=64, rounded=True)
    assert_close(Y.get(), 2.5 * x.astype(np.float64) + y, np.float32, 3)


def test_2d_and_local_memory(ctx, rng):
    a = rand(rng, (17, 65), np.float64)
    A, B = clrt.to_device(a, ctx=ctx), clrt.empty((17, 65), np.float64, ctx=ctx)
    ctx.program(SRC).kernel("scale2d")(np.uint32(17), np.uint32(65), np.float64(3.0), A, B,
                                       global_size=(17, 65))
    assert_close(B.get(), 3.0 * a, np.float64)
    x = rand(rng, (128,), np.float32)
    out = clrt.empty(4, np.float32, ctx=ctx)
    ctx.program(SRC).kernel("block_sum")[128, 32](clrt.to_device(x, ctx=ctx), out,
                                                  clrt.LocalMemory(32 * 4))
    assert_close(out.get(), x.astype(np.float64).reshape(4, 32).sum(axis=1), np.float32, 32)


def test_build_error_carries_the_log(ctx):
    with pytest.raises(clrt.Error) as e:
        ctx.program("__kernel void broken(__global float *x) { x[0] = undefined_name; }")
    assert e.value.name == "CLRT_EBUILD" and "undefined_name" in e.value.message


@pytest.mark.parametrize("options, named", [
    ("-D", '"-D" needs a word'),            # POCL 3.1 crashed the process (SIGSEGV)
    ("-DN=1 -I", '"-I" needs a word'),
    ("-DN=\"1", "left open"),               # rusticl: SIGSEGV
    ("'-DN=1", "left open"),                # rusticl, Oclgrind: SIGSEGV
])
def test_build_options_checked_first(ctx, options, named):
    """Options some driver crashes on are refused before any driver sees them."""
    with pytest.raises(clrt.Error) as e:
        ctx.program(SRC, options)
    assert e.value.name == "CLRT_EINVAL" and named in e.value.message and options in e.value.message
    k = ctx.program("__kernel void n(__global int *o) { o[0] = N; }", "-D N=7").kernel("n")
    out = clrt.empty(1, np.int32, ctx=ctx)
    k[1](out)
    assert out.get()[0] == 7  # "-D N=7", two words, reaches the compiler joined


def test_argument_errors(ctx):
    prog = ctx.program(SRC)
    with pytest.raises(clrt.Error) as e:
        prog.kernel("nope")
    assert e.value.name == "CLRT_EINVAL" and "axpy" in e.value.message  # lists the kernels
    k = prog.kernel("axpy")
    X = clrt.to_device(np.ones(8, np.float32), ctx=ctx)
    D = clrt.to_device(np.ones(8), ctx=ctx)
    with pytest.raises(clrt.Error, match="takes 4 arguments"):
        k(np.int32(8), X, global_size=8)
    with pytest.raises(clrt.Error, match="numpy scalar"):
        k(8, np.float32(1), X, X, global_size=8)
    with pytest.raises(clrt.Error) as e:  # the library checks scalar sizes
        k(np.int64(8), np.float32(1), X, X, global_size=8)
    assert e.value.name == "CLRT_EINVAL"
    with pytest.raises(clrt.Error) as e:  # and pointer dtypes
        k(np.int32(8), np.float32(1), D, X, global_size=8)
    assert e.value.name == "CLRT_ESHAPE"
    with pytest.raises(clrt.Error, match="view"):
        k(np.int32(4), np.float32(1), X[2:6], X, global_size=4)
    with pytest.raises(clrt.Error) as e:  # 64 does not divide 100
        k(np.int32(8), np.float32(1), X, X, global_size=100, local_size=64)
    assert e.value.name == "CLRT_EINVAL"
    with pytest.raises(clrt.Error, match="dimensions"):
        k(np.int32(8), np.float32(1), X, X, global_size=(8, 1), local_size=8)
    with clrt.Context() as other:
        Y = clrt.to_device(np.ones(8, np.float32), ctx=other)
        with pytest.raises(clrt.Error, match="another context"):
            k(np.int32(8), np.float32(1), X, Y, global_size=8)
