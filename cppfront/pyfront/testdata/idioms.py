# Idioms of real pypto_pro kernels: a row softmax over a [ROWS, COLS] tile
# with a boolean mask tile, written the way the test kernels are.
import os

import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813

ROWS = 8
COLS = 128
LANES = 64
QUARTER = ROWS // 4
PAD = COLS >> 1 | 0x1
NEG_BIG = -3.0e38


@pl.vector_function
def row_max(src, max_out, rows):
    full = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_FP32)
    su = vf.unalign_reg_for_store()
    for r in pl.range(rows):
        lo = vf.load_align(src, r * COLS)
        hi = vf.load_align(src, r * COLS + LANES)
        both = vf.max(lo, hi, full)
        best = vf.reduce_max(both, full, merge_mode=pl.MergeMode.ZEROING)
        vf.store_unalign(max_out, best, su, 1, post_update=True)
    vf.store_unalign_post(max_out, su, 0, post_update=True)


@pl.vector_function
def softmax_rows(src, bits, max_in, dst, sums, rows, use_mask: pl.DT_BOOL):
    full = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_FP32)
    half_mask = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_FP16)
    keep = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_UINT32)
    sum_u = vf.unalign_reg_for_store()
    floor = vf.full(NEG_BIG, dtype=pl.DT_FP32)
    row_max(src, max_in, rows)
    vf.mem_bar(mode=pl.MemBarMode.VST_VLD)
    part0 = src
    part1 = src + QUARTER * COLS
    for blk in pl.range(0, 2):
        for r in pl.range(QUARTER):
            base = r * COLS
            mx = vf.load_align(max_in, blk * QUARTER + r, dist=pl.LoadDist.BRC_B32)
            if use_mask:
                keep = vf.load_align(bits, base, dist=pl.LoadDist.DS)
            x_even, x_odd = vf.load_align(part0, base, dist=pl.LoadDist.DINTLV_B32)
            x_even = vf.select(x_even, floor, keep)
            e0 = vf.exp_sub(x_even, mx, full)
            e1 = vf.exp_sub(x_odd, mx, full)
            total = vf.add(e0, e1, full)
            total = vf.reduce_sum(total, full)
            vf.store_unalign(sums, total, sum_u, 1, post_update=True)
            h0 = vf.astype(e0, full, dtype=pl.DT_FP16, layout=pl.CastLayout.ZERO)
            h1 = vf.astype(e1, full, dtype=pl.DT_FP16, layout=pl.CastLayout.ONE)
            h = vf.or_(vf.bit_cast(h0, dtype=pl.DT_UINT16), vf.bit_cast(h1, dtype=pl.DT_UINT16), half_mask)
            vf.store_align(
                dst,
                h,
                half_mask,
                block_stride=PAD,
                repeat_stride=1,
                data_copy_mode=pl.DataCopyMode.DATA_BLOCK_COPY,
                post_update=True,
            )
        part0 = part1
    vf.store_unalign_post(sums, sum_u, 0, post_update=True)
    vf.mem_bar(mode=pl.MemBarMode.VST_VLD)


@pl.jit()
def host_kernel(a: pl.Tensor[[pl.DYNAMIC, pl.DYNAMIC], pl.DT_FP32]):
    with pl.section_vector():
        softmax_rows(a, a, a, a, a, ROWS, True)


def test_softmax():
    device = os.environ.get("DEVICE", "npu:0")
    assert device
