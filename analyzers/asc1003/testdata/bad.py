# ASC1003 fixture (pypto_pro DSL): AddrReg offsets on unaligned loads and
# stores (the seed's "AddrReg存储偏移量接口", an offset from vf.create_addr_reg).
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


# Rows of a matrix read and written through an AddrReg offset made each iteration.
@pl.vector_function
def rows_by_addr_reg(dst, src, rows, cols):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for r in pl.range(rows):
        off = vf.create_addr_reg(r, cols, dtype=pl.DT_FP32)
        v = vf.load_unalign(ul, src, off)  # want 38:"AddrReg off used as the offset of LoadUnAlign; keep unaligned offsets in uint32_t with post-update"
        vf.store_unalign(dst, v, us, off)  # want 38:"AddrReg off used as the offset of StoreUnAlign; keep unaligned offsets in uint32_t with post-update"
    vf.store_unalign_post(dst, us, 0)


# An AddrReg made before the loop, keyword arguments, and one for the flush.
@pl.vector_function
def addr_reg_before_loop(dst, src, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    a = vf.create_addr_reg(0, 128, dtype=pl.DT_FP16)
    tail_off = vf.create_addr_reg(0, 128, dtype=pl.DT_FP16)
    vf.load_unalign_pre(ul, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(ureg=ul, src_ptr=src, stride=a)  # want 58:"AddrReg a used as the offset of LoadUnAlign"
        vf.store_unalign(dst, v, us, stride=a)  # want 45:"AddrReg a used as the offset of StoreUnAlign"
    vf.store_unalign_post(dst, us, tail_off)  # want 36:"AddrReg tail_off used as the offset of StoreUnAlignPost; .*\\(StoreUnAlignPost\\(dst, u, 0\\)\\)"
