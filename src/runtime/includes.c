/* The headers a program may #include, hashed for the program cache's key
 * (see runtime/includes.h). POSIX. */
#include "runtime/includes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/disk.h"

enum { MAX_DEPTH = 64, PATH_CAP = 4096 };

typedef struct seen_file {
    dev_t dev; /* the file's identity, however it was named */
    ino_t ino;
    uint64_t content; /* hash of its bytes */
} seen_file;

typedef struct walk {
    char *dirs[CLRT__INCLUDES_MAX_DIRS];
    size_t ndirs;
    seen_file seen[CLRT__INCLUDES_MAX_FILES];
    size_t nseen;
    size_t directives;
    uint64_t hash;
} walk;

static int scan(walk *w, const char *text, const char *from, int depth);

/* ---- the search folders named in the build options */

/* The next whitespace-separated token of *s into tok (quotes grouped and
 * removed, as a shell would); 0 at the end of the options. */
static int next_token(const char **s, char *tok)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (!*p)
        return 0;
    char quote = 0;
    size_t n = 0;
    for (; *p; p++) {
        if (quote) {
            if (*p == quote)
                quote = 0;
            else
                tok[n++] = *p;
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            break;
        } else {
            tok[n++] = *p;
        }
    }
    tok[n] = '\0';
    *s = p;
    return 1;
}

static int add_dir(walk *w, const char *dir)
{
    if (!*dir || w->ndirs == CLRT__INCLUDES_MAX_DIRS)
        return -1;
    size_t n = strlen(dir);
    char *copy = malloc(n + 1);
    if (!copy)
        return -1;
    memcpy(copy, dir, n + 1);
    w->dirs[w->ndirs++] = copy;
    return 0;
}

/* -I and the other options that add a search folder, joined (-Idir) or not
 * (-I dir); -1 for an option that makes the compiler read a file clrt does
 * not follow (-include, -imacros, and any other -i... or --include...). */
static int parse_options(walk *w, const char *options)
{
    static const char *const dir_opts[] = {"-isystem", "-iquote", "-idirafter", "-I"};
    size_t cap = strlen(options) + 1;
    char *tok = malloc(cap), *arg = malloc(cap);
    int rc = tok && arg ? 0 : -1;
    const char *s = options;
    while (rc == 0 && next_token(&s, tok)) {
        if (strncmp(tok, "--", 2) == 0) {
            if (strstr(tok, "include") || strstr(tok, "imacros"))
                rc = -1;
            continue;
        }
        if (strncmp(tok, "-i", 2) != 0 && strncmp(tok, "-I", 2) != 0)
            continue;
        size_t i = 0, nopts = sizeof dir_opts / sizeof *dir_opts;
        while (i < nopts && strncmp(tok, dir_opts[i], strlen(dir_opts[i])) != 0)
            i++;
        if (i == nopts) {
            rc = -1;
            break;
        }
        const char *dir = tok + strlen(dir_opts[i]);
        if (!*dir) {
            if (!next_token(&s, arg)) {
                rc = -1;
                break;
            }
            dir = arg;
        }
        rc = add_dir(w, dir);
    }
    free(tok);
    free(arg);
    return rc;
}

/* ---- following the files */

/* One candidate path: absent is 0 (*found untouched); a regular file is
 * hashed (path and contents), scanned the first time it is seen, and sets
 * *found; anything clrt cannot read is -1. */
static int visit(walk *w, const char *path, int depth, int *found)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
        return 0; /* the compiler's search skips these too */
    if (!S_ISREG(st.st_mode))
        return -1;
    *found = 1;
    w->hash = clrt__hash_str(w->hash, path);
    for (size_t i = 0; i < w->nseen; i++) {
        if (w->seen[i].dev == st.st_dev && w->seen[i].ino == st.st_ino) {
            w->hash = clrt__hash(w->hash, &w->seen[i].content, sizeof w->seen[i].content);
            return 0;
        }
    }
    char *data = NULL;
    size_t len = 0;
    if (w->nseen == CLRT__INCLUDES_MAX_FILES || depth >= MAX_DEPTH ||
        clrt__file_read(path, CLRT__INCLUDES_MAX_FILE, &data, &len) != 0)
        return -1;
    seen_file *f = &w->seen[w->nseen++];
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->content = clrt__hash(CLRT_HASH_INIT, data, len);
    w->hash = clrt__hash(w->hash, &f->content, sizeof f->content);

    /* its own #include "x" lines look in its folder first */
    const char *slash = strrchr(path, '/');
    size_t dlen = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(dlen + 1);
    int rc = -1;
    if (dir) {
        memcpy(dir, !slash ? "." : path, dlen);
        dir[dlen] = '\0';
        rc = scan(w, data, dir, depth + 1);
    }
    free(dir);
    free(data);
    return rc;
}

/* Every place the preprocessor could find name, each that exists hashed;
 * -1 when none does (the compiler would find it somewhere clrt does not know,
 * or fail). */
static int resolve(walk *w, const char *name, const char *from, int depth)
{
    int found = 0;
    if (name[0] == '/')
        return visit(w, name, depth, &found) != 0 || !found ? -1 : 0;
    char *path = malloc(PATH_CAP); /* on the heap: this recurses */
    int rc = path ? 0 : -1;
    for (size_t i = from ? 0 : 1; rc == 0 && i <= w->ndirs; i++) {
        const char *dir = i == 0 ? from : w->dirs[i - 1];
        int n = snprintf(path, PATH_CAP, "%s/%s", dir, name);
        rc = n < 0 || n >= PATH_CAP ? -1 : visit(w, path, depth, &found);
    }
    if (rc == 0) /* the working folder */
        rc = visit(w, name, depth, &found);
    free(path);
    return rc == 0 && found ? 0 : -1;
}

/* Blanks and one-line comments between the tokens of a directive. */
static const char *skip_blank(const char *p, const char *eol)
{
    for (;;) {
        while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v'))
            p++;
        if (p + 1 < eol && p[0] == '/' && p[1] == '*') {
            const char *end = p + 2;
            while (end + 1 < eol && !(end[0] == '*' && end[1] == '/'))
                end++;
            if (end + 1 >= eol)
                return eol;
            p = end + 2;
            continue;
        }
        return p;
    }
}

static int is_word(const char *p, const char *eol, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(eol - p) < n || memcmp(p, word, n) != 0)
        return 0;
    char c = p + n < eol ? p[n] : ' ';
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
}

static int scan(walk *w, const char *text, const char *from, int depth)
{
    static const char *const keywords[] = {"include_next", "include", "import"};
    for (const char *line = text; *line;) {
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        const char *p = skip_blank(line, eol);
        if (p < eol && *p == '#') {
            p = skip_blank(p + 1, eol);
            for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++) {
                if (!is_word(p, eol, keywords[k]))
                    continue;
                p = skip_blank(p + strlen(keywords[k]), eol);
                char close = p < eol && *p == '"' ? '"' : p < eol && *p == '<' ? '>' : 0;
                /* #include MACRO, or split over lines: not followed */
                const char *end = close ? memchr(p + 1, close, (size_t)(eol - p - 1)) : NULL;
                if (!end || end == p + 1 || (size_t)(end - p) >= PATH_CAP ||
                    ++w->directives > CLRT__INCLUDES_MAX_DIRECTIVES)
                    return -1;
                size_t n = (size_t)(end - p - 1);
                char *name = malloc(n + 1);
                if (!name)
                    return -1;
                memcpy(name, p + 1, n);
                name[n] = '\0';
                int rc = resolve(w, name, from, depth);
                free(name);
                if (rc != 0)
                    return -1;
                break;
            }
        }
        line = *eol ? eol + 1 : eol;
    }
    return 0;
}

int clrt__includes_hash(const char *source, const char *options, uint64_t *hash, size_t *files)
{
    walk *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    w->hash = CLRT_HASH_INIT;
    int rc = parse_options(w, options ? options : "");
    if (rc == 0)
        rc = scan(w, source, NULL, 0);
    *hash = w->hash;
    *files = w->nseen;
    for (size_t i = 0; i < w->ndirs; i++)
        free(w->dirs[i]);
    free(w);
    return rc;
}
