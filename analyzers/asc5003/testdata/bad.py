# ASC5003 fixture (pypto_pro DSL): a DataBlock-mode store whose blocks are 256 bytes apart.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

ROW_BLOCKS = 8


@pl.vector_function
def column_wise(dst, src):
    m = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(8):
        x = vf.load_align(src, i * 64)
        vf.store_align(dst, x, m, block_stride=ROW_BLOCKS, repeat_stride=1, data_copy_mode=pl.DataCopyMode.DATA_BLOCK_COPY)  # want "StoreAlign in DataBlock mode with block stride 8: "
