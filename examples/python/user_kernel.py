"""Your own kernel, launched the way the article launches its Numba kernel.

The article's Numba code:   add_kernel[blocks, threads](x, y, out)
with clrt:                  add[global_size, local_size](x, y, out, np.int32(n))
"""
import numpy as np

import clrt

SOURCE = """
__kernel void add(__global const float *x, __global const float *y,
                  __global float *out, const int n) {
    int i = get_global_id(0);          /* cuda.grid(1) in Numba */
    if (i < n) out[i] = x[i] + y[i];
}
"""

n = 100_000
x_host = np.arange(n, dtype=np.float32)
y_host = 2 * x_host

ctx = clrt.default_context()
add = ctx.program(SOURCE).kernel("add")
x, y = clrt.to_device(x_host), clrt.to_device(y_host)
out = clrt.empty(n, np.float32)

threads = min(256, add.work_group_size)   # what this device allows for this kernel
blocks = (n + threads - 1) // threads
add[blocks * threads, threads](x, y, out, np.int32(n))         # Numba-style
add(x, y, out, np.int32(n), global_size=n, local_size=threads, rounded=True)  # the same

assert np.array_equal(out.get(), x_host + y_host)
print(f"add kernel on {ctx.device.name}: {n} elements, matches numpy")
