# ASC1001 fixture (pypto_pro DSL), clean: names whose value changes.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

LANES = 256 // 2


# The offset is rebound at the end of the loop with a padded pitch: it has
# no single value, and the rows do not follow each other.
@pl.vector_function
def advanced_offset(dst, src, loops):
    m = vf.create_mask(dtype=pl.DT_FP16)
    u = vf.load_unalign_init()
    off = 0
    for i in range(loops):
        vf.load_unalign_pre(u, src + off)
        nxt = vf.load_unalign(u, src + off)
        vf.store_align(dst, nxt, m, i * LANES)
        off = off + 136


# A local built from a name rebound in the loop.
@pl.vector_function
def from_rebound(dst, src, loops, pitch):
    m = vf.create_mask(dtype=pl.DT_FP16)
    u = vf.load_unalign_init()
    row = 0
    for i in range(loops):
        start = src + row
        vf.load_unalign_pre(u, start)
        nxt = vf.load_unalign(u, start)
        vf.store_align(dst, nxt, m, i * LANES)
        row += pitch
