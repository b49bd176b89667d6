# Loops, conditions, constants, helpers and the decorator spellings.
import pypto_pro.language as P
from pypto_pro.language import Vf as V  # noqa: N813
from pypto_pro.language import vector_function as vfunc

ROWS = 4
COLS = ROWS * 32
HALF = COLS // 2
NEG = -(HALF % 5)
LIMIT = min(COLS, 100)
TWICE = 1
TWICE = 2
SCALE = 0.5


def add_rows(src, dst, mask, n):
    """An undecorated helper the kernel calls: lowered as a helper."""
    for r in range(n):
        x = V.load_align(src, r * COLS)
        V.store_align(dst, x, mask)


@P.inline
def bump(acc, m):
    acc = V.adds(acc, 1, m)
    return acc


@P.vector_function
def loops(src, dst, n, has_tail: bool, step):
    m = V.create_mask(dtype=P.DT_FP32)
    k = 3
    base = k * COLS
    acc = V.full(0, m, dtype=P.DT_FP32)
    for i in range(ROWS):
        x = V.load_align(src, base + i * COLS)
        acc = V.add(acc, x, m)
    for i in P.range(1, n, 2):
        for j in P.range(start=0, stop=HALF, step=64):
            y = P.vf.load_align(src, i * COLS + j)
            acc = V.max(acc, y, m)
    for t in range(8, 0, -3):
        acc = V.muls(acc, SCALE, m)
    for w in range(has_tail):
        V.store_align(dst + n * COLS, acc, m)
    for e in range(0, n, step):
        acc = V.adds(acc, e, m)
    for q in range(5, 5):
        acc = V.neg(acc, m)
    for item in enumerate(src):
        acc = V.abs(acc, m)
    off = 0
    while off < n:
        z = V.load_align(src, off)
        acc = V.min(acc, z, m)
        off += 64
    else:
        V.mem_bar()
    p = src
    for r in range(ROWS):
        v = V.load_align(p, 0)
        p = p + COLS
        V.store_align(dst, v, m, 64, post_update=True)
    if n > LIMIT:
        acc = V.relu(acc, m)
    elif n == NEG or has_tail:
        acc = V.exp(acc, m)
    elif TWICE:
        acc = V.ln(acc, m)
    else:
        acc = V.sqrt(acc, m)
    add_rows(src, dst, m, P.min(n, ROWS))
    acc = bump(acc, m)
    cnt = int(n)
    lim = max(cnt, 1)
    V.store_align(dst, acc, m)


class Kernels:
    @vfunc
    def method(self, src, dst):
        m = V.create_mask()
        x = V.load_align(src, HALF)
        V.store_align(dst, x, m)


@P.vector_function(mode="simt", threads=128)
def simt_kernel(src, dst):
    i = P.get_block_idx()
    dst[i] = src[i]


def test_nested():
    @P.vector_function
    def nested(src, dst):
        loops(src, dst, 4, False, 1)

    @P.jit()
    def host(a, b):
        nested(a, b)


@P.vector_function
def broken(src, dst):
    m = V.create_mask(
    x = V.load_align(src, 0)
    V.store_align(dst, x, m)
