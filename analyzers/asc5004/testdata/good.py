# ASC5004 fixture (pypto_pro DSL): look-alikes that must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def merged(dst, src):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    acc = vf.full(0.0, mask, dtype=pl.DT_FP32)
    x = vf.load_align(src, 0)
    acc = vf.abs(x, mask, mode=pl.MergeMode.MERGING)
    vf.store_align(dst, acc, mask)


@pl.vector_function
def read_between(dst, src):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    acc = vf.full(1.0, mask, dtype=pl.DT_FP32)
    vf.store_align(dst, acc, mask)
    acc = vf.load_align(src, 0)
    vf.store_align(dst, acc, mask)
