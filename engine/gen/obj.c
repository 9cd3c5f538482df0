#include "gen/obj.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A face with more corners than this is not a polygon anyone meant. */
#define OBJ_MAX_FACE 4096

static bool grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return true;
    int c = *cap ? *cap : 256;
    while (c < need) {
        if (c > (1 << 28)) return false;
        c *= 2;
    }
    void *n = realloc(*p, (size_t)c * elem);
    if (!n) return false;
    *p = n;
    *cap = c;
    return true;
}

int obj_add_vertex(obj_mesh *m, float x, float y, float z)
{
    if (!grow((void **)&m->v, &m->cap_v, m->nv + 1, 3 * sizeof(float))) return -1;
    float *p = &m->v[3 * m->nv];
    p[0] = x, p[1] = y, p[2] = z;
    return m->nv++;
}

int obj_add_tri(obj_mesh *m, int a, int b, int c)
{
    if (!grow((void **)&m->tri, &m->cap_t, m->nt + 1, 3 * sizeof(int))) return -1;
    int *t = &m->tri[3 * m->nt];
    t[0] = a, t[1] = b, t[2] = c;
    return m->nt++;
}

bool obj_append(obj_mesh *m, const obj_mesh *src, const float offset[3])
{
    int base = m->nv;
    for (int i = 0; i < src->nv; i++) {
        const float *p = &src->v[3 * i];
        if (obj_add_vertex(m, p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]) < 0) return false;
    }
    for (int i = 0; i < src->nt; i++) {
        const int *t = &src->tri[3 * i];
        if (obj_add_tri(m, t[0] + base, t[1] + base, t[2] + base) < 0) return false;
    }
    return true;
}

void obj_free(obj_mesh *m)
{
    free(m->v);
    free(m->tri);
    memset(m, 0, sizeof *m);
}

bool obj_bounds(const obj_mesh *m, float lo[3], float hi[3])
{
    if (m->nt == 0) return false;
    for (int i = 0; i < 3; i++) lo[i] = INFINITY, hi[i] = -INFINITY;
    for (int t = 0; t < 3 * m->nt; t++) {
        const float *p = &m->v[3 * m->tri[t]];
        for (int i = 0; i < 3; i++) {
            if (p[i] < lo[i]) lo[i] = p[i];
            if (p[i] > hi[i]) hi[i] = p[i];
        }
    }
    return true;
}

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    return s;
}

static const char *token_end(const char *s, const char *end)
{
    while (s < end && *s != ' ' && *s != '\t' && *s != '\r') s++;
    return s;
}

/* [s, e) as a C string in buf; false when empty or too long to be a number. */
static bool token_copy(const char *s, const char *e, char *buf, size_t cap)
{
    size_t n = (size_t)(e - s);
    if (n == 0 || n >= cap) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    return true;
}

/* One integer filling [s, e) exactly; false otherwise. */
static bool parse_int(const char *s, const char *e, long *out)
{
    char buf[32], *stop;
    if (!token_copy(s, e, buf, sizeof buf)) return false;
    errno = 0;
    long v = strtol(buf, &stop, 10);
    if (*stop || errno) return false;
    *out = v;
    return true;
}

static bool parse_float(const char *s, const char *e, double *out)
{
    char buf[64], *stop;
    if (!token_copy(s, e, buf, sizeof buf)) return false;
    double v = strtod(buf, &stop);
    if (*stop) return false;
    *out = v;
    return true;
}

typedef struct obj_ctx {
    const char *name;
    int line;
    char *err;
    size_t errlen;
    int *corners;
    int corner_cap;
} obj_ctx;

#define FAIL(c, ...)                                                                                                   \
    do {                                                                                                               \
        int n_ = snprintf((c)->err, (c)->errlen, "%s:%d: ", (c)->name, (c)->line);                                     \
        if (n_ >= 0 && (size_t)n_ < (c)->errlen) snprintf((c)->err + n_, (c)->errlen - (size_t)n_, __VA_ARGS__);       \
        return false;                                                                                                  \
    } while (0)

static bool parse_vertex(obj_ctx *c, obj_mesh *m, const char *s, const char *end)
{
    double v[3];
    int n = 0;
    for (s = skip_ws(s, end); s < end; s = skip_ws(s, end)) {
        const char *e = token_end(s, end);
        double d;
        if (!parse_float(s, e, &d)) FAIL(c, "'%.*s' is not a number", (int)(e - s > 40 ? 40 : e - s), s);
        /* x y z, then w or vertex colours, which we read past */
        if (n < 3) {
            if (!isfinite(d) || fabs(d) > 1e30) FAIL(c, "coordinate '%.*s' is not finite", (int)(e - s), s);
            v[n] = d;
        }
        if (++n > 7) FAIL(c, "too many numbers on a v line (at most 7)");
        s = e;
    }
    if (n < 3) FAIL(c, "a v line needs x y z (found %d numbers)", n);
    if (obj_add_vertex(m, (float)v[0], (float)v[1], (float)v[2]) < 0) FAIL(c, "out of memory");
    return true;
}

static bool parse_face(obj_ctx *c, obj_mesh *m, const char *s, const char *end)
{
    int n = 0;
    for (s = skip_ws(s, end); s < end; s = skip_ws(s, end)) {
        const char *e = token_end(s, end);
        /* v, v/vt, v//vn, v/vt/vn: only v matters, the rest must still be numbers */
        const char *slash = memchr(s, '/', (size_t)(e - s));
        const char *ve = slash ? slash : e;
        long idx;
        if (!parse_int(s, ve, &idx)) FAIL(c, "'%.*s' is not a vertex reference", (int)(e - s > 40 ? 40 : e - s), s);
        if (ve < e) { /* the /vt, /vt/vn or //vn part */
            const char *q = ve + 1, *mid = memchr(q, '/', (size_t)(e - q));
            const char *qe = mid ? mid : e;
            long dummy;
            bool ok = (qe == q || parse_int(q, qe, &dummy)) && (qe > q || mid);
            if (ok && mid) ok = e > mid + 1 && parse_int(mid + 1, e, &dummy);
            if (!ok) FAIL(c, "'%.*s' is not a vertex reference (v, v/vt, v//vn or v/vt/vn)", (int)(e - s), s);
        }
        if (idx == 0) FAIL(c, "vertex index 0 (OBJ counts from 1)");
        long abs = idx > 0 ? idx - 1 : m->nv + idx;
        if (abs < 0 || abs >= m->nv)
            FAIL(c, "vertex index %ld out of range (%d vertices so far)", idx, m->nv);
        if (n >= OBJ_MAX_FACE) FAIL(c, "face with more than %d vertices", OBJ_MAX_FACE);
        if (!grow((void **)&c->corners, &c->corner_cap, n + 1, sizeof(int))) FAIL(c, "out of memory");
        c->corners[n++] = (int)abs;
        s = e;
    }
    if (n < 3) FAIL(c, "a face needs at least 3 vertices (found %d)", n);
    /* a fan: exact for convex polygons, and what every exporter assumes */
    for (int i = 1; i + 1 < n; i++)
        if (obj_add_tri(m, c->corners[0], c->corners[i], c->corners[i + 1]) < 0) FAIL(c, "out of memory");
    return true;
}

bool obj_parse(const char *text, size_t len, const char *name, obj_mesh *out, char *err, size_t errlen)
{
    obj_mesh m = { 0 };
    obj_ctx c = { name, 0, err, errlen, NULL, 0 };
    const char *p = text, *end = text + len;
    bool ok = true;
    while (ok && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        c.line++;
        const char *s = skip_ws(p, le);
        const char *e = token_end(s, le);
        if (e - s == 1 && *s == 'v') ok = parse_vertex(&c, &m, e, le);
        else if (e - s == 1 && *s == 'f') ok = parse_face(&c, &m, e, le);
        /* vt vn vp g o s usemtl mtllib l #...: not geometry we voxelize */
        p = nl ? nl + 1 : end;
    }
    free(c.corners);
    if (ok && m.nt == 0) {
        snprintf(err, errlen, "%s: no faces (a mesh needs at least one 'f' line)", name);
        ok = false;
    }
    if (!ok) {
        obj_free(&m);
        memset(out, 0, sizeof *out);
        return false;
    }
    *out = m;
    return true;
}

/* Lines that begin with an 'f' statement (after blanks), counted without
 * parsing: the size check before the parse. */
static long count_faces(const char *text, size_t len)
{
    long n = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *s = skip_ws(p, le);
        n += token_end(s, le) - s == 1 && *s == 'f';
        p = nl ? nl + 1 : end;
    }
    return n;
}

bool obj_load(const char *path, obj_mesh *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *nb = cap < ((size_t)1 << 31) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    bool read_err = ferror(f);
    fclose(f);
    if (!buf || read_err) {
        free(buf);
        snprintf(err, errlen, "%s: %s", path, buf ? "read error" : "out of memory (file over 2 GiB?)");
        return false;
    }
    long faces = count_faces(buf, len);
    if (faces > OBJ_MAX_FACES) {
        snprintf(err, errlen,
                 "%s: %ld faces: voxelizing them would take about %.1f GiB of memory and minutes; at most %d faces "
                 "are taken (simplify the mesh)",
                 path, faces, (double)faces * OBJ_FACE_BYTES / (1 << 30), OBJ_MAX_FACES);
        free(buf);
        return false;
    }
    bool ok = obj_parse(buf, len, path, out, err, errlen);
    free(buf);
    return ok;
}

bool obj_save(const obj_mesh *m, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "# written by strata\n");
    for (int i = 0; i < m->nv; i++) fprintf(f, "v %.9g %.9g %.9g\n", m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
    for (int i = 0; i < m->nt; i++)
        fprintf(f, "f %d %d %d\n", m->tri[3 * i] + 1, m->tri[3 * i + 1] + 1, m->tri[3 * i + 2] + 1);
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) snprintf(err, errlen, "%s: write error", path);
    return ok;
}
