/* Argument checks the neural-network calls share (see nn_check.h). */
#include "nn_check.h"

#include "error.h"
#include "kernels.h"

/* b is a usable float matrix of q's context with the dtype of ref (ref NULL: any float). */
int clrt__nn_operand(const clrt_queue *q, const clrt_buffer *b, const clrt_buffer *ref, const char *func,
                   const char *what)
{
    int status = clrt__check_buffer(b, func, what);
    if (status != CLRT_OK)
        return status;
    if (b->ctx != q->ctx)
        return clrt__fail(CLRT_EINVAL, func, "%s belongs to another context than the queue", what);
    if (b->dtype != CLRT_FLOAT32 && b->dtype != CLRT_FLOAT64)
        return clrt__fail(CLRT_EUNSUPPORTED, func, "%s is %s; neural-network data is float32 or float64", what,
                          clrt__dtype_word((int)b->dtype));
    if (ref && b->dtype != ref->dtype)
        return clrt__fail(CLRT_ESHAPE, func, "dtypes differ (%s is %s, not %s)", what,
                          clrt__dtype_word((int)b->dtype), clrt__dtype_word((int)ref->dtype));
    return CLRT_OK;
}

int clrt__nn_shape(const clrt_buffer *b, size_t rows, size_t cols, const char *func, const char *what)
{
    if (b->rows != rows || b->cols != cols)
        return clrt__fail(CLRT_ESHAPE, func, "%s is %zux%zu; it must be %zux%zu", what, b->rows, b->cols, rows, cols);
    return CLRT_OK;
}

int clrt__nn_apart(const clrt_buffer *out, const clrt_buffer *in, const char *func, const char *o, const char *i)
{
    if (out && in && clrt__overlap(out, in))
        return clrt__fail(CLRT_EINVAL, func, "%s shares memory with %s", o, i);
    return CLRT_OK;
}

