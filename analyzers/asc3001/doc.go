package asc3001

const text = "A VF has 32 RegTensor registers. What counts is how many hold a value that is still needed at the same " +
	"time, not how many are declared: a value is live from where it is written to where it is last read, across the " +
	"whole loop when a later iteration reads it (accumulators), and RegTraitNumTwo and 64-bit tensors take two. " +
	"Above 32 the compiler writes registers to a reserved 8 KB of UB and reads them back with synchronisation, which " +
	"slows the VF down badly. The message gives the peak and its line; the related locations are the registers live " +
	"there. Split the VF (intermediates through UB), finish one computation before starting the next, or reuse " +
	"temporaries. `ascvet regs FILE:LINE` prints the full pressure report of a region."

const before = "RegTensor<float> x[8], y[8], acc[20];\n" +
	"for (...) { load x[0..7]; load y[0..7]; acc[k] = f(x, y) for 20 k; }   // 36 live"

const after = "split the loop in two VFs, or process x/y in halves:\n" +
	"for (...) { load x[0..3]; load y[0..3]; ... }                           // 28 live"
