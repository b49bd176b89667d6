package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ascvet/ascvet/cppfront/ir"
	"github.com/ascvet/ascvet/internal/driver"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/regalloc"
)

// regsRegion is one region of the pressure report.
type regsRegion struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Region  string `json:"region"`
	Kind    string `json:"kind"`
	// Instance is the instantiation counted, as template arguments ("T=half").
	Instance string      `json:"instance,omitempty"`
	Classes  []regsClass `json:"classes"`
}

// regsClass is one register class of a region.
type regsClass struct {
	Class    string   `json:"class"`
	Declared int      `json:"declared"`         // physical registers declared
	Used     int      `json:"used"`             // of those, read or written
	Peak     int      `json:"peak"`             // most live at once
	Budget   int      `json:"budget"`           // what the chip has
	Over     bool     `json:"over"`             // Peak > Budget
	PeakLine int      `json:"peak_line"`        // where the peak is first reached (0: nothing live)
	Live     []string `json:"live"`             // registers live at the peak
	Helper   int      `json:"helper,omitempty"` // part of the peak held inside a called helper
}

// regsFlags defines the flags of ascvet regs, -f the only one; its usage
// goes to stderr.
func regsFlags(stderr io.Writer) (*flag.FlagSet, *string, *string, *source.Defines) {
	fs := flag.NewFlagSet("ascvet regs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("f", "text", "output `FORMAT`: text or json")
	defs := new(source.Defines)
	addDefineFlag(fs, defs)
	instance := fs.String("instance", "", "count the instantiation `ARGS` of a template (\"T=half,Mode=2\"); by default every instantiation its file makes")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet regs [-f text|json] [-instance ARGS] [-D NAME[=VALUE]] PATH[:LINE]...

For each VF region (or only the one holding LINE), prints the registers of
each class: declared, used, the peak live at once against the chip's budget
(Ascend 950: 32 RegTensor, 8 MaskReg, 4+4 unaligned, 8 AddrReg), the line of
the peak and the registers live there. A template is counted once for each
instantiation its file makes (its if constexpr folded, its types bound, its
helpers inlined, as the compiler builds it), named by its template
arguments, or for the one -instance names.

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, format, instance, defs
}

// runRegs implements "ascvet regs PATH[:LINE]...": the register pressure
// report of every VF region (or of the region holding LINE).
func runRegs(args []string, stdout, stderr io.Writer) int {
	fs, format, instance, defs := regsFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if !defaultParseLimits(stderr, *defs, fs.Args()) {
		return exitInternal
	}
	if *format != "text" && *format != "json" {
		return commandError(stderr, "regs", fmt.Sprintf("-f %s: want text or json", *format))
	}
	if fs.NArg() == 0 {
		return commandError(stderr, "regs", "name at least one file or directory")
	}
	var choice *ir.Bindings
	if *instance != "" {
		b, err := parseInstance(*instance)
		if err != nil {
			return commandError(stderr, "regs", "-instance: "+err.Error())
		}
		choice = &b
	}
	var paths []string
	lines := map[string]int{} // path -> selected line
	for _, a := range fs.Args() {
		p, line := splitLine(a)
		paths = append(paths, p)
		if line > 0 {
			lines[p] = line
		}
	}
	in := driver.Load(paths, 1, stderr)
	code := exitOK
	if in.Skipped > 0 {
		code = exitUsage
	}
	var out []regsRegion
	fset := token.NewFileSet()
	for _, file := range in.Files {
		f, err := driver.ParseAsCheck(fset, file.Name, file.Src)
		if err != nil {
			code = max(code, parseFailed(stderr, file.Name, err))
			continue
		}
		want := lines[file.Name]
		a := regalloc.New(f)
		for _, fn := range f.Funcs {
			if !fn.Kind.Analysed() {
				continue
			}
			start, end := fset.Position(fn.Pos).Line, fset.Position(fn.End).Line
			if want > 0 && (want < start || want > end) {
				continue
			}
			for _, inst := range instancesOf(fn, choice) {
				rep := regsReport(fset, file.Name, a.Analyze(fn.Expand(inst)), start, end)
				rep.Instance = inst.String()
				out = append(out, rep)
			}
		}
	}
	var err error
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if out == nil {
			out = []regsRegion{}
		}
		err = enc.Encode(out)
	} else {
		err = writeRegs(stdout, out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitInternal
	}
	return code
}

// splitLine splits "file.asc:120" into the path and the line, when the
// suffix is a number and the whole argument is not itself a path.
func splitLine(a string) (string, int) {
	k := strings.LastIndexByte(a, ':')
	if k < 0 {
		return a, 0
	}
	n, err := strconv.Atoi(a[k+1:])
	if err != nil || n <= 0 {
		return a, 0
	}
	if _, err := os.Stat(a); err == nil {
		return a, 0
	}
	return a[:k], n
}

func regsReport(fset *token.FileSet, name string, r *regalloc.Result, start, end int) regsRegion {
	reg := regsRegion{File: name, Line: start, EndLine: end, Region: r.Func.Name, Kind: r.Func.Kind.String()}
	for c := regalloc.Class(0); c < regalloc.NumClasses; c++ {
		p := r.Classes[c]
		rc := regsClass{Class: c.String(), Declared: p.Declared, Used: p.Used, Peak: p.Peak, Budget: regalloc.Ascend950[c],
			Over: p.Peak > regalloc.Ascend950[c], Live: []string{}, Helper: p.Helper}
		if p.At != nil {
			rc.PeakLine = fset.Position(p.At.Pos).Line
		}
		for i, id := range p.Live {
			n := r.Func.Regs[id].Name
			if w := p.Weight[i]; w > 1 {
				n = fmt.Sprintf("%s(x%d)", n, w)
			}
			rc.Live = append(rc.Live, n)
		}
		reg.Classes = append(reg.Classes, rc)
	}
	return reg
}

func writeRegs(w io.Writer, regions []regsRegion) error {
	if len(regions) == 0 {
		_, err := fmt.Fprintln(w, "no VF regions")
		return err
	}
	for i, r := range regions {
		if i > 0 {
			fmt.Fprintln(w)
		}
		inst := ""
		if r.Instance != "" {
			inst = " [" + r.Instance + "]"
		}
		fmt.Fprintf(w, "%s:%d-%d %s%s (%s)\n", r.File, r.Line, r.EndLine, r.Region, inst, r.Kind)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  class\tdeclared\tused\tpeak\tbudget\tpeak line\tlive at the peak")
		for _, c := range r.Classes {
			if c.Declared == 0 && c.Peak == 0 {
				continue
			}
			flag := ""
			if c.Over {
				flag = "  OVER"
			}
			line := "-"
			if c.PeakLine > 0 {
				line = strconv.Itoa(c.PeakLine)
			}
			live := strings.Join(c.Live, " ")
			if c.Helper > 0 {
				live += fmt.Sprintf(" (+%d inside a helper)", c.Helper)
			}
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%d%s\t%d\t%s\t%s\n", c.Class, c.Declared, c.Used, c.Peak, flag, c.Budget, line, live)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
