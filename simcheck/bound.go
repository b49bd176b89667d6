package simcheck

import (
	"fmt"
	"slices"
	"sort"
)

// What binds a loop: the resource a fix must relieve to save cycles.
//
// A fix that removes an instruction saves nothing when the loop's time is
// set by something the instruction did not use: the single store port
// busy every cycle, a chain of dependent instructions whose latencies add
// up to the loop, or no one resource (the time is spread, or the loop is
// so short that filling and draining the pipelines is most of it). The
// finding that saves nothing
// says which, so that the author knows what to change instead (issue 35:
// 60 of 69 warnings on ops-nn said only "no saving measurable"). It is
// read off one full simulation, as llvm-mca's resource pressure and
// critical path views are: the busiest port (busy cycles over the cycles
// and the port's units) and the span of the dependency chain that ends
// last (Result.Critical) over the cycles.

// Binding is what binds a simulated loop.
type Binding struct {
	Kind               string // "port", "chain", "window", "registers" or "none"
	Ports              []string
	Share              int // percent: the port's busy share of the cycles, or the chain's span over them
	Chain              int // instructions of the chain (Kind "chain"), entries of the window (Kind "window"), or physical registers (Kind "registers")
	Span               int // cycles of the chain (Kind "chain")
	Cycles, Iterations int
}

// bindingShare is the share of the cycles at which a resource counts as
// binding the loop.
const bindingShare = 75

// Bound returns what binds the loop whose full simulation (Run, not
// RunCycles: it needs PortBusy and Critical) is res.
func (m *Machine) Bound(res *Result) Binding {
	b := Binding{Kind: "none", Cycles: res.Cycles, Iterations: res.Iterations}
	if res.Cycles <= 0 {
		return b
	}
	// The ports, the compute units counted as one resource (an op may go
	// to either).
	type load struct {
		ports []string
		share int
	}
	var loads []load
	compute := 0
	for p, busy := range res.PortBusy {
		if p == "EXU0" || p == "EXU1" {
			compute += busy
			continue
		}
		if n := m.Ports[p]; n > 0 {
			loads = append(loads, load{[]string{p}, 100 * busy / (res.Cycles * n)})
		}
	}
	if compute > 0 {
		loads = append(loads, load{[]string{"EXU0", "EXU1"}, 100 * compute / (res.Cycles * 2)})
	}
	sort.Slice(loads, func(i, j int) bool {
		if loads[i].share != loads[j].share {
			return loads[i].share > loads[j].share
		}
		return loads[i].ports[0] < loads[j].ports[0]
	})
	// The chain's own time: from its first issue to its last result, less
	// what its instructions waited once ready (for a port, a window
	// slot): the latencies alone, which no port relieves.
	chain, span := len(res.Critical), 0
	if chain > 0 {
		first, last := res.Events[res.Critical[0]], res.Events[res.Critical[chain-1]]
		span = last.Done - first.Issue
		for _, i := range res.Critical[1:] {
			if e := res.Events[i]; e.Issue > e.Ready {
				span -= e.Issue - e.Ready
			}
		}
	}
	chainShare := 100 * span / res.Cycles
	portShare := 0
	if len(loads) > 0 {
		portShare = loads[0].share
	}
	switch {
	case portShare >= bindingShare: // a saturated port first: a shorter chain would still wait for it
		b.Kind, b.Ports, b.Share = "port", slices.Clone(loads[0].ports), min(portShare, 100)
	case chainShare >= bindingShare:
		b.Kind, b.Share, b.Chain, b.Span = "chain", min(chainShare, 100), chain, span
	case res.regWaits > 0 && res.regWaits >= res.windowWaits:
		// Dispatch waited for a physical register more than for a window
		// entry: the values in flight, each held until its last reader
		// is done, set the pace.
		b.Kind, b.Chain = "registers", m.Registers["physical_vreg"]
	case m.Window > 0 && res.MaxWindow >= m.Window:
		// Instructions waited to enter a full window: the chains that
		// hold its entries, not a port, set the pace (the dual-issue
		// guide's "the execution queue fills"); the critical chain is cut
		// where dispatch, not an operand, gated an instruction.
		b.Kind, b.Chain = "window", m.Window
	case len(loads) > 0:
		b.Ports, b.Share = slices.Clone(loads[0].ports), portShare // the busiest, for the message
	}
	return b
}

// String says what binds the loop, as a finding's message ends: "bound
// by the single store port (96% busy)".
func (b Binding) String() string {
	switch b.Kind {
	case "port":
		return fmt.Sprintf("bound by %s (%d%% busy)", portPhrase(b.Ports), b.Share)
	case "chain":
		return fmt.Sprintf("bound by a chain of %d dependent instructions (%d of its %d cycles)", b.Chain, b.Span, b.Cycles)
	case "window":
		return fmt.Sprintf("bound by the %d-entry issue window, full of instructions waiting for their operands", b.Chain)
	case "registers":
		return fmt.Sprintf("bound by the %d physical vector registers, each held from dispatch until the last reader of its value is done", b.Chain)
	}
	if len(b.Ports) == 0 {
		return fmt.Sprintf("bound by no one resource over its %d cycles", b.Cycles)
	}
	return fmt.Sprintf("bound by no one resource (the busiest, %s, is busy %d%% of its %d cycles)", portPhrase(b.Ports), b.Share, b.Cycles)
}

// portPhrase names ports as the vendor's guides do.
func portPhrase(ports []string) string {
	if len(ports) == 2 && ports[0] == "EXU0" && ports[1] == "EXU1" {
		return "the two compute units"
	}
	switch ports[0] {
	case "ST":
		return "the single store port"
	case "LD":
		return "the load ports"
	case "PRED":
		return "the predicate unit"
	case "SCALAR":
		return "the scalar unit"
	}
	return "port " + ports[0]
}
