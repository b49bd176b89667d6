package stream

import (
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/stop"
	"github.com/ascvet/ascvet/cppfront/ir"
)

// The two moves a FixSet holds.
const (
	hoistKind = iota // ASC1001: Hoist
	sinkKind         // ASC1002: SinkChecked
)

// Fixes finds the contiguous streams of a file once for both rules, and
// composes their hoists (ASC1001) and sinks (ASC1002) and validates them on
// the file's text together: one lowering of the fixed file for both rules'
// fixes, as -fix writes them all. It is one of the long passes of a big
// file: it watches the file's stop flag (package stop) between functions,
// and the lowering of the fixed text (ir.File.Relower) watches it too.
var Fixes = &analysis.Analyzer{
	Name:             "streamfixes",
	Doc:              "the unaligned streams' Pre and Post sites, with their hoists and sinks validated on the fixed text together",
	Requires:         []*analysis.Analyzer{cppir.Analyzer, stop.Analyzer},
	RunDespiteErrors: true,
	ResultType:       reflect.TypeOf((*FixSet)(nil)),
	Run:              runFixes,
}

// FixSet is Fixes' result: each analysed region's sites, by move, and the
// fix (or why there is none) of each contiguous one.
type FixSet struct {
	sites map[*ir.Func][2][]Site
	fixes map[*ir.Instr]fixResult
}

type fixResult struct {
	fix *analysis.SuggestedFix
	why string
}

// sitesOf returns fn's sites of the move kind; nil for a nil set.
func (fs *FixSet) sitesOf(fn *ir.Func, kind int) []Site {
	if fs == nil || kind < 0 {
		return nil
	}
	return fs.sites[fn][kind]
}

func runFixes(pass *analysis.Pass) (any, error) {
	pkg := pass.ResultOf[cppir.Analyzer].(*ir.Package)
	stopped := stop.Of(pass)
	fs := &FixSet{sites: map[*ir.Func][2][]Site{}, fixes: map[*ir.Instr]fixResult{}}
	for _, f := range pkg.Files {
		var items []*fixItem
		var at []*ir.Instr // the instruction of each item
		for _, fn := range f.Funcs {
			if stopped.Load() {
				return nil, stop.ErrStopped
			}
			if !fn.Kind.Analysed() {
				continue
			}
			sites := [2][]Site{PreSites(fn), PostSites(fn)}
			fs.sites[fn] = sites
			for kind, compose := range [2]func(*ir.File, Site) (*fixItem, string){composeHoist, composeCheckedSink} {
				for _, s := range sites[kind] {
					if s.Verdict != Contiguous {
						continue
					}
					it, why := compose(f, s)
					if it == nil {
						fs.fixes[s.Instr] = fixResult{why: why}
						continue
					}
					items = append(items, it)
					at = append(at, s.Instr)
				}
			}
		}
		forgetText(f)
		for i, why := range validateFixes(f, items) {
			if why == "" {
				fs.fixes[at[i]] = fixResult{fix: items[i].fix}
			} else {
				fs.fixes[at[i]] = fixResult{why: why}
			}
		}
	}
	return fs, nil
}
