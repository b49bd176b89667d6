package stream

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/cppfront/ir"
)

// SinkChecked is ASC1002's move with the fix withheld, and the reason
// given, for the streams postVerdict proves contiguous but SinkFix cannot
// move textually or the replay cannot model: a Post under an if constexpr
// (after the loop it needs the same condition), a pointer declared in the
// loop (it has to be declared before it first), and stores in an inner
// loop or under an if constexpr (the replay treats those as opaque).
var SinkChecked = Move{
	sites:   Sink.sites,
	compose: composeCheckedSink,
	kind:    sinkKind,
	proven:  Sink.proven,
	maybe:   Sink.maybe,
	how:     Sink.how,
	withReg: Sink.withReg,
	access:  Sink.access,
}

func checkedSinkFix(f *ir.File, s Site) (*analysis.SuggestedFix, string) {
	return checked(f, composeCheckedSink)(f, s)
}

func composeCheckedSink(f *ir.File, s Site) (*fixItem, string) {
	if why := unmovable(s); why != "" {
		return nil, why
	}
	return composeSink(f, s)
}

// unmovable returns why a contiguous stream's Post cannot be sunk by a
// textual move that the replay proves, or "".
func unmovable(s Site) string {
	ws := wheres(s.Loop)
	if len(ws[s.Instr.ID].cx) > 0 {
		return "the Post is under an if constexpr: sink it after the loop under the same condition"
	}
	for _, st := range s.Stream {
		if w := ws[st.ID]; w.inner || len(w.cx) > 0 {
			return "the stream's stores are in an inner loop or under an if constexpr, which the replay does not model"
		}
	}
	p := ptrName(s.Stream[0])
	if contains(s.Loop.Decls, p) {
		return fmt.Sprintf("the stream's pointer %s is declared in the loop: declare it before the loop, then sink the Post", p)
	}
	for _, in := range s.Func.Instrs {
		if in != s.Instr && in.Op == ir.OpStoreUnAlignPost && s.Func.Within(in.Loop, s.Loop.ID) && hasReg(in.Uses, s.Reg) {
			return "another StoreUnAlignPost flushes the stream in the loop"
		}
	}
	return ""
}
