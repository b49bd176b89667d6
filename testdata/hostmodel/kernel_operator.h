// kernel_operator.h: the host model's stand-in for the Ascend C header that
// kernels include; see ascend_host.h.
#ifndef ASCVET_TESTDATA_HOSTMODEL_KERNEL_OPERATOR_H
#define ASCVET_TESTDATA_HOSTMODEL_KERNEL_OPERATOR_H
#include "ascend_host.h"
#endif
