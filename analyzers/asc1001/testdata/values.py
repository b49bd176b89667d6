# ASC1001 fixture (pypto_pro DSL): addresses built from names bound in the
# loop, which the front end must see through (issue 13).
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

LANES = 256 // 2


# A loop-local offset and a loop-local shifted address, bound once each.
@pl.vector_function
def shifted_locals(dst, src, loops):
    m = vf.create_mask(dtype=pl.DT_FP16)
    u = vf.load_unalign_init()
    for i in range(loops):
        off = i * LANES
        start = src + off + 1
        cur = vf.load_align(src, off)
        vf.load_unalign_pre(u, start)  # want "LoadUnAlignPre on u re-initialises a contiguous stream"
        nxt = vf.load_unalign(u, start)
        nxt = vf.sub(nxt, cur, m)
        vf.store_align(dst, nxt, m, off)
