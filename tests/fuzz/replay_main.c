/* A main() for the fuzz targets in ordinary builds (any compiler, no
 * libFuzzer): runs every file named on the command line, or every file in a
 * folder named there, through LLVMFuzzerTestOneInput once. ctest replays the
 * kept corpus this way, so each finding stays a regression test. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long runs;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                fclose(f);
                free(data);
                return 1;
            }
            data = grown;
        }
        size_t got = fread(data + size, 1, cap - size, f);
        size += got;
        if (got == 0)
            break;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    runs++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    int bad = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        bad |= run_path(child);
    }
    closedir(d);
    return bad;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0;
    for (int i = 1; i < argc; i++)
        bad |= run_path(argv[i]);
    printf("replayed %lu inputs\n", runs);
    return bad || runs == 0;
}
