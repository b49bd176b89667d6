# ASC5003 fixture (pypto_pro DSL): block strides that spread the blocks stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

PADDED = 9


@pl.vector_function
def padded_rows(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(8):
        x = vf.load_align(src, i * 64)
        vf.store_align(dst, x, m, block_stride=PADDED, repeat_stride=1, data_copy_mode=pl.DataCopyMode.DATA_BLOCK_COPY)
        vf.store_align(dst, x, m, block_stride=1, repeat_stride=8, data_copy_mode=pl.DataCopyMode.DATA_BLOCK_COPY)
