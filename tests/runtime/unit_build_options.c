/* runtime/build_options.c without a device: what the driver is given for
 * each caller's options (-D, -U and -I joined to their word, nothing else
 * changed), and what is refused, on a context that claims to be POCL, rusticl
 * or Oclgrind. device_build_options runs the same on the real drivers. */
#include <stdlib.h>
#include <string.h>

#include "common/test_util.h"

#include "runtime/build_options.h"

static clrt_context ctx;

static void on_platform(const char *name)
{
    memset(&ctx, 0, sizeof ctx);
    snprintf(ctx.info.platform, sizeof ctx.info.platform, "%s", name);
}

static void gives(const char *options, const char *want)
{
    char *out = NULL;
    int st = clrt__build_options_check(&ctx, options, "test", &out);
    if (st != CLRT_OK)
        fail_msg("[%s] on %s: %s", options, ctx.info.platform, clrt_error_message());
    if (strcmp(out, want) != 0)
        fail_msg("[%s] on %s gives [%s], expected [%s]", options, ctx.info.platform, out, want);
    free(out);
}

static void refuses(const char *options, const char *phrase)
{
    char *out = (char *)0x1;
    clrt__error_clear();
    int st = clrt__build_options_check(&ctx, options, "test", &out);
    if (st != CLRT_EINVAL || out != NULL || !strstr(clrt_error_message(), phrase) ||
        !strstr(clrt_error_message(), options))
        fail_msg("[%s] on %s: %d, \"%s\"; expected CLRT_EINVAL saying \"%s\" and the options", options,
                 ctx.info.platform, st, clrt_error_message(), phrase);
}

static void joined_and_kept(void **state)
{
    (void)state;
    on_platform("Portable Computing Language");
    gives("", "");
    gives("   ", "   ");
    gives("-D N=4", "-DN=4");
    gives("  -D \t N=4  -cl-mad-enable ", "  -DN=4  -cl-mad-enable ");
    gives("-I . -U M -D N", "-I. -UM -DN");
    gives("-x spir -isystem /usr/include -include a.h", "-x spir -isystem /usr/include -include a.h");
    gives("-DX='a b' -I\"/a b\"", "-DX='a b' -I\"/a b\"");
    gives("-D \"N=1 + 1\"", "-D\"N=1 + 1\"");
    gives("-cl-std=CL1.2 -cl-kernel-arg-info", "-cl-std=CL1.2 -cl-kernel-arg-info");
}

static void refused_everywhere(void **state)
{
    (void)state;
    static const char *const platforms[] = {"Portable Computing Language", "rusticl", "Oclgrind", "NVIDIA CUDA"};
    for (size_t i = 0; i < sizeof platforms / sizeof *platforms; i++) {
        on_platform(platforms[i]);
        refuses("-D", "\"-D\" needs a word after it");
        refuses("-DN=1 -I", "\"-I\" needs a word after it");
        refuses("-D -DN", "\"-D\" needs a word after it");
        refuses("-idirafter", "\"-idirafter\" needs a word after it");
        refuses("-D=1", "\"-D=1\" has no macro name");
        refuses("-U =", "\"-U\" has no macro name");
        refuses("-DN=\"1", "quote (\") is left open");
        refuses("'-DN", "quote (') is left open");
    }
}

/* A word that is not an option crashes rusticl and Oclgrind; other drivers
 * get it as it is (NVIDIA documents "-cl-nv-maxrregcount <N>"). */
static void words_that_are_not_options(void **state)
{
    (void)state;
    static const char *const crash[] = {"rusticl", "Oclgrind"};
    for (size_t i = 0; i < 2; i++) {
        on_platform(crash[i]);
        refuses("-w cd", "\"cd\" is not a build option");
        refuses("-cl-mad-enable -", i == 0 ? "one-character word \"-\"" : "\"-\" is not a build option");
        refuses("-s a.cl", "\"a.cl\" is not a build option");
        refuses("-cl-nv-maxrregcount 32", "\"32\" is not a build option");
    }
    on_platform("Oclgrind");
    refuses("\"\"", "\"\" is not a build option");
    on_platform("NVIDIA CUDA");
    gives("-cl-nv-maxrregcount 32 -cl-nv-verbose", "-cl-nv-maxrregcount 32 -cl-nv-verbose");
    on_platform("Portable Computing Language");
    gives("-w cd \"\"", "-w cd \"\""); /* POCL refuses such a build itself, cleanly */
}

static void refused_on_the_driver_that_crashes(void **state)
{
    (void)state;
    on_platform("rusticl");
    refuses("-DN=\"1\"", "double quote");
    refuses("-x c", "one-character word \"c\"");
    refuses("-DN='1 + 1'", "one-character word \"+\"");
    refuses("-DN='ab cd'", "\"cd'\" is not a build option");
    gives("-D N -I x", "-DN -Ix"); /* joined: no word of one character is left */
    on_platform("Oclgrind");
    refuses("-DN='ab cd'", "\"cd'\" is not a build option");
    gives("-DN=\"ab cd\"", "-DN=\"ab cd\"");
    gives("-x c", "-x c");
    on_platform("Portable Computing Language");
    gives("-DN='ab cd' -x c", "-DN='ab cd' -x c"); /* POCL fails such a build, without crashing */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(joined_and_kept),
        cmocka_unit_test(refused_everywhere),
        cmocka_unit_test(words_that_are_not_options),
        cmocka_unit_test(refused_on_the_driver_that_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
