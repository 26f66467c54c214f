/* libFuzzer target: clrt-train's IDX reader (tools/train/idx.c,
 * train_idx_parse), plain and gzip, on arbitrary bytes. The first byte picks
 * the mode: bit 0 images (3 dimensions) or labels (1); bit 1 the rest is also
 * gzip-compressed here (bit 2: as two members) and must then be read exactly
 * as the plain bytes are, accepted or refused alike, with the same data;
 * otherwise the bytes as they are (a gzip file among them when they start
 * with 1f 8b). Beyond "no crash, no sanitizer report": an accepted file holds
 * exactly what its header promises, and a refusal names the file. */
#include <stdint.h>
#include <string.h>

#include <zlib.h>

#define FUZZ_NAME "fuzz_idx"
#include "fuzz_check.h"

#include "idx.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

/* n bytes of p as one gzip member appended to *out (at *len; malloc'd). */
static int gzip_member(const uint8_t *p, size_t n, uint8_t **out, size_t *len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t cap = deflateBound(&zs, (uLong)n);
    uint8_t *grown = realloc(*out, *len + cap);
    int rc = -1;
    if (grown) {
        *out = grown;
        zs.next_in = (Bytef *)(uintptr_t)p;
        zs.avail_in = (uInt)n;
        zs.next_out = grown + *len;
        zs.avail_out = (uInt)cap;
        if (deflate(&zs, Z_FINISH) == Z_STREAM_END) {
            *len += cap - zs.avail_out;
            rc = 0;
        }
    }
    deflateEnd(&zs);
    return rc;
}

static void check_result(int rc, const train_idx *x, unsigned dims, const char *err, size_t plain_len, int plain)
{
    CHECK(rc == 0 || rc == 2, "returned %d", rc);
    if (rc != 0) {
        CHECK(strncmp(err, "fuzz.idx: ", 10) == 0 && err[10], "a refusal that does not name the file: %s", err);
        return;
    }
    CHECK(x->data && x->count > 0 && x->rows > 0 && x->cols > 0, "accepted without data");
    CHECK(dims == 3 || (x->rows == 1 && x->cols == 1), "labels with rows or columns");
    if (plain)
        CHECK(plain_len == 4 + 4 * (size_t)dims + x->count * x->rows * x->cols,
              "accepted %zu bytes for a header that promises %zu x %zu x %zu", plain_len, x->count, x->rows,
              x->cols);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const unsigned dims = (data[0] & 1) ? 3 : 1;
    const uint8_t *p = data + 1;
    const size_t n = size - 1;
    const int is_gzip = n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
    train_idx x, z;
    char err[700] = "", zerr[700] = "";
    int rc = train_idx_parse("fuzz.idx", p, n, dims, &x, err, sizeof err);
    check_result(rc, &x, dims, err, n, !is_gzip);
    if ((data[0] & 2) && !is_gzip) {
        uint8_t *gz = NULL;
        size_t len = 0, half = (data[0] & 4) ? n / 2 : n;
        if (gzip_member(p, half, &gz, &len) == 0 && (half == n || gzip_member(p + half, n - half, &gz, &len) == 0)) {
            int zrc = train_idx_parse("fuzz.idx", gz, len, dims, &z, zerr, sizeof zerr);
            check_result(zrc, &z, dims, zerr, n, 0);
            CHECK(zrc == rc, "plain %d (%s), gzip %d (%s)", rc, err, zrc, zerr);
            CHECK(rc != 0 || (z.count == x.count && memcmp(z.data, x.data, x.count * x.rows * x.cols) == 0),
                  "gzip gives other data than the plain bytes");
            train_idx_free(&z);
        }
        free(gz);
    }
    train_idx_free(&x);
    return 0;
}
