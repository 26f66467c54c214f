/* The IDX reader. The file is read in chunks; a gzip file (it starts with
 * 1f 8b) is inflated member by member with zlib's inflate, which checks each
 * member's CRC-32 and length (its 8-byte trailer), so that a damaged or
 * truncated stream, bytes after the last member and a file that ends inside
 * a member are each refused by name. (zlib's gzread, used before, took a
 * stream cut within its trailer and trailing garbage as a clean end.) The
 * decompressed bytes, or a plain file's, go to one sink that checks the header
 * and that the data is exactly what the header promises. */
#include "idx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "path_error.h"

enum { CHUNK = 1 << 16, GZIP_HEADER_MIN = 10 };

/* ---- the sink: header, then exactly the data it promises */

typedef struct sink {
    const char *path;
    unsigned dims;
    uint8_t head[4 + 4 * 3];
    size_t hlen, have; /* header bytes needed, and had */
    size_t total, cap; /* data bytes promised; data allocated */
    train_idx *out;
    char *err;
    size_t errcap;
    int st;            /* 2 once refused */
} sink;

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static const char *items(unsigned dims) { return dims == 3 ? "images" : "labels"; }

/* The header, complete: magic, nonzero dimensions whose product fits. */
static int check_header(sink *k)
{
    const uint8_t *h = k->head;
    if (h[0] != 0 || h[1] != 0 || h[2] != 0x08 || h[3] != k->dims)
        return train_path_error(
            k->err, k->errcap, k->path,
            "wrong magic %02x%02x%02x%02x: not an IDX file of unsigned bytes with %u dimension%s (%s)", h[0], h[1],
            h[2], h[3], k->dims, k->dims == 1 ? "" : "s",
            k->dims == 1 ? "expected 00000801, labels" : "expected 00000803, images");
    size_t total = 1;
    for (unsigned d = 0; d < k->dims; d++) {
        uint32_t n = be32(h + 4 + 4 * d);
        if (n == 0)
            return train_path_error(k->err, k->errcap, k->path, "dimension %u is 0", d + 1);
        if (total > (SIZE_MAX >> 1) / n)
            return train_path_error(k->err, k->errcap, k->path, "dimensions too large");
        total *= n;
    }
    k->total = total;
    k->out->count = be32(h + 4);
    k->out->rows = k->dims == 3 ? be32(h + 8) : 1;
    k->out->cols = k->dims == 3 ? be32(h + 12) : 1;
    return 0;
}

/* Room for n more data bytes: grown as data arrives, never past what the
 * header promises, so a header that lies costs no more than the file holds. */
static int make_room(sink *k, size_t n)
{
    size_t held = k->have - k->hlen;
    if (held + n <= k->cap)
        return 0;
    size_t cap = k->cap ? k->cap : CHUNK;
    while (cap < held + n)
        cap = cap > k->total / 2 ? k->total : cap * 2;
    uint8_t *grown = realloc(k->out->data, cap);
    if (!grown)
        return train_path_error(k->err, k->errcap, k->path, "no memory for %zu bytes", cap);
    k->out->data = grown;
    k->cap = cap;
    return 0;
}

static int sink_feed(sink *k, const uint8_t *p, size_t n)
{
    if (k->st)
        return k->st;
    if (k->have < k->hlen) {
        size_t take = k->hlen - k->have < n ? k->hlen - k->have : n;
        memcpy(k->head + k->have, p, take);
        k->have += take;
        p += take;
        n -= take;
        if (k->have == k->hlen && (k->st = check_header(k)) != 0)
            return k->st;
    }
    if (n == 0)
        return 0;
    size_t held = k->have - k->hlen;
    if (n > k->total - held)
        return k->st = train_path_error(k->err, k->errcap, k->path,
                                        "more data than the header's %zu %s: not one IDX file", k->out->count,
                                        items(k->dims));
    if ((k->st = make_room(k, n)) != 0)
        return k->st;
    memcpy(k->out->data + held, p, n);
    k->have += n;
    return 0;
}

/* At the end of the bytes: the header and all its data there. */
static int sink_end(sink *k)
{
    if (k->st)
        return k->st;
    if (k->have < k->hlen)
        return k->st = train_path_error(k->err, k->errcap, k->path, "truncated: %zu bytes, shorter than an IDX header",
                                        k->have);
    size_t held = k->have - k->hlen;
    if (held < k->total)
        return k->st = train_path_error(k->err, k->errcap, k->path,
                                        "truncated: the header promises %zu %s (%zu bytes of data), the file holds %zu",
                                        k->out->count, items(k->dims), k->total, held);
    return 0;
}

/* ---- gzip: members inflated one after another */

typedef struct gunzip {
    z_stream zs;
    int ready;           /* inflateInit2 done */
    unsigned member;     /* 1-based, the member being read */
    size_t member_in;    /* its compressed bytes so far */
    int between;         /* the last member ended, nothing of another yet */
} gunzip;

/* zlib's verdict on a member, in words naming it. */
static int gzip_error(sink *k, const gunzip *g, int zrc)
{
    const char *msg = g->zs.msg ? g->zs.msg : zError(zrc);
    if (g->member > 1 && g->member_in <= GZIP_HEADER_MIN && strcmp(msg, "incorrect header check") == 0)
        return train_path_error(k->err, k->errcap, k->path, "trailing bytes after gzip member %u (not a gzip member)",
                                g->member - 1);
    if (strcmp(msg, "incorrect data check") == 0)
        return train_path_error(k->err, k->errcap, k->path,
                                "gzip member %u: CRC-32 mismatch in its trailer (the data is damaged)", g->member);
    if (strcmp(msg, "incorrect length check") == 0)
        return train_path_error(k->err, k->errcap, k->path,
                                "gzip member %u: the length in its trailer does not match its data", g->member);
    return train_path_error(k->err, k->errcap, k->path, "gzip member %u: corrupt gzip data (%s)", g->member, msg);
}

static int gunzip_feed(gunzip *g, sink *k, const uint8_t *in, size_t n)
{
    uint8_t out[CHUNK];
    g->zs.next_in = (Bytef *)(uintptr_t)in;
    g->zs.avail_in = (uInt)n;
    while (k->st == 0 && g->zs.avail_in > 0) {
        if (g->between) { /* more bytes after a member: another member, or garbage */
            inflateReset(&g->zs);
            g->between = 0;
            g->member++;
            g->member_in = 0;
        }
        const uInt before = g->zs.avail_in;
        g->zs.next_out = out;
        g->zs.avail_out = sizeof out;
        const int zrc = inflate(&g->zs, Z_NO_FLUSH);
        const size_t made = sizeof out - g->zs.avail_out;
        g->member_in += before - g->zs.avail_in;
        if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR)
            return k->st = gzip_error(k, g, zrc);
        if (zrc == Z_BUF_ERROR && made == 0 && before == g->zs.avail_in)
            return k->st = gzip_error(k, g, zrc); /* no progress with input left: cannot happen, never loops */
        if (made > 0)
            sink_feed(k, out, made);
        g->between = zrc == Z_STREAM_END;
    }
    return k->st;
}

static int gunzip_end(gunzip *g, sink *k)
{
    if (k->st || g->between)
        return k->st;
    if (g->member > 1 && g->member_in < GZIP_HEADER_MIN)
        return k->st = train_path_error(k->err, k->errcap, k->path,
                                        "trailing bytes after gzip member %u (too short for a gzip member)",
                                        g->member - 1);
    return k->st = train_path_error(k->err, k->errcap, k->path,
                                    "gzip member %u is truncated (its data or its 8-byte trailer is cut short)",
                                    g->member);
}

/* ---- one reader over both */

typedef struct reader {
    sink k;
    int kind;          /* 0 undecided, 1 plain, 2 gzip */
    uint8_t magic[2];  /* the first bytes, kept until there are two */
    size_t nmagic;
    gunzip g;
} reader;

static void reader_init(reader *r, const char *path, unsigned dims, train_idx *out, char *err, size_t errcap)
{
    memset(r, 0, sizeof *r);
    memset(out, 0, sizeof *out);
    r->k = (sink){.path = path, .dims = dims, .hlen = 4 + 4 * (size_t)dims, .out = out, .err = err, .errcap = errcap};
}

static int feed_decided(reader *r, const uint8_t *p, size_t n)
{
    return r->kind == 2 ? gunzip_feed(&r->g, &r->k, p, n) : sink_feed(&r->k, p, n);
}

/* Plain or gzip, from the first two bytes (1f 8b: gzip); those bytes then
 * go where the rest will. */
static int decide(reader *r)
{
    r->kind = r->nmagic == 2 && r->magic[0] == 0x1f && r->magic[1] == 0x8b ? 2 : 1;
    if (r->kind == 2) {
        if (inflateInit2(&r->g.zs, 15 + 16) != Z_OK)
            return r->k.st = train_path_error(r->k.err, r->k.errcap, r->k.path, "no memory for zlib");
        r->g.ready = 1;
        r->g.member = 1;
    }
    return feed_decided(r, r->magic, r->nmagic);
}

static int reader_feed(reader *r, const uint8_t *p, size_t n)
{
    while (r->kind == 0 && n > 0 && r->nmagic < 2) {
        r->magic[r->nmagic++] = *p++;
        n--;
    }
    if (r->kind == 0 && r->nmagic == 2 && decide(r) != 0)
        return r->k.st;
    return r->kind == 0 || n == 0 ? 0 : feed_decided(r, p, n);
}

static int reader_end(reader *r)
{
    if (r->kind == 0 && decide(r) != 0) /* a file of fewer than 2 bytes */
        return r->k.st;
    if (r->kind == 2 && gunzip_end(&r->g, &r->k) != 0)
        return r->k.st;
    return sink_end(&r->k);
}

static int reader_finish(reader *r, int st)
{
    if (r->g.ready)
        inflateEnd(&r->g.zs);
    if (st)
        train_idx_free(r->k.out);
    return st;
}

int train_idx_parse(const char *path, const uint8_t *data, size_t len, unsigned dims, train_idx *out, char *err,
                    size_t errcap)
{
    reader r;
    reader_init(&r, path, dims, out, err, errcap);
    int st = 0;
    /* in pieces, as a file is read: the same paths as train_idx_read */
    for (size_t at = 0; st == 0 && at < len; at += CHUNK)
        st = reader_feed(&r, data + at, len - at < CHUNK ? len - at : CHUNK);
    if (st == 0)
        st = reader_end(&r);
    return reader_finish(&r, st);
}

int train_idx_read(const char *path, unsigned dims, train_idx *out, char *err, size_t errcap)
{
    reader r;
    reader_init(&r, path, dims, out, err, errcap);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return train_path_error(err, errcap, path, "cannot open: %s", strerror(errno));
    enum { READ_SIZE = 1 << 20 };
    uint8_t *buf = malloc(READ_SIZE);
    int st = buf ? 0 : train_path_error(err, errcap, path, "no memory to read it");
    while (st == 0) {
        ssize_t got = read(fd, buf, READ_SIZE);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            st = train_path_error(err, errcap, path, "cannot read: %s", strerror(errno));
        if (got <= 0 || st)
            break;
        st = reader_feed(&r, buf, (size_t)got);
    }
    free(buf);
    close(fd);
    if (st == 0)
        st = reader_end(&r);
    return reader_finish(&r, st);
}

void train_idx_free(train_idx *x)
{
    free(x->data);
    memset(x, 0, sizeof *x);
}
