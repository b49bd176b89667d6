# ASC3004 fixture (pypto_pro DSL): vf.not_ of a vf.and_ or vf.or_ of masks.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def not_nan(dst, src):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    x = vf.load_align(src, 0)
    big = vf.gt(x, 100.0, all_)
    neg = vf.lt(x, 0.0, all_)
    both = vf.and_(big, neg, all_)
    both = vf.not_(both, all_)  # want 12:"MaskNot negates the MaskAnd result in both, which costs an extra MaskReg and instruction; compute !\\(a && b\\) as !a \\|\\| !b"
    y = vf.select(x, x, both)
    vf.store_align(dst, y, all_)


@pl.vector_function
def outside(dst, src):
    all_ = vf.create_mask(dtype=pl.DT_FP16)
    x = vf.load_align(src, 0, dtype=pl.DT_FP16)
    lo = vf.lt(x, 0.0, all_)
    hi = vf.gt(x, 1.0, all_)
    out = vf.or_(lo, hi, all_)
    inside = vf.not_(out, all_)  # want "MaskNot negates the MaskOr result in out.*!\\(a \\|\\| b\\) as !a && !b"
    vf.store_align(dst, x, inside)
