package stream

import (
	"bytes"
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/analyzers/simcost"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/simcheck/replay"
)

// Move is one of the two findings on a contiguous stream, each rule's run
// function: the Pre hoisted before the loop (ASC1001) or the Post sunk
// after it (ASC1002). Both report the same way: the proven finding with
// its fix (or why the replay withheld it), the suspected one only at
// -confidence=low, the simulated saving, and the stream's other accesses
// as related locations.
type Move struct {
	sites        func(*ir.Func) []Site
	compose      func(*ir.File, Site) (*fixItem, string) // the fix, its text not yet validated
	kind         int                                     // hoistKind or sinkKind: its sites and fixes in a FixSet
	proven       string                                  // "%s on %s ...; %s": register, advice
	maybe        string                                  // "%s ... (not proven: %s) ...": register, why
	how          string                                  // the advice: "hoist it before the loop"
	withReg      string                                  // the advice when the register is declared in the loop: "%s" is the register
	access       string                                  // the related location's message
	inPlace      string                                  // a redundant site's message (Site.Redundant), "" when the move reports none: "%s" is the register
	inPlaceAt    string                                  // its related location's message
	inPlaceNoFix string                                  // why it has no fix
}

// Hoist is ASC1001's move: the LoadUnAlignPre before the loop.
var Hoist = Move{
	sites:        PreSites,
	compose:      composeHoist,
	kind:         hoistKind,
	proven:       "LoadUnAlignPre on %s re-initialises a contiguous stream each iteration; %s",
	maybe:        "LoadUnAlignPre on %s may re-initialise a contiguous stream each iteration (not proven: %s); hoist it before the loop if the stream is contiguous",
	how:          "hoist it before the loop",
	withReg:      "declare %s before the loop and hoist the Pre with it",
	access:       "the stream continues with this load",
	inPlace:      "LoadUnAlignPre on %s re-primes its stream where the LoadUnAlign before it left it, and nothing in between writes memory; delete it",
	inPlaceAt:    "the stream stands where this load ended",
	inPlaceNoFix: "the fixes ascvet checks on their text move a call, they do not delete one",
}

// Sink is ASC1002's move: the StoreUnAlignPost after the loop.
var Sink = Move{
	sites:   PostSites,
	compose: composeSink,
	kind:    -1, // not the FixSet's (its sinks are SinkChecked's)
	proven:  "StoreUnAlignPost on %s flushes a contiguous store stream each iteration; %s",
	maybe:   "StoreUnAlignPost on %s may flush a contiguous store stream each iteration (not proven: %s); sink it after the loop if the stream is contiguous",
	how:     "sink it after the loop",
	withReg: "declare %s before the loop and sink the Post after it",
	access:  "the stream is written by this store",
}

// Run reports the move's findings in every analysed region of the pass.
// The fixes come from the Fixes analyzer, which composes the hoists and
// the sinks of a file and validates them on their text together; a Move
// run without it composes and validates its own.
func (m Move) Run(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	fs, _ := pass.ResultOf[Fixes].(*FixSet)
	if m.kind < 0 {
		fs = nil // a move the set does not hold: its own sites and fixes
	}
	for _, f := range pkg.Files {
		var found []*finding
		var items []*fixItem
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			sites := fs.sitesOf(fn, m.kind)
			if fs == nil {
				sites = m.sites(fn)
			}
			for _, s := range sites {
				if s.Redundant && !deletable(f, fn, s) {
					continue
				}
				fd := m.finding(pass, s)
				if fd == nil {
					continue
				}
				found = append(found, fd)
				if s.Verdict != Contiguous {
					continue
				}
				if fs != nil {
					r := fs.fixes[s.Instr]
					fd.fix, fd.noFix = r.fix, r.why
					continue
				}
				fd.item, fd.noFix = m.compose(f, s)
				if fd.item != nil {
					items = append(items, fd.item)
				}
			}
		}
		forgetText(f)
		whys := validateFixes(f, items)
		k := 0
		for _, fd := range found {
			if fd.item != nil {
				if whys[k] == "" {
					fd.fix = fd.item.fix
				} else {
					fd.noFix = whys[k]
				}
				k++
			}
			if fd.fix != nil {
				fd.d.SuggestedFixes = []analysis.SuggestedFix{*fd.fix}
			}
			if fd.noFix != "" {
				fd.d.Message += "; no automatic fix: " + fd.noFix
			}
			pass.Report(fd.d)
		}
	}
	return nil, nil
}

// finding is a diagnostic being built: its fix, composed, waits for the
// validation of the file's fixes.
type finding struct {
	d     analysis.Diagnostic
	item  *fixItem               // a fix composed here, to validate
	fix   *analysis.SuggestedFix // the fix, validated
	noFix string                 // why there is no fix
}

// advice says how to move the call; a register declared in the loop has to
// move out with it.
func (m Move) advice(s Site, u string) string {
	for _, d := range s.Loop.Decls {
		if d == u {
			return fmt.Sprintf(m.withReg, u)
		}
	}
	return m.how
}

func (m Move) finding(pass *analysis.Pass, s Site) *finding {
	u := s.Func.Regs[s.Reg].Name
	fd := &finding{d: analysis.Diagnostic{Pos: s.Instr.Pos, End: s.Instr.End}}
	switch s.Verdict {
	case Contiguous:
		fd.d.Message = fmt.Sprintf(m.proven, u, m.advice(s, u))
	case Unknown:
		if settings.Of(pass).Confidence != "low" {
			return nil
		}
		fd.d.Message = fmt.Sprintf(m.maybe, u, s.Why)
	default:
		if !s.Redundant || m.inPlace == "" {
			return nil
		}
		fd.d.Message = fmt.Sprintf(m.inPlace, u)
		fd.noFix = m.inPlaceNoFix
	}
	// The price: the loop simulated with and without the instruction.
	md := pass.ResultOf[simcost.Analyzer].(*simcost.Model)
	cost := md.Loop(s.Func, s.Loop, func(in *ir.Instr) bool { return in == s.Instr })
	fd.d.Message += ": " + cost.Phrase()
	simcost.Attach(&fd.d, cost)
	access := m.access
	if s.Redundant {
		access = m.inPlaceAt
	}
	for _, a := range s.Stream {
		fd.d.Related = append(fd.d.Related, analysis.RelatedInformation{Pos: a.Pos, End: a.End, Message: access})
	}
	return fd
}

// deletable reports whether the redundant Pre of s (Site.Redundant) may be
// reported for deletion: only statements of instructions between the load
// and it (onlyInstrsBetween), and a replay of the loop with and without it
// on the model of UB and of the unaligned registers loads the same data in
// every case (replay.ProveDrop).
func deletable(f *ir.File, fn *ir.Func, s Site) bool {
	if !onlyInstrsBetween(f, fn, s.Stream[0], s.Instr) {
		return false
	}
	ok, _ := replay.ProveDrop(fn, s.Loop, s.Instr)
	return ok
}

// onlyInstrsBetween reports whether the text between the load ld and the
// redundant Pre q (Site.Redundant) holds only the statements of the
// instructions between them: one ";" each, besides the load's own. Scalar
// code (a store through a pointer, x[k] = v) is no instruction, and
// redundantAfter, which looks at instructions, does not see it write
// memory; a comment or a macro that holds a ";" says no too. Python text
// has no ";": no.
func onlyInstrsBetween(f *ir.File, fn *ir.Func, ld, q *ir.Instr) bool {
	if f.Lang == ir.Python || f.Tok == nil || !ld.End.IsValid() || !q.Pos.IsValid() {
		return false
	}
	a, b := f.Tok.Offset(ld.End), f.Tok.Offset(q.Pos)
	if a < 0 || a > b || b > len(f.Src) {
		return false
	}
	n := 0
	for _, in := range fn.Instrs {
		if in.ID > ld.ID && in.ID < q.ID && in.Pos < q.Pos { // not a call in the Pre's own operands (GetVecLen())
			n++
		}
	}
	return bytes.Count(f.Src[a:b], []byte(";")) == n+1
}
