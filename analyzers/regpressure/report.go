package regpressure

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
)

// OverrunCategory starts the Diagnostic.Category of a register-pressure
// finding: the rest names the class, the file of the peak and the region
// or helper that holds it, then after a '#' the registers live there (not
// the line: where several points of a helper tie for the peak, the one
// found depends on what the caller keeps live). Findings of one run whose
// categories agree up to the '#' are one overrun: one in a helper of an
// included header that several kernels inline, or that the helper's own
// file reports too.
const OverrunCategory = "overrun "

// overrunCategory is the Diagnostic.Category of an overrun of class c
// whose peak, peak registers live, is in the region or helper name of
// file.
func overrunCategory(c regalloc.Class, file, name string, peak int) string {
	if a, err := filepath.Abs(file); err == nil {
		file = a
	}
	return fmt.Sprintf("%s%s %s: %s#%d", OverrunCategory, c, file, name, peak)
}

// overrun is one region's instantiation whose peak in a class exceeds the
// budget.
type overrun struct {
	fn   *ir.Func
	inst Instance
	p    regalloc.Pressure
}

// Over reports each overrun of class c once, where it happens: the peak is
// an instruction of one region, the region itself or a helper inlined into
// it, and every region and instantiation whose peak is that instruction
// is the same overrun. The diagnostic is at the header of the region that
// holds the peak, with the most registers live there at once among them,
// the line of the peak, the callers it is reached from when it is in a
// helper, the instantiations it holds for when not all, and (as related
// information) every register live there. A peak in a helper of a header
// the file includes is reported at the call, naming the helper and the
// line in its file. consequence says what happens above the budget and
// what to do.
func Over(pass *analysis.Pass, res *Result, c regalloc.Class, consequence string, md *simcost.Model) {
	fns := make([]*ir.Func, 0, len(res.Instances))
	for fn := range res.Instances {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos < fns[j].Pos })
	groups := map[token.Pos][]overrun{}
	var order []token.Pos
	for _, fn := range fns {
		for _, inst := range res.Instances[fn] {
			p := inst.Res.Classes[c]
			if p.Peak <= res.Budget[c] || p.At == nil {
				continue
			}
			at := p.At.Pos
			if _, ok := groups[at]; !ok {
				order = append(order, at)
			}
			groups[at] = append(groups[at], overrun{fn, inst, p})
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	for _, at := range order {
		report(pass, res, c, consequence, md, groups[at])
	}
}

// owner returns the innermost region of fns whose text holds pos.
func owner(fns []*ir.Func, pos token.Pos) *ir.Func {
	var best *ir.Func
	for _, fn := range fns {
		if fn.Pos <= pos && pos < fn.End && (best == nil || fn.End-fn.Pos < best.End-best.Pos) {
			best = fn
		}
	}
	return best
}

func report(pass *analysis.Pass, res *Result, c regalloc.Class, consequence string, md *simcost.Model, g []overrun) {
	rep := g[0]
	for _, o := range g[1:] {
		if o.p.Peak > rep.p.Peak {
			rep = o
		}
	}
	p := rep.p
	listed := 0
	for _, w := range p.Weight {
		listed += w
	}
	// The count is what the related entries list, plus what a called
	// helper whose body is not known holds there: the two add up to the
	// peak.
	where := fmt.Sprintf("%d listed", listed)
	if inside := p.Peak - listed; inside > 0 {
		where += fmt.Sprintf(", %d inside a called helper", inside)
	}
	var (
		d       analysis.Diagnostic
		home    *ir.Func // the region of this file that holds the peak; nil for a helper of another file
		name    string   // the region or helper that holds the peak
		at      string   // where in it
		related []analysis.RelatedInformation
		callers []string
	)
	if o := p.At.Origin; o != nil {
		// The peak is in a helper of a header (Func.Expand inlines it
		// at a call of this file): reported at the call, naming the
		// helper and the line of the peak in its file. The helper's own
		// file leaves it to its callers when they are files of its
		// folder (ir.Func.CalledFrom).
		d.Pos, d.End = p.At.Pos, p.At.End
		name = o.Func.Name
		op := o.Position()
		at = fmt.Sprintf("at line %d of %s", op.Line, relTo(res, rep.fn, op.Filename))
		// Other kernels that inline the helper see the same overrun:
		// the driver reports it once (the category names it).
		d.Category = overrunCategory(c, op.Filename, name, p.Peak)
	} else {
		regions := make([]*ir.Func, 0, len(res.Files))
		for fn := range res.Files {
			regions = append(regions, fn)
		}
		home = owner(regions, p.At.Pos)
		if home == nil {
			home = rep.fn
		}
		d.Pos, d.End = home.Pos, home.BodyPos
		name = home.Name
		op := pass.Fset.Position(p.At.Pos)
		at = fmt.Sprintf("at line %d", op.Line)
		// A kernel of another folder that inlines this helper reports
		// the same overrun at its call (the branch above): the category
		// lets the driver keep this one, where it happens.
		d.Category = overrunCategory(c, op.Filename, name, p.Peak)
	}
	seen := map[*ir.Func]bool{}
	for _, o := range g {
		if o.fn == home || seen[o.fn] {
			continue
		}
		seen[o.fn] = true
		callers = append(callers, fmt.Sprintf("%s (line %d)", o.fn.Name, pass.Fset.Position(o.fn.Pos).Line))
		related = append(related, analysis.RelatedInformation{Pos: o.fn.Pos, End: o.fn.BodyPos,
			Message: fmt.Sprintf("reached from %s, with %d live", o.fn.Name, o.p.Peak)})
	}
	reached := ""
	if len(callers) > 0 {
		reached = " when inlined into " + strings.Join(callers, ", ")
	}
	d.Message = fmt.Sprintf("VF region %s keeps %d %s registers live at once %s%s (%s; budget %d; %d declared); %s",
		name, p.Peak, c, at, reached, where, res.Budget[c], p.Declared, consequence)
	if note := instancesNote(g, rep); note != "" {
		d.Message += note
	}
	if md != nil {
		// The price of the spill, simulated on the function as built: a
		// store after the peak and a reload before the next use, per
		// register above the budget, in the loop holding the peak.
		excess := p.Peak - res.Budget[c]
		if cost, ok := md.Spill(rep.inst.Res.Func, p.At, p.Live, excess); ok && listed >= excess {
			d.Message += "; " + cost.Phrase()
			simcost.Attach(&d, cost)
		} else {
			d.Message += "; the cost is not simulated: the registers to spill are held inside a called helper whose body is not known"
		}
	}
	fn := rep.inst.Res.Func
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.At.Pos, End: p.At.End, Message: "the peak is here"})
	for i, id := range p.Live {
		r := fn.Regs[id]
		msg := r.Name + " is live at the peak"
		if n := p.Weight[i]; n > 1 {
			msg = fmt.Sprintf("%s is live at the peak (%d registers)", r.Name, n)
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: r.Pos, End: r.End, Message: msg})
	}
	d.Related = append(d.Related, related...)
	pass.Report(d)
}

// relTo names path, a helper's file, relative to the folder of the file
// that holds fn (as its #include would), or by its base name when the two
// have no relative path.
func relTo(res *Result, fn *ir.Func, path string) string {
	if f := res.Files[fn]; f != nil {
		if rel, err := filepath.Rel(filepath.Dir(f.Name), path); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}

// instancesNote names the instantiations of the representative's region
// the overrun holds for, when it does not hold for all of them.
func instancesNote(g []overrun, rep overrun) string {
	var binds []ir.Bindings
	for _, o := range g {
		if o.fn == rep.fn {
			binds = append(binds, o.inst.Binds...)
		}
	}
	if len(binds) == 0 || len(binds) >= rep.inst.All || rep.inst.All <= 1 {
		return ""
	}
	var parts []string
	for _, b := range binds {
		parts = append(parts, b.String())
	}
	return " (instantiated with " + strings.Join(parts, "; ") + ")"
}
