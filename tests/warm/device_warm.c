/* clrt_warm: every step counted before any runs, progress reported once per
 * step in order up to the total, CLRT_OK on a healthy device, and a later
 * use of the kernels it built needs no new build in the same context; NULL,
 * foreign and failed contexts refused, naming clrt_warm. clrt_warm_share:
 * the shares' steps add up to the whole plan, each share's progress in order
 * up to its own total; a share count of 0 or a share past it refused. */
#include <stdio.h>
#include <string.h>

#include "common/test_util.h"

#include "base/debug.h"

typedef struct seen {
    size_t calls, last_done, total;
    int in_order;
} seen;

static void on_step(size_t done, size_t total, const char *what, void *user)
{
    seen *s = user;
    s->in_order = s->in_order && done == s->last_done + 1 && done <= total && what && what[0];
    if (s->calls == 0)
        s->total = total;
    s->in_order = s->in_order && total == s->total;
    s->last_done = done;
    s->calls++;
}

static void count_build(const clrt_build_event *ev, const char *line, void *user)
{
    (void)ev;
    (void)line;
    (*(int *)user)++;
}

static void warms_every_step(void **state)
{
    tu_fixture *fx = *state;
    seen s = {0, 0, 0, 1};
    TU_OK(clrt_warm(fx->ctx, on_step, &s));
    assert_true(s.in_order);
    assert_true(s.total > 100); /* the math family, every product variant, the network */
    assert_int_equal(s.calls, s.total);
    assert_int_equal(s.last_done, s.total);
    /* the same context then builds nothing for what warm ran: a thin product,
     * a reduction, a convolution */
    int builds = 0;
    clrt_set_log(count_build, &builds);
    clrt_buffer *a, *b, *c;
    TU_OK(clrt_buffer_create(&a, fx->ctx, CLRT_FLOAT32, 7, 200));
    TU_OK(clrt_buffer_create(&b, fx->ctx, CLRT_FLOAT32, 200, 300));
    TU_OK(clrt_buffer_create(&c, fx->ctx, CLRT_FLOAT32, 7, 300));
    TU_OK(clrt_fill(fx->q, a, 0.5));
    TU_OK(clrt_fill(fx->q, b, 2));
    TU_OK(clrt_matmul(fx->q, c, a, b));
    float out[7 * 300];
    TU_OK(clrt_buffer_read(fx->q, c, out, 7 * 300));
    clrt_set_log(NULL, NULL);
    for (int i = 0; i < 7 * 300; i++)
        assert_true(out[i] == 200.0f);
    assert_int_equal(builds, 0);
    clrt_buffer_destroy(a);
    clrt_buffer_destroy(b);
    clrt_buffer_destroy(c);
    /* no progress callback is fine */
    TU_OK(clrt_warm(fx->ctx, NULL, NULL));
}

/* After warms_every_step (the caches full): each share of 1, 2 and 3 runs
 * its own steps in order, and they add up to the whole plan's. */
static void shares_add_up(void **state)
{
    tu_fixture *fx = *state;
    seen all = {0, 0, 0, 1};
    TU_OK(clrt_warm(fx->ctx, on_step, &all));
    for (size_t shares = 1; shares <= 3; shares++) {
        size_t sum = 0;
        for (size_t i = 0; i < shares; i++) {
            seen s = {0, 0, 0, 1};
            TU_OK(clrt_warm_share(fx->ctx, i, shares, on_step, &s));
            assert_true(s.in_order);
            assert_int_equal(s.calls, s.total);
            /* every shares-th step: the shares differ by one step at most */
            assert_true(s.total >= all.total / shares && s.total <= all.total / shares + 1);
            sum += s.total;
        }
        assert_int_equal(sum, all.total);
    }
}

static void refusals(void **state)
{
    tu_fixture *fx = *state;
    TU_REFUSED(CLRT_EINVAL, "context", clrt_warm(NULL, NULL, NULL));
    int not_a_context = 0;
    TU_REFUSED(CLRT_EINVAL, "context", clrt_warm((clrt_context *)&not_a_context, NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "context", clrt_warm_share(NULL, 0, 1, NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "shares", clrt_warm_share(fx->ctx, 0, 0, NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "share 2 of 2", clrt_warm_share(fx->ctx, 2, 2, NULL, NULL));
    TU_REFUSED(CLRT_EINVAL, "share", clrt_warm_share(fx->ctx, (size_t)-1, 3, NULL, NULL));
}

int main(void)
{
    tu_require_device();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(warms_every_step, tu_only_fixture_live),
        cmocka_unit_test_teardown(shares_add_up, tu_only_fixture_live),
        cmocka_unit_test_teardown(refusals, tu_only_fixture_live),
    };
    return cmocka_run_group_tests(tests, tu_fixture_setup, tu_fixture_teardown);
}
