// Package view prints simcheck results the way llvm-mca does: a summary,
// a timeline of the first iterations, the pressure on each port, and the
// critical dependency chain. Report is the same data for JSON.
package view

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck"
)

// Report is everything the views print.
type Report struct {
	Name          string      `json:"name"`                    // what was simulated (the loop or region)
	Instance      string      `json:"instance,omitempty"`      // the instantiation simulated, as template arguments ("T=half, Mode=2")
	Fixed         []string    `json:"fixed,omitempty"`         // the lines the findings' fixes change (ascvet sim -fixed): instructions removed, Divs rewritten, strides padded, the loop's own for a halving
	FixesApplied  string      `json:"fixes_applied,omitempty"` // what the fixes do, in words (ascvet sim -fixed)
	Chip          string      `json:"chip"`
	Iterations    int         `json:"iterations"`
	Instructions  int         `json:"instructions"` // per iteration
	Total         int         `json:"total_instructions"`
	Cycles        int         `json:"cycles"`
	CyclesPerIter int         `json:"cycles_per_iteration"`
	IPC           float64     `json:"ipc"`
	WindowMax     int         `json:"window_high_water"`
	Bound         string      `json:"bound"` // what binds the run (of a VF function: its costliest part), as a finding names it
	Ports         []PortUse   `json:"ports"`
	Timeline      []Row       `json:"timeline"`
	Critical      []ChainStep `json:"critical_chain"`
	Parts         []PartUse   `json:"parts,omitempty"` // a VF function: its loops and straight-line code, each run on its own
	Notes         []string    `json:"notes,omitempty"` // caps that shaped the result
}

// PartUse is one part of a VF function's run.
type PartUse struct {
	Line         int    `json:"line,omitempty"` // the loop's line; 0 for straight-line code
	Kind         string `json:"kind"`           // "loop" or "straight"
	Iterations   int    `json:"iterations"`
	Unroll       int    `json:"unroll"`
	Cycles       int    `json:"cycles"`
	Extrapolated bool   `json:"extrapolated,omitempty"`
	Overlap      int    `json:"overlap,omitempty"` // cycles of its drain the next part overlaps, left out of Cycles
}

// BuildRegion assembles the report of a VF function: the summary is the
// whole function's (VF start, parts, drain); the timeline, ports and chain
// are those of its costliest part. loopLine gives a loop's line.
func BuildRegion(name string, m *simcheck.Machine, rr *simcheck.RegionResult, timelineIters int, lineOf func(body simcheck.Body, i int) int, loopLine func(*ir.Loop) int) *Report {
	big := -1
	for i, p := range rr.Parts {
		if big < 0 || p.Cycles > rr.Parts[big].Cycles {
			big = i
		}
	}
	var r *Report
	if big >= 0 {
		p := rr.Parts[big]
		r = Build(name, m, p.Body, p.Res, timelineIters, func(i int) int { return lineOf(p.Body, i) })
	} else {
		r = &Report{Name: name, Chip: m.Name}
	}
	r.Cycles, r.Iterations, r.Total, r.CyclesPerIter = rr.Cycles, 1, 0, rr.Cycles
	n := 0
	for _, p := range rr.Parts {
		u := PartUse{Kind: "straight", Iterations: p.Iterations, Unroll: p.Unroll, Cycles: p.Cycles, Extrapolated: p.Extrapolated, Overlap: p.Overlap}
		if p.Loop != nil {
			u.Kind, u.Line = "loop", loopLine(p.Loop)
		}
		r.Parts = append(r.Parts, u)
		r.Total += len(p.Body.Insts) / max(p.Unroll, 1) * max(p.Iterations, 1)
		for i := range p.Res.Events {
			if p.Res.Events[i].Compute {
				n++
			}
		}
	}
	if rr.Cycles > 0 {
		r.IPC = round2(float64(n) / float64(rr.Cycles))
	}
	r.Notes = append(r.Notes, rr.Notes...)
	return r
}

// PortUse is the pressure on one port: busy cycles and their share.
type PortUse struct {
	Port    string  `json:"port"`
	Busy    int     `json:"busy_cycles"`
	Percent float64 `json:"percent"`
}

// Row is one instruction instance of the timeline.
type Row struct {
	Iter     int    `json:"iteration"`
	Index    int    `json:"index"`
	Text     string `json:"instruction"`
	Line     int    `json:"line,omitempty"`
	Dispatch int    `json:"dispatch"`
	Issue    int    `json:"issue"`
	Done     int    `json:"done"`
	Retire   int    `json:"retire"`
	Port     string `json:"port,omitempty"`
}

// ChainStep is one link of the critical chain.
type ChainStep struct {
	Iter  int    `json:"iteration"`
	Text  string `json:"instruction"`
	Line  int    `json:"line,omitempty"`
	Issue int    `json:"issue"`
	Done  int    `json:"done"`
}

// Build assembles the report. lineOf maps a body instruction to its source
// line (0 when unknown); timelineIters bounds the timeline.
func Build(name string, m *simcheck.Machine, body simcheck.Body, res *simcheck.Result, timelineIters int, lineOf func(i int) int) *Report {
	r := &Report{Name: name, Chip: m.Name, Iterations: res.Iterations, Instructions: res.PerIter, Total: len(res.Events),
		Cycles: res.Cycles, CyclesPerIter: res.CyclesPerIter(), IPC: round2(res.IPC()), WindowMax: res.MaxWindow,
		Bound: m.Bound(res).String()}
	var ports []string
	for p := range m.Ports {
		ports = append(ports, p)
	}
	sort.Strings(ports)
	for _, p := range ports {
		capacity := res.Cycles * m.Ports[p]
		pct := 0.0
		if capacity > 0 {
			pct = round2(100 * float64(res.PortBusy[p]) / float64(capacity))
		}
		r.Ports = append(r.Ports, PortUse{Port: p, Busy: res.PortBusy[p], Percent: pct})
	}
	for _, e := range res.Events {
		if e.Iter >= timelineIters {
			break
		}
		r.Timeline = append(r.Timeline, Row{Iter: e.Iter, Index: e.Index, Text: body.Insts[e.Index].Text, Line: lineOf(e.Index),
			Dispatch: e.Dispatch, Issue: e.Issue, Done: e.Done, Retire: e.Retire, Port: e.Port})
	}
	for _, k := range res.Critical {
		e := res.Events[k]
		r.Critical = append(r.Critical, ChainStep{Iter: e.Iter, Text: body.Insts[e.Index].Text, Line: lineOf(e.Index), Issue: e.Issue, Done: e.Done})
	}
	return r
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// Write prints the report as text.
func Write(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  [%s]\n", r.Name, r.Chip)
	if r.Instance != "" {
		fmt.Fprintf(&b, "Instantiation:     %s\n", r.Instance)
	}
	switch {
	case r.FixesApplied != "":
		fmt.Fprintf(&b, "Fixes applied:     %s\n", r.FixesApplied)
	case len(r.Fixed) > 0:
		fmt.Fprintf(&b, "Fixes applied:     the instructions of lines %s removed\n", strings.Join(r.Fixed, ", "))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Iterations:        %d\n", r.Iterations)
	fmt.Fprintf(&b, "Instructions:      %d (%d per iteration)\n", r.Total, r.Instructions)
	fmt.Fprintf(&b, "Total cycles:      %d\n", r.Cycles)
	fmt.Fprintf(&b, "Cycles/iteration:  %d\n", r.CyclesPerIter)
	fmt.Fprintf(&b, "IPC:               %.2f (compute instructions a cycle, of 2)\n", r.IPC)
	fmt.Fprintf(&b, "Window high-water: %d\n", r.WindowMax)
	if r.Bound != "" {
		what := strings.TrimPrefix(r.Bound, "bound by ")
		if len(r.Parts) > 0 {
			what += " (the costliest part)"
		}
		fmt.Fprintf(&b, "Bottleneck:        %s\n", what)
	}
	b.WriteString("\n")
	if len(r.Parts) > 0 {
		b.WriteString("Parts (VF start and drain included in the total; the timeline below is the costliest part's):\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, p := range r.Parts {
			ex := ""
			if p.Extrapolated {
				ex = " (steady state extended)"
			}
			if p.Overlap > 0 {
				ex += fmt.Sprintf(" (and %d cycles of drain under the next part)", p.Overlap)
			}
			fmt.Fprintf(tw, "  %s\tline %s\t%d iterations\tunroll %d\t%d cycles%s\n", p.Kind, line(p.Line), p.Iterations, p.Unroll, p.Cycles, ex)
		}
		_ = tw.Flush()
		b.WriteString("\n")
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	if len(r.Notes) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("Port pressure (busy cycles, share of the run):\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, p := range r.Ports {
		fmt.Fprintf(tw, "  %s\t%d\t%.1f%%\n", p.Port, p.Busy, p.Percent)
	}
	_ = tw.Flush()
	b.WriteString("\nTimeline (D dispatch, I issue, X done, R retire; cycles):\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  [it,#]\tD\tI\tX\tR\tport\tline\tinstruction")
	for _, row := range r.Timeline {
		fmt.Fprintf(tw, "  [%d,%d]\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", row.Iter, row.Index, row.Dispatch, row.Issue, row.Done, row.Retire, row.Port, line(row.Line), row.Text)
	}
	_ = tw.Flush()
	fmt.Fprintf(&b, "\nCritical chain (%d instructions):\n", len(r.Critical))
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, s := range r.Critical {
		fmt.Fprintf(tw, "  it %d\tissue %d\tdone %d\t%s\t%s\n", s.Iter, s.Issue, s.Done, line(s.Line), s.Text)
	}
	_ = tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

func line(n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}
