"""clrt-isa: what GPU compilers make of OpenCL C kernels, offline (docs/gpu-isa.md)."""
