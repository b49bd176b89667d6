# Element types the code leaves unstated, as inferElems recovers them.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def agree_mask(src, dst, n):
    # x and y are used under a float mask only: float, and so is the load.
    m = vf.create_mask(dtype=pl.DT_FP32)
    u = vf.load_unalign_init()
    vf.load_unalign_pre(u, src)
    for i in pl.range(n):
        x = vf.load_unalign(u, src, 64, post_update=True)
        y = vf.adds(x, 1.0, m)
        vf.store_align(dst, y, m, i * 64)


@pl.vector_function
def agree_dtype(src, dst):
    # The mask, the dtype= of the call and the other operand agree.
    m = vf.create_mask(dtype=pl.DT_INT16)
    k = vf.load_align(src, 128, dtype=pl.DT_INT16)
    x = vf.load_align(src, 0)
    y = vf.xor(x, k, m, dtype=pl.DT_INT16)
    vf.store_align(dst, y, m)


@pl.vector_function
def disagree(src, dst):
    m32 = vf.create_mask(dtype=pl.DT_FP32)
    m16 = vf.create_mask(dtype=pl.DT_FP16)
    h = vf.load_align(src, 0, dtype=pl.DT_FP16)
    # Two masks of different widths: a unknown.
    a = vf.load_align(src, 64)
    vf.store_align(dst, a, m32)
    vf.store_align(dst, a, m16, 64)
    # A float mask, but the other operand is half: b (and c) unknown.
    b = vf.load_align(src, 128)
    c = vf.add(b, h, m32)
    # A float mask, but the dist moves 16-bit elements: d unknown.
    d = vf.load_align(src, 192)
    vf.store_align(dst, d, m32, dist=pl.StoreDist.NORM_B16)
    # Two destinations of one load: each gets its own type, the load none.
    e0, e1 = vf.load_align(src, 256)
    vf.store_align(dst, e0, m32)
    vf.store_align(dst, e1, m16)
    vf.store_align(dst, c, m32)


@pl.vector_function
def no_information(src, dst, flag):
    # The default mask dtype is not evidence.
    md = vf.create_mask()
    p = vf.load_align(src, 0)
    vf.store_align(dst, p, md)
    # A mask defined twice, once without dtype=.
    mu = vf.create_mask(dtype=pl.DT_FP32)
    if flag:
        mu = vf.update_mask(flag)
    q = vf.load_align(src, 64)
    vf.store_align(dst, q, mu)
    # A cast says nothing about its source.
    m = vf.create_mask(dtype=pl.DT_FP32)
    r = vf.load_align(src, 128)
    s = vf.astype(r, m, dtype=pl.DT_FP32)
    vf.store_align(dst, s, m)
    # A register read through vf.bit_cast stands for two types.
    v = vf.load_align(src, 192)
    vf.store_align(dst, v, m)
    vf.store_align(dst, vf.bit_cast(v, dtype=pl.DT_UINT32), m)
