/* clrt's environment variables: one boolean parser for CLRT_CACHE and
 * CLRT_TUNED (1/on/yes/true, 0/off/no/false, any case), one whole-number
 * parser (CLRT_CACHE_MAX_MB); anything else is the default with exactly one
 * warning per variable on stderr, naming it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test_util.h"

#include "base/util.h"

/* stderr captured while f runs, into out. */
static void capture(void (*f)(void *), void *arg, char *out, size_t cap)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    int saved = dup(2);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(tmp), 2) >= 0);
    f(arg);
    fflush(stderr);
    assert_true(dup2(saved, 2) >= 0);
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, cap - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
}

typedef struct flag_case {
    const char *name, *value;
    int dflt, got;
} flag_case;

static void read_flag(void *arg)
{
    flag_case *c = arg;
    if (c->value)
        setenv(c->name, c->value, 1);
    else
        unsetenv(c->name);
    c->got = clrt__env_flag(c->name, c->dflt);
}

static void boolean_words(void **state)
{
    (void)state;
    static const char *const names[] = {"CLRT_CACHE", "CLRT_TUNED"};
    static const char *const on[] = {"1", "on", "yes", "true", "ON", "Yes", "TRUE"};
    static const char *const off[] = {"0", "off", "no", "false", "OFF", "No", "False"};
    char err[1024];
    for (size_t n = 0; n < 2; n++) {
        for (int dflt = 0; dflt < 2; dflt++) {
            for (size_t i = 0; i < sizeof on / sizeof *on; i++) {
                flag_case a = {names[n], on[i], dflt, -1}, b = {names[n], off[i], dflt, -1};
                capture(read_flag, &a, err, sizeof err);
                assert_int_equal(a.got, 1);
                assert_string_equal(err, "");
                capture(read_flag, &b, err, sizeof err);
                assert_int_equal(b.got, 0);
                assert_string_equal(err, "");
            }
            flag_case unset = {names[n], NULL, dflt, -1}, empty = {names[n], "", dflt, -1};
            capture(read_flag, &unset, err, sizeof err);
            assert_int_equal(unset.got, dflt);
            capture(read_flag, &empty, err, sizeof err);
            assert_int_equal(empty.got, dflt);
            assert_string_equal(err, "");
        }
        /* anything else: the default, and one clear warning per variable */
        flag_case bad = {names[n], "maybe", 1, -1};
        capture(read_flag, &bad, err, sizeof err);
        assert_int_equal(bad.got, 1);
        assert_non_null(strstr(err, names[n]));
        assert_non_null(strstr(err, "maybe"));
        assert_non_null(strstr(err, "0/off/no/false"));
        bad = (flag_case){names[n], "2", 0, -1};
        capture(read_flag, &bad, err, sizeof err);
        assert_int_equal(bad.got, 0);
        assert_string_equal(err, ""); /* warned once already */
        unsetenv(names[n]);
    }
}

typedef struct long_case {
    const char *value;
    long got;
} long_case;

static void read_long(void *arg)
{
    long_case *c = arg;
    setenv("CLRT_TEST_NUMBER", c->value, 1);
    c->got = clrt__env_long("CLRT_TEST_NUMBER", 256, 1, 1L << 20);
}

static void whole_numbers(void **state)
{
    (void)state;
    char err[1024];
    static const struct {
        const char *value;
        long want;
    } good[] = {{"1", 1}, {"64", 64}, {"1048576", 1L << 20}, {"", 256}};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        long_case c = {good[i].value, -1};
        capture(read_long, &c, err, sizeof err);
        assert_int_equal(c.got, good[i].want);
        assert_string_equal(err, "");
    }
    static const char *const bad[] = {"0", "abc", "12x", "-5", " 5", "+5", "1048577", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        long_case c = {bad[i], -1};
        capture(read_long, &c, err, sizeof err);
        assert_int_equal(c.got, 256);
        if (i == 0) {
            assert_non_null(strstr(err, "CLRT_TEST_NUMBER=0"));
            assert_non_null(strstr(err, "using 256"));
        } else {
            assert_string_equal(err, "");
        }
    }
    unsetenv("CLRT_TEST_NUMBER");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(boolean_words),
        cmocka_unit_test(whole_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
