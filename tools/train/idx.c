/* The IDX reader. zlib's gzread reads a plain file as it is and a gzip file
 * decompressed, so one path serves both; a corrupt gzip stream is reported
 * with zlib's own words. */
#include "idx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "path_error.h"

/* Read exactly n bytes; 0 when done, else how many were read before the end
 * (or a zlib error, set in *zerr). */
static size_t read_all(gzFile f, void *buf, size_t n, const char **zerr)
{
    size_t got = 0;
    *zerr = NULL;
    while (got < n) {
        size_t want = n - got > (1u << 30) ? (1u << 30) : n - got;
        int r = gzread(f, (char *)buf + got, (unsigned)want);
        if (r < 0) {
            int code = 0;
            *zerr = gzerror(f, &code);
            return got;
        }
        if (r == 0)
            return got;
        got += (size_t)r;
    }
    return n;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int train_idx_read(const char *path, unsigned dims, train_idx *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    gzFile f = gzopen(path, "rb");
    if (!f)
        return train_path_error(err, errcap, path, "cannot open: %s", errno ? strerror(errno) : "out of memory");
    const char *zerr = NULL;
    uint8_t head[4 + 4 * 3];
    size_t hlen = 4 + 4 * (size_t)dims;
    int st = 0;
    size_t got = read_all(f, head, hlen, &zerr);
    if (zerr)
        st = train_path_error(err, errcap, path, "corrupt gzip data (%s)", zerr);
    else if (got < hlen)
        st = train_path_error(err, errcap, path, "truncated: %zu bytes, shorter than an IDX header", got);
    else if (head[0] != 0 || head[1] != 0 || head[2] != 0x08 || head[3] != dims)
        st = train_path_error(
            err, errcap, path,
            "wrong magic %02x%02x%02x%02x: not an IDX file of unsigned bytes with %u dimension%s (%s)", head[0],
            head[1], head[2], head[3], dims, dims == 1 ? "" : "s",
            dims == 1 ? "expected 00000801, labels" : "expected 00000803, images");
    size_t total = 1;
    for (unsigned d = 0; st == 0 && d < dims; d++) {
        uint32_t n = be32(head + 4 + 4 * d);
        if (n == 0)
            st = train_path_error(err, errcap, path, "dimension %u is 0", d + 1);
        else if (total > (SIZE_MAX >> 1) / n)
            st = train_path_error(err, errcap, path, "dimensions too large");
        else
            total *= n;
    }
    if (st == 0) {
        out->count = be32(head + 4);
        out->rows = dims == 3 ? be32(head + 8) : 1;
        out->cols = dims == 3 ? be32(head + 12) : 1;
        out->data = malloc(total);
        if (!out->data)
            st = train_path_error(err, errcap, path, "no memory for %zu bytes", total);
    }
    if (st == 0) {
        got = read_all(f, out->data, total, &zerr);
        if (zerr)
            st = train_path_error(err, errcap, path, "corrupt gzip data (%s)", zerr);
        else if (got < total)
            st = train_path_error(err, errcap, path,
                                  "truncated: the header promises %zu %s (%zu bytes of data), the file holds %zu",
                                  out->count, dims == 3 ? "images" : "labels", total, got);
    }
    if (st == 0) {
        uint8_t extra;
        got = read_all(f, &extra, 1, &zerr);
        if (zerr)
            st = train_path_error(err, errcap, path, "corrupt gzip data (%s)", zerr);
        else if (got)
            st = train_path_error(err, errcap, path, "more data than the header's %zu %s: not one IDX file", out->count,
                                  dims == 3 ? "images" : "labels");
    }
    gzclose(f);
    if (st)
        train_idx_free(out);
    return st;
}

void train_idx_free(train_idx *x)
{
    free(x->data);
    memset(x, 0, sizeof *x);
}
