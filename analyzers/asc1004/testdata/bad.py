# ASC1004 fixture (pypto_pro DSL): unaligned loads that read a register no
# vf.load_unalign_pre primed on some path.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

VL_F32 = 256 // 4


# No Pre at all: the first vector loaded starts with garbage.
@pl.vector_function
def scale_no_pre(dst, src, s, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)  # want 13:"LoadUnAlign reads ul, which no LoadUnAlignPre primed on this path; call LoadUnAlignPre\\(ul, src\\) before the first load"
        v = vf.muls(v, s, mask)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)


# The Pre sits after the load in the body: the first iteration is unprimed.
@pl.vector_function
def pre_after_load(dst, src, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src + i * VL_F32)  # want "LoadUnAlign reads ul.*LoadUnAlignPre\\(ul, \\.\\.\\.\\) with the stream's first address before the loop"
        vf.load_unalign_pre(ul, src + (i + 1) * VL_F32)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)


# Primed on one branch only.
@pl.vector_function
def pre_on_one_branch(dst, src, offset, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    if offset > 0:
        vf.load_unalign_pre(ul, src + offset)
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src, 128, post_update=True)  # want "reads ul, which no LoadUnAlignPre primed on this path"
        vf.store_unalign(dst, v, us, 128, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)


# The only Pre is in a loop that may not run; the load after it reads garbage.
@pl.vector_function
def pre_in_maybe_empty_loop(dst, src, rows):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for r in pl.range(rows):
        vf.load_unalign_pre(ul, src + r * 72)
        v = vf.load_unalign(ul, src + r * 72)
        vf.store_align(dst, v, mask, r * 64)
    v = vf.load_unalign(ul, src, VL_F32, post_update=True)  # want "LoadUnAlign reads ul"
    vf.store_align(dst, v, mask)


# A Pre that only the last iteration runs does not prime the first one.
@pl.vector_function
def pre_on_last_iteration(dst, src, n):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(n):
        if i == n - 1:
            vf.load_unalign_pre(ul, src)
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)  # want "LoadUnAlign reads ul"
        vf.store_align(dst, v, mask, i * VL_F32)


# A helper that might prime the register is called after the load, not before it.
def reprime(u, src):
    vf.load_unalign_pre(u, src)


@pl.vector_function
def helper_too_late(dst, src):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    v = vf.load_unalign(ul, src, VL_F32, post_update=True)  # want "LoadUnAlign reads ul"
    v = vf.load_unalign(ul, src, VL_F32, post_update=True)  # the register counts as primed after one report
    reprime(ul, src)
    vf.store_align(dst, v, mask)


# The loop makes a new register under the primed one's name: pypto declares
# a fresh UnalignReg there, which nothing primes.
@pl.vector_function
def recreated_in_loop(dst, src, n):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    vf.load_unalign_pre(ul, src)
    for i in pl.range(n):
        ul = vf.load_unalign_init()
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)  # want "LoadUnAlign reads ul, which no LoadUnAlignPre primed"
        vf.store_align(dst, v, mask, i * VL_F32)
