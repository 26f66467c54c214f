/* With no OpenCL platform at all (OCL_ICD_VENDORS at an empty folder):
 * an empty device list, and CLRT_ENODEVICE with an install hint. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

static void empty_list(void **state)
{
    (void)state;
    size_t n = 99;
    TU_OK(clrt_device_list(NULL, 0, &n));
    assert_int_equal(n, 0);
    clrt_device_info info;
    n = 99;
    TU_OK(clrt_device_list(&info, 1, &n));
    assert_int_equal(n, 0);
}

static void context_says_install_a_driver(void **state)
{
    (void)state;
    clrt_context *ctx = (clrt_context *)0x1;
    TU_REFUSED(CLRT_ENODEVICE, NULL, clrt_context_create(&ctx, NULL));
    assert_null(ctx);
    assert_non_null(strstr(clrt_error_message(), "POCL"));
    TU_REFUSED(CLRT_ENODEVICE, NULL, clrt_context_create(&ctx, "gpu"));
    TU_REFUSED(CLRT_ENODEVICE, NULL, clrt_context_create(&ctx, "0"));
    tu_assert_no_live_handles();
}

int main(void)
{
    const char *vendors = getenv("OCL_ICD_VENDORS");
    if (!vendors || !*vendors) {
        fprintf(stderr, "run me with OCL_ICD_VENDORS set to an empty folder\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(empty_list, tu_teardown_no_live),
        cmocka_unit_test_teardown(context_says_install_a_driver, tu_teardown_no_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
