/* The device list against what the ICD loader really has, platform by
 * platform: a platform without devices (rusticl with RUSTICL_ENABLE unset,
 * Clover without a GPU) is skipped, not an error, yet still counts in "P:D".
 * ctest runs this with such a platform alone, and next to POCL
 * ($CLRT_TEST_EXPECT_EMPTY_PLATFORM says one must be there); and with
 * rusticl's llvmpipe enabled next to POCL ($CLRT_TEST_EXPECT_LLVMPIPE), where
 * "cpu" must take POCL although llvmpipe lists more compute units. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "base/opencl.h"

enum { MAX_PLATFORMS = 16 };

static cl_uint nplat;
static cl_uint ndev[MAX_PLATFORMS];
static size_t total;

static int setup(void **state)
{
    (void)state;
    cl_platform_id plats[MAX_PLATFORMS];
    if (clGetPlatformIDs(MAX_PLATFORMS, plats, &nplat) != CL_SUCCESS)
        nplat = 0; /* -1001: nothing installed */
    if (nplat > MAX_PLATFORMS)
        nplat = MAX_PLATFORMS;
    for (cl_uint p = 0; p < nplat; p++) {
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev[p]) != CL_SUCCESS)
            ndev[p] = 0;
        total += ndev[p];
    }
    return 0;
}

static void list_matches_the_loader(void **state)
{
    (void)state;
    size_t n = 99;
    TU_OK(clrt_device_list(NULL, 0, &n));
    assert_int_equal(n, total);
    if (getenv("CLRT_TEST_EXPECT_EMPTY_PLATFORM")) {
        int empty = 0;
        for (cl_uint p = 0; p < nplat; p++)
            empty |= ndev[p] == 0;
        if (!empty)
            fail_msg("this run needs a platform without devices, and the loader lists none");
    }
    if (n == 0)
        return;
    clrt_device_info *all = calloc(n, sizeof *all);
    assert_non_null(all);
    TU_OK(clrt_device_list(all, n, &n));
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(all[i].index, i);
        assert_true(all[i].platform_index < nplat);
        /* never an entry for a platform without devices */
        assert_true(all[i].device_index < ndev[all[i].platform_index]);
    }
    free(all);
}

static void empty_platforms_match_nothing(void **state)
{
    (void)state;
    for (cl_uint p = 0; p < nplat; p++) {
        if (ndev[p] != 0)
            continue;
        char sel[32];
        snprintf(sel, sizeof sel, "%u:0", p);
        clrt_context *ctx = (clrt_context *)0x1;
        if (total == 0) {
            /* a driver is registered, so the advice is about that driver, never "install one" */
            TU_REFUSED(CLRT_ENODEVICE, "none reported a device", clrt_context_create(&ctx, sel));
            assert_null(strstr(clrt_error_message(), "Install an OpenCL driver"));
        } else
            TU_REFUSED(CLRT_ENODEVICE, "matches no device", clrt_context_create(&ctx, sel));
        assert_null(ctx);
    }
}

static void a_device_still_opens(void **state)
{
    (void)state;
    clrt_context *ctx = (clrt_context *)0x1;
    if (total == 0) {
        TU_REFUSED(CLRT_ENODEVICE, "POCL", clrt_context_create(&ctx, NULL));
        assert_null(ctx);
        return;
    }
    /* the first platform with a device, by its P:D */
    cl_uint p = 0;
    while (ndev[p] == 0)
        p++;
    char sel[32];
    snprintf(sel, sizeof sel, "%u:0", p);
    TU_OK(clrt_context_create(&ctx, sel));
    clrt_device_info info;
    TU_OK(clrt_context_device(ctx, &info));
    assert_int_equal(info.platform_index, p);
    assert_int_equal(info.device_index, 0);
    clrt_context_destroy(ctx);
}

/* Both CPUs of this machine: POCL's and rusticl's llvmpipe (a CPU of 8 compute
 * units to POCL's 2 here, and 60-100x slower at a product): "cpu" and the
 * default take POCL, "llvmpipe" takes llvmpipe, marked a checking device. */
static void cpu_takes_the_native_driver(void **state)
{
    (void)state;
    if (!getenv("CLRT_TEST_EXPECT_LLVMPIPE"))
        return;
    clrt_device_info info;
    TU_OK(clrt_device_select("llvmpipe", &info));
    assert_int_equal(info.type, CLRT_DEVICE_CPU);
    assert_true(clrt_device_is_emulator(&info));
    const char *sels[] = {"cpu", NULL};
    for (int i = 0; i < 2; i++) {
        TU_OK(clrt_device_select(sels[i], &info));
        assert_non_null(strstr(info.platform, "Portable Computing Language"));
        assert_false(clrt_device_is_emulator(&info));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(list_matches_the_loader, tu_teardown_no_live),
        cmocka_unit_test_teardown(empty_platforms_match_nothing, tu_teardown_no_live),
        cmocka_unit_test_teardown(a_device_still_opens, tu_teardown_no_live),
        cmocka_unit_test_teardown(cpu_takes_the_native_driver, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
