/* Build options checked before any driver sees them (runtime/build_options.c,
 * docs/drivers.md): every option that crashes a driver the suites run on
 * (POCL 3.1, rusticl 22.3, Oclgrind) is refused with CLRT_EINVAL naming it,
 * on every driver or, for what only rusticl or Oclgrind crashes on, there,
 * and the process lives on; "-D N" as two words reaches the kernel as -DN. */
#include <string.h>

#include "common/test_util.h"

#include <clrt/clrt_kernel.h>

static const char source[] = "__kernel void value(__global float *out) { out[0] = (float)(N); }\n";

/* Everywhere: what every driver can keep (-D with its operand and a macro
 * name, quotes closed), each crashing some driver here. */
static void refused_everywhere(void **state)
{
    (void)state;
    static const struct {
        const char *options, *named;
    } cases[] = {
        {"-D", "\"-D\" needs a word"},      /* POCL: SIGSEGV */
        {"-DN=1 -D", "\"-D\" needs a word"}, /* POCL: SIGSEGV */
        {"-D -DN=1", "\"-D\" needs a word"},
        {"-I", "\"-I\" needs a word"},
        {"-U", "\"-U\" needs a word"},
        {"-x", "\"-x\" needs a word"},
        {"-include", "\"-include\" needs a word"},
        {"-D=1", "\"-D=1\" has no macro name"},
        {"-D =1", "\"-D\" has no macro name"},
        {"-DN=\"1", "quote (\") is left open"}, /* rusticl: SIGSEGV */
        {"'-DN=1", "quote (') is left open"},  /* rusticl, Oclgrind: SIGSEGV */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        clrt_program *p = (clrt_program *)0x1;
        TU_REFUSED(CLRT_EINVAL, cases[i].named, clrt_program_create(&p, tu_fx->ctx, source, cases[i].options));
        assert_null(p);
    }
}

/* What only one driver crashes on: refused there; elsewhere built, or a
 * build error, or refused, but never a crash. */
static void refused_where_they_crash(void **state)
{
    (void)state;
    const int rusticl = strstr(tu_fx->dev.platform, "rusticl") != NULL;
    const int oclgrind = strstr(tu_fx->dev.platform, "Oclgrind") != NULL;
    static const struct {
        const char *options;
        int on_rusticl, on_oclgrind;
    } cases[] = {
        {"-DN=\"1\"", 1, 0},        /* rusticl: a one-character word between the quotes: panic */
        {"-DN=\"1 + 1\"", 1, 0},    /* rusticl: a double quote: SIGSEGV */
        {"-DN='1 + 1'", 1, 1},      /* neither reads single quotes: "+" and "1'" alone: crashes */
        {"-DN=1 -x c", 1, 0},       /* rusticl: "c" */
        {"-DN=1 N", 1, 1},          /* a word that is not an option: panic, SIGSEGV */
        {"-DN=1 -w cd", 1, 1},      /* the same, two characters: SIGSEGV on both */
        {"-DN=1 -", 1, 1},
        {"-DN=1 -s a.cl", 0, 1},    /* Oclgrind: SIGSEGV (rusticl reads a.cl as a file) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        clrt_program *p = NULL;
        int st = clrt_program_create(&p, tu_fx->ctx, source, cases[i].options);
        if ((rusticl && cases[i].on_rusticl) || (oclgrind && cases[i].on_oclgrind)) {
            if (st != CLRT_EINVAL || !strstr(clrt_error_message(), "crashes"))
                fail_msg("%s: %s, expected CLRT_EINVAL saying the driver crashes on it: %s", cases[i].options,
                         clrt_status_name(st), clrt_error_message());
        } else if (st != CLRT_OK && st != CLRT_EBUILD && st != CLRT_EINVAL) {
            fail_msg("%s: %s: %s", cases[i].options, clrt_status_name(st), clrt_error_message());
        }
        if (p)
            clrt_program_destroy(p);
    }
}

/* "-D N=4" (two words, which rusticl 22.3 panics on when the name is one
 * character) reaches the compiler joined, and means what it says. */
static void split_defines_joined(void **state)
{
    (void)state;
    static const char *const options[] = {"-D N=4", "  -D   N=4  ", "-I . -D N=4", "-D M -D N=4 -cl-mad-enable"};
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        clrt_program *p;
        clrt_kernel *k;
        clrt_buffer *b;
        float got = 0;
        TU_OK(clrt_program_create(&p, tu_fx->ctx, source, options[i]));
        TU_OK(clrt_kernel_create(&k, p, "value"));
        TU_OK(clrt_buffer_create(&b, tu_fx->ctx, CLRT_FLOAT32, 1, 1));
        TU_OK(clrt_kernel_set_buffer(k, 0, b));
        size_t one = 1;
        TU_OK(clrt_kernel_launch(tu_fx->q, k, 1, &one, NULL));
        TU_OK(clrt_buffer_read(tu_fx->q, b, &got, 1));
        assert_true(got == 4.0f);
        clrt_buffer_destroy(b);
        clrt_kernel_destroy(k);
        clrt_program_destroy(p);
    }
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(refused_everywhere, tu_only_fixture_live),
        cmocka_unit_test_teardown(refused_where_they_crash, tu_only_fixture_live),
        cmocka_unit_test_teardown(split_defines_joined, tu_only_fixture_live),
    };
    return cmocka_run_group_tests(tests, tu_fixture_setup, tu_fixture_teardown);
}
