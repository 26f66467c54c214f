/* The header search behind the program cache's key (src/runtime/includes.c): which
 * options and #include forms it follows, what makes it give up (-1: the
 * program is then not cached), and that every candidate counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/temp_files.h"
#include "common/test_util.h"

#include "runtime/includes.h"

static char dir[64];

/* Write text to <dir>/<name>. */
static void put(const char *name, const char *text) { tu_write_file(dir, name, text); }

static int setup(void **state)
{
    (void)state;
    if (tu_temp_dir(dir, sizeof dir, "includes") != 0)
        return -1;
    put("a/x.h", "#include \"y.h\"\n#define X 1\n");
    put("a/y.h", "#define Y 1\n");
    put("b/x.h", "#define X 2\n");
    put("b/z.h", "  /* a comment */ # /* another */ include <x.h>\n");
    put("a/self.h", "#ifndef SELF\n#define SELF\n#include \"self.h\"\n#endif\n");
    put("a/macro.h", "#define H \"y.h\"\n#include H\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return tu_remove_tree(dir) == 0 ? 0 : -1;
}

/* The hash and file count of source with "<opt_prefix><dir>/<sub>" options. */
static int hash_of(const char *source, const char *opt_prefix, const char *sub, uint64_t *h, size_t *n)
{
    char opts[512];
    if (sub)
        snprintf(opts, sizeof opts, "%s%s/%s", opt_prefix, dir, sub);
    else
        snprintf(opts, sizeof opts, "%s", opt_prefix);
    return clrt__includes_hash(source, opts, h, n);
}

static void no_include_is_empty(void **state)
{
    (void)state;
    uint64_t h;
    size_t n = 99;
    assert_int_equal(clrt__includes_hash("__kernel void k(void) {}\n// #include \"nope.h\"\n", "-DX=1", &h, &n), 0);
    assert_int_equal(n, 0);
}

static void follows_options_and_nesting(void **state)
{
    (void)state;
    static const char src[] = "#include \"x.h\"\n";
    uint64_t h1, h2, h3, h4;
    size_t n;
    assert_int_equal(hash_of(src, "-I ", "a", &h1, &n), 0);
    assert_int_equal(n, 2); /* x.h and the y.h beside it */
    assert_int_equal(hash_of(src, "-I", "a", &h2, &n), 0);
    assert_int_equal(hash_of(src, "-isystem ", "a", &h3, &n), 0);
    assert_int_equal(hash_of(src, "-iquote", "a", &h4, &n), 0);
    assert_true(h1 == h2 && h2 == h3 && h3 == h4);
    char opts[300];
    snprintf(opts, sizeof opts, "-cl-mad-enable -I \"%s/a\" -DQ=\"a b\"", dir);
    assert_int_equal(clrt__includes_hash(src, opts, &h2, &n), 0);
    assert_true(h1 == h2);
    /* both candidates count: x.h in b and in a (and a's y.h) */
    snprintf(opts, sizeof opts, "-I%s/b -I%s/a", dir, dir);
    assert_int_equal(clrt__includes_hash(src, opts, &h2, &n), 0);
    assert_int_equal(n, 3);
    assert_true(h1 != h2);
    /* a directive with blanks and comments inside, angle brackets */
    assert_int_equal(hash_of("#include <z.h>\n", "-I ", "b", &h3, &n), 0);
    assert_int_equal(n, 2);
    /* a header that includes itself is read once */
    assert_int_equal(hash_of("#include \"self.h\"\n", "-I ", "a", &h3, &n), 0);
    assert_int_equal(n, 1);
    /* an absolute name */
    snprintf(opts, sizeof opts, "#include \"%s/b/x.h\"\n", dir);
    assert_int_equal(clrt__includes_hash(opts, "", &h3, &n), 0);
    assert_int_equal(n, 1);
}

static void contents_change_the_hash(void **state)
{
    (void)state;
    uint64_t before, after;
    size_t n;
    assert_int_equal(hash_of("#include \"x.h\"\n", "-I ", "a", &before, &n), 0);
    put("a/y.h", "#define Y 2\n");
    assert_int_equal(hash_of("#include \"x.h\"\n", "-I ", "a", &after, &n), 0);
    assert_true(before != after);
}

static void gives_up(void **state)
{
    (void)state;
    uint64_t h;
    size_t n;
    static const char src[] = "#include \"x.h\"\n";
    assert_int_equal(hash_of(src, "", NULL, &h, &n), -1);                       /* not found */
    assert_int_equal(hash_of(src, "-I", NULL, &h, &n), -1);                     /* -I without a folder */
    assert_int_equal(hash_of(src, "-include /dev/null -I ", "a", &h, &n), -1);  /* a forced include */
    assert_int_equal(hash_of(src, "-imacros m.h -I ", "a", &h, &n), -1);
    assert_int_equal(hash_of(src, "--include-directory=/x -I ", "a", &h, &n), -1);
    assert_int_equal(hash_of("#include MACRO\n", "-I ", "a", &h, &n), -1);     /* not a name */
    assert_int_equal(hash_of("#include \"x.h\n", "-I ", "a", &h, &n), -1);     /* unterminated */
    assert_int_equal(hash_of("#include \\\n\"x.h\"\n", "-I ", "a", &h, &n), -1); /* split line */
    assert_int_equal(hash_of("#include \"macro.h\"\n", "-I ", "a", &h, &n), -1); /* nested macro */
    /* a FIFO as a header: refused at once, never opened for reading */
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/f/fifo.h", dir);
    put("f/keep", "");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(20); /* a hang fails the test */
    assert_int_equal(hash_of("#include \"fifo.h\"\n", "-I ", "f", &h, &n), -1);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_include_is_empty),
        cmocka_unit_test(follows_options_and_nesting),
        cmocka_unit_test(contents_change_the_hash),
        cmocka_unit_test(gives_up),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
