/* gpu_kernel_options: the GPU builds of the GEMM's and the CNN's kernels, and of the
 * elementwise kernel on float32 and on 16-bit storage (add and sigmoid), exactly as
 * clrt makes them, for clrt-isa (tools/isa/) to hand to the offline compilers: for
 * each vendor class (a made-up device of its facts, as the tests make them),
 * kernel, dtype and launch variant, the library's own defaults, build options and
 * entry points, and the embedded source text (prelude included) written to a
 * folder. Nothing is retyped: a change to the defaults, the parameter list or the
 * sources shows in the next run.
 *
 * Usage: gpu_kernel_options DIR   writes DIR/<kernel>.cl and prints one line per
 * build and entry:
 *   <class> <targets> <kernel> <entry> <dtype> <variant> <group> <file> <options...>
 * targets: clrt-isa's targets of the class, comma-separated; group: the work-items
 * per group the entry is launched with. A build the class's device cannot run
 * (fp64 without cl_khr_fp64) is a line "# <class> <kernel> <dtype>: <why>". A
 * test-side helper (it reads the library's internals); `gpu_kernel_options
 * --check` (ctest unit_gpu_kernel_options) checks the rows clrt-isa relies on. */
#include <stdio.h>
#include <string.h>

#include "common/fake_device.h"
#include "common/temp_files.h"
#include "device/device.h"
#include "kernels/elementwise.h"
#include "kernels/matmul.h"
#include "kernels/nn.h"
#include "kernels/params.h"
#include "kernels/table.h"

#include "clrt/clrt.h"

typedef struct gpu_class {
    const char *name, *targets;
    tu_gpu_class device;
} gpu_class;

/* The classes clrt-isa has targets for: Intel's three devices apart, since only the
 * Data Center GPU Max has fp64 (and the library sees each device's limits). */
static const gpu_class classes[] = {
    {"nvidia", "sm_90,sm_80,sm_89", TU_GPU_NVIDIA},
    {"amd", "gfx90a,gfx942,gfx1100", TU_GPU_AMD},
    {"intel", "pvc", TU_GPU_INTEL},
    {"intel-arc", "acm-g10", TU_GPU_INTEL_ARC},
    {"intel-xe", "tgllp", TU_GPU_INTEL_XE},
};

/* The kernels shown: the GEMM and the CNN's layers (float32, float64), and the
 * elementwise kernel's add and sigmoid on float32 and on each 16-bit storage. */
static const int kernels[] = {CLRT__K_MATMUL, CLRT__K_NN_IM2COL, CLRT__K_NN_LAYOUT, CLRT__K_NN_POOL,
                              CLRT__K_NN_ACT};
static const int ew_dtypes[] = {CLRT_FLOAT32, CLRT_FLOAT16, CLRT_BFLOAT16};
static const struct {
    clrt__ew_op op;
    int bread;
    const char *name;
} ew_ops[] = {{CLRT__EW_ADD, CLRT__EW_B_ROW, "add"}, {CLRT__EW_SIGMOID, CLRT__EW_B_NONE, "sigmoid"}};

/* Writes the source once per kernel into dir; 0, or -1. */
static int write_source(const char *dir, const char *kernel, const char *text, char *file, size_t cap)
{
    snprintf(file, cap, "%s.cl", kernel);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const size_t n = strlen(text);
    const int ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* The group an entry is launched with: the kernel's, but for the direct
 * convolution's own (nn's cwg, src/nn/conv.c). */
static size_t group_of(const clrt__kernel_def *def, const clrt__pvals *p, const char *entry)
{
    if (strcmp(entry, "conv_direct") == 0)
        return clrt__nnp(p).cwg;
    return def->group ? def->group(p) : 0;
}

/* One build (class, kernel, dtype, variant): a row per entry point. */
static int print_build(FILE *out, const char *dir, const gpu_class *g, const clrt__kernel_def *def, int dtype,
                       int variant, const char *vname)
{
    const clrt__device_facts f = tu_fake_gpu(g->device);
    if (dtype == CLRT_FLOAT64 && !tu_fake_gpu_has_fp64(g->device)) {
        if (variant == 0)
            fprintf(out, "# %s %s f64: %s has no fp64 (cl_khr_fp64): clrt refuses float64 buffers there\n", g->name,
                    def->name, f.name);
        return 0;
    }
    clrt__pvals p;
    def->defaults(&f, clrt__dtype_size(dtype), &p);
    char why[256], options[1024], file[256];
    if (clrt__params_check(def, &f, clrt__dtype_size(dtype), &p, why, sizeof why) != 0) {
        fprintf(stderr, "gpu_kernel_options: %s %s defaults refused on %s: %s\n", def->name,
                clrt__dtype_word(dtype), g->name, why);
        return -1;
    }
    if (clrt__params_options(def, &p, clrt__elem_of(dtype), variant, options, sizeof options) != 0 ||
        write_source(dir, def->name, def->source(&p), file, sizeof file) != 0)
        return -1;
    const char *dt = dtype == CLRT_FLOAT64   ? "f64"
                     : dtype == CLRT_FLOAT16 ? "f16"
                     : dtype == CLRT_BFLOAT16 ? "bf16"
                                              : "f32";
    for (int i = -1; i < CLRT__MAX_AUX; i++) {
        const char *entry = i < 0           ? clrt__entry_of(def, &p, variant)
                            : def->aux_entry ? def->aux_entry(&p, variant, (unsigned)i)
                                             : NULL;
        if (entry)
            fprintf(out, "%s %s %s %s %s %s %zu %s %s\n", g->name, g->targets, def->name, entry, dt, vname,
                    group_of(def, &p, entry), file, options);
    }
    return 0;
}

static int print_all(FILE *out, const char *dir)
{
    static const char *const trans[] = {"NN", "TN", "NT", "TT"}; /* op(A) op(B): variant bits TA, TB */
    for (size_t c = 0; c < sizeof classes / sizeof *classes; c++)
        for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
            const clrt__kernel_def *def = clrt__kernel_at(kernels[k]);
            for (int dtype = CLRT_FLOAT32; dtype <= CLRT_FLOAT64; dtype++) {
                const int nvar = kernels[k] == CLRT__K_MATMUL ? 4 : 1;
                for (int v = 0; v < nvar; v++) {
                    const int variant = (v & 1 ? CLRT__MATMUL_TA : 0) | (v & 2 ? CLRT__MATMUL_TB : 0);
                    if (print_build(out, dir, &classes[c], def, dtype, variant, nvar > 1 ? trans[v] : "-") != 0)
                        return -1;
                }
            }
        }
    const clrt__kernel_def *ew = clrt__kernel_at(CLRT__K_ELEMENTWISE);
    for (size_t c = 0; c < sizeof classes / sizeof *classes; c++)
        for (size_t d = 0; d < sizeof ew_dtypes / sizeof *ew_dtypes; d++)
            for (size_t o = 0; o < sizeof ew_ops / sizeof *ew_ops; o++)
                if (print_build(out, dir, &classes[c], ew, ew_dtypes[d], clrt__ew_variant(ew_ops[o].op, ew_ops[o].bread),
                                ew_ops[o].name) != 0)
                    return -1;
    return 0;
}

/* --check: what clrt-isa relies on, in the rows themselves: both GEMM entries for
 * every class, dtype and transpose (fp64 on the 3 classes of 5 that have it);
 * NVIDIA's register cap on its fp32 GEMM builds alone; every row's options define
 * REAL; the 16-bit elementwise builds (5 classes, 2 dtypes, add and sigmoid) float
 * arithmetic on their storage; a note for each build refused (fp64 on Arc and Iris
 * Xe, 5 kernels each). */
static int check_rows(void)
{
    char dir[256], line[2048];
    FILE *rows = tmpfile();
    if (tu_temp_dir(dir, sizeof dir, "gpu-options") != 0 || !rows || print_all(rows, dir) != 0)
        return 1;
    rewind(rows);
    int fast = 0, general = 0, bad = 0, notes = 0, ew16 = 0;
    while (fgets(line, sizeof line, rows)) {
        if (line[0] == '#') {
            notes += strstr(line, " f64: ") && strstr(line, "has no fp64 (cl_khr_fp64)");
            continue;
        }
        const int nvidia = strncmp(line, "nvidia ", 7) == 0, capped = strstr(line, " -cl-nv-maxrregcount=128") != NULL;
        const int gemm = strstr(line, " matmul matmul") != NULL && strstr(line, " f32 ") != NULL;
        fast += strstr(line, " matmul matmul_fast ") != NULL;
        general += strstr(line, " matmul matmul ") != NULL;
        bad += (gemm && nvidia) != capped || !strstr(line, " -DREAL=");
        /* the 16-bit elementwise builds: float arithmetic on that storage */
        const int f16 = strstr(line, " elementwise elementwise f16 ") != NULL;
        const int bf16 = strstr(line, " elementwise elementwise bf16 ") != NULL;
        ew16 += f16 || bf16;
        bad += (f16 && !strstr(line, " -DREAL=float -DCLRT_DTYPE=1 -DCLRT_STORE=4")) ||
               (bf16 && !strstr(line, " -DREAL=float -DCLRT_DTYPE=1 -DCLRT_STORE=5"));
    }
    fclose(rows);
    bad += tu_remove_tree(dir) != 0;
    printf("matmul_fast rows %d, matmul rows %d, 16-bit elementwise rows %d, rows with the wrong options %d, builds "
           "refused %d\n",
           fast, general, ew16, bad, notes);
    return fast == 32 && general == 32 && ew16 == 20 && bad == 0 && notes == 10 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--check") == 0)
        return check_rows();
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: gpu_kernel_options DIR | --check\n");
        return 2;
    }
    return print_all(stdout, argv[1]) == 0 ? 0 : 1;
}
