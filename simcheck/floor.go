package simcheck

import (
	"sort"
	"strings"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// Floor is a lower bound on the cycles of one VF call: what its
// instructions take of the busiest resource, with no latency, no window
// and no front end, plus the VF's start and drain. No schedule can beat it
// on this machine, so a measurement below it is either not a run of the
// code simulated or a sign that the machine file overstates a resource's
// occupancy (docs/fidelity.md checks every public point against it).
type Floor struct {
	Cycles   int    // VFStart + the busiest resource's cycles + VFDrain
	Resource string // what sets it: a pipe ("sfu on EXU0/EXU1"), a port ("ST"), "compute issue" or "inner-loop starts"
	Busy     int    // the busiest resource's cycles
}

// IssueFloor returns the Floor of fn's instantiation bind: the top-level
// loops, each for its trip count (iterations when it does not fold), their
// inner loops as BodyOf repeats them, and the starts of those inner loops'
// runs, NestedGap apart. Straight code outside the loops is left out,
// which only lowers the bound.
func (m *Machine) IssueFloor(fn *ir.Func, bind ir.Bindings, iterations int) Floor {
	occ := map[string]int{}   // resource -> cycles of occupancy summed over the call
	units := map[string]int{} // resource -> units that share it
	compute := 0
	add := func(key string, ports []string, cycles int) {
		if _, ok := units[key]; !ok {
			n := 0
			for _, p := range ports {
				n += max(m.Ports[p], 1)
			}
			units[key] = n
		}
		occ[key] += cycles
	}
	if fn.Body != nil {
		for _, n := range fn.Body.Nodes {
			lp, ok := n.(*ir.Loop)
			if !ok {
				continue
			}
			trips := Trip(bind.Loop(lp), iterations)
			body := BodyOfInstance(fn, bind, lp, nil)
			gates := 0
			for i := range body.Insts {
				in := &body.Insts[i]
				if in.Gate {
					gates += trips
				}
				t, ok := m.InstTiming(in)
				if !ok {
					continue
				}
				c := t.Occ * max(in.Banks, 1) * trips
				ports := t.Class.Ports
				key := strings.Join(ports, "/")
				if t.Class.Pipe != "" {
					key = t.Class.Pipe + " on " + key
				}
				add(key, ports, c)
				if t.Compute {
					compute += trips
				}
			}
			// The runs of its inner loops start NestedGap apart: the
			// front end's floor, a loop's runs after the previous
			// loop's (a part starts once the last is dispatched).
			if gates > 1 && m.NestedGap > 0 {
				occ["inner-loop starts"] += (gates - 1) * m.NestedGap
				units["inner-loop starts"] = 1
			}
		}
	}
	if m.ComputeIssue > 0 && compute > 0 {
		occ["compute issue"], units["compute issue"] = compute, m.ComputeIssue
	}
	keys := make([]string, 0, len(occ))
	for k := range occ {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	f := Floor{Cycles: m.VFStart + m.VFDrain}
	for _, k := range keys {
		if b := (occ[k] + units[k] - 1) / units[k]; b > f.Busy {
			f.Busy, f.Resource = b, k
		}
	}
	f.Cycles += f.Busy
	return f
}
