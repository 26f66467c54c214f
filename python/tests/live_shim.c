/* Test seam for the Python suite: libclrt_pytest.so is libclrt's own objects
 * plus this one function, which exports the library's live-handle count
 * (src/debug.h, internal and hidden in the real libclrt.so). The suite loads
 * this library through CLRT_LIBRARY and asserts a count of zero at exit, the
 * same check the C suites make at teardown. */
#include "debug.h"

__attribute__((visibility("default"))) long clrt_pytest_live_total(void);

long clrt_pytest_live_total(void)
{
    return clrt__debug_live_total();
}
