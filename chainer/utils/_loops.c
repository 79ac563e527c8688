/* C loops for the CPU path of convolution, batch normalization and linear
 * layers.
 *
 * NumPy moves the windows of an image (im2col) and adds them back (col2im)
 * a few elements at a time: a window row is as long as the output row, and
 * each run costs NumPy a pass through its iterator.  copyto and add walk
 * the outer axes themselves and move or add each run in one go.  They
 * compute exactly what NumPy's copy and in-place addition compute: the
 * same IEEE additions in the same order, bit for bit.
 *
 * bn_forward and bn_backward do batch normalization one channel at a time,
 * so that a channel's data is still in the cache for the second and third
 * pass over it (NumPy makes about ten passes over the whole batch, each
 * with a temporary).  They round differently from NumPy's formulas, within
 * float tolerance.
 *
 * winograd_input, winograd_output and winograd_grad make the operands of
 * Winograd F(2x2, 3x3) convolutions (chainer.functions.connection.
 * _winograd) and take the results back: sums and differences of tiles,
 * whose rounding differs from a direct convolution's within float
 * tolerance, the same bits from run to run.
 *
 * linear_nt and linear_nn are the products of F.linear for a few rows
 * against a large float32 weight (an LSTM language model's output layer),
 * which read the weight once, in place, where BLAS copies it first; they
 * round differently from BLAS within float tolerance, the same bits from
 * run to run.  F.matmul's a @ b.T of a few rows uses linear_nt too.
 *
 * tanh_grad, relu and relu_grad are tanh's gradient, ReLU and its
 * gradient in one pass each, with NumPy's bits, on the threads set.
 *
 * softmax_ce_lse and softmax_ce_grad are softmax cross entropy over many
 * classes: each row's log-sum-exp in two passes over it, the gradient in
 * one, with an exponential of their own (within 1.25 ulp of the exact one),
 * so within float tolerance of NumPy's, the same bits from run to run.
 *
 * They see the arrays through the buffer protocol only (no NumPy headers,
 * so one build serves every NumPy).  chainer.utils.conv_nd and
 * chainer.functions.normalization.batch_normalization and
 * chainer.functions.connection.linear, matmul, tanh, relu and
 * softmax_cross_entropy use them when this module is built, and NumPy
 * otherwise.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_AXES 32

/* Two same-shaped strided arrays, their axes merged where both are
 * contiguous across them, and size-1 axes dropped. */
typedef struct {
    int ndim;
    Py_ssize_t shape[MAX_AXES];
    Py_ssize_t dst_strides[MAX_AXES];
    Py_ssize_t src_strides[MAX_AXES];
} pair_layout;

static void
merge_axes(const Py_buffer *dst, const Py_buffer *src, pair_layout *out)
{
    int n = 0;
    for (int i = 0; i < dst->ndim; i++) {
        Py_ssize_t len = dst->shape[i];
        if (len == 0) {
            out->ndim = -1;  /* nothing to do */
            return;
        }
        if (len == 1) {
            continue;
        }
        if (n > 0 &&
                out->dst_strides[n - 1] == len * dst->strides[i] &&
                out->src_strides[n - 1] == len * src->strides[i]) {
            out->shape[n - 1] *= len;
            out->dst_strides[n - 1] = dst->strides[i];
            out->src_strides[n - 1] = src->strides[i];
            continue;
        }
        out->shape[n] = len;
        out->dst_strides[n] = dst->strides[i];
        out->src_strides[n] = src->strides[i];
        n++;
    }
    if (n == 0) {  /* a single element */
        out->shape[0] = 1;
        out->dst_strides[0] = dst->itemsize;
        out->src_strides[0] = src->itemsize;
        n = 1;
    }
    out->ndim = n;
}

/* The two innermost axes of a walk: rows of len items, with steps
 * dstride and sstride between items and dstep and sstep between rows. */
typedef struct {
    Py_ssize_t rows, len, dstride, sstride, dstep, sstep, itemsize;
} plane;

typedef void (*plane_fn)(char *dst, const char *src, const plane *p);

/* A loop per item type and operation; the contiguous case has its own
 * loop, which the compiler turns into vector moves or additions (each
 * addition stays one IEEE addition of two items). */
#define PLANE_LOOP(name, type, OP)                                          \
static void                                                                 \
name(char *dst, const char *src, const plane *p)                            \
{                                                                           \
    Py_ssize_t n = p->len;                                                  \
    if (p->dstride == sizeof(type) && p->sstride == sizeof(type)) {         \
        for (Py_ssize_t r = 0; r < p->rows; r++) {                          \
            type *d = (type *)dst;                                          \
            const type *s = (const type *)src;                              \
            for (Py_ssize_t i = 0; i < n; i++) {                            \
                OP(d[i], s[i]);                                             \
            }                                                               \
            dst += p->dstep;                                                \
            src += p->sstep;                                                \
        }                                                                   \
        return;                                                             \
    }                                                                       \
    for (Py_ssize_t r = 0; r < p->rows; r++) {                              \
        char *d = dst;                                                      \
        const char *s = src;                                                \
        for (Py_ssize_t i = 0; i < n; i++) {                                \
            OP(*(type *)d, *(const type *)s);                               \
            d += p->dstride;                                                \
            s += p->sstride;                                                \
        }                                                                   \
        dst += p->dstep;                                                    \
        src += p->sstep;                                                    \
    }                                                                       \
}

#define COPY(d, s) ((d) = (s))
#define ADD(d, s) ((d) = (d) + (s))

PLANE_LOOP(copy_1, uint8_t, COPY)
PLANE_LOOP(copy_2, uint16_t, COPY)
PLANE_LOOP(copy_4, uint32_t, COPY)
PLANE_LOOP(copy_8, uint64_t, COPY)
PLANE_LOOP(add_f, float, ADD)
PLANE_LOOP(add_d, double, ADD)

/* Items of other sizes (complex, structured) move as bytes. */
static void
copy_bytes(char *dst, const char *src, const plane *p)
{
    Py_ssize_t size = p->itemsize;
    for (Py_ssize_t r = 0; r < p->rows; r++) {
        char *d = dst;
        const char *s = src;
        for (Py_ssize_t i = 0; i < p->len; i++) {
            memcpy(d, s, (size_t)size);
            d += p->dstride;
            s += p->sstride;
        }
        dst += p->dstep;
        src += p->sstep;
    }
}

/* Calls fn on every plane of the two innermost axes, the outer axes in
 * row-major order. */
static void
walk(const pair_layout *lay, char *dst, const char *src, Py_ssize_t itemsize,
     plane_fn fn)
{
    int nd = lay->ndim;
    plane p;
    p.itemsize = itemsize;
    p.len = lay->shape[nd - 1];
    p.dstride = lay->dst_strides[nd - 1];
    p.sstride = lay->src_strides[nd - 1];
    if (nd == 1) {
        p.rows = 1;
        p.dstep = p.sstep = 0;
        fn(dst, src, &p);
        return;
    }
    p.rows = lay->shape[nd - 2];
    p.dstep = lay->dst_strides[nd - 2];
    p.sstep = lay->src_strides[nd - 2];
    int outer = nd - 2;  /* axes 0 .. outer - 1 are walked here */
    Py_ssize_t index[MAX_AXES] = {0};
    for (;;) {
        fn(dst, src, &p);
        int axis = outer - 1;
        while (axis >= 0) {
            dst += lay->dst_strides[axis];
            src += lay->src_strides[axis];
            if (++index[axis] < lay->shape[axis]) {
                break;
            }
            dst -= lay->dst_strides[axis] * lay->shape[axis];
            src -= lay->src_strides[axis] * lay->shape[axis];
            index[axis] = 0;
            axis--;
        }
        if (axis < 0) {
            return;
        }
    }
}

static plane_fn
copy_for_itemsize(Py_ssize_t itemsize)
{
    switch (itemsize) {
    case 1: return copy_1;
    case 2: return copy_2;
    case 4: return copy_4;
    case 8: return copy_8;
    default: return copy_bytes;
    }
}

/* 'f' for float32, 'd' for float64 (format codes as NumPy exports them),
 * 0 for anything else. */
static char
float_code(const char *format, Py_ssize_t itemsize)
{
    if (format == NULL) {
        return 0;
    }
    if (*format == '<' || *format == '=' || *format == '@') {
        format++;
    }
    if (strcmp(format, "f") == 0 && itemsize == 4) {
        return 'f';
    }
    if (strcmp(format, "d") == 0 && itemsize == 8) {
        return 'd';
    }
    return 0;
}

static plane_fn
add_for_format(const char *format, Py_ssize_t itemsize)
{
    char code = float_code(format, itemsize);
    return code == 'f' ? add_f : code == 'd' ? add_d : NULL;
}

static PyObject *
apply(PyObject *args, const char *name, int add)
{
    PyObject *dst_obj, *src_obj;
    Py_buffer dst, src;
    pair_layout lay;
    plane_fn run;

    if (!PyArg_ParseTuple(args, "OO", &dst_obj, &src_obj)) {
        return NULL;
    }
    if (PyObject_GetBuffer(dst_obj, &dst,
                           PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE)) {
        return NULL;
    }
    if (PyObject_GetBuffer(src_obj, &src, PyBUF_STRIDES | PyBUF_FORMAT)) {
        PyBuffer_Release(&dst);
        return NULL;
    }
    if (dst.ndim != src.ndim || dst.ndim > MAX_AXES ||
            dst.itemsize != src.itemsize || (dst.ndim > 0 &&
            memcmp(dst.shape, src.shape, sizeof(Py_ssize_t) * dst.ndim))) {
        PyErr_Format(PyExc_ValueError,
                     "%s: dst and src must have the same shape (at most %d "
                     "axes) and item size", name, MAX_AXES);
        goto fail;
    }
    run = copy_for_itemsize(dst.itemsize);
    if (add) {
        run = add_for_format(dst.format, dst.itemsize);
        if (run == NULL || add_for_format(src.format, src.itemsize) != run) {
            PyErr_Format(PyExc_TypeError,
                         "%s: float32 or float64 arrays of one dtype "
                         "expected", name);
            goto fail;
        }
    }
    merge_axes(&dst, &src, &lay);
    if (lay.ndim > 0) {
        Py_BEGIN_ALLOW_THREADS
        walk(&lay, (char *)dst.buf, (const char *)src.buf, dst.itemsize,
             run);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&dst);
    PyBuffer_Release(&src);
    Py_RETURN_NONE;
fail:
    PyBuffer_Release(&dst);
    PyBuffer_Release(&src);
    return NULL;
}


/* ---- channels split among threads ------------------------------------ */

/* The kernels below work channel by channel (or row by row), so the
 * channels can go to several threads (the same arithmetic, in the same
 * order, whatever the split).  Threads are started per call (tens of microseconds), only for
 * calls with enough work; set_threads sets how many, 1 by default. */
#define MAX_THREADS 16
#define MIN_WORK 65536  /* items per thread */

typedef void (*range_fn)(const void *job, Py_ssize_t lo, Py_ssize_t hi);

typedef struct {
    range_fn fn;
    const void *job;
    Py_ssize_t lo, hi;
    PyThread_type_lock done;
} part;

static int max_threads = 1;

static void
run_part(void *arg)
{
    part *p = arg;
    p->fn(p->job, p->lo, p->hi);
    PyThread_release_lock(p->done);
}

/* fn(job, lo, hi) over [0, count) for work items in all, on up to t
 * threads; called without the GIL.  Parts that cannot get a thread run in
 * the caller. */
static void
split_among(range_fn fn, const void *job, Py_ssize_t count, double work,
            Py_ssize_t t)
{
    if (t > count) {
        t = count;
    }
    if (t > work / MIN_WORK) {
        t = (Py_ssize_t)(work / MIN_WORK);
    }
    if (t <= 1) {
        fn(job, 0, count);
        return;
    }
    part parts[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (Py_ssize_t i = 1; i < t; i++) {
        part *p = &parts[i];
        p->fn = fn;
        p->job = job;
        p->lo = count * i / t;
        p->hi = count * (i + 1) / t;
        p->done = PyThread_allocate_lock();
        if (p->done == NULL) {
            continue;
        }
        PyThread_acquire_lock(p->done, WAIT_LOCK);
        if (PyThread_start_new_thread(run_part, p) ==
                PYTHREAD_INVALID_THREAD_ID) {
            PyThread_release_lock(p->done);
            PyThread_free_lock(p->done);
            continue;
        }
        started[i] = 1;
    }
    fn(job, 0, count / t);
    for (Py_ssize_t i = 1; i < t; i++) {
        if (started[i]) {
            PyThread_acquire_lock(parts[i].done, WAIT_LOCK);
            PyThread_release_lock(parts[i].done);
            PyThread_free_lock(parts[i].done);
        } else {
            fn(job, count * i / t, count * (i + 1) / t);
        }
    }
}

static void
split(range_fn fn, const void *job, Py_ssize_t count, double work)
{
    split_among(fn, job, count, work, max_threads);
}

static PyObject *
set_threads(PyObject *self, PyObject *arg)
{
    (void)self;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    max_threads = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
    return PyLong_FromLong(max_threads);
}


/* ---- 2-d windows (im2col) and their sums (col2im), zero padding done in
 * place: no padded copy of the image, no cropped copy of the sums ------- */

typedef struct {
    Py_ssize_t b, c, h, w;          /* the image (b, c, h, w) */
    Py_ssize_t sb, sc, sh, sw;      /* its strides, in items */
    Py_ssize_t kh, kw, oh, ow;      /* the kernel, windows along each axis */
    Py_ssize_t sy, sx, ph, pw, dy, dx;
} win2d;

/* Of the positions first + o * step (o < n), those with o in [lo, hi) lie
 * inside [0, size). */
static void
inside(Py_ssize_t first, Py_ssize_t step, Py_ssize_t n, Py_ssize_t size,
       Py_ssize_t *lo, Py_ssize_t *hi)
{
    Py_ssize_t l = first >= 0 ? 0 : (-first + step - 1) / step;
    Py_ssize_t h = first >= size ? 0 : (size - 1 - first) / step + 1;
    h = h < n ? h : n;
    *lo = l < h ? l : h;
    *hi = h;
}

/* dst (c, kh, kw, b, oh, ow), C-contiguous, takes the windows of the image
 * (zeros outside it), its rows (c, ky, kx) r0 to r1 - 1. */
#define IM2COL(T)                                                           \
static void                                                                 \
im2col_##T(T *dst, const T *src, const win2d *g, Py_ssize_t r0,             \
           Py_ssize_t r1)                                                   \
{                                                                           \
    Py_ssize_t ow = g->ow, block = g->oh * ow;                              \
    Py_ssize_t ystep = g->sy * g->sh, xstep = g->sx * g->sw;                \
    for (Py_ssize_t r = r0; r < r1; r++) {                                  \
        Py_ssize_t c = r / (g->kh * g->kw);                                 \
        Py_ssize_t ky = r / g->kw % g->kh, kx = r % g->kw;                  \
        Py_ssize_t ylo, yhi, xlo, xhi;                                      \
        inside(ky * g->dy - g->ph, g->sy, g->oh, g->h, &ylo, &yhi);         \
        inside(kx * g->dx - g->pw, g->sx, ow, g->w, &xlo, &xhi);            \
        Py_ssize_t len = xhi - xlo;                                         \
        for (Py_ssize_t b = 0; b < g->b; b++) {                             \
            T *d = dst + (r * g->b + b) * block;                            \
            for (Py_ssize_t i = 0; i < ylo * ow; i++) {                     \
                d[i] = 0;                                                   \
            }                                                               \
            for (Py_ssize_t i = yhi * ow; i < block; i++) {                 \
                d[i] = 0;                                                   \
            }                                                               \
            if (ylo == yhi) {                                               \
                continue;                                                   \
            }                                                               \
            const T *row = src + b * g->sb + c * g->sc +                    \
                (ylo * g->sy - g->ph + ky * g->dy) * g->sh +                \
                (xlo * g->sx - g->pw + kx * g->dx) * g->sw;                 \
            for (Py_ssize_t oy = ylo; oy < yhi; oy++, row += ystep) {       \
                T *out = d + oy * ow;                                       \
                for (Py_ssize_t i = 0; i < xlo; i++) {                      \
                    out[i] = 0;                                             \
                }                                                           \
                if (xstep == 1) {                                           \
                    for (Py_ssize_t i = 0; i < len; i++) {                  \
                        out[xlo + i] = row[i];                              \
                    }                                                       \
                } else {                                                    \
                    for (Py_ssize_t i = 0; i < len; i++) {                  \
                        out[xlo + i] = row[i * xstep];                      \
                    }                                                       \
                }                                                           \
                for (Py_ssize_t i = xhi; i < ow; i++) {                     \
                    out[i] = 0;                                             \
                }                                                           \
            }                                                               \
        }                                                                   \
    }                                                                       \
}

IM2COL(uint16_t)
IM2COL(uint32_t)
IM2COL(uint64_t)

/* img (b, c, h, w), C-contiguous, becomes the sums of the windows of col
 * (c, kh, kw, b, oh, ow), C-contiguous, its channels c0 to c1 - 1: each
 * pixel starts from +0.0 and takes its windows in (ky, kx) order. */
#define COL2IM(T)                                                           \
static void                                                                 \
col2im_##T(T *img, const T *col, const win2d *g, Py_ssize_t c0,             \
           Py_ssize_t c1)                                                   \
{                                                                           \
    Py_ssize_t plane = g->h * g->w, ow = g->ow, block = g->oh * ow;         \
    Py_ssize_t ystep = g->sy * g->w, sx = g->sx;                            \
    for (Py_ssize_t c = c0; c < c1; c++) {                                  \
        for (Py_ssize_t b = 0; b < g->b; b++) {                             \
            memset(img + (b * g->c + c) * plane, 0, sizeof(T) * plane);     \
        }                                                                   \
        for (Py_ssize_t ky = 0; ky < g->kh; ky++)                           \
        for (Py_ssize_t kx = 0; kx < g->kw; kx++) {                         \
            Py_ssize_t ylo, yhi, xlo, xhi;                                  \
            inside(ky * g->dy - g->ph, g->sy, g->oh, g->h, &ylo, &yhi);     \
            inside(kx * g->dx - g->pw, sx, ow, g->w, &xlo, &xhi);           \
            Py_ssize_t len = xhi - xlo;                                     \
            if (ylo == yhi || len == 0) {                                   \
                continue;                                                   \
            }                                                               \
            const T *cols = col + ((c * g->kh + ky) * g->kw + kx) * g->b *  \
                block + ylo * ow + xlo;                                     \
            for (Py_ssize_t b = 0; b < g->b; b++) {                         \
                T *row = img + (b * g->c + c) * plane +                     \
                    (ylo * g->sy - g->ph + ky * g->dy) * g->w +             \
                    xlo * sx - g->pw + kx * g->dx;                          \
                const T *in = cols + b * block;                             \
                for (Py_ssize_t oy = ylo; oy < yhi;                         \
                     oy++, row += ystep, in += ow) {                        \
                    if (sx == 1) {                                          \
                        for (Py_ssize_t i = 0; i < len; i++) {              \
                            row[i] += in[i];                                \
                        }                                                   \
                    } else {                                                \
                        for (Py_ssize_t i = 0; i < len; i++) {              \
                            row[i * sx] += in[i];                           \
                        }                                                   \
                    }                                                       \
                }                                                           \
            }                                                               \
        }                                                                   \
    }                                                                       \
}

COL2IM(float)
COL2IM(double)

typedef struct {
    win2d g;
    void *img, *col;
    Py_ssize_t itemsize;
    int sums;
} win_job;

static void
win_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const win_job *j = job;
    if (j->sums) {
        if (j->itemsize == 4) {
            col2im_float(j->img, j->col, &j->g, lo, hi);
        } else {
            col2im_double(j->img, j->col, &j->g, lo, hi);
        }
    } else if (j->itemsize == 2) {
        im2col_uint16_t(j->col, j->img, &j->g, lo, hi);
    } else if (j->itemsize == 4) {
        im2col_uint32_t(j->col, j->img, &j->g, lo, hi);
    } else {
        im2col_uint64_t(j->col, j->img, &j->g, lo, hi);
    }
}

/* The geometry from the image and column buffers; -1 with an exception
 * set where they do not fit. */
static int
get_win2d(const Py_buffer *img, const Py_buffer *col, Py_ssize_t *geom,
          win2d *g, const char *name)
{
    Py_ssize_t item = img->itemsize;
    if (img->ndim != 4 || col->ndim != 6 || col->itemsize != item) {
        PyErr_Format(PyExc_ValueError, "%s: a 4-d image and 6-d columns of "
                     "one item size expected", name);
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        if (img->strides[i] % item) {
            PyErr_Format(PyExc_ValueError, "%s: unaligned strides", name);
            return -1;
        }
    }
    g->b = img->shape[0];
    g->c = img->shape[1];
    g->h = img->shape[2];
    g->w = img->shape[3];
    g->sb = img->strides[0] / item;
    g->sc = img->strides[1] / item;
    g->sh = img->strides[2] / item;
    g->sw = img->strides[3] / item;
    g->kh = col->shape[1];
    g->kw = col->shape[2];
    g->oh = col->shape[4];
    g->ow = col->shape[5];
    g->sy = geom[0];
    g->sx = geom[1];
    g->ph = geom[2];
    g->pw = geom[3];
    g->dy = geom[4];
    g->dx = geom[5];
    if (col->shape[0] != g->c || col->shape[3] != g->b || g->sy < 1 ||
            g->sx < 1 || g->dy < 1 || g->dx < 1 || g->ph < 0 || g->pw < 0) {
        PyErr_Format(PyExc_ValueError, "%s: columns (c, kh, kw, b, oh, ow) "
                     "of the image (b, c, h, w), positive strides and "
                     "dilations and pads of at least 0 expected", name);
        return -1;
    }
    return 0;
}

static PyObject *
windows_2d(PyObject *args, int sums)
{
    PyObject *a, *b;
    Py_ssize_t geom[6];
    Py_buffer img, col;
    win_job job;
    const char *name = sums ? "col2im_2d" : "im2col_2d";
    if (!PyArg_ParseTuple(args, "OO(nnnnnn)", &a, &b, &geom[0], &geom[1],
                          &geom[2], &geom[3], &geom[4], &geom[5])) {
        return NULL;
    }
    /* im2col_2d(col, img, geom) reads img; col2im_2d(img, col, geom)
     * writes it */
    PyObject *img_obj = sums ? a : b, *col_obj = sums ? b : a;
    int img_flags = PyBUF_FORMAT | (sums ? PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE
                                         : PyBUF_STRIDES);
    int col_flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS |
        (sums ? 0 : PyBUF_WRITABLE);
    if (PyObject_GetBuffer(img_obj, &img, img_flags)) {
        return NULL;
    }
    if (PyObject_GetBuffer(col_obj, &col, col_flags)) {
        PyBuffer_Release(&img);
        return NULL;
    }
    if (get_win2d(&img, &col, geom, &job.g, name)) {
        goto fail;
    }
    job.img = img.buf;
    job.col = col.buf;
    job.itemsize = img.itemsize;
    job.sums = sums;
    if (sums) {
        plane_fn add = add_for_format(img.format, img.itemsize);
        if (add == NULL || add_for_format(col.format, col.itemsize) != add) {
            PyErr_Format(PyExc_TypeError, "%s: float32 or float64 arrays of "
                         "one dtype expected", name);
            goto fail;
        }
    } else if (img.itemsize != 2 && img.itemsize != 4 &&
               img.itemsize != 8) {
        PyErr_Format(PyExc_TypeError, "%s: items of 2, 4 or 8 bytes "
                     "expected", name);
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    /* im2col splits its rows, col2im its channels (whose windows overlap) */
    split(win_range, &job, sums ? job.g.c : job.g.c * job.g.kh * job.g.kw,
          (double)col.len / col.itemsize);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&img);
    PyBuffer_Release(&col);
    Py_RETURN_NONE;
fail:
    PyBuffer_Release(&img);
    PyBuffer_Release(&col);
    return NULL;
}

static PyObject *
im2col_2d(PyObject *self, PyObject *args)
{
    (void)self;
    return windows_2d(args, 0);
}

static PyObject *
col2im_2d(PyObject *self, PyObject *args)
{
    (void)self;
    return windows_2d(args, 1);
}

/* ---- batch normalization over (n, c, s) C-contiguous arrays ----------- */

/* The sums of a row run in LANES partial sums of the item type, which the
 * compiler keeps in vector registers; each row's total joins a double.
 * A channel's statistics are thus accurate and the same from run to run. */
#define LANES 16

#define BN_KERNELS(T)                                                       \
static double                                                               \
row_sum_##T(const T *x, Py_ssize_t n)                                       \
{                                                                           \
    T acc[LANES] = {0};                                                     \
    Py_ssize_t i = 0;                                                       \
    for (; i + LANES <= n; i += LANES) {                                    \
        for (int j = 0; j < LANES; j++) {                                   \
            acc[j] += x[i + j];                                             \
        }                                                                   \
    }                                                                       \
    double total = 0;                                                       \
    for (; i < n; i++) {                                                    \
        total += x[i];                                                      \
    }                                                                       \
    for (int j = 0; j < LANES; j++) {                                       \
        total += acc[j];                                                    \
    }                                                                       \
    return total;                                                           \
}                                                                           \
                                                                            \
/* sum (x - m) * g over a row (g = x - m when g is NULL) */                 \
static double                                                               \
row_dot_##T(const T *x, const T *g, T m, Py_ssize_t n)                      \
{                                                                           \
    T acc[LANES] = {0};                                                     \
    Py_ssize_t i = 0;                                                       \
    double total = 0;                                                       \
    if (g == NULL) {                                                        \
        for (; i + LANES <= n; i += LANES) {                                \
            for (int j = 0; j < LANES; j++) {                               \
                T d = x[i + j] - m;                                         \
                acc[j] += d * d;                                            \
            }                                                               \
        }                                                                   \
        for (; i < n; i++) {                                                \
            total += (double)(x[i] - m) * (x[i] - m);                       \
        }                                                                   \
    } else {                                                                \
        for (; i + LANES <= n; i += LANES) {                                \
            for (int j = 0; j < LANES; j++) {                               \
                acc[j] += (x[i + j] - m) * g[i + j];                        \
            }                                                               \
        }                                                                   \
        for (; i < n; i++) {                                                \
            total += (double)(x[i] - m) * g[i];                             \
        }                                                                   \
    }                                                                       \
    for (int j = 0; j < LANES; j++) {                                       \
        total += acc[j];                                                    \
    }                                                                       \
    return total;                                                           \
}                                                                           \
                                                                            \
/* y = (x - mean) * (gamma / sqrt(var + eps)) + beta, with the mean and    \
 * the biased variance of each channel written out. */                      \
static void                                                                 \
bn_forward_##T(T *y, const T *x, Py_ssize_t n, Py_ssize_t c, Py_ssize_t s, \
               const double *gamma, const double *beta, double eps,         \
               double *mean, double *var, Py_ssize_t k0, Py_ssize_t k1)     \
{                                                                           \
    double count = (double)n * (double)s;                                   \
    for (Py_ssize_t k = k0; k < k1; k++) {                                  \
        double total = 0;                                                   \
        for (Py_ssize_t i = 0; i < n; i++) {                                \
            total += row_sum_##T(x + (i * c + k) * s, s);                   \
        }                                                                   \
        T m = (T)(total / count);                                           \
        double sq = 0;                                                      \
        for (Py_ssize_t i = 0; i < n; i++) {                                \
            sq += row_dot_##T(x + (i * c + k) * s, NULL, m, s);             \
        }                                                                   \
        mean[k] = (double)m;                                                \
        var[k] = sq / count;                                                \
        T a = (T)(gamma[k] / sqrt(var[k] + eps));                           \
        T b = (T)beta[k];                                                   \
        for (Py_ssize_t i = 0; i < n; i++) {                                \
            const T *xr = x + (i * c + k) * s;                              \
            T *yr = y + (i * c + k) * s;                                    \
            for (Py_ssize_t j = 0; j < s; j++) {                            \
                yr[j] = (xr[j] - m) * a + b;                                \
            }                                                               \
        }                                                                   \
    }                                                                       \
}                                                                           \
                                                                            \
/* The gradients of bn_forward's y given gy (mean and inv_std as it        \
 * computed them): ggamma = sum gy xhat, gbeta = sum gy and                 \
 * gx = gamma inv_std (gy - (xhat ggamma + gbeta) / m). */                  \
static void                                                                 \
bn_backward_##T(T *gx, const T *x, const T *gy, Py_ssize_t n, Py_ssize_t c, \
                Py_ssize_t s, const double *mean, const double *inv_std,    \
                const double *gamma, double *ggamma, double *gbeta,         \
                Py_ssize_t k0, Py_ssize_t k1)                               \
{                                                                           \
    double count = (double)n * (double)s;                                   \
    for (Py_ssize_t k = k0; k < k1; k++) {                                  \
        T m = (T)mean[k];                                                   \
        double sg = 0, sgd = 0;                                             \
        for (Py_ssize_t i = 0; i < n; i++) {                                \
            Py_ssize_t at = (i * c + k) * s;                                \
            sg += row_sum_##T(gy + at, s);                                  \
            sgd += row_dot_##T(x + at, gy + at, m, s);                      \
        }                                                                   \
        ggamma[k] = sgd * inv_std[k];                                       \
        gbeta[k] = sg;                                                      \
        double a = gamma[k] * inv_std[k];                                   \
        T ta = (T)a;                                                        \
        T tb = (T)(-a * inv_std[k] * ggamma[k] / count);                    \
        T tc = (T)(-a * sg / count);                                        \
        for (Py_ssize_t i = 0; i < n; i++) {                                \
            Py_ssize_t at = (i * c + k) * s;                                \
            const T *xr = x + at, *gr = gy + at;                            \
            T *out = gx + at;                                               \
            for (Py_ssize_t j = 0; j < s; j++) {                            \
                out[j] = ta * gr[j] + (tb * (xr[j] - m) + tc);              \
            }                                                               \
        }                                                                   \
    }                                                                       \
}

BN_KERNELS(float)
BN_KERNELS(double)

/* What a loop called with soft set returns: False, the exception cleared,
 * where its arrays are not what it takes (the caller then computes another
 * way), True when done; without soft, the exception and None. */
static PyObject *
refused(int soft)
{
    if (!soft) {
        return NULL;
    }
    PyErr_Clear();
    Py_RETURN_FALSE;
}

static PyObject *
done(int soft)
{
    if (soft) {
        Py_RETURN_TRUE;
    }
    Py_RETURN_NONE;
}

/* A C-contiguous buffer of n items of kind 'f' (float32) or 'd' (float64);
 * -1 with an exception set otherwise. */
static int
get_items(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t n,
          char kind, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT;
    if (writable) {
        flags |= PyBUF_WRITABLE;
    }
    if (PyObject_GetBuffer(obj, view, flags)) {
        return -1;
    }
    if (float_code(view->format, view->itemsize) != kind ||
            view->len != n * view->itemsize) {
        PyErr_Format(PyExc_TypeError,
                     "%s: expected %zd C-contiguous %s items", name, n,
                     kind == 'd' ? "float64" : "float32");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static char
float_kind(PyObject *obj)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_FORMAT)) {
        return 0;
    }
    char kind = float_code(view.format, view.itemsize);
    PyBuffer_Release(&view);
    if (!kind) {
        PyErr_SetString(PyExc_TypeError, "float32 or float64 expected");
    }
    return kind;
}

typedef struct {
    char kind;
    void *out;
    const void *x, *gy;
    Py_ssize_t n, c, s;
    const double *gamma, *beta, *mean_in, *inv_std;
    double eps;
    double *mean, *var, *ggamma, *gbeta;
} bn_job;

static void
bn_forward_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const bn_job *j = job;
    if (j->kind == 'f') {
        bn_forward_float(j->out, j->x, j->n, j->c, j->s, j->gamma, j->beta,
                         j->eps, j->mean, j->var, lo, hi);
    } else {
        bn_forward_double(j->out, j->x, j->n, j->c, j->s, j->gamma, j->beta,
                          j->eps, j->mean, j->var, lo, hi);
    }
}

static void
bn_backward_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const bn_job *j = job;
    if (j->kind == 'f') {
        bn_backward_float(j->out, j->x, j->gy, j->n, j->c, j->s, j->mean_in,
                          j->inv_std, j->gamma, j->ggamma, j->gbeta, lo, hi);
    } else {
        bn_backward_double(j->out, j->x, j->gy, j->n, j->c, j->s, j->mean_in,
                           j->inv_std, j->gamma, j->ggamma, j->gbeta, lo,
                           hi);
    }
}

typedef struct {
    PyObject *obj;
    int writable;
    Py_ssize_t n;
    char kind;
    const char *name;
} item_spec;

/* The buffers of count specs, or -1 with none held and an exception set. */
static int
get_all(const item_spec *spec, Py_buffer *bufs, int count)
{
    for (int i = 0; i < count; i++) {
        if (get_items(spec[i].obj, &bufs[i], spec[i].writable, spec[i].n,
                      spec[i].kind, spec[i].name)) {
            while (i-- > 0) {
                PyBuffer_Release(&bufs[i]);
            }
            return -1;
        }
    }
    return 0;
}

/* x's kind ('f' or 'd') where n, c and s are sizes; 0 with an exception
 * set otherwise. */
static char
bn_kind(PyObject *x, Py_ssize_t n, Py_ssize_t c, Py_ssize_t s,
        const char *name)
{
    char kind = float_kind(x);
    if (kind && (n < 0 || c < 0 || s < 0)) {
        PyErr_Format(PyExc_ValueError, "%s: negative size", name);
        return 0;
    }
    return kind;
}

/* fn over job's channels without the GIL, then the count buffers
 * released. */
static PyObject *
bn_run(range_fn fn, const bn_job *job, Py_buffer *bufs, int count)
{
    Py_BEGIN_ALLOW_THREADS
    split(fn, job, job->c, 3.0 * job->n * job->c * job->s);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < count; i++) {
        PyBuffer_Release(&bufs[i]);
    }
    Py_RETURN_NONE;
}

static PyObject *
bn_forward(PyObject *self, PyObject *args)
{
    PyObject *y, *x, *gamma, *beta, *mean, *var;
    Py_ssize_t n, c, s;
    double eps;
    Py_buffer b[6];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOnnnOOdOO", &y, &x, &n, &c, &s, &gamma,
                          &beta, &eps, &mean, &var)) {
        return NULL;
    }
    char kind = bn_kind(x, n, c, s, "bn_forward");
    if (!kind) {
        return NULL;
    }
    item_spec spec[6] = {
        {y, 1, n * c * s, kind, "bn_forward y"},
        {x, 0, n * c * s, kind, "bn_forward x"},
        {gamma, 0, c, 'd', "bn_forward gamma"},
        {beta, 0, c, 'd', "bn_forward beta"},
        {mean, 1, c, 'd', "bn_forward mean"},
        {var, 1, c, 'd', "bn_forward var"},
    };
    if (get_all(spec, b, 6)) {
        return NULL;
    }
    bn_job job = {kind, b[0].buf, b[1].buf, NULL, n, c, s, b[2].buf, b[3].buf,
                  NULL, NULL, eps, b[4].buf, b[5].buf, NULL, NULL};
    return bn_run(bn_forward_range, &job, b, 6);
}

static PyObject *
bn_backward(PyObject *self, PyObject *args)
{
    PyObject *gx, *x, *gy, *mean, *inv_std, *gamma, *ggamma, *gbeta;
    Py_ssize_t n, c, s;
    Py_buffer b[8];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOnnnOOOOO", &gx, &x, &gy, &n, &c, &s,
                          &mean, &inv_std, &gamma, &ggamma, &gbeta)) {
        return NULL;
    }
    char kind = bn_kind(x, n, c, s, "bn_backward");
    if (!kind) {
        return NULL;
    }
    item_spec spec[8] = {
        {gx, 1, n * c * s, kind, "bn_backward gx"},
        {x, 0, n * c * s, kind, "bn_backward x"},
        {gy, 0, n * c * s, kind, "bn_backward gy"},
        {mean, 0, c, 'd', "bn_backward mean"},
        {inv_std, 0, c, 'd', "bn_backward inv_std"},
        {gamma, 0, c, 'd', "bn_backward gamma"},
        {ggamma, 1, c, 'd', "bn_backward ggamma"},
        {gbeta, 1, c, 'd', "bn_backward gbeta"},
    };
    if (get_all(spec, b, 8)) {
        return NULL;
    }
    bn_job job = {kind, b[0].buf, b[1].buf, b[2].buf, n, c, s, b[5].buf, NULL,
                  b[3].buf, b[4].buf, 0, NULL, NULL, b[6].buf, b[7].buf};
    return bn_run(bn_backward_range, &job, b, 8);
}

/* ---- Winograd F(2x2, 3x3): the tile transforms of a 3x3 convolution of
 * stride 1 --------------------------------------------------------------
 *
 * A 2x2 output tile is A^T [(G g G^T) . (B^T d B)] A for the 4x4 input
 * tile d under it and a 3x3 filter g (Lavin and Gray, 2016): 16 products
 * per tile and channel pair instead of 36.  The products are 16 GEMMs in
 * NumPy, one per position p = 4 i + j of the 4x4 tile; these loops make
 * their operands.  Tiles are numbered (sample, tile row, tile column); a
 * tile array is (16, channels, tiles), each position's (channels, tiles)
 * block C-contiguous, so that a GEMM row is one channel's tiles (the
 * blocks may lie further apart: see ps).  The loops work plane by plane:
 * a plane's rows are first split into even and odd columns (zeros outside
 * the image), so that the tile loops below read and write unit-stride
 * runs, which the compiler vectorizes over the tiles of a row. */

/* The tile loops run in the widest vectors the CPU has (a clone per
 * instruction set, picked at load time where GCC makes them); their
 * helpers are inlined into each clone. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define WINO_CLONES __attribute__((target_clones("avx512f", "avx2", \
                                                 "default")))
#else
#define WINO_CLONES
#endif
#if defined(__GNUC__)
#define WINO_INLINE static inline __attribute__((always_inline))
#else
#define WINO_INLINE static
#endif

/* Pointers that the loops below never reach through another, so that the
 * compiler vectorizes without checking (every C compiler we know takes
 * this spelling). */
#define RESTRICT __restrict

typedef struct {
    Py_ssize_t b, c, h, w;          /* the image (b, c, h, w) */
    Py_ssize_t sb, sc, sh, sw;      /* its strides, in items */
    Py_ssize_t ph, pw;              /* its padding (input tiles only) */
    Py_ssize_t th, tw;              /* tiles along each axis */
    Py_ssize_t ps;                  /* items from one tile position to the
                                     * next in the tile array */
} wino;

/* e[k] = row[2 k + first], o[k] = row[2 k + first + 1] for k < n, zeros
 * outside [0, w); a row y outside [0, h) is all zeros. */
#define SPLIT_ROW(T)                                                        \
WINO_INLINE void                                                             \
split_row_##T(T *RESTRICT e, T *RESTRICT o, const T *img, Py_ssize_t y,     \
              Py_ssize_t first, Py_ssize_t n, const wino *g)                \
{                                                                           \
    T *half[2] = {e, o};                                                    \
    for (int s = 0; s < 2; s++) {                                           \
        T *RESTRICT d = half[s];                                            \
        Py_ssize_t lo = 0, hi = 0, sw = g->sw;                              \
        if (y >= 0 && y < g->h) {                                           \
            inside(first + s, 2, n, g->w, &lo, &hi);                        \
        }                                                                   \
        for (Py_ssize_t k = 0; k < lo; k++) {                               \
            d[k] = 0;                                                       \
        }                                                                   \
        if (lo < hi) {  /* the image's columns 2 k + first + s */           \
            const T *RESTRICT row = img + y * g->sh +                       \
                (2 * lo + first + s) * sw;                                  \
            if (sw == 1) {                                                  \
                for (Py_ssize_t k = 0; k < hi - lo; k++) {                  \
                    d[lo + k] = row[2 * k];                                 \
                }                                                           \
            } else {                                                        \
                for (Py_ssize_t k = 0; k < hi - lo; k++) {                  \
                    d[lo + k] = row[2 * k * sw];                            \
                }                                                           \
            }                                                               \
        }                                                                   \
        for (Py_ssize_t k = hi; k < n; k++) {                               \
            d[k] = 0;                                                       \
        }                                                                   \
    }                                                                       \
}

/* Row i of B^T d B for a row of n tiles, given row i of B^T d as a + s b
 * (s = 1 or -1, so exactly a + b or a - b) for two rows a and b of the
 * image, split into even (ea, eb) and odd (oa, ob) columns.  (The loops
 * that vectorize take their arrays as restrict parameters: GCC 12 ignores
 * the restrict of local pointers and gives up on the aliasing.) */
#define ROW_TILES(T)                                                        \
WINO_INLINE void                                                             \
row_tiles_##T(T *RESTRICT v0, T *RESTRICT v1, T *RESTRICT v2,               \
              T *RESTRICT v3, const T *RESTRICT ea, const T *RESTRICT oa,   \
              const T *RESTRICT eb, const T *RESTRICT ob, T s,              \
              Py_ssize_t n)                                                 \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        T t0 = ea[k] + s * eb[k], t1 = oa[k] + s * ob[k];                   \
        T t2 = ea[k + 1] + s * eb[k + 1], t3 = oa[k + 1] + s * ob[k + 1];   \
        v0[k] = t0 - t2;                                                    \
        v1[k] = t1 + t2;                                                    \
        v2[k] = t2 - t1;                                                    \
        v3[k] = t1 - t3;                                                    \
    }                                                                       \
}

/* The four outputs (A^T m A) of n tiles m, position p of tile k at
 * m[p ps + k]. */
#define AT4(T)                                                              \
WINO_INLINE void                                                             \
at4_##T(T *RESTRICT y00, T *RESTRICT y01, T *RESTRICT y10,                  \
        T *RESTRICT y11, const T *RESTRICT m, Py_ssize_t ps, Py_ssize_t n)  \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        T s[4], d[4];  /* A^T m: the two output rows */                     \
        for (int j = 0; j < 4; j++) {                                       \
            T m0 = m[j * ps + k], m1 = m[(4 + j) * ps + k];                 \
            T m2 = m[(8 + j) * ps + k], m3 = m[(12 + j) * ps + k];          \
            s[j] = m0 + m1 + m2;                                            \
            d[j] = m1 - m2 - m3;                                            \
        }                                                                   \
        y00[k] = s[0] + s[1] + s[2];  /* (A^T m) A */                       \
        y01[k] = s[1] - s[2] - s[3];                                        \
        y10[k] = d[0] + d[1] + d[2];                                        \
        y11[k] = d[1] - d[2] - d[3];                                        \
    }                                                                       \
}

/* Rows 1 to 3 of A g for n 2x2 tiles g = ((g00, g01), (g10, g11)) (row 0
 * is g's first row). */
#define AG_ROWS(T)                                                          \
WINO_INLINE void                                                             \
ag_rows_##T(T *RESTRICT e1, T *RESTRICT f1, T *RESTRICT e2, T *RESTRICT f2, \
            T *RESTRICT e3, T *RESTRICT f3, const T *RESTRICT g00,          \
            const T *RESTRICT g01, const T *RESTRICT g10,                   \
            const T *RESTRICT g11, Py_ssize_t n)                            \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        e1[k] = g00[k] + g10[k];                                            \
        f1[k] = g01[k] + g11[k];                                            \
        e2[k] = g00[k] - g10[k];                                            \
        f2[k] = g01[k] - g11[k];                                            \
        e3[k] = -g10[k];                                                    \
        f3[k] = -g11[k];                                                    \
    }                                                                       \
}

/* A row (e, f) of A g times A^T, for n tiles. */
#define AGA4(T)                                                             \
WINO_INLINE void                                                             \
aga4_##T(T *RESTRICT v0, T *RESTRICT v1, T *RESTRICT v2, T *RESTRICT v3,    \
         const T *RESTRICT e, const T *RESTRICT f, Py_ssize_t n)            \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        v0[k] = e[k];                                                       \
        v1[k] = e[k] + f[k];                                                \
        v2[k] = e[k] - f[k];                                                \
        v3[k] = -f[k];                                                      \
    }                                                                       \
}

/* The image plane img into p (rows of 2 n items, C-contiguous) at row
 * ph, column pw, where it fits (the rest of p is left as it is), then p
 * split into its even (e) and odd (o) columns: two long loops, where one
 * call per row cost 25% more (measured on a ResNet block's planes). */
#define PAD_SPLIT(T)                                                        \
WINO_INLINE void                                                             \
pad_split_##T(T *RESTRICT e, T *RESTRICT o, T *RESTRICT p, const T *img,    \
              const wino *g, Py_ssize_t rows, Py_ssize_t n)                 \
{                                                                           \
    Py_ssize_t h = g->h < rows - g->ph ? g->h : rows - g->ph;               \
    Py_ssize_t w = g->w < 2 * n - g->pw ? g->w : 2 * n - g->pw;             \
    for (Py_ssize_t y = 0; y < h; y++) {                                    \
        const T *RESTRICT src = img + y * g->sh;                            \
        T *RESTRICT dst = p + (y + g->ph) * 2 * n + g->pw;                  \
        if (g->sw == 1) {                                                   \
            for (Py_ssize_t k = 0; k < w; k++) {                            \
                dst[k] = src[k];                                            \
            }                                                               \
        } else {                                                            \
            for (Py_ssize_t k = 0; k < w; k++) {                            \
                dst[k] = src[k * g->sw];                                    \
            }                                                               \
        }                                                                   \
    }                                                                       \
    for (Py_ssize_t k = 0; k < rows * n; k++) {                             \
        e[k] = p[2 * k];                                                    \
        o[k] = p[2 * k + 1];                                                \
    }                                                                       \
}

/* V (16, c, b th tw) takes B^T d B of every input tile d, channels c0 to
 * c1 - 1; buf holds 8 (th + 1) (tw + 1) items: the padded plane (zeros
 * where the image does not reach, the same for every plane), and its even
 * and odd columns. */
#define WINO_IN(T)                                                          \
WINO_CLONES static void                                                     \
wino_in_##T(T *V, const T *x, const wino *g, Py_ssize_t c0, Py_ssize_t c1,  \
            T *buf)                                                         \
{                                                                           \
    Py_ssize_t th = g->th, tw = g->tw, n = tw + 1, rows = 2 * th + 2;       \
    Py_ssize_t per = th * tw, ps = g->ps;                                   \
    T *E = buf, *O = buf + rows * n, *P = buf + 2 * rows * n;               \
    /* rows a and b of the tile and the sign s of row i of B^T d */         \
    static const int rows_a[4] = {0, 2, 2, 1};                              \
    static const int rows_b[4] = {2, 1, 1, 3};                              \
    static const T sign[4] = {-1, 1, -1, -1};                               \
    memset(P, 0, sizeof(T) * rows * 2 * n);                                 \
    for (Py_ssize_t c = c0; c < c1; c++)                                    \
    for (Py_ssize_t b = 0; b < g->b; b++) {                                 \
        pad_split_##T(E, O, P, x + b * g->sb + c * g->sc, g, rows, n);      \
        for (Py_ssize_t ty = 0; ty < th; ty++)                              \
        for (int i = 0; i < 4; i++) {                                       \
            T *v = V + 4 * i * ps + (c * g->b + b) * per + ty * tw;         \
            Py_ssize_t ra = (2 * ty + rows_a[i]) * n;                       \
            Py_ssize_t rb = (2 * ty + rows_b[i]) * n;                       \
            row_tiles_##T(v, v + ps, v + 2 * ps, v + 3 * ps, E + ra,        \
                          O + ra, E + rb, O + rb, sign[i], tw);             \
        }                                                                   \
    }                                                                       \
}

/* A row of y from the even and odd columns of its tiles (plus a bias). */
#define PUT_ROW(T)                                                          \
WINO_INLINE void                                                             \
put_row_##T(T *RESTRICT row, const T *RESTRICT e, const T *RESTRICT o,      \
            Py_ssize_t w, const T *bias)                                    \
{                                                                           \
    Py_ssize_t k = 0, pairs = w / 2;                                        \
    if (bias) {                                                             \
        T b = *bias;                                                        \
        for (; k < pairs; k++) {                                            \
            row[2 * k] = e[k] + b;                                          \
            row[2 * k + 1] = o[k] + b;                                      \
        }                                                                   \
        if (w & 1) {                                                        \
            row[w - 1] = e[k] + b;                                          \
        }                                                                   \
        return;                                                             \
    }                                                                       \
    for (; k < pairs; k++) {                                                \
        row[2 * k] = e[k];                                                  \
        row[2 * k + 1] = o[k];                                              \
    }                                                                       \
    if (w & 1) {                                                            \
        row[w - 1] = e[k];                                                  \
    }                                                                       \
}

/* y (b, c, h, w), C-contiguous, takes A^T m A (+ bias) of every tile m of
 * M (16, c, b th tw), channels c0 to c1 - 1; buf holds 4 th tw items: the
 * tiles' four outputs along the plane, then put in place row by row. */
#define WINO_OUT(T)                                                         \
WINO_CLONES static void                                                     \
wino_out_##T(T *y, const T *M, const T *bias, const wino *g, Py_ssize_t c0, \
             Py_ssize_t c1, T *buf)                                         \
{                                                                           \
    Py_ssize_t th = g->th, tw = g->tw, per = th * tw, ps = g->ps;           \
    T *y00 = buf, *y01 = buf + per, *y10 = buf + 2 * per;                   \
    T *y11 = buf + 3 * per;                                                 \
    for (Py_ssize_t c = c0; c < c1; c++)                                    \
    for (Py_ssize_t b = 0; b < g->b; b++) {                                 \
        T *plane = y + (b * g->c + c) * g->h * g->w;                        \
        at4_##T(y00, y01, y10, y11, M + (c * g->b + b) * per, ps, per);     \
        const T *bc = bias ? bias + c : NULL;                               \
        for (Py_ssize_t ty = 0; ty < th; ty++) {                            \
            put_row_##T(plane + 2 * ty * g->w, y00 + ty * tw,               \
                        y01 + ty * tw, g->w, bc);                           \
            if (2 * ty + 1 < g->h) {                                        \
                put_row_##T(plane + (2 * ty + 1) * g->w, y10 + ty * tw,     \
                            y11 + ty * tw, g->w, bc);                       \
            }                                                               \
        }                                                                   \
    }                                                                       \
}

/* dM (16, c, b th tw) takes A g A^T of every 2x2 tile g of gy (b, c, h,
 * w) (zeros outside it): the gradient of the tile products in the filter
 * gradient, channels c0 to c1 - 1; buf holds 10 th tw items (the tiles'
 * four inputs along the plane, then the rows of A g). */
#define WINO_GY(T)                                                          \
WINO_CLONES static void                                                     \
wino_gy_##T(T *dM, const T *gy, const wino *g, Py_ssize_t c0,              \
            Py_ssize_t c1, T *buf)                                          \
{                                                                           \
    Py_ssize_t th = g->th, tw = g->tw, per = th * tw, ps = g->ps;           \
    T *g00 = buf, *g01 = buf + per, *g10 = buf + 2 * per;                   \
    T *g11 = buf + 3 * per;                                                 \
    for (Py_ssize_t c = c0; c < c1; c++)                                    \
    for (Py_ssize_t b = 0; b < g->b; b++) {                                 \
        const T *img = gy + b * g->sb + c * g->sc;                          \
        for (Py_ssize_t ty = 0; ty < th; ty++) {                            \
            Py_ssize_t k = ty * tw;                                         \
            split_row_##T(g00 + k, g01 + k, img, 2 * ty, 0, tw, g);         \
            split_row_##T(g10 + k, g11 + k, img, 2 * ty + 1, 0, tw, g);     \
        }                                                                   \
        T *r = buf + 4 * per;  /* rows 1 to 3 of A g */                     \
        ag_rows_##T(r, r + per, r + 2 * per, r + 3 * per, r + 4 * per,      \
                    r + 5 * per, g00, g01, g10, g11, per);                  \
        for (int i = 0; i < 4; i++) {  /* (A g) A^T */                      \
            const T *e = i ? r + 2 * (i - 1) * per : g00;                   \
            const T *f = i ? e + per : g01;                                 \
            T *v = dM + 4 * i * ps + (c * g->b + b) * per;                  \
            aga4_##T(v, v + ps, v + 2 * ps, v + 3 * ps, e, f, per);         \
        }                                                                   \
    }                                                                       \
}

SPLIT_ROW(float)
SPLIT_ROW(double)
ROW_TILES(float)
ROW_TILES(double)
AT4(float)
AT4(double)
AG_ROWS(float)
AG_ROWS(double)
AGA4(float)
AGA4(double)
PAD_SPLIT(float)
PAD_SPLIT(double)
WINO_IN(float)
WINO_IN(double)
PUT_ROW(float)
PUT_ROW(double)
WINO_OUT(float)
WINO_OUT(double)
WINO_GY(float)
WINO_GY(double)

/* ---- F(4x4, 3x3): 6x6 input tiles 4 apart, 36 positions ---------------
 *
 * The same operands for 4x4 output tiles (Lavin and Gray's F(4x4, 3x3)):
 * 36 products per tile and channel pair for 16 outputs, where F(2x2, 3x3)
 * takes 16 for 4; V, M and dM are (36, c, b th tw).  A plane's rows are
 * split into four column phases (items 4 k + q), so that column j of a row
 * of tiles is a unit-stride run (phase j % 4 from k = j / 4). */

/* d_q[k] = src[4 k + q] for k < n: a run split into its four column
 * phases. */
#define QUARTER(T)                                                          \
WINO_INLINE void                                                             \
quarter_##T(T *RESTRICT d0, T *RESTRICT d1, T *RESTRICT d2,                 \
            T *RESTRICT d3, const T *RESTRICT src, Py_ssize_t n)            \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        d0[k] = src[4 * k];                                                 \
        d1[k] = src[4 * k + 1];                                             \
        d2[k] = src[4 * k + 2];                                             \
        d3[k] = src[4 * k + 3];                                             \
    }                                                                       \
}

/* row[4 k + q] = y_q[k] (+ b) for k < n: the adjoint of QUARTER. */
#define UNQUARTER(T)                                                        \
WINO_INLINE void                                                             \
unquarter_##T(T *RESTRICT row, const T *RESTRICT y0, const T *RESTRICT y1,  \
              const T *RESTRICT y2, const T *RESTRICT y3, Py_ssize_t n)     \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        row[4 * k] = y0[k];                                                 \
        row[4 * k + 1] = y1[k];                                             \
        row[4 * k + 2] = y2[k];                                             \
        row[4 * k + 3] = y3[k];                                             \
    }                                                                       \
}                                                                           \
                                                                            \
WINO_INLINE void                                                             \
unquarter_bias_##T(T *RESTRICT row, const T *RESTRICT y0,                   \
                   const T *RESTRICT y1, const T *RESTRICT y2,              \
                   const T *RESTRICT y3, Py_ssize_t n, T b)                 \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        row[4 * k] = y0[k] + b;                                             \
        row[4 * k + 1] = y1[k] + b;                                         \
        row[4 * k + 2] = y2[k] + b;                                         \
        row[4 * k + 3] = y3[k] + b;                                         \
    }                                                                       \
}

/* The six items of B^T v for vectors v over rows rows of len items (row r
 * of v_j at x_j + r sx, of the outputs at y_i + r sy). */
#define BT6(T)                                                              \
WINO_INLINE void                                                             \
bt6_##T(T *RESTRICT y0, T *RESTRICT y1, T *RESTRICT y2, T *RESTRICT y3,     \
        T *RESTRICT y4, T *RESTRICT y5, const T *RESTRICT x0,               \
        const T *RESTRICT x1, const T *RESTRICT x2, const T *RESTRICT x3,   \
        const T *RESTRICT x4, const T *RESTRICT x5, Py_ssize_t rows,        \
        Py_ssize_t len, Py_ssize_t sx, Py_ssize_t sy)                       \
{                                                                           \
    for (Py_ssize_t r = 0; r < rows; r++)                                   \
    for (Py_ssize_t k = 0; k < len; k++) {                                  \
        Py_ssize_t i = r * sx + k, o = r * sy + k;                          \
        T a = x4[i] - 4 * x2[i], b = x3[i] - 4 * x1[i];                     \
        T c = x4[i] - x2[i], d = 2 * (x3[i] - x1[i]);                       \
        y0[o] = 4 * x0[i] - 5 * x2[i] + x4[i];                              \
        y1[o] = a + b;                                                      \
        y2[o] = a - b;                                                      \
        y3[o] = c + d;                                                      \
        y4[o] = c - d;                                                      \
        y5[o] = 4 * x1[i] - 5 * x3[i] + x5[i];                              \
    }                                                                       \
}

/* The four items of A^T m for n vectors m. */
#define AT6(T)                                                              \
WINO_INLINE void                                                             \
at6_##T(T *RESTRICT y0, T *RESTRICT y1, T *RESTRICT y2, T *RESTRICT y3,     \
        const T *RESTRICT m0, const T *RESTRICT m1, const T *RESTRICT m2,   \
        const T *RESTRICT m3, const T *RESTRICT m4, const T *RESTRICT m5,   \
        Py_ssize_t n)                                                       \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        T s1 = m1[k] + m2[k], d1 = m1[k] - m2[k];                           \
        T s3 = m3[k] + m4[k], d3 = m3[k] - m4[k];                           \
        y0[k] = m0[k] + s1 + s3;                                            \
        y1[k] = d1 + 2 * d3;                                                \
        y2[k] = s1 + 4 * s3;                                                \
        y3[k] = d1 + 8 * d3 + m5[k];                                        \
    }                                                                       \
}

/* The six items of A g for n vectors g (the adjoint of AT6). */
#define A4(T)                                                               \
WINO_INLINE void                                                             \
a4_##T(T *RESTRICT y0, T *RESTRICT y1, T *RESTRICT y2, T *RESTRICT y3,      \
       T *RESTRICT y4, T *RESTRICT y5, const T *RESTRICT g0,                \
       const T *RESTRICT g1, const T *RESTRICT g2, const T *RESTRICT g3,    \
       Py_ssize_t n)                                                        \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        T e = g0[k] + g2[k], o = g1[k] + g3[k];                             \
        T e4 = g0[k] + 4 * g2[k], o4 = 2 * g1[k] + 8 * g3[k];               \
        y0[k] = g0[k];                                                      \
        y1[k] = e + o;                                                      \
        y2[k] = e - o;                                                      \
        y3[k] = e4 + o4;                                                    \
        y4[k] = e4 - o4;                                                    \
        y5[k] = g3[k];                                                      \
    }                                                                       \
}

/* V (36, c, b th tw) takes B^T d B of every 6x6 input tile d, channels c0
 * to c1 - 1.  buf holds wino4_items: the column phases Q of the padded
 * plane P (4 th + 4 rows of 4 n items, n = tw + 1; zeros where the image
 * does not reach, the same for every plane), and the rows of d B.
 * Q[q][s] holds the items 4 k + q of P's rows 4 t + s, as a (th + 1, n)
 * array:
 * row i of the tiles of tile row ty, column j, is then
 * Q[j % 4][i % 4][ty + i / 4][tx + j / 4], a run over tx, and the same
 * offset from one tile row to the next. */
#define WINO4_IN(T)                                                         \
WINO_CLONES static void                                                     \
wino4_in_##T(T *V, const T *x, const wino *g, Py_ssize_t c0, Py_ssize_t c1, \
             T *buf)                                                        \
{                                                                           \
    Py_ssize_t th = g->th, tw = g->tw, per = th * tw, ps = g->ps;           \
    Py_ssize_t rows = 4 * th + 4, n = tw + 1, pw = g->pw;                   \
    Py_ssize_t qs = (th + 1) * n;  /* items of one Q[q][s] */               \
    T *Q = buf, *R = Q + 16 * qs;                                           \
    Py_ssize_t h = g->h < rows - g->ph ? g->h : rows - g->ph;               \
    Py_ssize_t w = g->w < 4 * n - pw ? g->w : 4 * n - pw;                   \
    /* the runs of k whose four items 4 k + q - pw are all in the image */  \
    Py_ssize_t k0 = (pw + 3) / 4, k1 = (w + pw) / 4;                        \
    k1 = k1 < k0 ? k0 : k1;                                                 \
    memset(Q, 0, sizeof(T) * 16 * qs);                                      \
    for (Py_ssize_t c = c0; c < c1; c++)                                    \
    for (Py_ssize_t b = 0; b < g->b; b++) {                                 \
        const T *img = x + b * g->sb + c * g->sc;                           \
        for (Py_ssize_t y = 0; y < h; y++) {  /* P's row y + ph, split */   \
            Py_ssize_t r = y + g->ph;                                       \
            const T *src = img + y * g->sh;                                 \
            T *d0 = Q + (r % 4) * qs + r / 4 * n, *d1 = d0 + 4 * qs;        \
            T *d2 = d0 + 8 * qs, *d3 = d0 + 12 * qs;                        \
            if (g->sw == 1) {                                               \
                quarter_##T(d0 + k0, d1 + k0, d2 + k0, d3 + k0,             \
                            src + 4 * k0 - pw, k1 - k0);                    \
            } else {                                                        \
                for (Py_ssize_t k = k0; k < k1; k++) {                      \
                    const T *p = src + (4 * k - pw) * g->sw;                \
                    d0[k] = p[0];                                           \
                    d1[k] = p[g->sw];                                       \
                    d2[k] = p[2 * g->sw];                                   \
                    d3[k] = p[3 * g->sw];                                   \
                }                                                           \
            }                                                               \
            T *d[4] = {d0, d1, d2, d3};                                     \
            for (int end = 0; end < 2; end++) {  /* k < k0, k >= k1 */      \
                Py_ssize_t lo = end ? 4 * k1 : 0, hi = end ? 4 * n : 4 * k0;  \
                lo = lo > pw ? lo : pw;                                     \
                hi = hi < w + pw ? hi : w + pw;                             \
                for (Py_ssize_t col = lo; col < hi; col++) {                \
                    d[col % 4][col / 4] = src[(col - pw) * g->sw];          \
                }                                                           \
            }                                                               \
        }                                                                   \
        for (int i = 0; i < 6; i++) {  /* row i of d B, all tiles */        \
            const T *q = Q + (i % 4) * qs + i / 4 * n;                      \
            T *o = R + 6 * i * per;                                         \
            bt6_##T(o, o + per, o + 2 * per, o + 3 * per, o + 4 * per,      \
                    o + 5 * per, q, q + 4 * qs, q + 8 * qs, q + 12 * qs,    \
                    q + 1, q + 4 * qs + 1, th, tw, n, tw);                  \
        }                                                                   \
        T *v = V + (c * g->b + b) * per;                                    \
        for (int j = 0; j < 6; j++) {  /* column j of B^T (d B) */          \
            const T *e = R + j * per;                                       \
            bt6_##T(v + j * ps, v + (6 + j) * ps, v + (12 + j) * ps,        \
                    v + (18 + j) * ps, v + (24 + j) * ps,                   \
                    v + (30 + j) * ps, e, e + 6 * per, e + 12 * per,        \
                    e + 18 * per, e + 24 * per, e + 30 * per, 1, per, 0,    \
                    0);                                                     \
        }                                                                   \
    }                                                                       \
}

/* y (b, c, h, w), C-contiguous, takes A^T m A (+ bias) of every tile m of
 * M (36, c, b th tw), channels c0 to c1 - 1; buf holds 40 th tw items (the
 * rows of m A, then the 16 outputs of every tile). */
#define WINO4_OUT(T)                                                        \
WINO_CLONES static void                                                     \
wino4_out_##T(T *y, const T *M, const T *bias, const wino *g,               \
              Py_ssize_t c0, Py_ssize_t c1, T *buf)                         \
{                                                                           \
    Py_ssize_t th = g->th, tw = g->tw, per = th * tw, ps = g->ps;           \
    T *Ta = buf, *Y = buf + 24 * per;                                       \
    for (Py_ssize_t c = c0; c < c1; c++)                                    \
    for (Py_ssize_t b = 0; b < g->b; b++) {                                 \
        T *plane = y + (b * g->c + c) * g->h * g->w;                        \
        T bc = bias ? bias[c] : 0;                                          \
        const T *m = M + (c * g->b + b) * per;  /* (tiles past the row's   \
                                                 * end are left out) */    \
        for (int r = 0; r < 6; r++) {  /* row r of m A */                   \
            const T *mr = m + 6 * r * ps;                                   \
            T *t = Ta + 4 * r * per;                                        \
            at6_##T(t, t + per, t + 2 * per, t + 3 * per, mr, mr + ps,      \
                    mr + 2 * ps, mr + 3 * ps, mr + 4 * ps, mr + 5 * ps,     \
                    per);                                                   \
        }                                                                   \
        for (int j = 0; j < 4; j++) {  /* column j of A^T (m A) */          \
            const T *t = Ta + j * per;                                      \
            at6_##T(Y + j * per, Y + (4 + j) * per, Y + (8 + j) * per,      \
                    Y + (12 + j) * per, t, t + 4 * per, t + 8 * per,        \
                    t + 12 * per, t + 16 * per, t + 20 * per, per);         \
        }                                                                   \
        for (Py_ssize_t ty = 0; ty < th; ty++)                              \
        for (int i = 0; i < 4 && 4 * ty + i < g->h; i++) {                  \
            T *row = plane + (4 * ty + i) * g->w;                           \
            const T *yi = Y + 4 * i * per + ty * tw;                        \
            Py_ssize_t full = g->w / 4;  /* tiles whole in the row */       \
            if (bias) {                                                     \
                unquarter_bias_##T(row, yi, yi + per, yi + 2 * per,         \
                                   yi + 3 * per, full, bc);                 \
            } else {                                                        \
                unquarter_##T(row, yi, yi + per, yi + 2 * per,              \
                              yi + 3 * per, full);                          \
            }                                                               \
            for (Py_ssize_t col = 4 * full; col < g->w; col++) {            \
                T v = yi[col % 4 * per + full];                             \
                row[col] = bias ? v + bc : v;                               \
            }                                                               \
        }                                                                   \
    }                                                                       \
}

/* dM (36, c, b th tw) takes A g A^T of every 4x4 tile g of gy (b, c, h,
 * w) (zeros outside it), channels c0 to c1 - 1; buf holds 40 th tw items
 * (the tiles' 16 inputs, then the rows of g A^T). */
#define WINO4_GY(T)                                                         \
WINO_CLONES static void                                                     \
wino4_gy_##T(T *dM, const T *gy, const wino *g, Py_ssize_t c0,             \
             Py_ssize_t c1, T *buf)                                         \
{                                                                           \
    Py_ssize_t th = g->th, tw = g->tw, per = th * tw, ps = g->ps;           \
    T *G = buf, *H = buf + 16 * per;                                        \
    for (Py_ssize_t c = c0; c < c1; c++)                                    \
    for (Py_ssize_t b = 0; b < g->b; b++) {                                 \
        const T *img = gy + b * g->sb + c * g->sc;                          \
        Py_ssize_t full = g->w / 4 < tw ? g->w / 4 : tw;                    \
        for (Py_ssize_t ty = 0; ty < th; ty++)                              \
        for (int i = 0; i < 4; i++) {                                       \
            Py_ssize_t r = 4 * ty + i;                                      \
            T *d = G + 4 * i * per + ty * tw;                               \
            if (r >= g->h) {                                                \
                for (int j = 0; j < 4; j++) {                               \
                    memset(d + j * per, 0, sizeof(T) * tw);                 \
                }                                                           \
                continue;                                                   \
            }                                                               \
            const T *src = img + r * g->sh;                                 \
            if (g->sw == 1) {                                               \
                quarter_##T(d, d + per, d + 2 * per, d + 3 * per, src,      \
                            full);                                          \
            } else {                                                        \
                for (Py_ssize_t k = 0; k < full; k++) {                     \
                    for (int j = 0; j < 4; j++) {                           \
                        d[j * per + k] = src[(4 * k + j) * g->sw];          \
                    }                                                       \
                }                                                           \
            }                                                               \
            for (Py_ssize_t col = 4 * full; col < 4 * tw; col++) {          \
                d[col % 4 * per + col / 4] =                                \
                    col < g->w ? src[col * g->sw] : 0;                      \
            }                                                               \
        }                                                                   \
        for (int i = 0; i < 4; i++) {  /* row i of g A^T */                 \
            const T *gi = G + 4 * i * per;                                  \
            T *o = H + 6 * i * per;                                         \
            a4_##T(o, o + per, o + 2 * per, o + 3 * per, o + 4 * per,       \
                   o + 5 * per, gi, gi + per, gi + 2 * per, gi + 3 * per,   \
                   per);                                                    \
        }                                                                   \
        T *v = dM + (c * g->b + b) * per;                                   \
        for (int j = 0; j < 6; j++) {  /* column j of A (g A^T) */          \
            const T *e = H + j * per;                                       \
            a4_##T(v + j * ps, v + (6 + j) * ps, v + (12 + j) * ps,         \
                   v + (18 + j) * ps, v + (24 + j) * ps, v + (30 + j) * ps, \
                   e, e + 6 * per, e + 12 * per, e + 18 * per, per);        \
        }                                                                   \
    }                                                                       \
}

QUARTER(float)
QUARTER(double)
UNQUARTER(float)
UNQUARTER(double)
BT6(float)
BT6(double)
AT6(float)
AT6(double)
A4(float)
A4(double)
WINO4_IN(float)
WINO4_IN(double)
WINO4_OUT(float)
WINO4_OUT(double)
WINO4_GY(float)
WINO4_GY(double)

enum { WINO_INPUT, WINO_OUTPUT, WINO_GRAD };

typedef struct {
    wino g;
    int op;
    int big;  /* F(4x4, 3x3): 36 positions (else F(2x2, 3x3): 16) */
    char kind;
    void *img, *tiles;
    const void *bias;
    int failed;  /* set where a part's scratch could not be allocated */
} wino_job;

static Py_ssize_t
wino4_items(const wino_job *j)
{
    Py_ssize_t th = j->g.th, tw = j->g.tw, n = tw + 1;
    return j->op == WINO_INPUT ? 16 * (th + 1) * n + 36 * th * tw
                               : 40 * th * tw;
}

/* S_ops(j, lo, hi, buf): job j's op over channels lo to hi - 1 by the loops
 * of scheme S (wino: F(2x2, 3x3); wino4: F(4x4, 3x3)) for its dtype. */
#define WINO_OP(S, T)                                                       \
    if (j->op == WINO_INPUT) {                                              \
        S##_in_##T(j->tiles, j->img, &j->g, lo, hi, buf);                   \
    } else if (j->op == WINO_OUTPUT) {                                      \
        S##_out_##T(j->img, j->tiles, j->bias, &j->g, lo, hi, buf);         \
    } else {                                                                \
        S##_gy_##T(j->tiles, j->img, &j->g, lo, hi, buf);                   \
    }
#define WINO_OPS(S)                                                         \
static void                                                                 \
S##_ops(wino_job *j, Py_ssize_t lo, Py_ssize_t hi, void *buf)               \
{                                                                           \
    if (j->kind == 'f') {                                                   \
        WINO_OP(S, float)                                                   \
    } else {                                                                \
        WINO_OP(S, double)                                                  \
    }                                                                       \
}

WINO_OPS(wino)
WINO_OPS(wino4)

static void
wino_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    wino_job *j = (wino_job *)job;
    Py_ssize_t per = j->g.th * j->g.tw, items = j->big ? wino4_items(j) :
        j->op == WINO_INPUT ? 8 * (j->g.th + 1) * (j->g.tw + 1) :
        j->op == WINO_OUTPUT ? 4 * per : 10 * per;
    void *buf = malloc((size_t)items * (j->kind == 'f' ? 4 : 8));
    if (buf == NULL) {
        j->failed = 1;
        return;
    }
    if (j->big) {
        wino4_ops(j, lo, hi, buf);
    } else {
        wino_ops(j, lo, hi, buf);
    }
    free(buf);
}

/* The buffers of a tile loop's call: the image (b, c, h, w), read with
 * any strides (or written, C-contiguous), the tiles (positions, rows,
 * cols), read or written, and a bias (c,) or none, all of one float
 * dtype. */
typedef struct {
    Py_buffer img, tiles, bias;
    char kind;
} tile_io;

static void
tile_io_release(tile_io *io)
{
    PyBuffer_Release(&io->img);
    PyBuffer_Release(&io->tiles);
    if (io->bias.obj) {
        PyBuffer_Release(&io->bias);
    }
}

/* Takes io's buffers (writes_img: the image is written, the tiles read;
 * else the other way) and fills g's image shape and strides (in items)
 * and ps; 0, or -1 with an exception set and nothing held. */
static int
tile_io_get(tile_io *io, wino *g, PyObject *img_obj, PyObject *tiles_obj,
            PyObject *bias_obj, int writes_img, const char *name)
{
    io->bias.obj = NULL;
    if (PyObject_GetBuffer(img_obj, &io->img, PyBUF_FORMAT | (writes_img ?
            PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE : PyBUF_STRIDES))) {
        return -1;
    }
    if (PyObject_GetBuffer(tiles_obj, &io->tiles, PyBUF_FORMAT |
            PyBUF_STRIDES | (writes_img ? 0 : PyBUF_WRITABLE))) {
        PyBuffer_Release(&io->img);
        return -1;
    }
    const Py_buffer *img = &io->img, *tiles = &io->tiles;
    io->kind = float_code(img->format, img->itemsize);
    if (!io->kind ||
            float_code(tiles->format, tiles->itemsize) != io->kind) {
        PyErr_Format(PyExc_TypeError, "%s: float32 or float64 arrays of one "
                     "dtype expected", name);
        goto fail;
    }
    if (img->ndim != 4 || tiles->ndim != 3) {
        PyErr_Format(PyExc_ValueError, "%s: a 4-d image and 3-d tiles "
                     "expected", name);
        goto fail;
    }
    if (bias_obj != Py_None &&
            get_items(bias_obj, &io->bias, 0, img->shape[1], io->kind,
                      name)) {
        io->bias.obj = NULL;
        goto fail;
    }
    for (int i = 0; i < 4; i++) {
        if (img->strides[i] % img->itemsize) {
            PyErr_Format(PyExc_ValueError, "%s: unaligned strides", name);
            goto fail;
        }
    }
    g->b = img->shape[0];
    g->c = img->shape[1];
    g->h = img->shape[2];
    g->w = img->shape[3];
    g->sb = img->strides[0] / img->itemsize;
    g->sc = img->strides[1] / img->itemsize;
    g->sh = img->strides[2] / img->itemsize;
    g->sw = img->strides[3] / img->itemsize;
    g->ps = tiles->strides[0] / tiles->itemsize;
    return 0;
fail:
    tile_io_release(io);
    return -1;
}

/* Whether the tiles' (rows, cols) blocks are C-contiguous and do not
 * overlap. */
static int
tile_blocks_ok(const tile_io *io, const wino *g)
{
    const Py_buffer *t = &io->tiles;
    return t->strides[2] == t->itemsize &&
        t->strides[1] == t->shape[2] * t->itemsize &&
        t->strides[0] % t->itemsize == 0 &&
        g->ps >= t->shape[1] * t->shape[2];
}

/* Runs op over the image img (b, c, h, w) and the tiles (16, c, b th tw)
 * of one float dtype.  The tiles' (c, b th tw) blocks are C-contiguous,
 * written (read for WINO_OUTPUT); the image may be strided, read (written
 * and C-contiguous for WINO_OUTPUT). */
static PyObject *
wino_run(int op, PyObject *img_obj, PyObject *tiles_obj, PyObject *bias_obj,
         Py_ssize_t ph, Py_ssize_t pw, Py_ssize_t th, Py_ssize_t tw,
         const char *name)
{
    tile_io io;
    wino_job job;
    memset(&job, 0, sizeof(job));
    wino *g = &job.g;
    if (tile_io_get(&io, g, img_obj, tiles_obj, bias_obj,
                    op == WINO_OUTPUT, name)) {
        return NULL;
    }
    const Py_buffer *tiles = &io.tiles;
    job.kind = io.kind;
    job.bias = io.bias.obj ? io.bias.buf : NULL;
    g->ph = ph;
    g->pw = pw;
    job.big = tiles->shape[0] == 36;
    Py_ssize_t m = job.big ? 4 : 2;  /* the output tile's side */
    g->th = th < 0 ? (g->h + m - 1) / m : th;
    g->tw = tw < 0 ? (g->w + m - 1) / m : tw;
    if ((tiles->shape[0] != 16 && !job.big) || tiles->shape[1] != g->c ||
            tiles->shape[2] != g->b * g->th * g->tw || ph < 0 || pw < 0 ||
            !tile_blocks_ok(&io, g)) {
        PyErr_Format(PyExc_ValueError, "%s: tiles (16 or 36, c, b * th * "
                     "tw) for an image (b, c, h, w), each (c, b * th * tw) "
                     "block C-contiguous, expected", name);
        tile_io_release(&io);
        return NULL;
    }
    job.op = op;
    job.img = io.img.buf;
    job.tiles = tiles->buf;
    if (tiles->len > 0) {
        Py_BEGIN_ALLOW_THREADS
        split(wino_range, &job, g->c, (double)tiles->len / tiles->itemsize);
        Py_END_ALLOW_THREADS
    }
    tile_io_release(&io);
    if (job.failed) {
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

static PyObject *
winograd_input(PyObject *self, PyObject *args)
{
    PyObject *tiles, *img;
    Py_ssize_t ph, pw, th, tw;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO(nnnn)", &tiles, &img, &ph, &pw, &th,
                          &tw)) {
        return NULL;
    }
    if (th < 0 || tw < 0) {
        PyErr_SetString(PyExc_ValueError, "winograd_input: negative tiles");
        return NULL;
    }
    return wino_run(WINO_INPUT, img, tiles, Py_None, ph, pw, th, tw,
                    "winograd_input");
}

static PyObject *
winograd_output(PyObject *self, PyObject *args)
{
    PyObject *img, *tiles, *bias;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOO", &img, &tiles, &bias)) {
        return NULL;
    }
    return wino_run(WINO_OUTPUT, img, tiles, bias, 0, 0, -1, -1,
                    "winograd_output");
}

static PyObject *
winograd_grad(PyObject *self, PyObject *args)
{
    PyObject *tiles, *img;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &tiles, &img)) {
        return NULL;
    }
    return wino_run(WINO_GRAD, img, tiles, Py_None, 0, 0, -1, -1,
                    "winograd_grad");
}

/* ---- Winograd for stride-2 4x4 deconvolutions with pad 1 (DCGAN's
 * upsampling layers) and the stride-2 4x4 convolutions they are the
 * adjoints of ------------------------------------------------------------
 *
 * With xp the deconvolution's input padded by one item each side, output
 * rows alternate between two phases: y[2 j] = xp[j] W[3] + xp[j + 1] W[1]
 * and y[2 j + 1] = xp[j + 1] W[2] + xp[j + 2] W[0], two correlations with
 * 2-tap filters.  Four outputs of a phase are a Winograd F(4, 2) (points
 * 0, 1, -1, 1/2 and infinity): five products for eight multiply-adds.  Both
 * phases of 8 outputs read one 6-item window of xp (windows 4 apart), so
 * along both axes a 6x6 window gives 10 x 10 = 100 positions, and an 8x8
 * block of y: 100 products where im2col takes 256.  The products are 100
 * GEMMs in NumPy (chainer.functions.connection._winograd); these loops make
 * their operands and take the results back.
 *
 * Tiles are numbered (sample, tile row, tile column); a tile array is
 * (100, tiles, channels), position p = 10 pi + q (pi along the rows, q
 * along the columns), each position's (tiles, channels) block
 * C-contiguous, blocks ps items apart.  A work item is one sample and up
 * to S2_CHANNELS of its channels (threads take whole items): its image
 * planes are first copied channels last into scratch (zeros around them),
 * so that every transform runs along the item's channels, unit-stride
 * vectors that the compiler vectorizes, and a tile's positions are runs
 * of channels in the tile array.  (Tiles as the vector, gathered one item
 * at a time, took twice as long: with 16x16 images most windows cross the
 * border.)  Four ops:
 *   S2_INPUT:  V (100, t, c) = B d B^T of the 6x6 windows d of x (b, c, h,
 *              w), window (ty, tx) at rows 4 ty - 1 .., columns 4 tx - 1
 *              .. (zeros outside x);
 *   S2_OUTPUT: y (b, c, H, W) = A m A^T of the tiles m of M (+ bias), the
 *              8x8 block (ty, tx) at rows 8 ty .., columns 8 tx ..;
 *   S2_GRAD:   dM (100, t, c) = A^T g A of the 8x8 blocks g of gy (zeros
 *              outside it): S2_OUTPUT's adjoint;
 *   S2_SUM:    gx (b, c, h, w) = the windows B^T z B of the tiles z of Z,
 *              summed where they overlap: S2_INPUT's adjoint.
 * The sums run in a fixed order whatever the threads: the same bits from
 * run to run.  They round differently from im2col's GEMMs, within float
 * tolerance (the transforms hold 8/3, 1/6 and 1/8). */

#define S2_CHANNELS 32  /* the channels of a work item, at most */

/* The transforms' loops store to several rows of one array: GCC cannot
 * prove them apart (it would fall back to scalar loops at run time), so
 * it is told there is no dependence between iterations. */
#if defined(__GNUC__) && !defined(__clang__)
#define S2_IVDEP _Pragma("GCC ivdep")
#else
#define S2_IVDEP
#endif

enum { S2_INPUT, S2_OUTPUT, S2_GRAD, S2_SUM };

typedef struct {
    int op;
    char kind;
    wino g;                         /* the image and tiles (no padding) */
    void *img, *tiles;
    const void *bias;
    int failed;
} s2_job;

/* o[r os] for r < 10 from d[j ds] for j < 6: B d, phase 0 reading d[0..4]
 * and phase 1 d[1..5] (B^T of F(4, 2): rows 1 -2 -1 2 0, 0 -1/2 1/2 1 0,
 * 0 -1/6 1/2 -1/3 0, 0 8/3 0 -8/3 0, 0 1/2 -1 -1/2 1), n tiles. */
#define S2_B(T)                                                             \
WINO_INLINE void                                                             \
s2_b_##T(T *RESTRICT o, Py_ssize_t os, const T *RESTRICT d, Py_ssize_t ds,  \
         Py_ssize_t n)                                                      \
{                                                                           \
    const T half = (T)0.5, sixth = (T)(1.0 / 6), third = (T)(1.0 / 3);      \
    const T e3 = (T)(8.0 / 3);                                              \
    S2_IVDEP                                                                \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        T d0 = d[k], d1 = d[ds + k], d2 = d[2 * ds + k];                    \
        T d3 = d[3 * ds + k], d4 = d[4 * ds + k], d5 = d[5 * ds + k];       \
        o[k] = d0 - 2 * d1 - d2 + 2 * d3;                                   \
        o[os + k] = half * (d2 - d1) + d3;                                  \
        o[2 * os + k] = half * d2 - sixth * d1 - third * d3;                \
        o[3 * os + k] = e3 * (d1 - d3);                                     \
        o[4 * os + k] = half * (d1 - d3) - d2 + d4;                         \
        o[5 * os + k] = d1 - 2 * d2 - d3 + 2 * d4;                          \
        o[6 * os + k] = half * (d3 - d2) + d4;                              \
        o[7 * os + k] = half * d3 - sixth * d2 - third * d4;                \
        o[8 * os + k] = e3 * (d2 - d4);                                     \
        o[9 * os + k] = half * (d2 - d4) - d3 + d5;                         \
    }                                                                       \
}

/* o[j os] for j < 6 from v[r vs] for r < 10: B^T v, the adjoint of
 * s2_b. */
#define S2_BT(T)                                                            \
WINO_INLINE void                                                             \
s2_bt_##T(T *RESTRICT o, Py_ssize_t os, const T *RESTRICT v, Py_ssize_t vs, \
          Py_ssize_t n)                                                     \
{                                                                           \
    const T half = (T)0.5, sixth = (T)(1.0 / 6), third = (T)(1.0 / 3);      \
    const T e3 = (T)(8.0 / 3);                                              \
    S2_IVDEP                                                                \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        T v0 = v[k], v1 = v[vs + k], v2 = v[2 * vs + k];                    \
        T v3 = v[3 * vs + k], v4 = v[4 * vs + k], v5 = v[5 * vs + k];       \
        T v6 = v[6 * vs + k], v7 = v[7 * vs + k], v8 = v[8 * vs + k];       \
        T v9 = v[9 * vs + k];                                               \
        o[k] = v0;                                                          \
        o[os + k] = -2 * v0 - half * v1 - sixth * v2 + e3 * v3 +            \
            half * v4 + v5;                                                 \
        o[2 * os + k] = half * (v1 + v2) - v0 - v4 -                        \
            2 * v5 - half * v6 - sixth * v7 + e3 * v8 + half * v9;          \
        o[3 * os + k] = 2 * v0 + v1 - third * v2 - e3 * v3 - half * v4 +    \
            half * (v6 + v7) - v5 - v9;                                     \
        o[4 * os + k] = v4 + 2 * v5 + v6 - third * v7 - e3 * v8 -           \
            half * v9;                                                      \
        o[5 * os + k] = v9;                                                 \
    }                                                                       \
}

/* o[r os] for r < 8 from m[p ms] for p < 10: A^T m, output 2 q + a from
 * phase a's five positions (A^T of F(4, 2): rows 1 1 1 1 0, 0 1 -1 1/2 0,
 * 0 1 1 1/4 0, 0 1 -1 1/8 1), n tiles. */
#define S2_A(T)                                                             \
WINO_INLINE void                                                             \
s2_a_##T(T *RESTRICT o, Py_ssize_t os, const T *RESTRICT m, Py_ssize_t ms,  \
         Py_ssize_t n)                                                      \
{                                                                           \
    const T half = (T)0.5, quarter = (T)0.25, eighth = (T)0.125;            \
    S2_IVDEP                                                                \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        for (int a = 0; a < 2; a++) {                                       \
            const T *RESTRICT s = m + 5 * a * ms;                           \
            T m0 = s[k], m1 = s[ms + k], m2 = s[2 * ms + k];                \
            T m3 = s[3 * ms + k], m4 = s[4 * ms + k];                       \
            o[a * os + k] = m0 + m1 + m2 + m3;                              \
            o[(2 + a) * os + k] = m1 - m2 + half * m3;                      \
            o[(4 + a) * os + k] = m1 + m2 + quarter * m3;                   \
            o[(6 + a) * os + k] = m1 - m2 + eighth * m3 + m4;               \
        }                                                                   \
    }                                                                       \
}

/* o[p os] for p < 10 from g[r gs] for r < 8: A g, the adjoint of s2_a. */
#define S2_AT(T)                                                            \
WINO_INLINE void                                                             \
s2_at_##T(T *RESTRICT o, Py_ssize_t os, const T *RESTRICT g, Py_ssize_t gs, \
          Py_ssize_t n)                                                     \
{                                                                           \
    const T half = (T)0.5, quarter = (T)0.25, eighth = (T)0.125;            \
    S2_IVDEP                                                                \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        for (int a = 0; a < 2; a++) {                                       \
            T g0 = g[a * gs + k], g1 = g[(2 + a) * gs + k];                 \
            T g2 = g[(4 + a) * gs + k], g3 = g[(6 + a) * gs + k];           \
            T *RESTRICT s = o + 5 * a * os;                                 \
            s[k] = g0;                                                      \
            s[os + k] = g0 + g1 + g2 + g3;                                  \
            s[2 * os + k] = g0 - g1 + g2 - g3;                              \
            s[3 * os + k] = g0 + half * g1 + quarter * g2 + eighth * g3;    \
            s[4 * os + k] = g3;                                             \
        }                                                                   \
    }                                                                       \
}

/* One work item: sample b, channels c0 to c0 + n - 1 (n <= S2_CHANNELS),
 * scratch buf (s2_scratch items).  The item's image planes are first put
 * channels last into buf (P: padded by one, the input side; or Q: 8x8
 * blocks, the output side), so that each transform runs along the n
 * channels with unit-stride loads and stores. */
#define S2_ITEM(T)                                                          \
WINO_CLONES static void                                                     \
s2_item_##T(const s2_job *j, Py_ssize_t b, Py_ssize_t c0, Py_ssize_t n,     \
            T *buf)                                                         \
{                                                                           \
    const wino *g = &j->g;                                                  \
    const Py_ssize_t th = g->th, tw = g->tw, ps = g->ps, C = g->c;          \
    const Py_ssize_t sh = g->sh, sw = g->sw, sc = g->sc;                    \
    const Py_ssize_t h = g->h, w = g->w;                                    \
    T *tiles = (T *)j->tiles + b * th * tw * C + c0;                        \
    T *img = (T *)j->img + b * g->sb + c0 * sc;                             \
    int input_side = j->op == S2_INPUT || j->op == S2_SUM;                  \
    Py_ssize_t rows = input_side ? 4 * th + 2 : 8 * th;                     \
    Py_ssize_t cols = input_side ? 4 * tw + 2 : 8 * tw;                     \
    Py_ssize_t off = input_side ? 1 : 0;  /* the image's corner in P */     \
    T *P = buf, *mid = buf + rows * cols * n, *win = mid + 80 * n;          \
    if (j->op == S2_INPUT || j->op == S2_GRAD) {                            \
        memset(P, 0, sizeof(T) * rows * cols * n);                          \
        for (Py_ssize_t l = 0; l < n; l++)                                  \
        for (Py_ssize_t y = 0; y < h; y++) {                                \
            const T *src = img + l * sc + y * sh;                           \
            T *dst = P + ((y + off) * cols + off) * n + l;                  \
            for (Py_ssize_t x = 0; x < w; x++) {                            \
                dst[x * n] = src[x * sw];                                   \
            }                                                               \
        }                                                                   \
    } else if (j->op == S2_SUM) {                                           \
        memset(P, 0, sizeof(T) * rows * cols * n);                          \
    }                                                                       \
    for (Py_ssize_t ty = 0; ty < th; ty++)                                  \
    for (Py_ssize_t tx = 0; tx < tw; tx++) {                                \
        T *tl = tiles + (ty * tw + tx) * C;                                 \
        if (j->op == S2_INPUT) {  /* mid[i][q] */                           \
            for (int i = 0; i < 6; i++) {                                   \
                s2_b_##T(mid + 10 * i * n, n,                               \
                         P + ((4 * ty + i) * cols + 4 * tx) * n, n, n);     \
            }                                                               \
            for (int q = 0; q < 10; q++) {                                  \
                s2_b_##T(tl + q * ps, 10 * ps, mid + q * n, 10 * n, n);     \
            }                                                               \
        } else if (j->op == S2_SUM) {  /* mid[i][q], win[j] */              \
            for (int q = 0; q < 10; q++) {                                  \
                s2_bt_##T(mid + q * n, 10 * n, tl + q * ps, 10 * ps, n);    \
            }                                                               \
            for (int i = 0; i < 6; i++) {                                   \
                s2_bt_##T(win, n, mid + 10 * i * n, n, n);                  \
                s2_add_##T(P + ((4 * ty + i) * cols + 4 * tx) * n, win,     \
                           6 * n);                                          \
            }                                                               \
        } else if (j->op == S2_OUTPUT) {  /* mid[pi][s] */                  \
            for (int pi = 0; pi < 10; pi++) {                               \
                s2_a_##T(mid + 8 * pi * n, n, tl + 10 * pi * ps, ps, n);    \
            }                                                               \
            for (int s = 0; s < 8; s++) {                                   \
                s2_a_##T(P + (8 * ty * cols + 8 * tx + s) * n, cols * n,    \
                         mid + s * n, 8 * n, n);                            \
            }                                                               \
        } else {  /* S2_GRAD: mid[r][q] */                                  \
            for (int r = 0; r < 8; r++) {                                   \
                s2_at_##T(mid + 10 * r * n, n,                              \
                          P + ((8 * ty + r) * cols + 8 * tx) * n, n, n);    \
            }                                                               \
            for (int q = 0; q < 10; q++) {                                  \
                s2_at_##T(tl + q * ps, 10 * ps, mid + q * n, 10 * n, n);    \
            }                                                               \
        }                                                                   \
    }                                                                       \
    if (j->op == S2_OUTPUT || j->op == S2_SUM) {                            \
        const T *bias = j->bias ? (const T *)j->bias + c0 : NULL;           \
        for (Py_ssize_t l = 0; l < n; l++) {                                \
            T add = bias ? bias[l] : 0;                                     \
            for (Py_ssize_t y = 0; y < h; y++) {                            \
                T *dst = img + l * sc + y * sh;                             \
                const T *src = P + ((y + off) * cols + off) * n + l;        \
                for (Py_ssize_t x = 0; x < w; x++) {                        \
                    dst[x * sw] = src[x * n] + add;                         \
                }                                                           \
            }                                                               \
        }                                                                   \
    }                                                                       \
}

/* d[k] += s[k] for k < n. */
#define S2_ADD(T)                                                           \
WINO_INLINE void                                                             \
s2_add_##T(T *RESTRICT d, const T *RESTRICT s, Py_ssize_t n)                \
{                                                                           \
    for (Py_ssize_t k = 0; k < n; k++) {                                    \
        d[k] += s[k];                                                       \
    }                                                                       \
}

S2_B(float)
S2_B(double)
S2_BT(float)
S2_BT(double)
S2_A(float)
S2_A(double)
S2_AT(float)
S2_AT(double)
S2_ADD(float)
S2_ADD(double)
S2_ITEM(float)
S2_ITEM(double)

static Py_ssize_t
s2_scratch(const wino *g)
{
    Py_ssize_t in = (4 * g->th + 2) * (4 * g->tw + 2);
    Py_ssize_t out = 64 * g->th * g->tw;
    return ((in > out ? in : out) + 86) * S2_CHANNELS;
}

static void
s2_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    s2_job *j = (s2_job *)job;
    size_t item = j->kind == 'f' ? 4 : 8;
    void *buf = malloc((size_t)s2_scratch(&j->g) * item);
    if (buf == NULL) {
        j->failed = 1;
        return;
    }
    Py_ssize_t c = j->g.c, blocks = (c + S2_CHANNELS - 1) / S2_CHANNELS;
    for (Py_ssize_t i = lo; i < hi; i++) {
        Py_ssize_t b = i / blocks, c0 = i % blocks * S2_CHANNELS;
        Py_ssize_t n = c - c0 < S2_CHANNELS ? c - c0 : S2_CHANNELS;
        if (j->kind == 'f') {
            s2_item_float(j, b, c0, n, buf);
        } else {
            s2_item_double(j, b, c0, n, buf);
        }
    }
    free(buf);
}

static const char *s2_names[] = {"winograd_s2_input", "winograd_s2_output",
                                 "winograd_s2_grad", "winograd_s2_sum"};

/* Runs op over the image img (b, c, h, w) and the tiles (100, b th tw, c)
 * of one float dtype, th = ceil(h / 4) (input side) or ceil(h / 8)
 * (output side), and likewise tw.  The image is read where the op reads
 * it (any strides), else written (C-contiguous); the tiles' (b th tw, c)
 * blocks are C-contiguous. */
static PyObject *
s2_run(PyObject *args, int op)
{
    PyObject *first, *second, *bias_obj = Py_None;
    const char *name = s2_names[op];
    int writes_img = op == S2_OUTPUT || op == S2_SUM;
    if (!PyArg_ParseTuple(args, op == S2_OUTPUT ? "OOO" : "OO", &first,
                          &second, &bias_obj)) {
        return NULL;
    }
    /* (image, tiles) for the ops that write the image, else (tiles,
     * image) */
    PyObject *img_obj = writes_img ? first : second;
    PyObject *tiles_obj = writes_img ? second : first;
    tile_io io;
    s2_job job;
    memset(&job, 0, sizeof(job));
    wino *g = &job.g;
    if (tile_io_get(&io, g, img_obj, tiles_obj, bias_obj, writes_img,
                    name)) {
        return NULL;
    }
    const Py_buffer *tiles = &io.tiles;
    Py_ssize_t side = op == S2_INPUT || op == S2_SUM ? 4 : 8;
    job.op = op;
    job.kind = io.kind;
    job.bias = io.bias.obj ? io.bias.buf : NULL;
    g->th = (g->h + side - 1) / side;
    g->tw = (g->w + side - 1) / side;
    if (tiles->shape[0] != 100 || tiles->shape[2] != g->c ||
            tiles->shape[1] != g->b * g->th * g->tw ||
            !tile_blocks_ok(&io, g)) {
        PyErr_Format(PyExc_ValueError, "%s: tiles (100, b * th * tw, c) "
                     "for an image (b, c, h, w), each (b * th * tw, c) block "
                     "C-contiguous, expected", name);
        tile_io_release(&io);
        return NULL;
    }
    job.img = io.img.buf;
    job.tiles = tiles->buf;
    if (io.img.len > 0 && tiles->len > 0) {
        Py_BEGIN_ALLOW_THREADS
        split(s2_range, &job, g->b * ((g->c + S2_CHANNELS - 1) /
                                      S2_CHANNELS),
              (double)tiles->len / tiles->itemsize);
        Py_END_ALLOW_THREADS
    } else if (op == S2_SUM && io.img.len > 0) {
        memset(io.img.buf, 0, io.img.len);
    }
    tile_io_release(&io);
    if (job.failed) {
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

static PyObject *
winograd_s2_input(PyObject *self, PyObject *args)
{
    (void)self;
    return s2_run(args, S2_INPUT);
}

static PyObject *
winograd_s2_output(PyObject *self, PyObject *args)
{
    (void)self;
    return s2_run(args, S2_OUTPUT);
}

static PyObject *
winograd_s2_grad(PyObject *self, PyObject *args)
{
    (void)self;
    return s2_run(args, S2_GRAD);
}

static PyObject *
winograd_s2_sum(PyObject *self, PyObject *args)
{
    (void)self;
    return s2_run(args, S2_SUM);
}

/* ---- thin GEMMs for F.linear: a few rows against a large weight -------
 *
 * linear_nt: y (m, n) = x (m, k) W^T (+ b), W (n, k); linear_nn: gx (m, k)
 * = gy (m, n) W.  With m small (an LSTM's batch of 20 against a 10,000 x
 * 200 output weight) BLAS spends much of the time copying (packing) W;
 * these loops read W in place, once: a block of W's rows is taken into L1
 * and meets all the rows of the small operand there.
 *
 * Both work on vectors of VL floats (GCC's vector extensions; compiled
 * for AVX-512 where the CPU has it, and otherwise for the target's
 * baseline) held in registers as a tile of accumulators:
 *   nt: 4 rows of x times 4 rows of W, each a dot product over k run
 *       lane-wise, whose lanes are summed at the end by a fixed tree that
 *       adds the tile's 16 vectors together (lane i of the result is the
 *       sum of vector i);
 *   nn: 4 rows of gy times 4 VL-wide column blocks of W, summed over W's
 *       rows in order, NN_ROWS rows at a time (the partial sums wait in a
 *       scratch array); W's rows are cut into a fixed number of parts,
 *       which depends on n alone, and the parts' sums are added in order
 *       at the end.
 * A k not a multiple of VL ends with a vector that overlaps the one
 * before: nt zeroes both operands' overlapped lanes (so they add 0 * 0,
 * whatever the numbers there), nn keeps only the new lanes.  So each
 * output element has one fixed order of additions, whichever thread does
 * it: the same bits from run to run and for any number of threads.  They
 * round differently from BLAS, within float tolerance.  Without GCC's
 * vector extensions (or for k < VL) plain loops do the sums. */

#define GEMM_TILE 4     /* rows of the small operand per tile; of W for nt */
#define NT_CHUNK 16     /* nt: tiles of W's rows taken at a time */
#define NN_ROWS 48      /* nn: rows of W per pass (kept in L1) */
#define NN_PART 256     /* nn: at least so many rows of W per part */
#define NN_PARTS 16     /* nn: at most so many parts */

typedef struct {
    const float *a;     /* nt: x (m, k); nn: gy (m, n) */
    const float *w;     /* W (n, k) */
    const float *bias;  /* nt: b (n,) or NULL */
    float *out;         /* nt: y (m, n); nn: gx (m, k) */
    float *acc;         /* nn: the parts' sums (parts, blocks, m, VL),
                         * 64-byte aligned: no cache line shared by two
                         * blocks */
    Py_ssize_t m, n, k;
    Py_ssize_t part;    /* nn: rows of W per part; nt: the tiles before
                         * the first chunk of whole cache lines of y, less
                         * NT_CHUNK */
} gemm_job;

/* The plain loops: row n of W against row i of x, summed over k in
 * order; and gx's rows summed over n in order. */
static void
nt_plain(const gemm_job *g, Py_ssize_t n0, Py_ssize_t n1)
{
    for (Py_ssize_t i = 0; i < g->m; i++) {
        const float *x = g->a + i * g->k;
        for (Py_ssize_t j = n0; j < n1; j++) {
            const float *w = g->w + j * g->k;
            float s = 0;
            for (Py_ssize_t l = 0; l < g->k; l++) {
                s += x[l] * w[l];
            }
            g->out[i * g->n + j] = g->bias ? s + g->bias[j] : s;
        }
    }
}

static void
nn_plain(const gemm_job *g)
{
    for (Py_ssize_t i = 0; i < g->m; i++) {
        float *out = g->out + i * g->k;
        for (Py_ssize_t l = 0; l < g->k; l++) {
            out[l] = 0;
        }
        for (Py_ssize_t j = 0; j < g->n; j++) {
            const float *w = g->w + j * g->k;
            float s = g->a[i * g->n + j];
            for (Py_ssize_t l = 0; l < g->k; l++) {
                out[l] += s * w[l];
            }
        }
    }
}

/* tn: out (ka, n) = a^T b for a (m, ka) and b (m, n), each output item
 * summed over the m rows in order (a weight gradient: x^T gy). */
typedef struct {
    const float *a, *b;
    float *out;
    Py_ssize_t m, ka, n;
} tn_job;

static void
tn_plain(const tn_job *g)
{
    for (Py_ssize_t i = 0; i < g->ka; i++) {
        for (Py_ssize_t j = 0; j < g->n; j++) {
            float s = 0;
            for (Py_ssize_t r = 0; r < g->m; r++) {
                s += g->a[r * g->ka + i] * g->b[r * g->n + j];
            }
            g->out[i * g->n + j] = s;
        }
    }
}

#if defined(__GNUC__)
#define GEMM_VECTORS 1
#define VL 16
typedef float vf __attribute__((vector_size(64)));
typedef float vf_u __attribute__((vector_size(64), aligned(4), may_alias));
typedef int32_t vi __attribute__((vector_size(64)));
#define LOAD(p) ((vf)*(const vf_u *)(p))

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define SHUF(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#endif
#endif
#ifndef SHUF
#define SHUF(a, b, ...) __builtin_shuffle(a, b, (vi){__VA_ARGS__})
#endif

#define INLINE static inline __attribute__((always_inline))

/* v[0..15] to one vector *out whose lane i is the sum of v[i]'s lanes:
 * each step halves the count of vectors and the lanes given to each. */
INLINE void
sum_lanes16(const vf *v, vf *out)
{
    vf t[8], u[4], s[2];
    for (int p = 0; p < 8; p++) {
        t[p] = SHUF(v[2 * p], v[2 * p + 1], 0, 1, 2, 3, 4, 5, 6, 7, 16, 17,
                    18, 19, 20, 21, 22, 23) +
               SHUF(v[2 * p], v[2 * p + 1], 8, 9, 10, 11, 12, 13, 14, 15, 24,
                    25, 26, 27, 28, 29, 30, 31);
    }
    for (int p = 0; p < 4; p++) {
        u[p] = SHUF(t[2 * p], t[2 * p + 1], 0, 1, 2, 3, 8, 9, 10, 11, 16, 17,
                    18, 19, 24, 25, 26, 27) +
               SHUF(t[2 * p], t[2 * p + 1], 4, 5, 6, 7, 12, 13, 14, 15, 20,
                    21, 22, 23, 28, 29, 30, 31);
    }
    for (int p = 0; p < 2; p++) {
        s[p] = SHUF(u[2 * p], u[2 * p + 1], 0, 1, 4, 5, 8, 9, 12, 13, 16, 17,
                    20, 21, 24, 25, 28, 29) +
               SHUF(u[2 * p], u[2 * p + 1], 2, 3, 6, 7, 10, 11, 14, 15, 18,
                    19, 22, 23, 26, 27, 30, 31);
    }
    *out = SHUF(s[0], s[1], 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24,
                26, 28, 30) +
           SHUF(s[0], s[1], 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25,
                27, 29, 31);
}

/* y[i0 + i, j0 + j] for i < mb, j < nb (at most 4 each): the tile's 16
 * vectors are acc[4 i + j] (zero where outside). */
INLINE void
nt_tile(const gemm_job *g, Py_ssize_t i0, Py_ssize_t j0, int mb, int nb)
{
    const Py_ssize_t k = g->k, r = k % VL, k_main = k - r;
    const float *x = g->a + i0 * k, *w = g->w + j0 * k;
    vf acc[16] = {0};
    for (Py_ssize_t l = 0; l < k_main; l += VL) {
        vf wv[4];
        for (int j = 0; j < nb; j++) {
            wv[j] = LOAD(w + j * k + l);
        }
        for (int i = 0; i < mb; i++) {
            vf xv = LOAD(x + i * k + l);
            for (int j = 0; j < nb; j++) {
                acc[4 * i + j] += xv * wv[j];
            }
        }
    }
    if (r) {  /* the last VL items, of which the first VL - r are done */
        const vi lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                          15};
        const vi keep = lanes >= (vi){} + (int)(VL - r);
        const Py_ssize_t l = k - VL;
        vf wv[4];
        for (int j = 0; j < nb; j++) {
            wv[j] = (vf)((vi)LOAD(w + j * k + l) & keep);
        }
        for (int i = 0; i < mb; i++) {
            vf xv = (vf)((vi)LOAD(x + i * k + l) & keep);
            for (int j = 0; j < nb; j++) {
                acc[4 * i + j] += xv * wv[j];
            }
        }
    }
    vf s;
    sum_lanes16(acc, &s);
    float *y = g->out + i0 * g->n + j0;
    if (nb == 4) {  /* lanes 4 i .. 4 i + 3 are a run of row i */
        if (g->bias) {
            const float *b = g->bias + j0;
            s += (vf){b[0], b[1], b[2], b[3], b[0], b[1], b[2], b[3], b[0],
                      b[1], b[2], b[3], b[0], b[1], b[2], b[3]};
        }
        for (int i = 0; i < mb; i++) {
            memcpy(y + i * g->n, (const float *)&s + 4 * i,
                   4 * sizeof(float));
        }
        return;
    }
    for (int i = 0; i < mb; i++) {
        for (int j = 0; j < nb; j++) {
            y[i * g->n + j] = g->bias ? s[4 * i + j] + g->bias[j0 + j]
                                      : s[4 * i + j];
        }
    }
}

/* CASE(M, N) for each tile size, M and N from 4 down to 1: a switch over
 * 4 M + N with constant sizes, so that each tile is unrolled in
 * registers. */
#define TILE_CASES(CASE)                                                    \
    CASE(4, 4) CASE(4, 3) CASE(4, 2) CASE(4, 1)                             \
    CASE(3, 4) CASE(3, 3) CASE(3, 2) CASE(3, 1)                             \
    CASE(2, 4) CASE(2, 3) CASE(2, 2) CASE(2, 1)                             \
    CASE(1, 4) CASE(1, 3) CASE(1, 2) CASE(1, 1)

/* W's rows [4 b0, 4 b1), against all of x. */
INLINE void
nt_rows(const gemm_job *g, Py_ssize_t b0, Py_ssize_t b1)
{
    for (Py_ssize_t b = b0; b < b1; b++) {
        Py_ssize_t j0 = 4 * b;
        int nb = g->n - j0 < 4 ? (int)(g->n - j0) : 4;
        for (Py_ssize_t i0 = 0; i0 < g->m; i0 += 4) {
            int mb = g->m - i0 < 4 ? (int)(g->m - i0) : 4;
#define NT_CASE(M, N) case 4 * (M) + (N): nt_tile(g, i0, j0, M, N); break;
            switch (4 * mb + nb) {
            TILE_CASES(NT_CASE)
            }
#undef NT_CASE
        }
    }
}

/* Column block c of gx starts at item min(c VL, k - VL). */
INLINE Py_ssize_t
nn_col(const gemm_job *g, Py_ssize_t c)
{
    return c * VL < g->k - VL ? c * VL : g->k - VL;
}

/* gy's rows [i0, i0 + mb) times W's rows [j0, j1) in column blocks
 * [c0, c0 + cb), added to the partial sums in acc (blocks, m, VL), or
 * put there when first. */
INLINE void
nn_tile(const gemm_job *g, float *acc, Py_ssize_t i0, int mb, Py_ssize_t c0,
        int cb, Py_ssize_t j0, Py_ssize_t j1, int first)
{
    const Py_ssize_t k = g->k, n = g->n, m = g->m;
    vf sum[4][4];
    const float *w[4];
    for (int c = 0; c < cb; c++) {
        w[c] = g->w + nn_col(g, c0 + c);
    }
    for (int i = 0; i < mb; i++) {
        for (int c = 0; c < cb; c++) {
            sum[i][c] = first ? (vf){0}
                              : LOAD(acc + ((c0 + c) * m + i0 + i) * VL);
        }
    }
    const float *gy = g->a + i0 * n;
    for (Py_ssize_t j = j0; j < j1; j++) {
        vf wv[4];
        for (int c = 0; c < cb; c++) {
            wv[c] = LOAD(w[c] + j * k);
        }
        for (int i = 0; i < mb; i++) {
            float s = gy[i * n + j];
            for (int c = 0; c < cb; c++) {
                sum[i][c] += s * wv[c];
            }
        }
    }
    for (int i = 0; i < mb; i++) {
        for (int c = 0; c < cb; c++) {
            *(vf_u *)(acc + ((c0 + c) * m + i0 + i) * VL) = sum[i][c];
        }
    }
}

/* The sums of parts [p0, p1) of W's rows, each into its own scratch. */
INLINE void
nn_parts(const gemm_job *g, Py_ssize_t p0, Py_ssize_t p1)
{
    const Py_ssize_t blocks = (g->k + VL - 1) / VL;
    for (Py_ssize_t p = p0; p < p1; p++) {
        float *acc = g->acc + p * blocks * g->m * VL;
        Py_ssize_t end = g->n - p * g->part < g->part ? g->n
                                                      : (p + 1) * g->part;
        for (Py_ssize_t j0 = p * g->part; j0 < end; j0 += NN_ROWS) {
            Py_ssize_t j1 = end - j0 < NN_ROWS ? end : j0 + NN_ROWS;
            int first = j0 == p * g->part;
            for (Py_ssize_t i0 = 0; i0 < g->m; i0 += 4) {
                int mb = g->m - i0 < 4 ? (int)(g->m - i0) : 4;
                for (Py_ssize_t c = 0; c < blocks; c += 4) {
                    int cb = blocks - c < 4 ? (int)(blocks - c) : 4;
#define NN_CASE(M, C) case 4 * (M) + (C):                                   \
    nn_tile(g, acc, i0, M, c, C, j0, j1, first); break;
                    switch (4 * mb + cb) {
                    TILE_CASES(NN_CASE)
                    }
#undef NN_CASE
                }
            }
        }
    }
}

/* gx: the parts' sums added in order; the last column block gives only
 * the items past the block before it. */
static void
nn_gather(const gemm_job *g, Py_ssize_t parts)
{
    const Py_ssize_t blocks = (g->k + VL - 1) / VL, size = blocks * g->m * VL;
    for (Py_ssize_t c = 0; c < blocks; c++) {
        Py_ssize_t first = nn_col(g, c), skip = c * VL - first;
        for (Py_ssize_t i = 0; i < g->m; i++) {
            const float *acc = g->acc + (c * g->m + i) * VL;
            float *out = g->out + i * g->k + first;
            for (Py_ssize_t l = skip; l < VL; l++) {
                float s = acc[l];
                for (Py_ssize_t p = 1; p < parts; p++) {
                    s += acc[p * size + l];
                }
                out[l] = s;
            }
        }
    }
}

/* tn's column block c starts at item min(c VL, n - VL) (the last one
 * overlaps the one before, and gives its items the same sums). */
INLINE Py_ssize_t
tn_col(const tn_job *g, Py_ssize_t c)
{
    return c * VL < g->n - VL ? c * VL : g->n - VL;
}

/* out's rows [i0, i0 + ib) in column blocks [c0, c0 + cb): a[r, i] times
 * b's row r, summed over r in order. */
INLINE void
tn_tile(const tn_job *g, Py_ssize_t i0, int ib, Py_ssize_t c0, int cb)
{
    const Py_ssize_t n = g->n, ka = g->ka;
    vf sum[4][4];
    const float *col[4];
    for (int c = 0; c < cb; c++) {
        col[c] = g->b + tn_col(g, c0 + c);
    }
    for (int i = 0; i < ib; i++) {
        for (int c = 0; c < cb; c++) {
            sum[i][c] = (vf){0};
        }
    }
    for (Py_ssize_t r = 0; r < g->m; r++) {
        vf bv[4];
        for (int c = 0; c < cb; c++) {
            bv[c] = LOAD(col[c] + r * n);
        }
        const float *ar = g->a + r * ka + i0;
        for (int i = 0; i < ib; i++) {
            float s = ar[i];
            for (int c = 0; c < cb; c++) {
                sum[i][c] += s * bv[c];
            }
        }
    }
    for (int i = 0; i < ib; i++) {
        float *out = g->out + (i0 + i) * n;
        for (int c = 0; c < cb; c++) {
            *(vf_u *)(out + tn_col(g, c0 + c)) = sum[i][c];
        }
    }
}

INLINE void
tn_tiles(const tn_job *g)
{
    const Py_ssize_t blocks = (g->n + VL - 1) / VL;
    for (Py_ssize_t i0 = 0; i0 < g->ka; i0 += 4) {
        int ib = g->ka - i0 < 4 ? (int)(g->ka - i0) : 4;
        for (Py_ssize_t c = 0; c < blocks; c += 4) {
            int cb = blocks - c < 4 ? (int)(blocks - c) : 4;
#define TN_CASE(M, C) case 4 * (M) + (C): tn_tile(g, i0, M, c, C); break;
            switch (4 * ib + cb) {
            TILE_CASES(TN_CASE)
            }
#undef TN_CASE
        }
    }
}

#if defined(__x86_64__)
#define GEMM_AVX512 1
#define AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma")))

AVX512 static void
nt_avx512(const gemm_job *g, Py_ssize_t b0, Py_ssize_t b1)
{
    nt_rows(g, b0, b1);
}

AVX512 static void
nn_avx512(const gemm_job *g, Py_ssize_t p0, Py_ssize_t p1)
{
    nn_parts(g, p0, p1);
}

AVX512 static void
tn_avx512(const tn_job *g)
{
    tn_tiles(g);
}
#endif

static void
nt_base(const gemm_job *g, Py_ssize_t b0, Py_ssize_t b1)
{
    nt_rows(g, b0, b1);
}

static void
nn_base(const gemm_job *g, Py_ssize_t p0, Py_ssize_t p1)
{
    nn_parts(g, p0, p1);
}

static void
tn_base(const tn_job *g)
{
    tn_tiles(g);
}
#else
#define VL 1
static void
nn_gather(const gemm_job *g, Py_ssize_t parts)
{
    (void)g;
    (void)parts;
}
#endif  /* __GNUC__ */

typedef void (*gemm_fn)(const gemm_job *g, Py_ssize_t lo, Py_ssize_t hi);

/* The kernels this CPU runs: 'a' AVX-512, 'v' vectors of the compiler's
 * baseline, 'p' plain loops; set at import. */
static char gemm_isa = 'p';
static gemm_fn nt_fn, nn_fn;
static void (*tn_fn)(const tn_job *g) = tn_plain;

static void
gemm_init(void)
{
#ifdef GEMM_VECTORS
    gemm_isa = 'v';
    nt_fn = nt_base;
    nn_fn = nn_base;
    tn_fn = tn_base;
#ifdef GEMM_AVX512
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") &&
            __builtin_cpu_supports("avx512vl") &&
            __builtin_cpu_supports("avx512dq")) {
        gemm_isa = 'a';
        nt_fn = nt_avx512;
        nn_fn = nn_avx512;
        tn_fn = tn_avx512;
    }
#endif
#endif
}

/* Chunks [q0, q1) of nt's tiles of W's rows: NT_CHUNK tiles each, less in
 * the first (so that two chunks never write to one cache line of y where
 * y's rows are whole lines apart). */
static void
nt_range(const void *job, Py_ssize_t q0, Py_ssize_t q1)
{
    const gemm_job *g = job;
    Py_ssize_t tiles = (g->n + GEMM_TILE - 1) / GEMM_TILE;
    Py_ssize_t lo = q0 * NT_CHUNK - g->part, hi = q1 * NT_CHUNK - g->part;
    lo = lo < 0 ? 0 : lo;
    hi = hi < tiles ? hi : tiles;
    if (gemm_isa == 'p' || g->k < VL) {
        nt_plain(g, lo * GEMM_TILE, hi * GEMM_TILE < g->n ? hi * GEMM_TILE
                                                          : g->n);
    } else {
        nt_fn(g, lo, hi);
    }
}

static void
nn_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    nn_fn(job, lo, hi);
}

static void
tn_run(const tn_job *g)
{
    if (g->n < VL) {
        tn_plain(g);
    } else {
        tn_fn(g);
    }
}

/* ---- work shared out in chunks ---------------------------------------
 *
 * share runs fn(job, lo, hi) over [0, count) in chunks, which the caller
 * and up to t - 1 helper threads take in turn.  A core may be busy (BLAS's
 * own threads spin on it for a while after each of its calls), and then a
 * helper starts late, or not before the caller has taken every chunk: the
 * call waits at most for the chunks a helper has begun, never for a
 * helper to be scheduled.  Which thread runs a chunk does not change its
 * arithmetic.  Where GCC's atomics are missing, split does it. */
#if defined(__GNUC__) && defined(__unix__)
#include <sched.h>

typedef struct {
    range_fn fn;
    const void *job;    /* only read while a chunk is taken */
    Py_ssize_t count, chunk;
    Py_ssize_t next, done;  /* atomic: the next chunk; items done */
    int refs;               /* atomic: the threads that hold this */
} shared_work;

static void
take_chunks(shared_work *s)
{
    for (;;) {
        Py_ssize_t lo = __atomic_fetch_add(&s->next, s->chunk,
                                           __ATOMIC_RELAXED);
        if (lo >= s->count) {
            return;
        }
        Py_ssize_t hi = s->count - lo < s->chunk ? s->count : lo + s->chunk;
        s->fn(s->job, lo, hi);
        __atomic_fetch_add(&s->done, hi - lo, __ATOMIC_RELEASE);
    }
}

static void
drop_work(shared_work *s)
{
    if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        PyMem_RawFree(s);
    }
}

/* The helpers: threads started once, each waiting on its lock for work.
 * A helper is handed work only while idle (one still busy with a chunk of
 * an earlier call is left out), so a call never waits for one to be
 * scheduled.  (They stay on their cores, where threads started per call
 * were put beside the caller while BLAS's threads spun on the other
 * core.) */
static struct {
    PyThread_type_lock made;    /* held while starting helpers */
    int count;                  /* helpers started (atomic) */
    int idle[MAX_THREADS];      /* atomic */
    PyThread_type_lock go[MAX_THREADS];
    shared_work *work[MAX_THREADS];
} helpers;

static void
helper(void *arg)
{
    int i = (int)(intptr_t)arg;
    for (;;) {
        PyThread_acquire_lock(helpers.go[i], WAIT_LOCK);
        shared_work *s = helpers.work[i];
        take_chunks(s);
        drop_work(s);
        __atomic_store_n(&helpers.idle[i], 1, __ATOMIC_RELEASE);
    }
}

/* Up to n helpers started; how many there are. */
static int
start_helpers(int n)
{
    int i = __atomic_load_n(&helpers.count, __ATOMIC_ACQUIRE);
    if (i >= n || helpers.made == NULL) {
        return i;
    }
    PyThread_acquire_lock(helpers.made, WAIT_LOCK);
    for (i = helpers.count; i < n; i++) {
        helpers.go[i] = PyThread_allocate_lock();
        if (helpers.go[i] == NULL) {
            break;
        }
        PyThread_acquire_lock(helpers.go[i], WAIT_LOCK);
        helpers.idle[i] = 1;
        if (PyThread_start_new_thread(helper, (void *)(intptr_t)i) ==
                PYTHREAD_INVALID_THREAD_ID) {
            PyThread_release_lock(helpers.go[i]);
            PyThread_free_lock(helpers.go[i]);
            break;
        }
    }
    __atomic_store_n(&helpers.count, i, __ATOMIC_RELEASE);
    PyThread_release_lock(helpers.made);
    return i;
}

static void
share_init(void)
{
    helpers.made = PyThread_allocate_lock();
}

static void
share(range_fn fn, const void *job, Py_ssize_t count, Py_ssize_t chunk,
      Py_ssize_t t)
{
    Py_ssize_t chunks = (count + chunk - 1) / chunk;
    t = t < chunks ? t : chunks;
    t = t < MAX_THREADS ? t : MAX_THREADS;
    shared_work *s = NULL;
    if (t > 1) {
        s = PyMem_RawMalloc(sizeof *s);
    }
    if (s == NULL) {
        fn(job, 0, count);
        return;
    }
    *s = (shared_work){fn, job, count, chunk, 0, 0, 1};
    int n = start_helpers((int)t - 1);
    for (int i = 0; i < n && i < t - 1; i++) {
        int idle = 1;
        if (__atomic_compare_exchange_n(&helpers.idle[i], &idle, 0, 0,
                                        __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
            helpers.work[i] = s;
            PyThread_release_lock(helpers.go[i]);
        }
    }
    take_chunks(s);
    while (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) < count) {
        sched_yield();
    }
    drop_work(s);
}
#else
static void
share_init(void)
{
}

static void
share(range_fn fn, const void *job, Py_ssize_t count, Py_ssize_t chunk,
      Py_ssize_t t)
{
    (void)chunk;
    split_among(fn, job, count, (double)MIN_WORK * count, t);
}
#endif

/* ---- tn products in the background -----------------------------------
 *
 * gemm_tn_start queues a tn product for a helper thread of its own
 * (started on first use) and returns at once; gemm_tn_wait computes the
 * queued products no thread has begun, waits for the others and lets their
 * arrays go.  Only a thread holding the GIL queues, waits and releases; the
 * helper only takes products and computes them.  The counters only grow,
 * and an item's slot is used again only once it is released.  Which thread
 * computes a product does not change its arithmetic.  Where GCC's atomics
 * are missing, a product is computed when queued. */
#define TN_QUEUE 256        /* products queued at most (then computed at
                             * once) */
#define TN_IDLE_NS 1000000  /* the helper spins so long for more work */

typedef struct {
    tn_job job;
    Py_buffer b[3];
} tn_item;

static struct {
    tn_item items[TN_QUEUE];
    Py_ssize_t count;       /* atomic: products queued, ever */
    Py_ssize_t next;        /* atomic: products taken */
    Py_ssize_t done;        /* atomic: products computed */
    Py_ssize_t released;    /* products whose arrays are let go (GIL) */
    int state;              /* 0 no helper, 1 one runs, -1 none starts */
    int sleeping;           /* atomic: the helper waits on wake */
    PyThread_type_lock wake;
} tn_queue;

/* The helper's arrays: the product's three buffers, or -1 with none held
 * and an exception set. */
static int
tn_buffers(Py_buffer *b, PyObject *out, PyObject *a, PyObject *x,
           Py_ssize_t m, Py_ssize_t ka, Py_ssize_t n)
{
    item_spec spec[3] = {
        {out, 1, ka * n, 'f', "gemm_tn out"},
        {a, 0, m * ka, 'f', "gemm_tn a"},
        {x, 0, m * n, 'f', "gemm_tn b"},
    };
    if (m < 0 || ka < 0 || n < 0) {
        PyErr_SetString(PyExc_ValueError, "gemm_tn: negative size");
        return -1;
    }
    return get_all(spec, b, 3);
}

/* The product computed now, by the calling thread (see soft in refused and
 * done). */
static PyObject *
tn_now(PyObject *out, PyObject *a, PyObject *x, Py_ssize_t m, Py_ssize_t ka,
       Py_ssize_t n, int soft)
{
    Py_buffer b[3];
    if (tn_buffers(b, out, a, x, m, ka, n)) {
        return refused(soft);
    }
    tn_job job = {b[1].buf, b[2].buf, b[0].buf, m, ka, n};
    Py_BEGIN_ALLOW_THREADS
    tn_run(&job);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 3; i++) {
        PyBuffer_Release(&b[i]);
    }
    return done(soft);
}

#if defined(__GNUC__) && defined(__unix__)
#include <time.h>

static void
pause_briefly(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    sched_yield();
#endif
}

static double
now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Takes and computes one queued product; 0 if none was left. */
static int
tn_take(void)
{
    Py_ssize_t i = __atomic_load_n(&tn_queue.next, __ATOMIC_RELAXED);
    for (;;) {
        if (i >= __atomic_load_n(&tn_queue.count, __ATOMIC_SEQ_CST)) {
            return 0;
        }
        if (__atomic_compare_exchange_n(&tn_queue.next, &i, i + 1, 0,
                                        __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            break;
        }
    }
    tn_run(&tn_queue.items[i % TN_QUEUE].job);
    __atomic_add_fetch(&tn_queue.done, 1, __ATOMIC_RELEASE);
    return 1;
}

static void
tn_helper(void *arg)
{
    (void)arg;
    for (;;) {
        double idle_since = now_ns();
        for (int polls = 0;; polls++) {
            if (tn_take()) {
                idle_since = now_ns();
            } else if (polls % 64 == 0 &&
                       now_ns() - idle_since > TN_IDLE_NS) {
                break;
            } else {
                pause_briefly();
            }
        }
        __atomic_store_n(&tn_queue.sleeping, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&tn_queue.next, __ATOMIC_SEQ_CST) <
                __atomic_load_n(&tn_queue.count, __ATOMIC_SEQ_CST) &&
                __atomic_exchange_n(&tn_queue.sleeping, 0,
                                    __ATOMIC_SEQ_CST)) {
            continue;  /* work came: not asleep after all */
        }
        /* (woken by the queue, or taking the wake it gave already) */
        PyThread_acquire_lock(tn_queue.wake, WAIT_LOCK);
    }
}

/* Whether a helper runs (started here if none was). */
static int
tn_helper_runs(void)
{
    if (tn_queue.state == 0) {
        tn_queue.state = -1;
        tn_queue.wake = PyThread_allocate_lock();
        if (tn_queue.wake != NULL) {
            PyThread_acquire_lock(tn_queue.wake, WAIT_LOCK);
            if (PyThread_start_new_thread(tn_helper, NULL) ==
                    PYTHREAD_INVALID_THREAD_ID) {
                PyThread_release_lock(tn_queue.wake);
                PyThread_free_lock(tn_queue.wake);
            } else {
                tn_queue.state = 1;
            }
        }
    }
    return tn_queue.state == 1;
}

/* The product queued for the helper (computed now where the queue is
 * full or no helper runs); False for arrays gemm_tn does not take. */
static PyObject *
tn_queue_or_now(PyObject *out, PyObject *a, PyObject *x, Py_ssize_t m,
                Py_ssize_t ka, Py_ssize_t n)
{
    Py_ssize_t count = tn_queue.count;
    if (count - tn_queue.released >= TN_QUEUE || !tn_helper_runs()) {
        return tn_now(out, a, x, m, ka, n, 1);
    }
    tn_item *item = &tn_queue.items[count % TN_QUEUE];
    if (tn_buffers(item->b, out, a, x, m, ka, n)) {
        return refused(1);
    }
    item->job = (tn_job){item->b[1].buf, item->b[2].buf, item->b[0].buf, m,
                         ka, n};
    __atomic_store_n(&tn_queue.count, count + 1, __ATOMIC_SEQ_CST);
    if (__atomic_exchange_n(&tn_queue.sleeping, 0, __ATOMIC_SEQ_CST)) {
        PyThread_release_lock(tn_queue.wake);
    }
    Py_RETURN_TRUE;
}

/* In a child process after fork: no helper runs there, and a product the
 * parent's helper had begun would never be done.  The queue starts empty
 * (the arrays held for the parent's products stay held) and a helper is
 * started anew at the next product. */
static PyObject *
gemm_tn_after_fork(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    Py_ssize_t count = tn_queue.count;
    tn_queue.next = tn_queue.done = tn_queue.released = count;
    tn_queue.sleeping = 0;
    tn_queue.state = 0;
    tn_queue.wake = NULL;  /* (the parent's lock is left as it is) */
    Py_RETURN_NONE;
}

static PyObject *
gemm_tn_wait(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    Py_ssize_t count = tn_queue.count;
    if (tn_queue.released >= count) {
        Py_RETURN_NONE;
    }
    Py_BEGIN_ALLOW_THREADS
    while (tn_take()) {
    }
    while (__atomic_load_n(&tn_queue.done, __ATOMIC_ACQUIRE) < count) {
        pause_briefly();
    }
    Py_END_ALLOW_THREADS
    /* (another thread may have waited and released meanwhile) */
    for (Py_ssize_t i = tn_queue.released; i < count; i++) {
        for (int j = 0; j < 3; j++) {
            PyBuffer_Release(&tn_queue.items[i % TN_QUEUE].b[j]);
        }
    }
    if (tn_queue.released < count) {
        tn_queue.released = count;
    }
    Py_RETURN_NONE;
}
#else
static PyObject *
tn_queue_or_now(PyObject *out, PyObject *a, PyObject *x, Py_ssize_t m,
                Py_ssize_t ka, Py_ssize_t n)
{
    return tn_now(out, a, x, m, ka, n, 1);
}

static PyObject *
gemm_tn_wait(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    Py_RETURN_NONE;
}

static PyObject *
gemm_tn_after_fork(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    Py_RETURN_NONE;
}
#endif

static PyObject *
gemm_tn(PyObject *self, PyObject *args)
{
    PyObject *out, *a, *x;
    Py_ssize_t m, ka, n;
    int soft = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOnnn|p", &out, &a, &x, &m, &ka, &n,
                          &soft)) {
        return NULL;
    }
    return tn_now(out, a, x, m, ka, n, soft);
}

static PyObject *
gemm_tn_start(PyObject *self, PyObject *args)
{
    PyObject *out, *a, *x;
    Py_ssize_t m, ka, n;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOnnn", &out, &a, &x, &m, &ka, &n)) {
        return NULL;
    }
    return tn_queue_or_now(out, a, x, m, ka, n);
}

static PyObject *
linear_nt(PyObject *self, PyObject *args)
{
    PyObject *y, *x, *w, *bias;
    Py_ssize_t m, n, k, threads;
    int soft = 0;
    Py_buffer b[4];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOnnnn|p", &y, &x, &w, &bias, &m, &n, &k,
                          &threads, &soft)) {
        return NULL;
    }
    if (m < 0 || n < 0 || k < 0) {
        PyErr_SetString(PyExc_ValueError, "linear_nt: negative size");
        return NULL;
    }
    item_spec spec[4] = {
        {y, 1, m * n, 'f', "linear_nt y"},
        {x, 0, m * k, 'f', "linear_nt x"},
        {w, 0, n * k, 'f', "linear_nt W"},
        {bias, 0, n, 'f', "linear_nt b"},
    };
    int count = bias == Py_None ? 3 : 4;
    if (get_all(spec, b, count)) {
        return refused(soft);
    }
    gemm_job job = {b[1].buf, b[2].buf, count == 4 ? b[3].buf : NULL,
                    b[0].buf, NULL, m, n, k, 0};
    /* the tiles before y's first cache line (64 bytes of 4 tiles) */
    uintptr_t line = (uintptr_t)job.out % 64;
    Py_ssize_t head = line % (GEMM_TILE * sizeof(float)) ? 0 :
        (Py_ssize_t)((64 - line) % 64 / (GEMM_TILE * sizeof(float)));
    job.part = (NT_CHUNK - head) % NT_CHUNK;
    Py_ssize_t chunks = ((n + GEMM_TILE - 1) / GEMM_TILE + job.part +
                         NT_CHUNK - 1) / NT_CHUNK;
    Py_BEGIN_ALLOW_THREADS
    share(nt_range, &job, chunks, 1, threads);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < count; i++) {
        PyBuffer_Release(&b[i]);
    }
    return done(soft);
}

static PyObject *
linear_nn(PyObject *self, PyObject *args)
{
    PyObject *gx, *gy, *w;
    Py_ssize_t m, n, k, threads;
    Py_buffer b[3];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOnnnn", &gx, &gy, &w, &m, &n, &k,
                          &threads)) {
        return NULL;
    }
    if (m < 0 || n < 0 || k < 0) {
        PyErr_SetString(PyExc_ValueError, "linear_nn: negative size");
        return NULL;
    }
    item_spec spec[3] = {
        {gx, 1, m * k, 'f', "linear_nn gx"},
        {gy, 0, m * n, 'f', "linear_nn gy"},
        {w, 0, n * k, 'f', "linear_nn W"},
    };
    if (get_all(spec, b, 3)) {
        return NULL;
    }
    gemm_job job = {b[1].buf, b[2].buf, NULL, b[0].buf, NULL, m, n, k, 0};
    char *mem = NULL;
    Py_ssize_t parts = 0;
    if (gemm_isa != 'p' && k >= VL && m > 0 && n > 0) {
        /* parts of at least NN_PART rows, at most NN_PARTS of them */
        parts = (n + NN_PART - 1) / NN_PART;
        parts = parts < NN_PARTS ? parts : NN_PARTS;
        job.part = (n + parts - 1) / parts;
        parts = (n + job.part - 1) / job.part;
        size_t size = (size_t)(parts * ((k + VL - 1) / VL) * m * VL) *
                      sizeof(float);
        mem = PyMem_RawMalloc(size + 64);
        if (mem == NULL) {
            for (int i = 0; i < 3; i++) {
                PyBuffer_Release(&b[i]);
            }
            return PyErr_NoMemory();
        }
        job.acc = (float *)(mem + (64 - (uintptr_t)mem % 64));
    }
    Py_BEGIN_ALLOW_THREADS
    if (parts) {
        share(nn_range, &job, parts, 1, threads);
        nn_gather(&job, parts);
    } else {
        nn_plain(&job);
    }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(mem);
    for (int i = 0; i < 3; i++) {
        PyBuffer_Release(&b[i]);
    }
    Py_RETURN_NONE;
}

static PyObject *
linear_isa(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    const char *name = gemm_isa == 'a' ? "avx512" :
                       gemm_isa == 'v' ? "vector" : "plain";
    return PyUnicode_FromString(name);
}

/* ---- elementwise loops: tanh's gradient, ReLU and its gradient ----------
 * tanh_grad is gy (1 - y y) with NumPy's three roundings (y * y, 1 - that,
 * gy * that, each to the item type: no fused multiply-add, the compiler
 * must not contract 1 - y * y); relu is max(x, 0) (NaN kept, -0 made 0)
 * and relu_grad gy * (y > 0) (times 1 or 0, so -0 and NaN as NumPy's
 * product with the mask).  NumPy's bits, in one pass each (NumPy makes
 * three, or a mask, its cast and a product), shared among the threads
 * set. */

#if defined(__clang__)
#define NO_FMA _Pragma("clang fp contract(off)")
#define NO_FMA_FN
#elif defined(__GNUC__)
#define NO_FMA
#define NO_FMA_FN __attribute__((optimize("fp-contract=off")))
#else
#define NO_FMA
#define NO_FMA_FN
#endif

typedef struct {
    char kind;
    void *out;
    const void *a, *b;
} ew_job;

#define EW_LOOPS(T)                                                         \
NO_FMA_FN WINO_CLONES static void                                           \
tanh_grad_##T(T *RESTRICT gx, const T *RESTRICT y, const T *RESTRICT gy,    \
              Py_ssize_t lo, Py_ssize_t hi)                                 \
{                                                                           \
    NO_FMA                                                                  \
    for (Py_ssize_t i = lo; i < hi; i++) {                                  \
        T s = y[i] * y[i];                                                  \
        T d = (T)1 - s;                                                     \
        gx[i] = gy[i] * d;                                                  \
    }                                                                       \
}                                                                           \
                                                                            \
WINO_CLONES static void                                                     \
relu_##T(T *RESTRICT y, const T *RESTRICT x, Py_ssize_t lo, Py_ssize_t hi)  \
{                                                                           \
    for (Py_ssize_t i = lo; i < hi; i++) {                                  \
        T v = x[i];                                                         \
        y[i] = v > 0 ? v : (v != v ? v : (T)0);                             \
    }                                                                       \
}                                                                           \
                                                                            \
NO_FMA_FN WINO_CLONES static void                                           \
relu_grad_##T(T *RESTRICT gx, const T *RESTRICT y, const T *RESTRICT gy,    \
              Py_ssize_t lo, Py_ssize_t hi)                                 \
{                                                                           \
    NO_FMA                                                                  \
    for (Py_ssize_t i = lo; i < hi; i++) {                                  \
        gx[i] = gy[i] * (y[i] > 0 ? (T)1 : (T)0);                           \
    }                                                                       \
}

EW_LOOPS(float)
EW_LOOPS(double)

static void
tanh_grad_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const ew_job *j = job;
    if (j->kind == 'f') {
        tanh_grad_float(j->out, j->a, j->b, lo, hi);
    } else {
        tanh_grad_double(j->out, j->a, j->b, lo, hi);
    }
}

static void
relu_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const ew_job *j = job;
    if (j->kind == 'f') {
        relu_float(j->out, j->a, lo, hi);
    } else {
        relu_double(j->out, j->a, lo, hi);
    }
}

static void
relu_grad_range(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const ew_job *j = job;
    if (j->kind == 'f') {
        relu_grad_float(j->out, j->a, j->b, lo, hi);
    } else {
        relu_grad_double(j->out, j->a, j->b, lo, hi);
    }
}

/* Items per chunk of an elementwise loop's shared work. */
#define EW_CHUNK 65536

/* fn over n items of out and the inputs a and b (b NULL for none; of
 * out's kind, C-contiguous), shared among the threads set, without the
 * GIL; names[i], the name of each array in errors.  With soft, False
 * (the exception cleared) for arrays it does not take, True when done. */
static PyObject *
elementwise(const char *const names[3], range_fn fn, PyObject *out,
            PyObject *a, PyObject *b, Py_ssize_t n, int soft)
{
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "%s: negative size", names[0]);
        return NULL;
    }
    char kind = float_kind(out);
    if (!kind) {
        return refused(soft);
    }
    item_spec spec[3] = {
        {out, 1, n, kind, names[0]},
        {a, 0, n, kind, names[1]},
        {b, 0, n, kind, names[2]},
    };
    int count = b == NULL ? 2 : 3;
    Py_buffer buf[3];
    if (get_all(spec, buf, count)) {
        return refused(soft);
    }
    ew_job job = {kind, buf[0].buf, buf[1].buf,
                  count == 3 ? buf[2].buf : NULL};
    Py_BEGIN_ALLOW_THREADS
    share(fn, &job, n, EW_CHUNK, max_threads);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < count; i++) {
        PyBuffer_Release(&buf[i]);
    }
    return done(soft);
}

static PyObject *
tanh_grad(PyObject *self, PyObject *args)
{
    PyObject *gx, *y, *gy;
    Py_ssize_t n;
    int soft = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOn|p", &gx, &y, &gy, &n, &soft)) {
        return NULL;
    }
    static const char *const names[3] = {"tanh_grad gx", "tanh_grad y",
                                         "tanh_grad gy"};
    return elementwise(names, tanh_grad_range, gx, y, gy, n, soft);
}

static PyObject *
relu_loop(PyObject *self, PyObject *args)
{
    PyObject *y, *x;
    Py_ssize_t n;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOn", &y, &x, &n)) {
        return NULL;
    }
    static const char *const names[3] = {"relu y", "relu x", NULL};
    return elementwise(names, relu_range, y, x, NULL, n, 0);
}

static PyObject *
relu_grad_loop(PyObject *self, PyObject *args)
{
    PyObject *gx, *y, *gy;
    Py_ssize_t n;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOn", &gx, &y, &gy, &n)) {
        return NULL;
    }
    static const char *const names[3] = {"relu_grad gx", "relu_grad y",
                                         "relu_grad gy"};
    return elementwise(names, relu_grad_range, gx, y, gy, n, 0);
}

/* ---- softmax cross entropy over many classes -------------------------------
 * softmax_ce_lse takes each row's maximum m and log(sum(exp(x - m))) in two
 * passes over the row (the second still in the cache), and softmax_ce_grad
 * the loss's gradient (exp(x - m - log s) - onehot(t)) * scale in one, where
 * NumPy makes six passes over the whole batch with three temporaries, and
 * keeps the softmax (an LSTM language model's 10,000 classes).  The
 * exponential is ours (below), and the sums run in CE_LANES lanes added in
 * a fixed order, so the bits are the same from run to run and for any
 * number of threads (a row is one thread's), though not NumPy's: within
 * float tolerance of them. */

#define CE_LANES 16
/* Items of a row whose exponentials are summed in float lanes (16 to a
 * lane) before the lanes go into double ones: a row's sum is then good to
 * about 1e-7 relative however long the row (summed in float lanes
 * throughout, a million classes were 6e-4 off: 650 ulp of its log). */
#define CE_BLOCK 256

/* exp(x) in float32 for x <= 0 (NaN stays NaN; below -87, about the
 * smallest normal float, 0): 2^k exp(r) for k the nearest integer to
 * x / ln 2 and r = x - k ln 2 (ln 2 in two parts, so r is exact to float
 * precision), exp(r) by its Taylor polynomial to r^7 / 7! (|r| <= 0.35:
 * its error is below 1e-8 relative).  Measured over [-87, 0]: at most
 * 0.93 ulp from the correctly rounded result where the compiler fuses the
 * multiply-adds (the AVX2 and AVX-512 clones), 1.22 ulp where not.  k
 * is read from the bits of a float that holds it in its low mantissa bits,
 * so no float-to-int conversion, and 2^k is built from bits: every step
 * vectorizes. */
WINO_INLINE float
ce_exp(float x)
{
    const float shift = 12582912.0f;  /* 1.5 * 2^23 */
    float t = x * 1.44269504088896341f + shift;
    float k = t - shift;
    float r = x - k * 0.693359375f;
    r = r - k * -2.12194440e-4f;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    uint32_t tb, sb;
    float s;
    memcpy(&tb, &t, sizeof tb);
    sb = (tb - 0x4B400000u + 127u) << 23;
    memcpy(&s, &sb, sizeof s);
    return x < -87.0f ? 0.0f : p * s;
}

typedef struct {
    float *out;             /* gx (n, c), or NULL */
    const float *x;         /* (n, c) */
    float *m, *ls;          /* (n,): the maximum and log(sum(exp(x - m))) */
    const int64_t *t;       /* (n,) labels; outside [0, c): none */
    const float *scale;     /* (n,) */
    Py_ssize_t c;
} ce_job;

WINO_CLONES static void
ce_lse_rows(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const ce_job *j = job;
    Py_ssize_t c = j->c, body = c - c % CE_LANES;
    for (Py_ssize_t i = lo; i < hi; i++) {
        const float *RESTRICT x = j->x + i * c;
        float a[CE_LANES];
        for (int l = 0; l < CE_LANES; l++) {
            a[l] = -INFINITY;
        }
        for (Py_ssize_t q = 0; q < body; q += CE_LANES) {
            for (int l = 0; l < CE_LANES; l++) {
                a[l] = x[q + l] > a[l] ? x[q + l] : a[l];
            }
        }
        for (Py_ssize_t q = body; q < c; q++) {
            a[q - body] = x[q] > a[q - body] ? x[q] : a[q - body];
        }
        float m = a[0];
        for (int l = 1; l < CE_LANES; l++) {
            m = a[l] > m ? a[l] : m;
        }
        double d[CE_LANES] = {0.0};
        for (Py_ssize_t q0 = 0; q0 < body; q0 += CE_BLOCK) {
            Py_ssize_t q1 = body - q0 < CE_BLOCK ? body : q0 + CE_BLOCK;
            for (int l = 0; l < CE_LANES; l++) {
                a[l] = 0.0f;
            }
            for (Py_ssize_t q = q0; q < q1; q += CE_LANES) {
                for (int l = 0; l < CE_LANES; l++) {
                    a[l] += ce_exp(x[q + l] - m);
                }
            }
            for (int l = 0; l < CE_LANES; l++) {
                d[l] += a[l];
            }
        }
        for (Py_ssize_t q = body; q < c; q++) {
            d[q - body] += ce_exp(x[q] - m);
        }
        double s = 0.0;
        for (int l = 0; l < CE_LANES; l++) {
            s += d[l];
        }
        j->m[i] = m;
        j->ls[i] = (float)log(s);
    }
}

WINO_CLONES static void
ce_grad_rows(const void *job, Py_ssize_t lo, Py_ssize_t hi)
{
    const ce_job *j = job;
    Py_ssize_t c = j->c;
    for (Py_ssize_t i = lo; i < hi; i++) {
        const float *RESTRICT x = j->x + i * c;
        float *RESTRICT g = j->out + i * c;
        float m = j->m[i], ls = j->ls[i], s = j->scale[i];
        for (Py_ssize_t q = 0; q < c; q++) {
            g[q] = ce_exp(x[q] - m - ls) * s;
        }
        int64_t t = j->t[i];
        if (t >= 0 && t < c) {
            g[t] = (ce_exp(x[t] - m - ls) - 1.0f) * s;
        }
    }
}

/* int64 labels: n C-contiguous items, or -1 with an exception set. */
static int
get_labels(PyObject *obj, Py_buffer *view, Py_ssize_t n, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) {
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') {
        f++;
    }
    if (view->itemsize != 8 || (strcmp(f, "q") && strcmp(f, "l")) ||
            view->len != 8 * n) {
        PyErr_Format(PyExc_TypeError,
                     "%s: expected %zd C-contiguous int64 items", name, n);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Rows of at least CE_CHUNK items per chunk of shared work. */
#define CE_CHUNK 32768

static PyObject *
softmax_ce_lse(PyObject *self, PyObject *args)
{
    PyObject *m, *ls, *x;
    Py_ssize_t n, c;
    Py_buffer b[3];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOnn", &m, &ls, &x, &n, &c)) {
        return NULL;
    }
    if (n < 0 || c <= 0) {
        PyErr_SetString(PyExc_ValueError,
                        "softmax_ce_lse: n must be >= 0 and c > 0");
        return NULL;
    }
    item_spec spec[3] = {
        {m, 1, n, 'f', "softmax_ce_lse m"},
        {ls, 1, n, 'f', "softmax_ce_lse ls"},
        {x, 0, n * c, 'f', "softmax_ce_lse x"},
    };
    if (get_all(spec, b, 3)) {
        return NULL;
    }
    ce_job job = {NULL, b[2].buf, b[0].buf, b[1].buf, NULL, NULL, c};
    Py_ssize_t rows = c >= CE_CHUNK ? 1 : CE_CHUNK / c;
    Py_BEGIN_ALLOW_THREADS
    share(ce_lse_rows, &job, n, rows, max_threads);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 3; i++) {
        PyBuffer_Release(&b[i]);
    }
    Py_RETURN_NONE;
}

static PyObject *
softmax_ce_grad(PyObject *self, PyObject *args)
{
    PyObject *gx, *x, *m, *ls, *t, *scale;
    Py_ssize_t n, c;
    Py_buffer b[6];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOnn", &gx, &x, &m, &ls, &t, &scale,
                          &n, &c)) {
        return NULL;
    }
    if (n < 0 || c <= 0) {
        PyErr_SetString(PyExc_ValueError,
                        "softmax_ce_grad: n must be >= 0 and c > 0");
        return NULL;
    }
    item_spec spec[5] = {
        {gx, 1, n * c, 'f', "softmax_ce_grad gx"},
        {x, 0, n * c, 'f', "softmax_ce_grad x"},
        {m, 0, n, 'f', "softmax_ce_grad m"},
        {ls, 0, n, 'f', "softmax_ce_grad ls"},
        {scale, 0, n, 'f', "softmax_ce_grad scale"},
    };
    if (get_all(spec, b, 5)) {
        return NULL;
    }
    if (get_labels(t, &b[5], n, "softmax_ce_grad t")) {
        for (int i = 0; i < 5; i++) {
            PyBuffer_Release(&b[i]);
        }
        return NULL;
    }
    ce_job job = {b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[5].buf,
                  b[4].buf, c};
    Py_ssize_t rows = c >= CE_CHUNK ? 1 : CE_CHUNK / c;
    Py_BEGIN_ALLOW_THREADS
    share(ce_grad_rows, &job, n, rows, max_threads);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 6; i++) {
        PyBuffer_Release(&b[i]);
    }
    Py_RETURN_NONE;
}

static PyObject *
strided_copyto(PyObject *self, PyObject *args)
{
    (void)self;
    return apply(args, "copyto", 0);
}

static PyObject *
strided_add(PyObject *self, PyObject *args)
{
    (void)self;
    return apply(args, "add", 1);
}

static PyMethodDef methods[] = {
    {"tanh_grad", tanh_grad, METH_VARARGS,
     "tanh_grad(gx, y, gy, n, soft=False): gx = gy * (1 - y * y) over n "
     "C-contiguous float32 or float64 items (of one type; NumPy's "
     "roundings), shared among the threads set_threads sets.  With soft, "
     "returns False for arrays it does not take (instead of raising), True "
     "when done."},
    {"copyto", strided_copyto, METH_VARARGS,
     "copyto(dst, src): dst[...] = src for two arrays of one shape and "
     "item size (no casting, no broadcasting; they must not overlap)."},
    {"add", strided_add, METH_VARARGS,
     "add(dst, src): dst += src for two float32 or two float64 arrays of "
     "one shape (no broadcasting; they must not overlap)."},
    {"im2col_2d", im2col_2d, METH_VARARGS,
     "im2col_2d(col, img, (sy, sx, ph, pw, dy, dx)): col, C-contiguous "
     "(c, kh, kw, b, oh, ow), takes the windows of img (b, c, h, w), zeros "
     "where they cross its border (items of 2, 4 or 8 bytes)."},
    {"col2im_2d", col2im_2d, METH_VARARGS,
     "col2im_2d(img, col, (sy, sx, ph, pw, dy, dx)): img, C-contiguous "
     "(b, c, h, w), becomes the sums of the windows in col (the adjoint of "
     "im2col_2d; float32 or float64)."},
    {"set_threads", set_threads, METH_O,
     "set_threads(n): im2col_2d, col2im_2d, bn_forward, bn_backward and "
     "the winograd_ loops split their channels (tanh_grad, relu, relu_grad "
     "and the softmax_ce_ loops their items or rows) among up to n threads "
     "(1 by default; at most 16); returns the number set."},
    {"bn_forward", bn_forward, METH_VARARGS,
     "bn_forward(y, x, n, c, s, gamma, beta, eps, mean, var): batch "
     "normalization of x, C-contiguous (n, c, s), over n and s, into y; "
     "gamma, beta and the mean and variance written out are float64 (c,)."},
    {"bn_backward", bn_backward, METH_VARARGS,
     "bn_backward(gx, x, gy, n, c, s, mean, inv_std, gamma, ggamma, gbeta): "
     "the gradients of bn_forward; the (c,) arrays are float64."},
    {"winograd_input", winograd_input, METH_VARARGS,
     "winograd_input(V, x, (ph, pw, th, tw)): V (16, c, b * th * tw), its "
     "(c, b * th * tw) blocks C-contiguous, takes B^T d B of the 4x4 "
     "input tiles d of x (b, c, h, w) "
     "padded by ph and pw (tile (ty, tx) starts at row 2 ty - ph, column "
     "2 tx - pw; zeros outside x; float32 or float64).  With V (36, ...), "
     "the 6x6 tiles of F(4x4, 3x3), 4 apart."},
    {"winograd_output", winograd_output, METH_VARARGS,
     "winograd_output(y, M, bias): y, C-contiguous (b, c, h, w), takes A^T "
     "m A (plus bias[c] unless bias is None) of the 4x4 tiles m of M (16, "
     "c, b * ceil(h / 2) * ceil(w / 2)), its (c, ...) blocks C-contiguous; "
     "of the 6x6 tiles of M (36, c, b * ceil(h / 4) * ceil(w / 4))."},
    {"winograd_grad", winograd_grad, METH_VARARGS,
     "winograd_grad(dM, gy): dM (16, c, b * ceil(h / 2) * ceil(w / 2)), "
     "its (c, ...) blocks C-contiguous, takes A g A^T of the 2x2 tiles g "
     "of gy (b, c, h, w) (zeros outside it); dM (36, c, b * ceil(h / 4) * "
     "ceil(w / 4)), of its 4x4 tiles."},
    {"winograd_s2_input", winograd_s2_input, METH_VARARGS,
     "winograd_s2_input(V, x): V (100, b * th * tw, c), its (b * th * tw, "
     "c) blocks C-contiguous, takes B d B^T of the 6x6 windows d of x (b, "
     "c, h, w) under the 8x8 output blocks of a stride-2 4x4 "
     "deconvolution with pad 1 (th = ceil(h / 4), tw = ceil(w / 4); window "
     "(ty, tx) at row 4 ty - 1, column 4 tx - 1, zeros outside x; float32 "
     "or float64)."},
    {"winograd_s2_output", winograd_s2_output, METH_VARARGS,
     "winograd_s2_output(y, M, bias): y (b, c, H, W) takes A m A^T (plus "
     "bias[c] unless bias is None) of the tiles m of M (100, b * ceil(H / "
     "8) * ceil(W / 8), c), as 8x8 blocks."},
    {"winograd_s2_grad", winograd_s2_grad, METH_VARARGS,
     "winograd_s2_grad(dM, gy): dM (100, b * ceil(H / 8) * ceil(W / 8), "
     "c) takes A^T g A of the 8x8 blocks g of gy (b, c, H, W) (zeros "
     "outside it): the adjoint of winograd_s2_output."},
    {"winograd_s2_sum", winograd_s2_sum, METH_VARARGS,
     "winograd_s2_sum(gx, Z): gx (b, c, h, w) becomes the sums of the "
     "windows B^T z B of the tiles z of Z (100, b * th * tw, c) where they "
     "overlap x: the adjoint of winograd_s2_input."},
    {"linear_nt", linear_nt, METH_VARARGS,
     "linear_nt(y, x, W, b, m, n, k, threads, soft=False): y (m, n) = x "
     "(m, k) W^T (+ b unless b is None) for W (n, k), all float32 and "
     "C-contiguous, on up to threads threads (the same bits for any "
     "number).  With soft, returns False for arrays it does not take "
     "(instead of raising), True when done."},
    {"linear_nn", linear_nn, METH_VARARGS,
     "linear_nn(gx, gy, W, m, n, k, threads): gx (m, k) = gy (m, n) W for "
     "W (n, k), all float32 and C-contiguous, on up to threads threads "
     "(the same bits for any number)."},
    {"gemm_tn", gemm_tn, METH_VARARGS,
     "gemm_tn(out, a, b, m, ka, n, soft=False): out (ka, n) = a^T b for a "
     "(m, ka) and b (m, n), all float32 and C-contiguous, each item summed "
     "over the m rows in order.  With soft, returns False for arrays it "
     "does not take (instead of raising), True when done."},
    {"gemm_tn_start", gemm_tn_start, METH_VARARGS,
     "gemm_tn_start(out, a, b, m, ka, n): gemm_tn's product, computed in "
     "the background by a helper thread (out and the arrays are held until "
     "gemm_tn_wait); False for arrays gemm_tn does not take, else True."},
    {"gemm_tn_after_fork", gemm_tn_after_fork, METH_NOARGS,
     "gemm_tn_after_fork(): in a child process after fork, forgets the "
     "parent's queued products (registered with os.register_at_fork)."},
    {"gemm_tn_wait", gemm_tn_wait, METH_NOARGS,
     "gemm_tn_wait(): returns once every product gemm_tn_start queued is "
     "in its out (computing those no thread has begun)."},
    {"relu", relu_loop, METH_VARARGS,
     "relu(y, x, n): y = max(x, 0) over n C-contiguous float32 or float64 "
     "items (NumPy's bits: NaN kept, -0 made 0), shared among the threads "
     "set_threads sets."},
    {"relu_grad", relu_grad_loop, METH_VARARGS,
     "relu_grad(gx, y, gy, n): gx = gy * (y > 0) over n C-contiguous items "
     "of one float type (NumPy's bits), shared among the threads "
     "set_threads sets."},
    {"softmax_ce_lse", softmax_ce_lse, METH_VARARGS,
     "softmax_ce_lse(m, ls, x, n, c): m[i] = max(x[i]) and ls[i] = "
     "log(sum(exp(x[i] - m[i]))) for the rows of x (n, c), all float32 and "
     "C-contiguous, rows shared among the threads set_threads sets (the "
     "same bits for any number)."},
    {"softmax_ce_grad", softmax_ce_grad, METH_VARARGS,
     "softmax_ce_grad(gx, x, m, ls, t, scale, n, c): gx[i] = "
     "(exp(x[i] - m[i] - ls[i]) - onehot(t[i])) * scale[i] for x (n, c) "
     "and int64 labels t (n,) (outside [0, c): no onehot), the others "
     "float32, all C-contiguous."},
    {"linear_isa", linear_isa, METH_NOARGS,
     "linear_isa(): which kernels linear_nt and linear_nn run on this CPU: "
     "'avx512', 'vector' (the compiler's baseline) or 'plain' (loops)."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_loops",
    "C loops for the CPU path of convolution, batch normalization, linear "
    "layers, ReLU and softmax cross entropy.",
    -1, methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__loops(void)
{
    gemm_init();
    share_init();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    /* gemm_tn_after_fork in child processes (where os has the hook) */
    PyObject *os = PyImport_ImportModule("os");
    PyObject *hook = os ? PyObject_GetAttrString(os, "register_at_fork")
                        : NULL;
    PyObject *fn = PyObject_GetAttrString(m, "gemm_tn_after_fork");
    PyObject *kw = hook && fn ? Py_BuildValue("{sO}", "after_in_child", fn)
                              : NULL;
    PyObject *args = kw ? PyTuple_New(0) : NULL;
    PyObject *done_ = args ? PyObject_Call(hook, args, kw) : NULL;
    if (done_ == NULL) {
        PyErr_Clear();
    }
    Py_XDECREF(done_);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    Py_XDECREF(fn);
    Py_XDECREF(hook);
    Py_XDECREF(os);
    return m;
}
