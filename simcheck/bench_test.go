package simcheck

import "testing"

// BenchmarkSimulate measures simulated instructions per second on the seed's
// long dependent chain (32 iterations of 73 instructions) and on its 4x
// interleaved unroll.
func BenchmarkSimulate(b *testing.B) {
	m, err := Chip("ascend950")
	if err != nil {
		b.Fatal(err)
	}
	for _, u := range []int{1, 4} {
		fn, lp := longChain(u)
		body := BodyOf(fn, lp, nil)
		n := Trip(lp, 16)
		b.Run(map[int]string{1: "chain", 4: "unrolled4"}[u], func(b *testing.B) {
			var insts int
			for b.Loop() {
				insts += len(m.Run(body, n).Events)
			}
			b.ReportMetric(float64(insts)/b.Elapsed().Seconds(), "insts/s")
		})
	}
}
