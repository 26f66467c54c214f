/* reduce: one level of a sum, maximum, minimum or argmax over the rows or the
 * columns of a strided matrix (src/kernels/reduce.h describes the levels and modes).
 * OpenCL C 1.2; REAL, VW, REALV, VLOAD and LANE come from the prelude (cl/common.cl).
 *
 * Build options (src/kernels/reduce.h lists the tuning ones; src/kernels/reduce.c picks them):
 *   OP      1 sum, 2 max, 3 min, 4 argmax         } the launch variant,
 *   MODE    0 ROW_ITEMS, 1 ROW_GROUP, 2 COLS      } not tuning values
 *   WG      work-group size (a power of two)
 *   ITEMS   vectors of a row each work-item reduces in sequence (SHARE: ARG_ITEMS
 *           for argmax)
 *   CROWS   rows each work-item reduces in sequence (COLS)
 *   RD_SUFFIX this text is one of several copies in one program (src/kernels/reduce.c,
 *           parameter merged): each copy, OP and MODE defined around it
 *           (cmake/EmbedCL.cmake), names its kernel and functions with its suffix
 *           (reduce_1_0, reduce_4_2, ...)
 * Launch: 1-D, local = WG, global from clrt__reduce_geometry (flat indices, so that
 * no dimension but the first is large: some drivers limit the group count of the
 * others to 65535).
 *
 * The input is rows x cols at in + in_off with row stride in_ld. Partial (i, j) goes
 * to out + out_off + i * out_ld + j, where i is the row (row modes) or the block of
 * CROWS rows (COLS), and j the chunk of the row (row modes) or the column (COLS).
 * Argmax carries each value's column: from in_idx when has_idx (laid out like the
 * input, from idx_in_off), else the element's own column; out_idx gets them (laid
 * out like out, from idx_out_off), and out the values only when write_val (the last
 * level writes the int32 result alone). Other ops never touch in_idx, out_idx.
 *
 * A quotient and remainder are written as q = a / b, a - q * b: with a / b and a % b
 * both, clang emits an LLVM freeze instruction that Oclgrind cannot check.
 *
 * Floating point: a sum starts from -0 (the exact identity: -0 + x == x for every x,
 * -0 included); max and min give NaN as soon as one element is NaN; argmax takes the
 * largest value, the lowest column among equals, and a row's first NaN over any
 * number. Every combine below is commutative and associative in what it selects,
 * so the tree's order changes nothing but a sum's rounding (and which zero the
 * maximum of +0 and -0 is).
 *
 * A work-item's share stops at its row's end: the vectors past it are not visited.
 */

/* a kernel's or function's name: with several copies in one program, the copy's suffix added */
#ifdef RD_SUFFIX
#define RD_NAME(name) CLRT_CAT(name, RD_SUFFIX)
#else
#define RD_NAME(name) name
#endif

#ifndef OP
#define OP 1
#endif
#ifndef MODE
#define MODE 0
#endif
#ifndef WG
#define WG 64
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
#ifndef ARG_ITEMS
#define ARG_ITEMS 4
#endif
#ifndef CROWS
#define CROWS 8
#endif

/* vectors of a row per work-item: argmax's own count (its per-item end is longer) */
#if OP == 4
#define SHARE ARG_ITEMS
#else
#define SHARE ITEMS
#endif

#if OP == 1
#define IDENT (-(REAL)0)
#define COMB(a, b) ((a) + (b))
#elif OP == 2
#define IDENT (-(REAL)INFINITY)
/* scalars and vectors alike: a vector condition selects per lane */
#define COMB(a, b) ((((a) > (b)) | isnan(a)) ? (a) : (b))
#elif OP == 3
#define IDENT ((REAL)INFINITY)
#define COMB(a, b) ((((a) < (b)) | isnan(a)) ? (a) : (b))
#else
#define IDENT (-(REAL)INFINITY)
/* (vb, ib) beats (va, ia): the first NaN wins, then the largest, then the lowest column */
#define BEATS(vb, ib, va, ia) \
    (isnan(vb) ? (!isnan(va) || (ib) < (ia)) : (!isnan(va) && ((vb) > (va) || ((vb) == (va) && (ib) < (ia)))))
#endif

#if OP != 4
/* Vectors go to and from the helpers below through pointers: passed by value, a
 * CPU driver's compiler warns that the x86 calling convention of wide vectors
 * depends on AVX being enabled. */

/* The VW lanes of *pv folded by a halving tree. */
inline REAL RD_NAME(fold)(const REALV *pv)
{
    const REALV v = *pv;
#if VW == 1
    return v;
#else
#if VW == 16
    const CLRT_CAT(REAL, 8) v8 = COMB(v.lo, v.hi);
#elif VW == 8
    const CLRT_CAT(REAL, 8) v8 = v;
#endif
#if VW >= 8
    const CLRT_CAT(REAL, 4) v4 = COMB(v8.lo, v8.hi);
#elif VW == 4
    const CLRT_CAT(REAL, 4) v4 = v;
#endif
#if VW >= 4
    CLRT_CAT(REAL, 2) v2 = COMB(v4.lo, v4.hi);
#else
    CLRT_CAT(REAL, 2) v2 = v;
#endif
    /* The last two lanes through a loop the compiler keeps: written out, v2.x + v2.y
     * becomes a shuffle with an undefined lane, on which Oclgrind's uninitialised-value
     * check crashes. */
    REAL s = v2.x;
#pragma unroll 1
    for (uint q = 1; q < 2; ++q)
        s = COMB(s, LANE(v2, q));
    return s;
#endif
}

/* acc combined with vector v of row (cols elements); lanes past the end hold
 * the identity. */
inline void RD_NAME(add_vec)(REALV *acc, __global const REAL *row, const ulong v, const ulong cols, const int aligned)
{
    const ulong e = v * VW;
    REALV t;
    if (e + VW <= cols) {
        t = aligned ? ((__global const REALV *)row)[v] : VLOAD(v, row);
    } else {
        for (uint q = 0; q < VW; ++q)
            LANE(t, q) = e + q < cols ? row[e + q] : IDENT;
    }
    *acc = COMB(*acc, t);
}
#endif

#if OP == 4
/* Argmax keeps a column per lane: an integer of the value's size, so that a lane's
 * comparison selects it too (intN with float, longN with double). */
#if CLRT_DTYPE == 2
#define IDX long
#else
#define IDX int
#endif
#if VW == 1
#define IDXV IDX
#define LANE_COLS ((IDXV)0)
#else
#define IDXV CLRT_CAT(IDX, VW)
#if VW == 2
#define LANE_COLS ((IDXV)(0, 1))
#elif VW == 4
#define LANE_COLS ((IDXV)(0, 1, 2, 3))
#elif VW == 8
#define LANE_COLS ((IDXV)(0, 1, 2, 3, 4, 5, 6, 7))
#else
#define LANE_COLS ((IDXV)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#endif
#endif
#define LANE_IDX(v, q) (((IDX *)&(v))[q])
/* (v, c) = the better of (v, c) and (w, d), lane by lane, by BEATS' rule; T is c's
 * type; masks are all ones or zero per lane */
#define BEATS_HALF(v, c, w, d, T)                                                                \
    do {                                                                                         \
        const T nv_ = isnan(v), nw_ = isnan(w), lower_ = (d) < (c);                              \
        const T take_ =                                                                          \
            (nw_ & (~nv_ | lower_)) | (~nw_ & ~nv_ & (((w) > (v)) | (((w) == (v)) & lower_)));   \
        v = take_ ? (w) : (v);                                                                   \
        c = take_ ? (d) : (c);                                                                   \
    } while (0)
#endif

/* The work-item's share of a row: its vectors v0, v0 + step, ... (at most SHARE,
 * those that start inside the row), in sequence per lane, then the lanes, as one
 * value (*best_idx: its column, argmax). */
inline REAL RD_NAME(reduce_share)(__global const REAL *row, __global const int *row_idx, const int has_idx,
                         const ulong cols, const ulong v0, const ulong step, int *best_idx)
{
    const ulong vectors = (cols + VW - 1) / VW;
    const uint n = v0 >= vectors ? 0 : (uint)min((ulong)SHARE, (vectors - v0 + step - 1) / step);
    /* vector-typed loads (one wide load on GPUs) when the row starts on a vector boundary */
    const int aligned = ((size_t)row % (VW * sizeof(REAL))) == 0;
#if OP == 4
    REAL best = IDENT;
    int bi = INT_MAX;
    if (has_idx) {
        /* a level of partials (small): element by element, their columns from row_idx */
        for (uint j = 0; j < n; ++j) {
            const ulong e = (v0 + j * step) * VW;
            for (ulong k = e; k < e + VW && k < cols; ++k)
                if (BEATS(row[k], row_idx[k], best, bi)) {
                    best = row[k];
                    bi = row_idx[k];
                }
        }
    } else if (n > 0) {
        /* per lane: the first of the largest, or the first NaN (a lane sees its columns in
         * order, so equals and later NaNs never replace); lanes past the row's end start as
         * the identity with no column */
        REALV bv = (REALV)(IDENT);
        /* each lane starts at its first column (INT_MAX past the row's end): a lane of
         * nothing but -inf then answers its first, and the loop needs no third test */
        IDXV bc = (IDXV)((IDX)(v0 * VW)) + LANE_COLS;
        bc = bc < (IDXV)((IDX)cols) ? bc : (IDXV)(INT_MAX);
        /* the whole vectors in a loop with no test but the comparison, then the row's
         * last vector if it is partial (a share's vectors go up, so it comes last) */
        const ulong whole = cols / VW;
        uint j = 0;
        for (; j < n && v0 + j * step < whole; ++j) {
            const ulong v = v0 + j * step;
            const REALV x = aligned ? ((__global const REALV *)row)[v] : VLOAD(v, row);
            const IDXV take = (x > bv) | ((x != x) & (bv == bv));
            bv = take ? x : bv;
            bc = take ? (IDXV)((IDX)(v * VW)) + LANE_COLS : bc;
        }
        if (j < n) {
            const ulong e = (v0 + j * step) * VW;
            REALV x;
            for (uint q = 0; q < VW; ++q)
                LANE(x, q) = e + q < cols ? row[e + q] : IDENT;
            IDXV c = (IDXV)((IDX)e) + LANE_COLS;
            c = c < (IDXV)((IDX)cols) ? c : (IDXV)(INT_MAX);
            const IDXV take = (x > bv) | ((x != x) & (bv == bv));
            bv = take ? x : bv;
            bc = take ? c : bc;
        }
        /* the lanes, by the full rule: halves against halves down to two lanes, the last
         * two through a loop the compiler keeps (see fold) */
#if VW == 16
        CLRT_CAT(REAL, 8) v8 = bv.lo;
        CLRT_CAT(IDX, 8) c8 = bc.lo;
        BEATS_HALF(v8, c8, bv.hi, bc.hi, CLRT_CAT(IDX, 8));
#elif VW == 8
        CLRT_CAT(REAL, 8) v8 = bv;
        CLRT_CAT(IDX, 8) c8 = bc;
#endif
#if VW >= 8
        CLRT_CAT(REAL, 4) v4 = v8.lo;
        CLRT_CAT(IDX, 4) c4 = c8.lo;
        BEATS_HALF(v4, c4, v8.hi, c8.hi, CLRT_CAT(IDX, 4));
#elif VW == 4
        CLRT_CAT(REAL, 4) v4 = bv;
        CLRT_CAT(IDX, 4) c4 = bc;
#endif
#if VW >= 4
        CLRT_CAT(REAL, 2) v2 = v4.lo;
        CLRT_CAT(IDX, 2) c2 = c4.lo;
        BEATS_HALF(v2, c2, v4.hi, c4.hi, CLRT_CAT(IDX, 2));
#elif VW == 2
        CLRT_CAT(REAL, 2) v2 = bv;
        CLRT_CAT(IDX, 2) c2 = bc;
#endif
#if VW == 1
        best = bv;
        bi = (int)bc;
#else
#pragma unroll 1
        for (uint q = 0; q < 2; ++q)
            if (BEATS(LANE(v2, q), (int)LANE_IDX(c2, q), best, bi)) {
                best = LANE(v2, q);
                bi = (int)LANE_IDX(c2, q);
            }
#endif
    }
    *best_idx = bi;
    return best;
#else
    (void)row_idx;
    (void)has_idx;
    *best_idx = 0;
    REALV acc = (REALV)(IDENT);
#pragma unroll
    for (uint j = 0; j < SHARE; ++j)
        if (j < n)
            RD_NAME(add_vec)(&acc, row, v0 + j * step, cols, aligned);
    return RD_NAME(fold)(&acc);
#endif
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void RD_NAME(reduce)(const ulong rows, const ulong cols, __global const REAL *in, const ulong in_off, const ulong in_ld,
            __global REAL *out, const ulong out_off, const ulong out_ld, __global const int *in_idx,
            const ulong idx_in_off, __global int *out_idx, const ulong idx_out_off, const uint has_idx,
            const uint write_val)
{
#if MODE == 0
    /* ROW_ITEMS: work-item (r, p) reduces vectors p*SHARE .. p*SHARE+SHARE-1 of row r */
    const ulong chunks = (cols + SHARE * VW - 1) / (SHARE * VW);
    const ulong gid = get_global_id(0);
    if (gid >= rows * chunks)
        return;
    const ulong r = gid / chunks, p = gid - r * chunks; /* no %: see the note at the top */
    int bi;
    const REAL s =
        RD_NAME(reduce_share)(in + in_off + r * in_ld, in_idx + idx_in_off + r * in_ld, has_idx, cols, p * SHARE, 1,
                              &bi);
    if (write_val)
        out[out_off + r * out_ld + p] = s;
#if OP == 4
    out_idx[idx_out_off + r * out_ld + p] = bi;
#endif

#elif MODE == 1
    /* ROW_GROUP: group (r, p) reduces vectors p*WG*SHARE .. of row r; work-item l takes
     * l, l + WG, l + 2 WG, ... (consecutive work-items, consecutive vectors: coalesced),
     * then a halving tree over the group in local memory */
    __local REAL sv[WG];
#if OP == 4
    __local int si[WG];
#endif
    const ulong chunks = (cols + WG * SHARE * VW - 1) / (WG * SHARE * VW);
    const ulong g = get_group_id(0);
    const uint l = get_local_id(0);
    const ulong r = g / chunks, p = g - r * chunks; /* the host launches exactly rows*chunks groups */
    int bi;
    sv[l] = RD_NAME(reduce_share)(in + in_off + r * in_ld, in_idx + idx_in_off + r * in_ld, has_idx, cols,
                         p * WG * SHARE + l, WG, &bi);
#if OP == 4
    si[l] = bi;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint h = WG / 2; h > 0; h >>= 1) {
        if (l < h) {
#if OP == 4
            if (BEATS(sv[l + h], si[l + h], sv[l], si[l])) {
                sv[l] = sv[l + h];
                si[l] = si[l + h];
            }
#else
            sv[l] = COMB(sv[l], sv[l + h]);
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        if (write_val)
            out[out_off + r * out_ld + p] = sv[0];
#if OP == 4
        out_idx[idx_out_off + r * out_ld + p] = si[0];
#endif
    }

#elif OP != 4
    /* COLS: work-item (b, v) reduces rows b*CROWS .. b*CROWS+CROWS-1 of columns
     * v*VW .. v*VW+VW-1; consecutive work-items read consecutive vectors of a row */
    (void)in_idx;
    (void)idx_in_off;
    (void)out_idx;
    (void)idx_out_off;
    (void)has_idx;
    (void)write_val;
    const ulong nv = (cols + VW - 1) / VW, blocks = (rows + CROWS - 1) / CROWS;
    const ulong gid = get_global_id(0);
    if (gid >= nv * blocks)
        return;
    const ulong b = gid / nv, j0 = (gid - b * nv) * VW, r0 = b * CROWS;
    const uint n = rows - r0 < CROWS ? (uint)(rows - r0) : CROWS;
    __global const REAL *p = in + in_off + r0 * in_ld + j0;
    __global REAL *o = out + out_off + b * out_ld + j0;
    if (j0 + VW <= cols) {
        REALV acc = VLOAD(0, p);
        for (uint k = 1; k < n; ++k)
            acc = COMB(acc, VLOAD(0, p + k * in_ld));
        VSTORE(acc, 0, o);
    } else {
        for (uint q = 0; j0 + q < cols; ++q) {
            REAL acc = p[q];
            for (uint k = 1; k < n; ++k)
                acc = COMB(acc, p[k * in_ld + q]);
            o[q] = acc;
        }
    }
#endif
}

/* The macros this text defines from OP: undefined, so that the next copy of it
 * in the same program (RD_SUFFIX) defines them for its own */
#undef RD_NAME
#undef SHARE
#undef IDENT
#undef COMB
#undef BEATS
#undef IDX
#undef IDXV
#undef LANE_COLS
#undef LANE_IDX
#undef BEATS_HALF
