# scale_rows_fixed.py: scale_rows.py written the way the continuous
# unaligned best practice asks: prime the load register once before the
# loop, flush the store register once after it. ascvet reports nothing.
import pypto_pro.language as pl

VL = 64  # float32 elements per 256-byte vector register


@pl.vector_function
def scale_rows_vf(src_tile, dst_tile, scale, repeat):
    preg = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_FP32)
    ureg = vf.load_unalign_init()
    store_ureg = vf.unalign_reg_for_store()
    vf.load_unalign_pre(ureg, src_tile)
    for i in pl.range(repeat):
        reg = vf.load_unalign(ureg, src_tile, VL, post_update=True)
        reg = vf.muls(reg, scale, preg)
        vf.store_unalign(dst_tile, reg, store_ureg, VL, post_update=True)
    vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)
