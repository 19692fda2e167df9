/*
 * The counting kernels (see module.c). Each is the twin of a Python rule named in its comment.
 */
#include "kernels.h"

PyMethodDef pk_counting_methods[] = {
    {NULL, NULL, 0, NULL},
};
