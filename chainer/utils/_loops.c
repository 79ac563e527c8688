/* C loops for the CPU path of convolution.
 *
 * NumPy moves the windows of an image (im2col) and adds them back (col2im)
 * a few elements at a time: a window row is as long as the output row, and
 * each run costs NumPy a pass through its iterator.  copyto and add walk
 * the outer axes themselves and move or add each run in one go.
 *
 * They see the arrays through the buffer protocol only (no NumPy headers,
 * so one build serves every NumPy), and they compute exactly what NumPy's
 * copy and in-place addition compute: the same IEEE additions in the same
 * order, bit for bit.  chainer.utils.conv_nd uses them when this module is
 * built, and NumPy otherwise.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
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
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_loops",
    "C loops for the CPU path of convolution.",
    -1, methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__loops(void)
{
    return PyModule_Create(&module);
}
