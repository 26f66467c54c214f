/* User programs and kernels: the caller's OpenCL C, compiled through the
 * context's program cache, with every argument tracked and checked by clrt so
 * that a bad argument or an unset one never reaches the driver at launch. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/debug.h"
#include "base/error.h"
#include "base/util.h"
#include "kernels/table.h"
#include "runtime/build_options.h"
#include "runtime/context.h"
#include "runtime/program.h"

enum arg_kind { ARG_UNSET, ARG_BUFFER, ARG_SCALAR, ARG_LOCAL };

struct clrt_kernel_arg {
    /* what the driver says about the argument (fixed after creation) */
    cl_kernel_arg_address_qualifier addr; /* 0 when unknown */
    size_t type_size;                     /* of a built-in scalar or vector type; 0 unknown */
    int pointee_dtype;                    /* the clrt_dtype a pointer's elements are; 0 unchecked */
    char type[48], name[48];              /* for messages; "" unknown */
    /* what the caller set (under the kernel's lock) */
    int kind;
    cl_mem mem;                           /* retained while kind == ARG_BUFFER */
    size_t local_bytes;
};

static const char arg_info_option[] = "-cl-kernel-arg-info";

static int check_kernel(const clrt_kernel *k, const char *func)
{
    if (!k)
        return clrt__fail(CLRT_EINVAL, func, "kernel is NULL");
    if (k->tag != CLRT__TAG_KERNEL)
        return clrt__fail(CLRT_EINVAL, func, "%p is not a live clrt kernel (destroyed, or not a kernel)",
                          (const void *)k);
    return CLRT_OK;
}

/* ---- programs */

static int create_program(clrt_program **out, clrt_context *ctx, const char *source, const char *options,
                          const char *func);

int clrt_program_create(clrt_program **out, clrt_context *ctx, const char *source, const char *options)
{
    static const char func[] = "clrt_program_create";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    int status = clrt__check_context(ctx, func);
    if (status != CLRT_OK)
        return status;
    if (!source)
        return clrt__fail(CLRT_EINVAL, func, "source is NULL");
    if (source[0] == '\0')
        return clrt__fail(CLRT_EINVAL, func, "source is empty");
    if ((status = clrt__check_usable(ctx, func)) != CLRT_OK)
        return status;
    /* before any driver sees them: some crash the process on a bad one */
    char *checked = NULL;
    if ((status = clrt__build_options_check(ctx, options ? options : "", func, &checked)) != CLRT_OK)
        return status;
    status = create_program(out, ctx, source, checked, func);
    free(checked);
    return status;
}

/* clrt_program_create once its arguments are checked. */
static int create_program(clrt_program **out, clrt_context *ctx, const char *source, const char *options,
                          const char *func)
{
    int status;
    /* Argument descriptions let clrt check arguments by kind and size. */
    int has_info = strstr(options, arg_info_option) != NULL;
    size_t cap = strlen(options) + sizeof arg_info_option + 1;
    char *opts = malloc(cap);
    clrt_program *p = calloc(1, sizeof *p);
    if (!opts || !p) {
        free(opts);
        free(p);
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    }
    snprintf(opts, cap, "%s%s%s", options, (has_info || !options[0]) ? "" : " ",
             has_info ? "" : arg_info_option);
    cl_program cl = NULL;
    static const clrt__build_what user = {"user", "", ""};
    status = clrt__program_get(ctx, source, 0, opts, &user, func, &cl);
    free(opts);
    if (status == CLRT_EBUILD && !has_info) {
        /* A compiler can fail on the option alone: NVIDIA's OpenCL (driver
         * 580, H200) emits PTX its own ptxas rejects ("Parsing error near
         * '}'") for a program holding a kernel without arguments when asked
         * for argument info. Then build as the caller asked; the kernels'
         * arguments are checked by size alone (no descriptions). A source
         * that does not compile fails again, with its own build log. */
        status = clrt__program_get(ctx, source, 0, options, &user, func, &cl);
    }
    if (status != CLRT_OK) {
        free(p);
        return status;
    }
    p->tag = CLRT__TAG_PROGRAM;
    atomic_init(&p->refs, 1);
    atomic_init(&p->destroyed, 0);
    p->ctx = ctx;
    p->cl = cl;
    clrt__context_retain(ctx);
    clrt__live(CLRT__LIVE_PROGRAM, +1);
    *out = p;
    return CLRT_OK;
}

static void program_release(clrt_program *p)
{
    if (atomic_fetch_sub(&p->refs, 1) != 1)
        return;
    clrt_context *ctx = p->ctx;
    p->tag = CLRT__TAG_DEAD;
    free(p);
    clrt__live(CLRT__LIVE_PROGRAM, -1);
    /* the cl_program stays in the context's cache */
    clrt__context_release(ctx);
}

void clrt_program_destroy(clrt_program *p)
{
    static const char func[] = "clrt_program_destroy";
    if (!p)
        return;
    if (p->tag != CLRT__TAG_PROGRAM) {
        clrt__report(func, "%p is not a live clrt program; ignored", (void *)p);
        return;
    }
    if (atomic_exchange(&p->destroyed, 1)) {
        clrt__report(func, "program destroyed twice; ignored");
        return;
    }
    program_release(p);
}

/* ---- kernels: creation and what the driver says about them */

/* The size of an OpenCL C built-in scalar or vector type ("float4": 16), with
 * *dtype set to the clrt_dtype whose elements it is made of: CLRT_FLOAT32 for
 * the float family, CLRT_FLOAT64 for double, CLRT_INT32 for int and uint (one
 * dtype holds both); 0 for the others (char .. long, half: no clrt dtype, so
 * a kernel reading a buffer's bytes that way is not judged). 0 when not
 * built-in. */
static size_t builtin_size(const char *t, size_t len, int *dtype)
{
    static const struct {
        const char *name;
        size_t size;
    } base[] = {{"char", 1},  {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},    {"uint", 4},
                {"long", 8},  {"ulong", 8}, {"half", 2},  {"float", 4},  {"double", 8}};
    *dtype = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
        size_t n = strlen(base[i].name);
        if (len < n || memcmp(t, base[i].name, n) != 0)
            continue;
        size_t width = 1;
        if (len > n) {
            char digits[4] = {0};
            if (len - n > 2)
                continue;
            memcpy(digits, t + n, len - n);
            width = (size_t)strtoul(digits, NULL, 10);
            if (width != 2 && width != 3 && width != 4 && width != 8 && width != 16)
                continue;
            if (strspn(digits, "0123456789") != len - n)
                continue;
            if (width == 3)
                width = 4; /* a 3-vector is stored as a 4-vector */
        }
        if (strcmp(base[i].name, "float") == 0)
            *dtype = CLRT_FLOAT32;
        else if (strcmp(base[i].name, "double") == 0)
            *dtype = CLRT_FLOAT64;
        else if (strcmp(base[i].name, "int") == 0 || strcmp(base[i].name, "uint") == 0)
            *dtype = CLRT_INT32;
        return base[i].size * width;
    }
    return 0;
}

/* A string the driver gives about an argument, without white space and cut
 * to cap - 1 bytes ("" when it gives none). */
static void arg_info_string(cl_kernel kernel, unsigned index, cl_kernel_arg_info param, char *dst, size_t cap)
{
    size_t size = 0, len = 0;
    char *text = NULL;
    dst[0] = '\0';
    if (clGetKernelArgInfo(kernel, index, param, 0, NULL, &size) != CL_SUCCESS || size == 0 ||
        !(text = malloc(size + 1)))
        return;
    if (clGetKernelArgInfo(kernel, index, param, size, text, NULL) == CL_SUCCESS) {
        text[size] = '\0';
        for (const char *c = text; *c && len < cap - 1; c++)
            if (*c != ' ' && *c != '\t')
                dst[len++] = *c;
        dst[len] = '\0';
    }
    free(text);
}

/* Fill the argument's description from the driver; 0 when it has none. */
static int describe_arg(cl_kernel kernel, unsigned index, struct clrt_kernel_arg *a)
{
    if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof a->addr, &a->addr, NULL) !=
        CL_SUCCESS)
        return 0;
    arg_info_string(kernel, index, CL_KERNEL_ARG_NAME, a->name, sizeof a->name);
    /* "float *" and "float*" alike; a type name longer than the buffer is
     * not a built-in type, so cutting it loses no check */
    arg_info_string(kernel, index, CL_KERNEL_ARG_TYPE_NAME, a->type, sizeof a->type);
    size_t len = strlen(a->type);
    int dtype;
    if (len > 0 && a->type[len - 1] == '*') {
        builtin_size(a->type, len - 1, &dtype);
        a->pointee_dtype = dtype;
    } else if (a->addr == CL_KERNEL_ARG_ADDRESS_PRIVATE) {
        a->type_size = builtin_size(a->type, len, &dtype);
    }
    return 1;
}

/* The program's kernel names, ';'-separated (malloc'd), or NULL when the
 * driver does not say. */
static char *kernel_names(cl_program program)
{
    size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return NULL;
    char *names = malloc(size + 1);
    if (names && clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names, NULL) != CL_SUCCESS) {
        free(names);
        return NULL;
    }
    if (names)
        names[size] = '\0';
    return names;
}

/* -1 when the driver does not list the kernels, else whether name is one. */
static int has_kernel(const char *names, const char *name)
{
    if (!names)
        return -1;
    size_t n = strlen(name);
    for (const char *p = names; *p;) {
        size_t len = strcspn(p, ";");
        if (len == n && memcmp(p, name, n) == 0)
            return 1;
        p += len;
        if (*p == ';')
            p++;
    }
    return 0;
}

/* "saxpy, mandelbrot" for the message. */
static void append_kernel_names(const char *names)
{
    if (!names)
        return;
    clrt__error_append("; the program's kernels are: ");
    if (!names[0]) {
        clrt__error_append("(none)");
        return;
    }
    char one[2] = {0};
    for (const char *p = names; *p; p++) {
        if (*p == ';') {
            clrt__error_append(", ");
        } else {
            one[0] = *p;
            clrt__error_append(one);
        }
    }
}

/* The facts launches are checked against. Each query counts as the
 * CLRT__FAULT_CREATE_KERNEL fault site, after clCreateKernel itself. */
static int query_kernel(clrt_kernel *k, const clrt_context *ctx, const char *func)
{
    cl_uint nargs = 0;
    cl_int err = clrt__fault(CLRT__FAULT_CREATE_KERNEL);
    if (err == CL_SUCCESS)
        err = clGetKernelInfo(k->cl, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (err != CL_SUCCESS)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clGetKernelInfo", &ctx->info,
                             "cannot count the arguments of kernel '%s'", k->name);
    err = clrt__fault(CLRT__FAULT_CREATE_KERNEL);
    if (err == CL_SUCCESS)
        err = clGetKernelWorkGroupInfo(k->cl, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof k->wg_size,
                                       &k->wg_size, NULL);
    if (err == CL_SUCCESS) {
        err = clrt__fault(CLRT__FAULT_CREATE_KERNEL);
        if (err == CL_SUCCESS)
            err = clGetKernelWorkGroupInfo(k->cl, ctx->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                           sizeof k->reqd_wg, k->reqd_wg, NULL);
    }
    if (err != CL_SUCCESS)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clGetKernelWorkGroupInfo", &ctx->info,
                             "cannot query kernel '%s'", k->name);
    size_t items[32] = {0};
    err = clrt__fault(CLRT__FAULT_CREATE_KERNEL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL);
    if (err != CL_SUCCESS)
        return clrt__fail_cl(clrt__status_from_cl(err), func, err, "clGetDeviceInfo", &ctx->info,
                             "cannot query the device's work-item limits");
    for (int i = 0; i < 3; i++)
        k->max_items[i] = items[i] ? items[i] : 1;
    /* hints: a failure only costs a check or a good default */
    if (clGetKernelWorkGroupInfo(k->cl, ctx->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                 sizeof k->pref_multiple, &k->pref_multiple, NULL) != CL_SUCCESS ||
        k->pref_multiple == 0)
        k->pref_multiple = 1;
    if (clGetKernelWorkGroupInfo(k->cl, ctx->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof k->static_local,
                                 &k->static_local, NULL) != CL_SUCCESS)
        k->static_local = 0;
    if (k->wg_size == 0)
        k->wg_size = 1;

    k->nargs = nargs;
    k->args = calloc(nargs ? nargs : 1, sizeof *k->args);
    if (!k->args)
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    k->arg_info = 1;
    for (unsigned i = 0; i < nargs && k->arg_info; i++)
        k->arg_info = describe_arg(k->cl, i, &k->args[i]);
    if (!k->arg_info) /* none, or partial: trust none of it */
        memset(k->args, 0, (nargs ? nargs : 1) * sizeof *k->args);
    return CLRT_OK;
}

static void kernel_free(clrt_kernel *k)
{
    if (k->args)
        for (unsigned i = 0; i < k->nargs; i++)
            if (k->args[i].kind == ARG_BUFFER)
                clReleaseMemObject(k->args[i].mem);
    free(k->args);
    free(k->name);
    free(k);
}

int clrt_kernel_create(clrt_kernel **out, clrt_program *program, const char *name)
{
    static const char func[] = "clrt_kernel_create";
    if (!out)
        return clrt__fail(CLRT_EINVAL, func, "out is NULL");
    *out = NULL;
    int status = clrt__check_program(program, func);
    if (status != CLRT_OK)
        return status;
    if (!name || name[0] == '\0')
        return clrt__fail(CLRT_EINVAL, func, "kernel name is %s", name ? "empty" : "NULL");
    clrt_context *ctx = program->ctx;
    if ((status = clrt__check_usable(ctx, func)) != CLRT_OK)
        return status;

    clrt_kernel *k = calloc(1, sizeof *k);
    if (!k || !(k->name = clrt__strdup(name))) {
        free(k);
        return clrt__fail(CLRT_ENOMEM, func, "out of host memory");
    }
    /* An unknown name is the caller's mistake: say so without asking the
     * driver (checking drivers such as Oclgrind report it as an API error). */
    char *names = kernel_names(program->cl);
    int known = has_kernel(names, name);
    cl_int err = CL_INVALID_KERNEL_NAME;
    if (known != 0) {
        err = clrt__fault(CLRT__FAULT_CREATE_KERNEL);
        if (err == CL_SUCCESS)
            k->cl = clCreateKernel(program->cl, name, &err);
    }
    if (err != CL_SUCCESS || !k->cl) {
        if (err == CL_INVALID_KERNEL_NAME) {
            status = clrt__fail(CLRT_EINVAL, func, "the program has no kernel named '%.200s'", name);
            append_kernel_names(names);
        } else {
            status = clrt__fail_cl(err == CL_SUCCESS ? CLRT_EOPENCL : clrt__status_from_cl(err), func, err,
                                   "clCreateKernel", &ctx->info, "cannot create kernel '%.200s'", name);
        }
        free(names);
        kernel_free(k);
        return status;
    }
    free(names);
    status = query_kernel(k, ctx, func);
    if (status != CLRT_OK) {
        clReleaseKernel(k->cl);
        kernel_free(k);
        return status;
    }
    clrt_mutex_init(&k->lock);
    k->tag = CLRT__TAG_KERNEL;
    k->program = program;
    atomic_fetch_add(&program->refs, 1);
    clrt__live(CLRT__LIVE_KERNEL, +1);
    *out = k;
    return CLRT_OK;
}

void clrt_kernel_destroy(clrt_kernel *k)
{
    if (!k)
        return;
    if (k->tag != CLRT__TAG_KERNEL) {
        clrt__report("clrt_kernel_destroy", "%p is not a live clrt kernel; ignored", (void *)k);
        return;
    }
    k->tag = CLRT__TAG_DEAD;
    clrt_program *program = k->program;
    /* launched work keeps what it uses: OpenCL retains it until completion */
    clReleaseKernel(k->cl);
    clrt_mutex_destroy(&k->lock);
    kernel_free(k);
    clrt__live(CLRT__LIVE_KERNEL, -1);
    program_release(program);
}

unsigned clrt_kernel_num_args(const clrt_kernel *k)
{
    return (k && k->tag == CLRT__TAG_KERNEL) ? k->nargs : 0;
}

size_t clrt_kernel_work_group_size(const clrt_kernel *k)
{
    return (k && k->tag == CLRT__TAG_KERNEL) ? k->wg_size : 0;
}

/* ---- arguments */

/* "argument 2 ('x', float*)" or "argument 2" when the driver did not say. */
static const char *arg_label(const clrt_kernel *k, unsigned index, char *buf, size_t cap)
{
    const struct clrt_kernel_arg *a = &k->args[index];
    if (a->name[0] || a->type[0])
        snprintf(buf, cap, "argument %u ('%s', %s)", index, a->name[0] ? a->name : "?",
                 a->type[0] ? a->type : "?");
    else
        snprintf(buf, cap, "argument %u", index);
    return buf;
}

static int check_arg(const clrt_kernel *k, unsigned index, const char *func)
{
    int status = check_kernel(k, func);
    if (status != CLRT_OK)
        return status;
    if (index >= k->nargs)
        return clrt__fail(CLRT_EINVAL, func, "argument index %u is out of range: kernel '%s' has %u argument(s)",
                          index, k->name, k->nargs);
    return CLRT_OK;
}

static const char *qualifier_name(cl_kernel_arg_address_qualifier q)
{
    switch (q) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
        return "a __global pointer";
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
        return "a __constant pointer";
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
        return "a __local pointer";
    }
    return "passed by value";
}

static const char *setter_for(cl_kernel_arg_address_qualifier q)
{
    switch (q) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL:
    case CL_KERNEL_ARG_ADDRESS_CONSTANT:
        return "clrt_kernel_set_buffer";
    case CL_KERNEL_ARG_ADDRESS_LOCAL:
        return "clrt_kernel_set_local";
    }
    return "clrt_kernel_set_scalar";
}

/* Set the argument in the driver and record it, under the kernel's lock so
 * that no launch sees half of it. */
static int commit_arg(clrt_kernel *k, unsigned index, int kind, size_t size, const void *value, cl_mem mem,
                      size_t local_bytes, const char *func)
{
    struct clrt_kernel_arg *a = &k->args[index];
    clrt_mutex_lock(&k->lock);
    cl_int err = clrt__fault(CLRT__FAULT_SET_ARG);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k->cl, index, size, value);
    cl_mem old = a->kind == ARG_BUFFER ? a->mem : NULL;
    if (err == CL_SUCCESS) {
        if (mem)
            clRetainMemObject(mem);
        a->kind = kind;
        a->mem = mem;
        a->local_bytes = local_bytes;
    } else {
        /* what the driver holds for it now is unknown: launching needs it set again */
        a->kind = ARG_UNSET;
        a->mem = NULL;
        a->local_bytes = 0;
    }
    clrt_mutex_unlock(&k->lock);
    if (old)
        clReleaseMemObject(old);
    if (err == CL_SUCCESS)
        return CLRT_OK;
    int status = clrt__status_from_cl(err);
    if (err == CL_INVALID_ARG_SIZE || err == CL_INVALID_ARG_VALUE || err == CL_INVALID_MEM_OBJECT ||
        err == CL_INVALID_ARG_INDEX || err == CL_INVALID_SAMPLER)
        status = CLRT_EINVAL;
    char label[128];
    return clrt__fail_cl(status, func, err, "clSetKernelArg", &k->program->ctx->info, "cannot set %s of kernel '%s'",
                         arg_label(k, index, label, sizeof label), k->name);
}

/* The element types a pointer of that dtype's family points to. */
static const char *pointee_words(int dtype)
{
    return dtype == CLRT_FLOAT32 ? "float" : dtype == CLRT_FLOAT64 ? "double" : "int or uint";
}

int clrt_kernel_set_buffer(clrt_kernel *k, unsigned index, clrt_buffer *buf)
{
    static const char func[] = "clrt_kernel_set_buffer";
    int status = check_arg(k, index, func);
    if (status == CLRT_OK)
        status = clrt__check_buffer(buf, func, "buf");
    if (status != CLRT_OK)
        return status;
    if (buf->ctx != k->program->ctx)
        return clrt__fail(CLRT_EINVAL, func, "the buffer and the kernel belong to different contexts");
    const struct clrt_kernel_arg *a = &k->args[index];
    char label[128];
    if (k->arg_info && a->addr != CL_KERNEL_ARG_ADDRESS_GLOBAL && a->addr != CL_KERNEL_ARG_ADDRESS_CONSTANT)
        return clrt__fail(CLRT_EINVAL, func,
                          "%s of kernel '%s' is %s, not a __global or __constant pointer: use %s",
                          arg_label(k, index, label, sizeof label), k->name, qualifier_name(a->addr),
                          setter_for(a->addr));
    /* the dtype, not the element size: int32 elements read as float are
     * wrong numbers of the right size */
    if (a->pointee_dtype && a->pointee_dtype != (int)buf->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "%s of kernel '%s' points to %s elements (a %s buffer), but the buffer is %s",
                          arg_label(k, index, label, sizeof label), k->name, pointee_words(a->pointee_dtype),
                          clrt__dtype_word(a->pointee_dtype), clrt__dtype_word((int)buf->dtype));
    return commit_arg(k, index, ARG_BUFFER, sizeof(cl_mem), &buf->cl, buf->cl, 0, func);
}

int clrt_kernel_set_scalar(clrt_kernel *k, unsigned index, size_t size, const void *value)
{
    static const char func[] = "clrt_kernel_set_scalar";
    int status = check_arg(k, index, func);
    if (status != CLRT_OK)
        return status;
    if (!value)
        return clrt__fail(CLRT_EINVAL, func, "value is NULL");
    if (size == 0)
        return clrt__fail(CLRT_EINVAL, func, "size is 0");
    const struct clrt_kernel_arg *a = &k->args[index];
    char label[128];
    if (k->arg_info && a->addr != CL_KERNEL_ARG_ADDRESS_PRIVATE)
        return clrt__fail(CLRT_EINVAL, func, "%s of kernel '%s' is %s, not a value: use %s",
                          arg_label(k, index, label, sizeof label), k->name, qualifier_name(a->addr),
                          setter_for(a->addr));
    if (a->type_size && size != a->type_size)
        return clrt__fail(CLRT_EINVAL, func, "%s of kernel '%s' is %zu bytes, but size is %zu",
                          arg_label(k, index, label, sizeof label), k->name, a->type_size, size);
    return commit_arg(k, index, ARG_SCALAR, size, value, NULL, 0, func);
}

int clrt_kernel_set_local(clrt_kernel *k, unsigned index, size_t bytes)
{
    static const char func[] = "clrt_kernel_set_local";
    int status = check_arg(k, index, func);
    if (status != CLRT_OK)
        return status;
    const struct clrt_kernel_arg *a = &k->args[index];
    char label[128];
    if (k->arg_info && a->addr != CL_KERNEL_ARG_ADDRESS_LOCAL)
        return clrt__fail(CLRT_EINVAL, func, "%s of kernel '%s' is %s, not a __local pointer: use %s",
                          arg_label(k, index, label, sizeof label), k->name, qualifier_name(a->addr),
                          setter_for(a->addr));
    if (bytes == 0)
        return clrt__fail(CLRT_EINVAL, func, "bytes is 0: a __local argument needs a size");
    const clrt_context *ctx = k->program->ctx;
    if ((uint64_t)bytes > ctx->info.local_mem)
        return clrt__fail(CLRT_ENOMEM, func, "%zu bytes of local memory for %s, but device '%s' has %llu", bytes,
                          arg_label(k, index, label, sizeof label), ctx->info.name,
                          (unsigned long long)ctx->info.local_mem);
    return commit_arg(k, index, ARG_LOCAL, bytes, NULL, NULL, bytes, func);
}

/* ---- launch */

/* The launch's work-items, the product of its global sizes, must be a
 * size_t: a kernel's get_global_id and a driver's count of the items would
 * otherwise wrap (a driver given more than it can count runs some number of
 * items, or none, or never ends). */
static int work_items_fit(const size_t *glob, unsigned dims, const char *func)
{
    size_t total = glob[0];
    for (unsigned i = 1; i < dims; i++) {
        if (glob[i] > SIZE_MAX / total) {
            if (dims == 2)
                return clrt__fail(CLRT_EINVAL, func, "%zu x %zu work-items overflow size_t", glob[0], glob[1]);
            return clrt__fail(CLRT_EINVAL, func, "%zu x %zu x %zu work-items overflow size_t", glob[0], glob[1],
                              glob[2]);
        }
        total *= glob[i];
    }
    return CLRT_OK;
}

/* The work-group to launch with into loc (1 when the driver chooses, with
 * *have_local 0), and the global size into glob, rounded when asked. */
static int geometry(const clrt_kernel *k, const clrt_context *ctx, unsigned dims, const size_t *global,
                    const size_t *local, int rounded, size_t *glob, size_t *loc, int *have_local,
                    const char *func)
{
    static const char *const rule =
        "(OpenCL 1.2: each global size must be a multiple of the local size); pad the size "
        "and guard the kernel, or use clrt_kernel_launch_rounded";
    int has_reqd = k->reqd_wg[0] != 0;
    *have_local = 1;
    for (unsigned i = 0; i < 3; i++)
        loc[i] = 1;
    if (local) {
        for (unsigned i = 0; i < dims; i++) {
            if (local[i] == 0)
                return clrt__fail(CLRT_EINVAL, func, "local[%u] is 0", i);
            loc[i] = local[i];
        }
    } else if (has_reqd) {
        for (unsigned i = 0; i < dims; i++)
            loc[i] = k->reqd_wg[i];
    } else if (rounded) {
        size_t m = k->pref_multiple;
        if (m > k->wg_size)
            m = k->wg_size;
        if (m > k->max_items[0])
            m = k->max_items[0];
        loc[0] = m ? m : 1;
    } else {
        *have_local = 0;
    }
    if (has_reqd) {
        int same = 1;
        for (unsigned i = 0; i < 3; i++)
            same &= (i < dims ? loc[i] : 1) == k->reqd_wg[i];
        if (!same)
            return clrt__fail(CLRT_EINVAL, func,
                              "kernel '%s' was compiled for work-groups of %zu x %zu x %zu "
                              "(reqd_work_group_size), but the launch asks for %zu x %zu x %zu over %u "
                              "dimension(s)",
                              k->name, k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2], loc[0], loc[1], loc[2],
                              dims);
    }
    for (unsigned i = 0; i < dims; i++)
        glob[i] = global[i];
    if (!*have_local)
        return work_items_fit(glob, dims, func);

    size_t total = 1;
    for (unsigned i = 0; i < dims; i++) {
        if (loc[i] > k->max_items[i])
            return clrt__fail(CLRT_EUNSUPPORTED, func,
                              "local[%u] = %zu is above the %zu work-items device '%s' allows in that dimension",
                              i, loc[i], k->max_items[i], ctx->info.name);
        total = total > SIZE_MAX / loc[i] ? SIZE_MAX : total * loc[i];
    }
    if (total > k->wg_size)
        return clrt__fail(CLRT_EUNSUPPORTED, func,
                          "a work-group of %zu work-items is above the %zu that kernel '%s' can run with on "
                          "device '%s' (clrt_kernel_work_group_size)",
                          total, k->wg_size, k->name, ctx->info.name);
    for (unsigned i = 0; i < dims; i++) {
        size_t rem = global[i] % loc[i];
        if (rem == 0)
            continue;
        if (!rounded)
            return clrt__fail(CLRT_EINVAL, func, "global[%u] = %zu is not a multiple of local[%u] = %zu %s", i,
                              global[i], i, loc[i], rule);
        if (global[i] > SIZE_MAX - (loc[i] - rem))
            return clrt__fail(CLRT_EINVAL, func, "global[%u] = %zu rounded up to a multiple of %zu overflows",
                              i, global[i], loc[i]);
        glob[i] = global[i] + (loc[i] - rem);
    }
    return work_items_fit(glob, dims, func);
}

static int launch(clrt_queue *q, clrt_kernel *k, unsigned dims, const size_t *global, const size_t *local,
                  int rounded, const char *func)
{
    int status = clrt__check_queue(q, func);
    if (status == CLRT_OK)
        status = check_kernel(k, func);
    if (status != CLRT_OK)
        return status;
    clrt_context *ctx = q->ctx;
    if (k->program->ctx != ctx)
        return clrt__fail(CLRT_EINVAL, func, "the kernel and the queue belong to different contexts");
    if (dims < 1 || dims > 3)
        return clrt__fail(CLRT_EINVAL, func, "dims is %u; it must be 1, 2 or 3", dims);
    if (!global)
        return clrt__fail(CLRT_EINVAL, func, "global is NULL");
    for (unsigned i = 0; i < dims; i++)
        if (global[i] == 0)
            return clrt__fail(CLRT_EINVAL, func, "global[%u] is 0", i);
    size_t glob[3], loc[3];
    int have_local;
    status = geometry(k, ctx, dims, global, local, rounded, glob, loc, &have_local, func);
    if (status != CLRT_OK)
        return status;

    clrt_mutex_lock(&k->lock);
    /* Arguments never set: the driver would launch garbage or crash. */
    unsigned missing = 0;
    uint64_t local_bytes = k->static_local;
    for (unsigned i = 0; i < k->nargs; i++) {
        missing += k->args[i].kind == ARG_UNSET;
        if (k->args[i].kind == ARG_LOCAL)
            local_bytes += k->args[i].local_bytes;
    }
    if (missing) { /* the list, only for the message */
        char unset[256] = "";
        for (unsigned i = 0, listed = 0; i < k->nargs; i++) {
            if (k->args[i].kind != ARG_UNSET)
                continue;
            size_t len = strlen(unset);
            if (listed++ < 8) {
                char label[128];
                snprintf(unset + len, sizeof unset - len, "%s%s", len ? ", " : "",
                         arg_label(k, i, label, sizeof label));
            } else if (listed == 9) {
                snprintf(unset + len, sizeof unset - len, ", ...");
            }
        }
        clrt_mutex_unlock(&k->lock);
        return clrt__fail(CLRT_EINVAL, func, "kernel '%s' has %u argument(s) not set: %s", k->name, missing,
                          unset);
    }
    if (local_bytes > ctx->info.local_mem) {
        clrt_mutex_unlock(&k->lock);
        return clrt__fail(CLRT_ENOMEM, func,
                          "kernel '%s' needs %llu bytes of local memory per work-group, device '%s' has %llu",
                          k->name, (unsigned long long)local_bytes, ctx->info.name,
                          (unsigned long long)ctx->info.local_mem);
    }
    /* the device's state only now: clrt.h promises argument errors first */
    if ((status = clrt__check_usable(ctx, func)) != CLRT_OK) {
        clrt_mutex_unlock(&k->lock);
        return status;
    }
    cl_int err = clrt__fault(CLRT__FAULT_ENQUEUE_KERNEL);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(q->cl, k->cl, dims, NULL, glob, have_local ? loc : NULL, 0, NULL, NULL);
    clrt_mutex_unlock(&k->lock);
    if (err == CL_SUCCESS)
        return CLRT_OK;
    status = clrt__launch_status(err);
    if (err == CL_INVALID_WORK_GROUP_SIZE || err == CL_INVALID_WORK_ITEM_SIZE ||
        err == CL_INVALID_GLOBAL_WORK_SIZE || err == CL_INVALID_KERNEL_ARGS || err == CL_INVALID_WORK_DIMENSION)
        status = CLRT_EINVAL;
    if (status == CLRT_EDEVICE)
        return clrt__context_fail_late(ctx, func, err, "clEnqueueNDRangeKernel");
    return clrt__fail_cl(status, func, err, "clEnqueueNDRangeKernel", &ctx->info, "kernel '%s': %s", k->name,
                         clrt__launch_why(err));
}

int clrt_kernel_launch(clrt_queue *q, clrt_kernel *kernel, unsigned dims, const size_t *global,
                       const size_t *local)
{
    return launch(q, kernel, dims, global, local, 0, "clrt_kernel_launch");
}

int clrt_kernel_launch_rounded(clrt_queue *q, clrt_kernel *kernel, unsigned dims, const size_t *global,
                               const size_t *local)
{
    return launch(q, kernel, dims, global, local, 1, "clrt_kernel_launch_rounded");
}
