/* C loops for the CPU path of convolution and batch normalization.
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
 * They see the arrays through the buffer protocol only (no NumPy headers,
 * so one build serves every NumPy).  chainer.utils.conv_nd and
 * chainer.functions.normalization.batch_normalization use them when this
 * module is built, and NumPy otherwise.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <math.h>
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

/* Format codes of float32 and float64 as NumPy exports them. */
static plane_fn
add_for_format(const char *format, Py_ssize_t itemsize)
{
    if (format == NULL) {
        return NULL;
    }
    if (*format == '<' || *format == '=' || *format == '@') {
        format++;
    }
    if (strcmp(format, "f") == 0 && itemsize == 4) {
        return add_f;
    }
    if (strcmp(format, "d") == 0 && itemsize == 8) {
        return add_d;
    }
    return NULL;
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
               double *mean, double *var)                                   \
{                                                                           \
    double count = (double)n * (double)s;                                   \
    for (Py_ssize_t k = 0; k < c; k++) {                                    \
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
                const double *gamma, double *ggamma, double *gbeta)         \
{                                                                           \
    double count = (double)n * (double)s;                                   \
    for (Py_ssize_t k = 0; k < c; k++) {                                    \
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

/* A C-contiguous buffer of n float32 or float64 items ('f' or 'd'), or of
 * float64 items when kind is 'd'. */
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
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') {
        f++;
    }
    int ok = view->len == n * view->itemsize &&
        ((kind == 'd' || kind == 'f') ? (f[0] == kind && f[1] == 0) : 0) &&
        view->itemsize == (kind == 'd' ? 8 : 4);
    if (!ok) {
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
    const char *f = view.format ? view.format : "B";
    if (*f == '<' || *f == '=' || *f == '@') {
        f++;
    }
    char kind = (f[1] == 0 && ((f[0] == 'f' && view.itemsize == 4) ||
                               (f[0] == 'd' && view.itemsize == 8))) ? f[0]
                                                                     : 0;
    PyBuffer_Release(&view);
    if (!kind) {
        PyErr_SetString(PyExc_TypeError, "float32 or float64 expected");
    }
    return kind;
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

static void
release_all(Py_buffer *bufs, int count)
{
    for (int i = 0; i < count; i++) {
        PyBuffer_Release(&bufs[i]);
    }
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
    char kind = float_kind(x);
    if (!kind) {
        return NULL;
    }
    if (n < 0 || c < 0 || s < 0) {
        PyErr_SetString(PyExc_ValueError, "bn_forward: negative size");
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
    Py_BEGIN_ALLOW_THREADS
    if (kind == 'f') {
        bn_forward_float(b[0].buf, b[1].buf, n, c, s, b[2].buf, b[3].buf,
                         eps, b[4].buf, b[5].buf);
    } else {
        bn_forward_double(b[0].buf, b[1].buf, n, c, s, b[2].buf, b[3].buf,
                          eps, b[4].buf, b[5].buf);
    }
    Py_END_ALLOW_THREADS
    release_all(b, 6);
    Py_RETURN_NONE;
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
    char kind = float_kind(x);
    if (!kind) {
        return NULL;
    }
    if (n < 0 || c < 0 || s < 0) {
        PyErr_SetString(PyExc_ValueError, "bn_backward: negative size");
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
    Py_BEGIN_ALLOW_THREADS
    if (kind == 'f') {
        bn_backward_float(b[0].buf, b[1].buf, b[2].buf, n, c, s, b[3].buf,
                          b[4].buf, b[5].buf, b[6].buf, b[7].buf);
    } else {
        bn_backward_double(b[0].buf, b[1].buf, b[2].buf, n, c, s, b[3].buf,
                           b[4].buf, b[5].buf, b[6].buf, b[7].buf);
    }
    Py_END_ALLOW_THREADS
    release_all(b, 8);
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
    {"copyto", strided_copyto, METH_VARARGS,
     "copyto(dst, src): dst[...] = src for two arrays of one shape and "
     "item size (no casting, no broadcasting; they must not overlap)."},
    {"add", strided_add, METH_VARARGS,
     "add(dst, src): dst += src for two float32 or two float64 arrays of "
     "one shape (no broadcasting; they must not overlap)."},
    {"bn_forward", bn_forward, METH_VARARGS,
     "bn_forward(y, x, n, c, s, gamma, beta, eps, mean, var): batch "
     "normalization of x, C-contiguous (n, c, s), over n and s, into y; "
     "gamma, beta and the mean and variance written out are float64 (c,)."},
    {"bn_backward", bn_backward, METH_VARARGS,
     "bn_backward(gx, x, gy, n, c, s, mean, inv_std, gamma, ggamma, gbeta): "
     "the gradients of bn_forward; the (c,) arrays are float64."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_loops",
    "C loops for the CPU path of convolution and batch normalization.",
    -1, methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__loops(void)
{
    return PyModule_Create(&module);
}
