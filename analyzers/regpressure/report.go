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
		helper := ""
		if p.Helper > 0 {
			helper = fmt.Sprintf(", %d of them inside a called helper", p.Helper)
		}
		d := analysis.Diagnostic{
			Pos: fn.Pos,
			End: fn.BodyPos,
			Message: fmt.Sprintf("VF region %s keeps %d %s registers live at once at line %d (budget %d; %d declared%s); %s",
				fn.Name, p.Peak, c, line, res.Budget[c], p.Declared, helper, consequence),
		}
		if md != nil {
			// The price of the spill: each register above the budget is
			// stored and reloaded (the model's spill_cost) in every
			// iteration of the loop holding the peak.
			cost := md.At(fn, p.At, nil)
			cost.Before += (p.Peak - res.Budget[c]) * md.M.SpillCost * cost.Iterations
			d.Message += "; " + cost.Phrase()
			simcost.Attach(&d, cost)
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
