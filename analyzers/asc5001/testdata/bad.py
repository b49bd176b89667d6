# ASC5001 fixture (pypto_pro DSL): a contiguous loop that fills half of each register.
import pypto_pro.language as pl
from pypto_pro.language import Vf as vf  # noqa: N813


@pl.vector_function
def half_scale(dst, src):
    m = vf.create_mask(pattern=pl.MaskPattern.VL32, dtype=pl.DT_FP32)
    for i in pl.range(16):  # want "loop fills only 128 of the 256 bytes of each vector register: its ops run under MaskPattern::VL32 on float .* over the 16 simulated iterations"
        x = vf.load_align(src, i * 32)
        x = vf.muls(x, 2.0, m)
        x = vf.adds(x, 1.0, m)
        vf.store_align(dst, x, m, i * 32)
