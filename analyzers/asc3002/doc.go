package asc3002

const text = "A VF has 8 MaskReg registers. Masks are easy to keep alive by accident: a compare result kept for a " +
	"later select, a MaskNot of a MaskAnd result (ASC3004), two compares joined by MaskAnd (ASC3005). Above 8 live at " +
	"once the compiler spills masks to UB with synchronisation. The message gives the peak and its line; the related " +
	"locations are the masks live there. Combine masks with predicated compares, apply De Morgan, or recompute a " +
	"mask where it is used."

const before = "MaskReg m0..m8 all computed up front and used at the end"

const after = "compute each mask right before its select, or chain compares: Compares(m1, y, s, m0)"
