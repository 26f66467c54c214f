"""Devices: list them, open a context by selector, and see clrt's error for a bad one.

    python3 examples/python/devices.py            # the default device ($CLRT_DEVICE honoured)
    CLRT_DEVICE=pocl python3 examples/python/devices.py
"""
import clrt

for d in clrt.devices():
    print(f"{d.index}  [{d.platform_index}:{d.device_index}]  {d.type:4}  {d.name}  "
          f"({d.platform}, {d.compute_units} compute units, fp64: {d.has_fp64})")

ctx = clrt.default_context()  # $CLRT_DEVICE, else a GPU, an accelerator, a CPU
print("default context:", ctx.device.name)

try:
    clrt.Context("gpu")  # the article's "use the GPU"; on a CPU-only machine an error
    print("a GPU context works")
except clrt.Error as e:
    print(f"no GPU: {e.name}")
    print(e.message.splitlines()[0])
