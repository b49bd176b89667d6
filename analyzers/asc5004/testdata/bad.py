# ASC5004 fixture (pypto_pro DSL): a register value replaced before any read.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def col_max(dst, src):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    acc = vf.full(0.0, mask, dtype=pl.DT_FP32)  # want 11:"full writes acc, but load_align on line 10 overwrites it before any read"
    acc = vf.load_align(src, 0)
    row = vf.load_align(src, 64)
    acc = vf.max(acc, row, mask)
    vf.store_align(dst, acc, mask)
