# ASC1005 fixture (pypto_pro DSL): every unaligned store stream is flushed on
# every path, or the rule cannot know; must stay silent.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

import stream_helpers

VL_F32 = 256 // 4


# The seed's best practice: flush once after the loop.
@pl.vector_function
def copy(dst, src, repeat):
    ul = vf.load_unalign_init()
    us = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ul, src)
    for i in pl.range(repeat):
        v = vf.load_unalign(ul, src, VL_F32, post_update=True)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    vf.store_unalign_post(dst, us, 0, post_update=True)


# Flushed on both branches; a flush per row (ASC1002's business, not this rule's).
@pl.vector_function
def both_branches(dst, src, rows, last):
    us = vf.unalign_reg_for_store()
    for r in pl.range(rows):
        v = vf.load_align(src, r * VL_F32)
        vf.store_unalign(dst, v, us, 60, post_update=True)
        vf.store_unalign_post(dst, us, 0, post_update=True)
    v = vf.load_align(src, 0)
    vf.store_unalign(dst, v, us, 60, post_update=True)
    if last:
        vf.store_unalign_post(dst, us, 0, post_update=True)
    else:
        vf.store_unalign_post(dst, us, 4, post_update=True)


# A register parameter of a helper: the caller flushes it.
def store_row(dst, v, us):
    vf.store_unalign(dst, v, us, VL_F32, post_update=True)


# Passed to a same-file helper, or to a function defined elsewhere, after the store.
def flush(dst, us):
    vf.store_unalign_post(dst, us, 0, post_update=True)


@pl.vector_function
def flushed_by_others(dst, src, dst2):
    us = vf.unalign_reg_for_store()
    us2 = vf.unalign_reg_for_store()
    v = vf.load_align(src, 0)
    store_row(dst, v, us)
    vf.store_unalign(dst, v, us, VL_F32, post_update=True)
    flush(dst, us)
    vf.store_unalign(dst2, v, us2, VL_F32, post_update=True)
    stream_helpers.flush_unalign_stream(dst2, us2)


# Flushed by the last iteration.
@pl.vector_function
def flush_on_last_iteration(dst, src, n):
    us = vf.unalign_reg_for_store()
    for i in pl.range(n):
        v = vf.load_align(src, i * VL_F32)
        vf.store_unalign(dst, v, us, VL_F32, post_update=True)
        if i == n - 1:
            vf.store_unalign_post(dst, us, 0, post_update=True)


# Batches: the first one is flushed when it is the only one; otherwise the
# while loop (which then runs at least once) flushes on its last batch.
@pl.vector_function
def batches(dst, src, total, per_batch):
    us = vf.unalign_reg_for_store()
    v = vf.load_align(src, 0)
    vf.store_unalign(dst, v, us, per_batch, post_update=True)
    if total <= per_batch:
        vf.store_unalign_post(dst, us, 0, post_update=True)
    if total > per_batch:
        base = per_batch
        while base < total:
            v = vf.load_align(src, base)
            vf.store_unalign(dst, v, us, per_batch, post_update=True)
            if base + per_batch >= total:
                vf.store_unalign_post(dst, us, 0, post_update=True)
            base += per_batch


# A loop used as an if flushes exactly when it stored.
@pl.vector_function
def tail_as_loop(dst, src, tail):
    us = vf.unalign_reg_for_store()
    has_tail = tail > 0
    for i in range(has_tail):
        v = vf.load_align(src, 0)
        vf.store_unalign(dst, v, us, 5, post_update=True)
    for j in range(has_tail):
        vf.store_unalign_post(dst, us, 0, post_update=True)


# The unified store flushes itself: it is not a stream.
@pl.vector_function
def unified_store(dst, src, count):
    v = vf.load_align(src, 0)
    vf.store(dst, v, count)


# SIMT regions are recorded, not analysed.
@pl.vector_function(mode="simt")
def simt_kernel(dst, src):
    us = vf.unalign_reg_for_store()
    v = vf.load_align(src, 0)
    vf.store_unalign(dst, v, us, VL_F32, post_update=True)
