# ASC3004 fixture (pypto_pro DSL): vf.not_ of compares, of a value joined
# elsewhere, or of vector data; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def invert_compare(dst, src, flip):
    all_ = vf.create_mask(dtype=pl.DT_FP32)
    x = vf.load_align(src, 0)
    big = vf.gt(x, 100.0, all_)
    big = vf.not_(big, all_)
    neg = vf.lt(x, 0.0, all_)
    if flip:
        both = vf.and_(big, neg, all_)
    else:
        both = vf.or_(big, neg, all_)
    both = vf.not_(both, all_)
    vf.store_align(dst, x, both)


# not_ and and_ on vector registers are bitwise data operations.
@pl.vector_function
def bitwise(dst, src):
    all_ = vf.create_mask(dtype=pl.DT_INT32)
    a = vf.load_align(src, 0, dtype=pl.DT_INT32)
    b = vf.load_align(src, 64, dtype=pl.DT_INT32)
    c = vf.and_(a, b, all_)
    c = vf.not_(c, all_)
    vf.store_align(dst, c, all_)
