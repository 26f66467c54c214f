"""The article's gpuarray workflow with clrt: arrays on the device, numpy in and out.

PyCUDA's gpuarray.to_gpu / empty / get become clrt.to_device / clrt.empty / .get();
the arithmetic is numpy's, run on the device.
"""
import numpy as np

import clrt

a_host = np.random.rand(1000, 1000).astype(np.float32)
b_host = np.random.rand(1000, 1000).astype(np.float32)

a = clrt.to_device(a_host)                 # copy to the default device
b = clrt.to_device(b_host)
c = clrt.empty((1000, 1000), np.float32)   # uninitialised, on the device
print(a.shape, a.dtype, c.shape)

clrt.add(a, b, out=c)                      # c = a + b, no new allocation
d = (a * b - 0.5) / (b + 1.0)              # elementwise, scalars on either side
row = a[0:1, :]                            # a view: row 0, no copy
e = a - row                                # numpy broadcasting: subtract row 0 from every row
col_sums = e.sum(axis=0)                   # one value per column
best = a.argmax(axis=1)                    # the column of each row's largest value

assert np.allclose(c.get(), a_host + b_host)
assert np.allclose(d.get(), (a_host * b_host - 0.5) / (b_host + 1.0), rtol=1e-5)
assert np.allclose(col_sums.get(), (a_host - a_host[0]).sum(axis=0), rtol=1e-4, atol=1e-3)
assert (best.get() == a_host.argmax(axis=1)).all()
print("elementwise, views, reductions: match numpy")
