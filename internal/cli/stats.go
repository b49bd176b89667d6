package cli

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/census"
	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/driver"
	"github.com/ascvet/ascvet/internal/progress"
	"github.com/ascvet/ascvet/internal/source"
)

// topUnknown is how many unknown callee names stats lists.
const topUnknown = 50

// stats is the output of "ascvet stats". Region, loop and instruction counts
// cover the analysed VF regions only (not SIMT regions, not helpers).
type stats struct {
	Files                    int         `json:"files"`                        // C++ files read
	Bytes                    int64       `json:"bytes"`                        // their total size
	VFFiles                  int         `json:"vf_files"`                     // files with a VF marker, which were parsed
	VFBytes                  int64       `json:"vf_bytes"`                     // their total size
	VFRegions                int         `json:"vf_regions"`                   // analysed VF regions
	VFRegionsWithParseErrors int         `json:"vf_regions_with_parse_errors"` // of those, regions holding ERROR or MISSING nodes
	SimtRegions              int         `json:"simt_regions"`                 // SIMT regions: recorded, not analysed
	Loops                    int         `json:"loops"`                        // loops in analysed regions
	Instructions             int         `json:"instructions"`                 // instructions in analysed regions, helper calls included
	Calls                    int         `json:"calls"`                        // instructions other than calls of same-file helpers
	HelperCalls              int         `json:"helper_calls"`                 // calls of same-file helpers
	TreeHelperCalls          int         `json:"tree_helper_calls"`            // calls of helpers defined in another file of the analysed tree
	UnknownCalls             int         `json:"unknown_calls"`                // calls that are neither in the op table nor helpers (same file or tree)
	UnknownCallNames         []nameCount `json:"unknown_call_names"`           // the most frequent unknown callees, as written
	Streams                  streamStats `json:"streams"`                      // the unaligned streams in loops (ASC1001, ASC1002)
	Seconds                  float64     `json:"seconds"`                      // wall time of the whole run
}

// streamStats is what the stream analysis saw: its verdicts on the Pre and
// Post calls inside loops, and how their addresses fold.
type streamStats struct {
	Addresses map[string]int `json:"addresses"`       // address (or post-update stride) of each unaligned op in a loop: folded, symbolic, unknown
	Pre       verdicts       `json:"pre"`             // LoadUnAlignPre calls inside loops
	Post      verdicts       `json:"post"`            // StoreUnAlignPost calls inside loops
	Sites     []streamSite   `json:"sites,omitempty"` // every site, with -sites
}

// verdicts counts the sites of one kind by verdict and by reason.
type verdicts struct {
	Verdicts map[string]int `json:"verdicts"` // contiguous, not contiguous, unknown -> count
	Reasons  []nameCount    `json:"reasons"`  // why a site is not contiguous or unknown, most frequent first
	reasons  map[string]int
}

// streamSite is one Pre or Post, listed with -sites.
type streamSite struct {
	Pos     string `json:"pos"`           // file:line:col
	Kind    string `json:"kind"`          // pre or post
	Verdict string `json:"verdict"`       // contiguous, not contiguous, unknown
	Why     string `json:"why,omitempty"` // the reason
}

func (v *verdicts) add(s census.Site) {
	if v.Verdicts == nil {
		v.Verdicts, v.reasons = map[string]int{}, map[string]int{}
	}
	v.Verdicts[s.Verdict]++
	if s.Why != "" {
		v.reasons[s.Verdict+": "+s.Why]++
	}
}

// nameCount is one entry of unknown_call_names.
type nameCount struct {
	Name  string `json:"name"`  // callee as written ("MA::Duplicate")
	Count int    `json:"count"` // calls of it
}

// statsOpts are the flags of ascvet stats.
type statsOpts struct {
	jobs  *int
	sites *bool
	quiet *bool
	lim   *source.Limits
}

// statsFlags defines the flags of ascvet stats; its usage goes to stderr.
func statsFlags(stderr io.Writer) (*flag.FlagSet, *statsOpts) {
	fs := flag.NewFlagSet("ascvet stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &statsOpts{}
	o.jobs = fs.Int("j", runtime.NumCPU(), "parse `N` files in parallel (default: the number of CPUs)")
	o.sites = fs.Bool("sites", false, "also list every LoadUnAlignPre and StoreUnAlignPost in a loop with the stream analysis' verdict and reason")
	o.quiet = fs.Bool("q", false, "quiet: show no progress line (shown on a terminal when a run takes more than 2 seconds)")
	o.lim = source.AddLimitFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet stats [-j N] [-q] [limit flags] [path ...]

Parses the VF code under the paths and prints one JSON object telling what
ascvet understood: files, VF regions, parse errors, loops, instructions and
unknown calls (with the most frequent names), and the unaligned streams in
loops: how their addresses fold, and the verdicts on their Pre and Post
calls with the reasons (every site with -sites).

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, o
}

func runStats(args []string, stdout, stderr io.Writer) int {
	fs, o := statsFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *o.jobs < 1 {
		return commandError(stderr, "stats", fmt.Sprintf("-j %d: want at least 1", *o.jobs))
	}
	if msg := o.lim.Validate(); msg != "" {
		return commandError(stderr, "stats", msg)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}

	start := time.Now()
	as := []*analysis.Analyzer{cppir.Analyzer}
	o.lim.SimtRegions = true // SimtRegions counts them, Defined names their functions
	o.lim.Defines = configDefines(stderr, o.lim.Defines, paths[0])
	if err := o.lim.Apply(as); err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	st := &stats{}
	unknown := map[string]int{}      // callee as written -> count
	unknownNames := map[string]int{} // last component -> count
	defined := map[string]bool{}     // every function defined anywhere in the tree
	var mu sync.Mutex
	in, err := driver.Check(paths, as, driver.CheckConfig{
		Jobs:     *o.jobs,
		Limits:   *o.lim,
		Progress: progress.New(stderr, *o.quiet),
		Visit: func(_ runner.File, results map[*analysis.Analyzer]any) {
			pkg, ok := results[cppir.Analyzer].(*ir.Package)
			if !ok {
				return // the failure is in the run's Errors
			}
			mu.Lock()
			defer mu.Unlock()
			st.add(pkg, unknown, unknownNames, defined)
			st.Streams.add(pkg, *o.sites)
		},
	}, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: internal error: %v\n", err)
		return exitInternal
	}
	res := in.Res
	st.Files, st.Bytes, st.VFFiles, st.VFBytes = in.Read, in.Bytes, in.VFFiles, in.VFBytes
	// Helpers defined in another file of the tree are user helpers too: move
	// their calls out of the unknown count.
	for name, n := range unknownNames {
		if defined[name] {
			st.TreeHelperCalls += n
			st.UnknownCalls -= n
			st.Calls -= n
		}
	}
	for callee := range unknown {
		if defined[lastName(callee)] {
			delete(unknown, callee)
		}
	}
	st.UnknownCallNames = top(unknown, topUnknown)
	st.Streams.finish()
	st.Seconds = math.Round(time.Since(start).Seconds()*1000) / 1000

	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(st); err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitInternal
	}
	code := exitOK
	if in.Skipped > 0 {
		code = exitUsage
	}
	if reportInternal(stderr, res.Errors) {
		code = exitInternal
	}
	return code
}

// add counts the regions of pkg into st, its unknown callees into unknown
// (as written) and names (last component), and the functions it defines.
func (st *stats) add(pkg *ir.Package, unknown, names map[string]int, defined map[string]bool) {
	for _, f := range pkg.Files {
		for _, d := range f.Defined {
			defined[lastName(d)] = true
		}
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				st.SimtRegions++
				continue
			}
			st.VFRegions++
			if len(fn.Errors) > 0 {
				st.VFRegionsWithParseErrors++
			}
			st.Loops += len(fn.Loops)
			st.Instructions += len(fn.Instrs)
			for _, in := range fn.Instrs {
				switch in.Op {
				case ir.OpCall:
					st.HelperCalls++
					continue
				case ir.OpUnknown:
					st.UnknownCalls++
					unknown[calleeName(in)]++
					names[in.Name]++
				}
				st.Calls++
			}
		}
	}
}

func (ss *streamStats) add(pkg *ir.Package, sites bool) {
	if ss.Addresses == nil {
		ss.Addresses = map[string]int{census.Folded: 0, census.Symbolic: 0, census.Unknown: 0}
	}
	for _, f := range pkg.Files {
		c := census.Of(f)
		for k, n := range c.Addresses {
			ss.Addresses[k] += n
		}
		for _, s := range c.Sites {
			if s.Kind == "pre" {
				ss.Pre.add(s)
			} else {
				ss.Post.add(s)
			}
			if sites {
				ss.Sites = append(ss.Sites, streamSite{Pos: s.Pos.String(), Kind: s.Kind, Verdict: s.Verdict, Why: s.Why})
			}
		}
	}
}

// finish orders what the parallel visits added in arbitrary order.
func (ss *streamStats) finish() {
	if ss.Addresses == nil {
		ss.Addresses = map[string]int{census.Folded: 0, census.Symbolic: 0, census.Unknown: 0}
	}
	for _, v := range []*verdicts{&ss.Pre, &ss.Post} {
		v.Reasons = top(v.reasons, len(v.reasons))
	}
	slices.SortFunc(ss.Sites, func(a, b streamSite) int { return cmp.Compare(a.Pos, b.Pos) })
}

// lastName returns the last component of a qualified or member name,
// without template arguments.
func lastName(s string) string {
	if k := strings.IndexByte(s, '<'); k >= 0 {
		s = s[:k]
	}
	if k := strings.LastIndexAny(s, ":.>"); k >= 0 {
		s = s[k+1:]
	}
	return strings.TrimSpace(s)
}

// calleeName names the callee of an unknown call for unknown_call_names.
func calleeName(in *ir.Instr) string {
	switch {
	case in.Callee != "":
		return in.Callee
	case in.Name != "":
		return in.Name
	}
	return "(unnamed)"
}

// top returns the n most frequent names, most frequent first, ties by name.
func top(counts map[string]int, n int) []nameCount {
	list := make([]nameCount, 0, len(counts))
	for name, c := range counts {
		list = append(list, nameCount{name, c})
	}
	slices.SortFunc(list, func(a, b nameCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	return list[:min(n, len(list))]
}
