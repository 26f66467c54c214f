/* The --save / --resume file (layout in train/state.h). Built in memory and
 * parsed from memory: the files are a few MB. */
#include "state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/output.h"
#include "opts.h"
#include "path_error.h"

static const char magic[8] = {'c', 'l', 'r', 't', 't', 'r', 'n', 0};

static size_t esize(clrt_dtype dt)
{
    return dt == CLRT_FLOAT64 ? 8 : 4;
}

static size_t tensor_count(int i)
{
    size_t r, c;
    train_net_tensor_shape(i, &r, &c);
    return r * c;
}

int train_state_from_net(train_state *s, train_net *n)
{
    s->dt = n->dt;
    int st = CLRT_OK;
    for (int i = 0; st == CLRT_OK && i < TRAIN_TENSORS; i++) {
        size_t cnt = tensor_count(i);
        s->param[i] = malloc(cnt * esize(n->dt));
        s->mom[i] = malloc(cnt * esize(n->dt));
        if (!s->param[i] || !s->mom[i])
            return CLRT_ENOMEM;
        st = clrt_buffer_read(n->q, n->param[i], s->param[i], cnt);
        if (st == CLRT_OK)
            st = clrt_buffer_read(n->q, n->mom[i], s->mom[i], cnt);
    }
    return st;
}

int train_state_to_net(const train_state *s, train_net *n)
{
    int st = CLRT_OK;
    for (int i = 0; st == CLRT_OK && i < TRAIN_TENSORS; i++) {
        st = clrt_buffer_write(n->q, n->param[i], s->param[i], tensor_count(i));
        if (st == CLRT_OK)
            st = clrt_buffer_write(n->q, n->mom[i], s->mom[i], tensor_count(i));
    }
    return st;
}

/* ---- writing: a growing byte string */
typedef struct out {
    unsigned char *p;
    size_t len, cap;
    int nomem;
} out;

static void put(out *o, const void *src, size_t n)
{
    if (o->nomem)
        return;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1 << 16;
        while (cap < o->len + n)
            cap *= 2;
        unsigned char *p = realloc(o->p, cap);
        if (!p) {
            o->nomem = 1;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, src, n);
    o->len += n;
}

static void put_u64(out *o, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(o, b, 8);
}

static void put_u32(out *o, uint32_t v)
{
    unsigned char b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(o, b, 4);
}

static void put_f64(out *o, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    put_u64(o, u);
}

/* count elements of dtype dt, each little-endian */
static void put_array(out *o, const void *a, size_t count, clrt_dtype dt)
{
    for (size_t i = 0; i < count; i++) {
        if (dt == CLRT_FLOAT64)
            put_f64(o, ((const double *)a)[i]);
        else {
            uint32_t u;
            memcpy(&u, (const float *)a + i, 4);
            put_u32(o, u);
        }
    }
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int train_state_save(const char *path, const train_state *s, char *err, size_t errcap)
{
    out o = {0};
    put(&o, magic, sizeof magic);
    put_u32(&o, TRAIN_STATE_VERSION);
    put_u32(&o, (uint32_t)strlen(TRAIN_NET_SIGNATURE));
    put(&o, TRAIN_NET_SIGNATURE, strlen(TRAIN_NET_SIGNATURE));
    put_u32(&o, (uint32_t)s->dt);
    put_u64(&o, s->seed);
    put_u64(&o, s->batch);
    put_u64(&o, s->ntrain);
    put_f64(&o, s->lr);
    put_f64(&o, s->momentum);
    put_u64(&o, s->epoch);
    put_u64(&o, s->index);
    put_u64(&o, s->shuffle);
    put_f64(&o, s->running);
    for (int i = 0; i < TRAIN_TENSORS; i++) {
        size_t r, c;
        train_net_tensor_shape(i, &r, &c);
        put_u32(&o, (uint32_t)r);
        put_u32(&o, (uint32_t)c);
    }
    for (int i = 0; i < TRAIN_TENSORS; i++)
        put_array(&o, s->param[i], tensor_count(i), s->dt);
    for (int i = 0; i < TRAIN_TENSORS; i++)
        put_array(&o, s->mom[i], tensor_count(i), s->dt);
    if (!o.nomem)
        put_u64(&o, fnv1a(o.p, o.len));
    if (o.nomem) {
        free(o.p);
        return train_path_error(err, errcap, path, "no memory to build the file");
    }
    /* hours of training: fsync'ed before it replaces the last save */
    char why[600];
    int rc = tool_out_write(path, o.p, o.len, why, sizeof why);
    free(o.p);
    if (rc)
        snprintf(err, errcap, "%s", why);
    return rc;
}

/* ---- reading: a cursor over the file's bytes */
typedef struct in {
    const unsigned char *p;
    size_t len, at;
    int short_;
} in;

static const unsigned char *take(in *i, size_t n)
{
    if (i->short_ || i->len - i->at < n) {
        i->short_ = 1;
        return NULL;
    }
    const unsigned char *p = i->p + i->at;
    i->at += n;
    return p;
}

static uint64_t get_u64(in *i)
{
    const unsigned char *b = take(i, 8);
    uint64_t v = 0;
    for (int k = 0; b && k < 8; k++)
        v |= (uint64_t)b[k] << (8 * k);
    return v;
}

static uint32_t get_u32(in *i)
{
    const unsigned char *b = take(i, 4);
    uint32_t v = 0;
    for (int k = 0; b && k < 4; k++)
        v |= (uint32_t)b[k] << (8 * k);
    return v;
}

static double get_f64(in *i)
{
    uint64_t u = get_u64(i);
    double v;
    memcpy(&v, &u, 8);
    return v;
}

static void get_array(in *i, void *a, size_t count, clrt_dtype dt)
{
    for (size_t k = 0; k < count; k++) {
        if (dt == CLRT_FLOAT64)
            ((double *)a)[k] = get_f64(i);
        else {
            uint32_t u = get_u32(i);
            memcpy((float *)a + k, &u, 4);
        }
    }
}

/* Every setting and the position in the ranges clrt-train writes them in, in
 * arithmetic that cannot wrap: a file whose checksum is right (crafted, or
 * from a clrt-train with a bug) must not steer the run outside them. The
 * weights, the momentum and the running loss may be NaN or infinite: a run
 * that diverged saves them so. */
static int check_fields(const char *path, const train_state *s, char *err, size_t errcap)
{
    typedef unsigned long long ull;
    if (s->batch < 1 || s->batch > TRAIN_BATCH_MAX)
        return train_path_error(err, errcap, path, "corrupt: mini-batch size %llu (--batch is 1 to %u)",
                                (ull)s->batch, TRAIN_BATCH_MAX);
    if (s->ntrain < 1 || s->ntrain > UINT32_MAX)
        return train_path_error(err, errcap, path, "corrupt: %llu training images (an IDX file holds 1 to %lu)",
                                (ull)s->ntrain, (unsigned long)UINT32_MAX);
    if (!isfinite(s->lr) || s->lr < 0 || s->lr > TRAIN_LR_MAX)
        return train_path_error(err, errcap, path, "corrupt: learning rate %g (--lr is 0 to %g)", s->lr,
                                TRAIN_LR_MAX);
    if (!isfinite(s->momentum) || s->momentum < 0 || s->momentum > 1)
        return train_path_error(err, errcap, path, "corrupt: momentum %g (--momentum is 0 to 1)", s->momentum);
    if (s->epoch > TRAIN_EPOCHS_MAX)
        return train_path_error(err, errcap, path, "corrupt: epoch %llu (--epochs is at most %u)", (ull)s->epoch,
                                TRAIN_EPOCHS_MAX);
    const uint64_t per_epoch = s->ntrain / s->batch + (s->ntrain % s->batch != 0);
    if (s->index >= per_epoch)
        return train_path_error(err, errcap, path,
                                "corrupt: mini-batch %llu of an epoch of %llu (%llu images in batches of %llu)",
                                (ull)s->index, (ull)per_epoch, (ull)s->ntrain, (ull)s->batch);
    if (s->running < 0)
        return train_path_error(err, errcap, path, "corrupt: running loss %g (a sum of losses is not negative)",
                                s->running);
    return 0;
}

static int parse(const char *path, in *i, train_state *s, char *err, size_t errcap)
{
    const unsigned char *m = take(i, sizeof magic);
    if (!m || memcmp(m, magic, sizeof magic))
        return train_path_error(err, errcap, path, "not a clrt-train state file (wrong magic)");
    uint32_t version = get_u32(i);
    if (!i->short_ && version != TRAIN_STATE_VERSION)
        return train_path_error(err, errcap, path, "state file version %u; this clrt-train reads version %u", version,
                                TRAIN_STATE_VERSION);
    uint32_t slen = get_u32(i);
    const unsigned char *sig = i->short_ || slen > 4096 ? NULL : take(i, slen);
    if (!i->short_ && (!sig || slen != strlen(TRAIN_NET_SIGNATURE) || memcmp(sig, TRAIN_NET_SIGNATURE, slen)))
        return train_path_error(err, errcap, path, "saved from another network (%.*s); clrt-train's is %s",
                                sig ? (int)(slen > 120 ? 120 : slen) : 0, sig ? (const char *)sig : "",
                                TRAIN_NET_SIGNATURE);
    uint32_t dt = get_u32(i);
    if (!i->short_ && dt != CLRT_FLOAT32 && dt != CLRT_FLOAT64)
        return train_path_error(err, errcap, path, "unknown dtype %u", dt);
    s->dt = (clrt_dtype)dt;
    s->seed = get_u64(i);
    s->batch = get_u64(i);
    s->ntrain = get_u64(i);
    s->lr = get_f64(i);
    s->momentum = get_f64(i);
    s->epoch = get_u64(i);
    s->index = get_u64(i);
    s->shuffle = get_u64(i);
    s->running = get_f64(i);
    for (int t = 0; t < TRAIN_TENSORS && !i->short_; t++) {
        size_t r, c;
        train_net_tensor_shape(t, &r, &c);
        uint32_t fr = get_u32(i), fc = get_u32(i);
        if (!i->short_ && (fr != r || fc != c))
            return train_path_error(err, errcap, path, "%s is %ux%u; the network's is %zux%zu (another network)",
                                    train_net_tensor_name(t), fr, fc, r, c);
    }
    if (i->short_)
        return train_path_error(err, errcap, path, "truncated (%zu bytes)", i->len);
    size_t need = 0;
    for (int t = 0; t < TRAIN_TENSORS; t++)
        need += 2 * tensor_count(t) * esize(s->dt);
    if (i->len - i->at != need + 8)
        return train_path_error(err, errcap, path, "%s: %zu bytes of tensors, expected %zu",
                                i->len - i->at < need + 8 ? "truncated" : "corrupt", i->len - i->at, need + 8);
    uint64_t want = fnv1a(i->p, i->len - 8);
    for (int t = 0; t < TRAIN_TENSORS; t++) {
        s->param[t] = malloc(tensor_count(t) * esize(s->dt));
        s->mom[t] = malloc(tensor_count(t) * esize(s->dt));
        if (!s->param[t] || !s->mom[t])
            return train_path_error(err, errcap, path, "no memory");
    }
    for (int t = 0; t < TRAIN_TENSORS; t++)
        get_array(i, s->param[t], tensor_count(t), s->dt);
    for (int t = 0; t < TRAIN_TENSORS; t++)
        get_array(i, s->mom[t], tensor_count(t), s->dt);
    if (get_u64(i) != want)
        return train_path_error(err, errcap, path, "corrupt: its checksum does not match its contents");
    return check_fields(path, s, err, errcap);
}

int train_state_load(const char *path, train_state *s, char *err, size_t errcap)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (!f)
        return train_path_error(err, errcap, path, "cannot open: %s", strerror(errno));
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 20;
            unsigned char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(f);
                return train_path_error(err, errcap, path, "no memory");
            }
            buf = p;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int rerr = ferror(f) ? errno : 0;
    fclose(f);
    int st = rerr ? train_path_error(err, errcap, path, "cannot read: %s", strerror(rerr))
                  : train_state_parse(path, buf, len, s, err, errcap);
    free(buf);
    return st;
}

int train_state_parse(const char *path, const unsigned char *data, size_t len, train_state *s, char *err,
                      size_t errcap)
{
    memset(s, 0, sizeof *s);
    in i = {data, len, 0, 0};
    int st = parse(path, &i, s, err, errcap);
    if (st)
        train_state_free(s);
    return st;
}

void train_state_free(train_state *s)
{
    for (int t = 0; t < TRAIN_TENSORS; t++) {
        free(s->param[t]);
        free(s->mom[t]);
    }
    memset(s, 0, sizeof *s);
}
