/* Intel's GPUs: fp64 without cl_khr_fp64 (Arc, Iris Xe) refused with a clear error
 * where the kernels layer meets a float64 request, a tuned-parameter file's entry
 * (kernels/tuned.c), and accepted on the Data Center GPU Max, which has fp64; the
 * buffer-level refusal (CLRT_EUNSUPPORTED, "has no fp64 (cl_khr_fp64)") is device_api's
 * on drivers without fp64. Also: the shipped fp32 defaults of those devices pass the
 * library's own checks, and the fp64 ones where fp64 exists; Arc's and Iris Xe's
 * fp32 GEMM is AMD's. No device needed. */
#include <stdio.h>
#include <string.h>

#include "common/fake_device.h"
#include "common/test_util.h"

#include "base/disk.h"
#include "kernels/matmul.h"
#include "kernels/nn.h"
#include "kernels/params.h"
#include "kernels/tuned.h"

/* A tuned file for info with one entry line, its check line appended. */
static void tuned_file(const clrt_device_info *info, const char *entry, char *out, size_t cap)
{
    char body[2048];
    snprintf(body, sizeof body, "CLRT-TUNED 1\nclrt %s\nplatform %s\ndevice %s\ndriver %s\n%s", clrt_version(),
             info->platform, info->name, info->driver, entry);
    const size_t n = strlen(body);
    snprintf(out, cap, "%scheck %016llx\n", body, (unsigned long long)clrt__hash(CLRT_HASH_INIT, body, n));
}

static void fp64_entry_refused_without_fp64(void **state)
{
    (void)state;
    static const tu_gpu_class intel[] = {TU_GPU_INTEL, TU_GPU_INTEL_ARC, TU_GPU_INTEL_XE};
    for (size_t i = 0; i < sizeof intel / sizeof *intel; i++) {
        clrt_device_info info;
        tu_fake_gpu_info(intel[i], &info);
        const clrt__device_facts facts = tu_fake_gpu(intel[i]);
        char text[4096], why[300] = "";
        clrt__tuned_set set;
        tuned_file(&info, "matmul float32 tm=4\nmatmul float64 tm=4\n", text, sizeof text);
        const int rc = clrt__tuned_parse(text, strlen(text), &info, &facts, &set, why, sizeof why);
        print_message("%s: %s\n", info.name, rc == 0 ? "accepted" : why);
        if (intel[i] == TU_GPU_INTEL) {
            assert_int_equal(rc, 0);
            assert_true(set.e[CLRT__K_MATMUL][CLRT_FLOAT64 - 1].have);
        } else {
            assert_int_equal(info.has_fp64, 0);
            assert_int_equal(rc, -1);
            assert_non_null(strstr(why, "float64 entry for a device without fp64"));
            assert_non_null(strstr(why, "line 7")); /* the fp64 line, not the fp32 one before it */
        }
    }
}

/* Each Intel device's shipped defaults pass the library's checks for the dtypes it has. */
static void shipped_defaults_checked(void **state)
{
    (void)state;
    static const tu_gpu_class intel[] = {TU_GPU_INTEL, TU_GPU_INTEL_ARC, TU_GPU_INTEL_XE};
    const clrt__kernel_def *defs[] = {&clrt__k_matmul, &clrt__k_nn_im2col, &clrt__k_nn_pool};
    for (size_t i = 0; i < sizeof intel / sizeof *intel; i++) {
        const clrt__device_facts f = tu_fake_gpu(intel[i]);
        for (size_t k = 0; k < sizeof defs / sizeof *defs; k++)
            for (size_t elem = 4; elem <= (tu_fake_gpu_has_fp64(intel[i]) ? 8u : 4u); elem += 4) {
                clrt__pvals p;
                char why[256] = "", text[512];
                defs[k]->defaults(&f, elem, &p);
                assert_int_equal(clrt__params_text(defs[k], &p, text, sizeof text), 0);
                if (clrt__params_check(defs[k], &f, elem, &p, why, sizeof why) != 0)
                    fail_msg("%s %s (%zu-byte elements) %s: %s", f.name, defs[k]->name, elem, text, why);
            }
    }
}

/* Arc's and Iris Xe's fp32 GEMM parameters are AMD's (device_gemm runs those on the
 * test drivers); the Data Center GPU Max's differ, pinned to SIMD16. */
static void arc_gemm_is_amds(void **state)
{
    (void)state;
    char amd[512], other[512];
    clrt__pvals p;
    const clrt__device_facts f = tu_fake_gpu(TU_GPU_AMD);
    clrt__k_matmul.defaults(&f, 4, &p);
    assert_int_equal(clrt__params_text(&clrt__k_matmul, &p, amd, sizeof amd), 0);
    static const tu_gpu_class intel[] = {TU_GPU_INTEL_ARC, TU_GPU_INTEL_XE, TU_GPU_INTEL};
    for (size_t i = 0; i < sizeof intel / sizeof *intel; i++) {
        const clrt__device_facts g = tu_fake_gpu(intel[i]);
        clrt__k_matmul.defaults(&g, 4, &p);
        assert_int_equal(clrt__params_text(&clrt__k_matmul, &p, other, sizeof other), 0);
        print_message("%s fp32: %s\n", g.name, other);
        if (intel[i] == TU_GPU_INTEL) {
            assert_string_not_equal(other, amd);
            assert_int_equal(clrt__mm(&p).sg, 16);
        } else {
            assert_string_equal(other, amd);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fp64_entry_refused_without_fp64),
        cmocka_unit_test(shipped_defaults_checked),
        cmocka_unit_test(arc_gemm_is_amds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
