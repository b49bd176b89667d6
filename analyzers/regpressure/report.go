package regpressure

import (
	"fmt"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/regalloc"
)

// Over reports, for each region whose peak in class c exceeds the budget,
// one diagnostic at the region's header: the count, the line of the peak,
// and (as related information) every register live there. consequence
// says what happens above the budget and what to do.
func Over(pass *analysis.Pass, res *Result, c regalloc.Class, consequence string, md *simcost.Model) {
	fns := make([]*ir.Func, 0, len(res.Regions))
	for fn := range res.Regions {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos < fns[j].Pos })
	for _, fn := range fns {
		p := res.Regions[fn].Classes[c]
		if p.Peak <= res.Budget[c] || p.At == nil {
			continue
		}
		line := pass.Fset.Position(p.At.Pos).Line
		listed := 0
		for _, w := range p.Weight {
			listed += w
		}
		// The count is what the related entries list, plus what a called
		// helper holds there (its own registers and the arguments it keeps
		// live): the two add up to the peak.
		where := fmt.Sprintf("%d listed", listed)
		if inside := p.Peak - listed; inside > 0 {
			where += fmt.Sprintf(", %d inside a called helper", inside)
		}
		d := analysis.Diagnostic{
			Pos: fn.Pos,
			End: fn.BodyPos,
			Message: fmt.Sprintf("VF region %s keeps %d %s registers live at once at line %d (%s; budget %d; %d declared); %s",
				fn.Name, p.Peak, c, line, where, res.Budget[c], p.Declared, consequence),
		}
		if md != nil {
			// The price of the spill, simulated: a store after the peak
			// and a reload before the next use, per register above the
			// budget, in the loop holding the peak.
			excess := p.Peak - res.Budget[c]
			if cost, ok := md.Spill(fn, p.At, p.Live, excess); ok && listed >= excess {
				d.Message += "; " + cost.Phrase()
				simcost.Attach(&d, cost)
			} else {
				d.Message += "; the cost is not simulated: the registers to spill are held inside the called helper"
			}
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.At.Pos, End: p.At.End, Message: "the peak is here"})
		for i, id := range p.Live {
			r := fn.Regs[id]
			msg := r.Name + " is live at the peak"
			if n := p.Weight[i]; n > 1 {
				msg = fmt.Sprintf("%s is live at the peak (%d registers)", r.Name, n)
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: r.Pos, End: r.End, Message: msg})
		}
		pass.Report(d)
	}
}
