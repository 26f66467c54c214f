/* The kernels whose compiler outputs are checked in beside this file (regenerate.sh
 * makes them), for clrt-isa's parser tests (test_parsers.py): a loop with local memory,
 * a barrier and FMAs; a private array indexed at run time (scratch memory on AMD, local
 * memory on NVIDIA); half-precision FMAs in pairs. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void dot_local(__global const float4 *x, __global const float4 *y, __global float *out, const int n)
{
    __local float4 tile[64];
    float4 acc = (float4)(0.0f);
    for (int base = 0; base < n; base += 64) {
        tile[get_local_id(0)] = y[base + get_local_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 4
        for (int k = 0; k < 64; k++)
            acc = fma(x[(base + k) * 64 + get_local_id(0)], tile[k], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;
}

__kernel void private_array(__global const int *idx, __global float *out)
{
    float a[64];
    for (int i = 0; i < 64; i++)
        a[i] = out[i * get_global_size(0) + get_global_id(0)];
    out[get_global_id(0)] = a[idx[get_global_id(0)] & 63];
}

__kernel void hfma(__global half2 *y, __global const half2 *x, const int n)
{
    half2 a = y[get_global_id(0)];
#pragma unroll 1
    for (int i = 0; i < n; i++)
        a = x[i] * a + (half2)(1.0h, 0.5h); /* contracted: clang's libclc for NVPTX has no half fma() */
    y[get_global_id(0)] = a;
}
