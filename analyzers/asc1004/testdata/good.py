# ASC1004 fixture (pypto_pro DSL): every unaligned load is primed on every
# path, or the rule cannot know; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

import stream_helpers

VL_F32 = 256 // 4


# The best practice: prime once before the loop, then post-update.
@pl.vector_function
def scale(dst, src, s, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    vf.load_unalign_pre(ul, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)
        v = vf.muls(v, s, mask)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)


# Primed on both branches.
@pl.vector_function
def both_branches(dst, src, offset):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    if offset > 0:
        vf.load_unalign_pre(ul, src + offset)
    elif offset < 0:
        vf.load_unalign_pre(ul, src - offset)
    else:
        vf.load_unalign_pre(ul, src)
    v = vf.load_unalign(ul, src, VL_F32, post_update=True)
    vf.store_align(dst, v, mask)


# A register parameter of a helper: the caller primed it.
def load_next(ul, src):
    return vf.load_unalign(ul, src, VL_F32, post_update=True)


# Passed to a same-file helper, or to a function defined elsewhere, before the load.
def prime(ul, src):
    vf.load_unalign_pre(ul, src)


@pl.vector_function
def primed_by_others(dst, src, src2):
    ul = vf.load_unalign_init()
    ul2 = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    prime(ul, src)
    v = load_next(ul, src)
    vf.store_align(dst, v, mask)
    stream_helpers.prime_unalign_stream(ul2, src2)
    v = vf.load_unalign(ul2, src2, VL_F32, post_update=True)
    vf.store_align(dst, v, mask, VL_F32)


# Re-primed at the top of every iteration (ASC1001's business, not this rule's).
@pl.vector_function
def padded_rows(dst, src, rows, row_stride):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for r in pl.range(rows):
        vf.load_unalign_pre(ul, src + r * row_stride)
        v = vf.load_unalign(ul, src + r * row_stride)
        vf.store_align(dst, v, mask, r * VL_F32)


# Primed on the first iteration only; later iterations continue the stream.
@pl.vector_function
def prime_on_first_iteration(dst, src, repeat):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(repeat):
        if i == 0:
            vf.load_unalign_pre(ul, src)
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)
        vf.store_align(dst, v, mask, i * VL_F32)


# A loop that runs at least once (a folded trip count), and a loop used as an if.
@pl.vector_function
def loops_that_run(dst, src, tail):
    ul = vf.load_unalign_init()
    ul2 = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(2):
        vf.load_unalign_pre(ul, src + i)
    v = vf.load_unalign(ul, src, VL_F32, post_update=True)
    vf.store_align(dst, v, mask)
    has_tail = tail > 0
    for i in range(has_tail):
        vf.load_unalign_pre(ul2, src)
    for j in range(has_tail):
        v = vf.load_unalign(ul2, src, VL_F32, post_update=True)
        vf.store_align(dst, v, mask)


# A while loop primed by a flag on its first pass.
@pl.vector_function
def prime_by_flag(dst, src, total):
    ul = vf.load_unalign_init()
    mask = vf.create_mask(dtype=pl.DT_FP32)
    done = 0
    first = True
    while done < total:
        if first:
            vf.load_unalign_pre(ul, src)
            first = False
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)
        vf.store_align(dst + done, v, mask)
        done += VL_F32


# SIMT regions are recorded, not analysed.
@pl.vector_function(mode="simt")
def simt_kernel(dst, src):
    ul = vf.load_unalign_init()
    v = vf.load_unalign(ul, src)
