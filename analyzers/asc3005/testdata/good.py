# ASC3005 fixture (pypto_pro DSL): vf.and_ that chaining could not replace;
# must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def cases(dst, a, b):
    mask = vf.create_mask(dtype=pl.DT_FP32)
    other = vf.create_mask(pattern=pl.MaskPattern.H, dtype=pl.DT_FP32)
    x = vf.load_align(a, 0)
    y = vf.load_align(b, 0)
    # The chained form already.
    m1 = vf.gt(x, 0.0, mask)
    d = vf.gt(y, 0.0, m1)
    vf.store_align(dst, x, d)
    # Different predicates.
    m1 = vf.gt(x, 0.0, mask)
    m2 = vf.gt(y, 0.0, other)
    d = vf.and_(m1, m2, mask)
    vf.store_align(dst, x, d)
    # The second compare's result is needed after the and_.
    m1 = vf.gt(x, 0.0, mask)
    m2 = vf.gt(y, 0.0, mask)
    d = vf.and_(m1, m2, mask)
    x = vf.select(x, y, m2)
    vf.store_align(dst, x, d)
    # or_ cannot be chained through a predicate.
    m1 = vf.gt(x, 0.0, mask)
    m2 = vf.gt(y, 0.0, mask)
    d = vf.or_(m1, m2, mask)
    vf.store_align(dst, x, d)
    # and_ of vector data is a bitwise operation.
    xi = vf.load_align(a, 64, dtype=pl.DT_UINT32)
    yi = vf.load_align(b, 64, dtype=pl.DT_UINT32)
    zi = vf.and_(xi, yi, mask)
    vf.store_align(dst, zi, mask)
