# scale_rows.py: the pypto_pro DSL form of unaligned_copy.asc. A row of
# float32 starts at an unaligned UB address and is scaled on the way. Both
# unaligned streams are contiguous (post_update advances the tiles by one
# vector of 64 floats), yet the pre and the post run in every iteration:
# ascvet reports ASC1001 and ASC1002, and `ascvet -fix` moves them out of
# the loop (compare with scale_rows_fixed.py).
import pypto_pro.language as pl

VL = 64  # float32 elements per 256-byte vector register


@pl.vector_function
def scale_rows_vf(src_tile, dst_tile, scale, repeat):
    preg = vf.create_mask(pattern=pl.MaskPattern.ALL, dtype=pl.DT_FP32)
    ureg = vf.load_unalign_init()
    store_ureg = vf.unalign_reg_for_store()
    for i in pl.range(repeat):
        vf.load_unalign_pre(ureg, src_tile)
        reg = vf.load_unalign(ureg, src_tile, VL, post_update=True)
        reg = vf.muls(reg, scale, preg)
        vf.store_unalign(dst_tile, reg, store_ureg, VL, post_update=True)
        vf.store_unalign_post(dst_tile, store_ureg, 0, post_update=True)
