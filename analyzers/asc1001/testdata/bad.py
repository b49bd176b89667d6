# ASC1001 fixture (pypto_pro DSL): vf.load_unalign_pre inside loops of contiguous streams.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

# One vector of FP32 elements: 256 bytes / sizeof(T).
STRIDE = 256 // 4


# The seed's pattern, with the Pre left in the loop: the tile is post-updated
# by one vector per iteration, so the register already holds the next block.
# The float mask the data is stored under fixes the element size.
@pl.vector_function
def copy_float(dst_tile, src_tile, repeat_times):
    preg = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_FP32)
    ureg = vf.load_unalign_init()
    for i in pl.range(repeat_times):
        vf.load_unalign_pre(ureg, src_tile)  # want 9:"LoadUnAlignPre on ureg re-initialises a contiguous stream each iteration; hoist it before the loop"
        src_reg = vf.load_unalign(ureg, src_tile, STRIDE, post_update=True)
        vf.store_align(dst_tile, src_reg, preg, i * STRIDE)


# Explicit addresses one element past a vector boundary; the Pre spans two lines.
@pl.vector_function
def shift_left_by_one(dst, src, loops):
    m = vf.create_mask(dtype=pl.DT_FP16)
    u = vf.load_unalign_init()
    for i in range(loops):
        cur = vf.load_align(src, i * 128)
        vf.load_unalign_pre(u,  # want "LoadUnAlignPre on u re-initialises"
                            src + i * 128 + 1)
        nxt = vf.load_unalign(u, src + i * 128 + 1)
        nxt = vf.sub(nxt, cur, m)
        vf.store_align(dst, nxt, m, i * 128)


# Two loads per iteration, back to back: the stream advances two vectors.
@pl.vector_function
def two_loads(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_INT32)
    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 128)  # want "LoadUnAlignPre on u re-initialises"
        a = vf.load_unalign(u, src + i * 128)
        b = vf.load_unalign(u, src + i * 128 + 64)
        a = vf.add(a, b, m)
        vf.store_align(dst, a, m, i * 64)


# The register is created in the loop: its line moves out with the Pre.
@pl.vector_function
def local_register(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    for i in pl.range(1, n):
        u = vf.load_unalign_init()  # a fresh register every iteration
        vf.load_unalign_pre(u, src + i * 64)  # want "LoadUnAlignPre on u re-initialises a contiguous stream each iteration; declare u before the loop and hoist the Pre with it"
        v = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, v, m, i * 64)


def refill(tile, n):
    pass


# A helper the replay cannot see into is handed the stream's tile: the fix is withheld.
@pl.vector_function
def helper_on_tile(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 64)  # want "re-initialises a contiguous stream each iteration.*; no automatic fix: the replay could not prove the hoisted Pre loads the same data: refill may access the stream's buffer"
        v = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, v, m, i * 64)
        refill(src + i * 64 + 64, n)


# Python text the fix cannot move: reported, no fix.
@pl.vector_function
def not_movable(dst, src, n):
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    # Not alone on its line.
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 64); v = vf.load_unalign(u, src + i * 64)  # want "LoadUnAlignPre on u re-initialises"
        vf.store_align(dst, v, m, i * 64)
    # The only statement of a with block: the block would be left empty.
    for i in pl.range(n):
        with pl.section_vector():
            vf.load_unalign_pre(u, src + i * 64)  # want "LoadUnAlignPre on u re-initialises"
        v = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, v, m, i * 64)
    # The loop binds the register again: pypto declares a fresh, unprimed one there.
    for i in pl.range(n):
        vf.load_unalign_pre(u, src + i * 64)  # want "LoadUnAlignPre on u re-initialises"
        v = vf.load_unalign(u, src + i * 64)
        vf.store_align(dst, v, m, i * 64)
        u = vf.load_unalign_init()
    # Created in the loop on a line that makes another register too.
    for i in pl.range(n):
        w, s = vf.load_unalign_init(), vf.unalign_reg_for_store()
        vf.load_unalign_pre(w, src + i * 64)  # want "LoadUnAlignPre on w re-initialises.*declare w before the loop"
        v = vf.load_unalign(w, src + i * 64)
        vf.store_unalign(dst, v, s, 64, post_update=True)
        vf.store_unalign_post(dst, s, 0, post_update=True)
