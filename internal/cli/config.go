package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ascvet/ascvet/regalloc"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/simcheck"
)

// The defaults of the settings when no configuration sets them: the
// driver's flag defaults.
const (
	defaultChip       = "ascend950"
	defaultConfidence = "high"
	defaultLang       = "en"
)

// budgetClass maps the keys of [budgets] to register classes.
var budgetClass = map[string]regalloc.Class{
	"vreg": regalloc.VReg, "mask": regalloc.Mask, "uload": regalloc.ULoad, "ustore": regalloc.UStore, "addr": regalloc.Addr,
}

const configUsage = `usage: ascvet config print [-f text|json] [-config FILE] [-no-config] [PATH]

Prints the configuration in force for PATH (default "."; for a directory,
for a file directly in it): the ascvet.toml files that apply, root first,
those above the repository root (or a root = true file) that were not
read, and the [[overrides]] that match; every rule, enabled or disabled,
with its severity; what fails the run; and the settings, defaults filled
in. Each value decided by a configuration file names the FILE:LINE that
decided it.

Exit codes: 0 printed, 2 usage error or a bad configuration file (each
problem printed as "ascvet: FILE:LINE: ...").
`

// runConfig implements "ascvet config SUBCOMMAND".
func runConfig(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return commandError(stderr, "config", "name a subcommand: print")
	}
	switch args[0] {
	case "print":
		return runConfigPrint(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help": // as ascvet help config (run answers -h first)
		fmt.Fprint(stdout, configUsage)
		return exitOK
	}
	msg := fmt.Sprintf("unknown subcommand %q", args[0])
	if s := suggest(args[0], []string{"print"}); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return commandError(stderr, "config", msg+" (want print)")
}

// configPrintOpts are the flags of ascvet config print.
type configPrintOpts struct {
	format     *string
	configFile *string
	noConfig   *bool
}

// configPrintFlags defines the flags of ascvet config print; its usage
// goes to stderr.
func configPrintFlags(stderr io.Writer) (*flag.FlagSet, *configPrintOpts) {
	fs := flag.NewFlagSet("ascvet config print", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &configPrintOpts{}
	o.format = fs.String("f", "text", "output `FORMAT`: text or json")
	o.configFile = fs.String("config", "", "use this config `FILE` only, instead of the ascvet.toml files found above PATH")
	o.noConfig = fs.Bool("no-config", false, "ignore every ascvet.toml: print the defaults")
	fs.Usage = func() {
		fmt.Fprint(stderr, configUsage+"\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs, o
}

func runConfigPrint(args []string, stdout, stderr io.Writer) int {
	fs, o := configPrintFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if *o.format != "text" && *o.format != "json" {
		return commandError(stderr, "config print", fmt.Sprintf("-f %s: want text or json", *o.format))
	}
	if *o.configFile != "" && *o.noConfig {
		return commandError(stderr, "config print", "-config and -no-config exclude each other")
	}
	if fs.NArg() > 1 {
		return commandError(stderr, "config print", fmt.Sprintf("want at most one path, got %s", strings.Join(fs.Args(), " ")))
	}
	path := "."
	if fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return commandError(stderr, "config print", err.Error())
	}
	loader, err := config.NewLoader(config.Options{File: *o.configFile, NoConfig: *o.noConfig, Chips: simcheck.Chips()})
	if err != nil {
		return configError(stderr, err)
	}
	var eff *config.Effective
	if fi.IsDir() {
		eff, err = loader.ForDir(path)
	} else {
		eff, err = loader.For(path)
	}
	if err != nil {
		return configError(stderr, err)
	}
	out := newConfigReport(path, fi.IsDir(), eff)
	if *o.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	} else {
		err = out.writeText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitInternal
	}
	return exitOK
}

// configError prints the problems of the configuration files, one line
// each, and returns exitUsage.
func configError(stderr io.Writer, err error) int {
	var list config.ErrorList
	if !errors.As(err, &list) {
		fmt.Fprintf(stderr, "ascvet: %v\n", err)
		return exitUsage
	}
	for _, e := range list {
		fmt.Fprintf(stderr, "ascvet: %s\n", e.Format(displayPath(e.File)))
	}
	return exitUsage
}

// displayPath shortens an absolute path below the working directory to a
// relative one.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}

// displayPos is displayPath for "FILE:LINE".
func displayPos(p string) string {
	i := strings.LastIndexByte(p, ':')
	if i < 0 {
		return displayPath(p)
	}
	if _, err := strconv.Atoi(p[i+1:]); err != nil {
		return displayPath(p)
	}
	return displayPath(p[:i]) + p[i:]
}

// configReport is what "config print" prints; its JSON form is the -f json
// output.
type configReport struct {
	Path      string            `json:"path"`               // as given
	Dir       bool              `json:"dir"`                // Path is a directory: the configuration of a file in it
	Sources   []string          `json:"sources"`            // configuration files applied, root first
	Boundary  string            `json:"boundary,omitempty"` // where discovery stopped, when it left files unread above it
	Ignored   []string          `json:"ignored,omitempty"`  // configuration files above Boundary, not read, nearest first
	Overrides []string          `json:"overrides"`          // [[overrides]] applied, "FILE:LINE", in order
	Rules     []configRule      `json:"rules"`              // every rule, by ID
	Fail      []string          `json:"fail"`               // the fail list in force
	Settings  configSettings    `json:"settings"`           // defaults filled in
	Origins   map[string]string `json:"origins"`            // "FILE:LINE" that decided each value not left at its default (see config.Effective.Origins)
}

type configRule struct {
	ID              string           `json:"id"`
	Name            string           `json:"name"`
	Enabled         bool             `json:"enabled"`
	Severity        ruleset.Severity `json:"severity"`
	DefaultSeverity ruleset.Severity `json:"default_severity"`
}

type configSettings struct {
	Chip       string         `json:"chip"`
	Machine    string         `json:"machine"` // "" for the chip's own model
	Iterations int            `json:"iterations"`
	Confidence string         `json:"confidence"`
	Lang       string         `json:"lang"`
	Defines    []string       `json:"defines"` // NAME=VALUE, the build macros a run from here uses under -D
	Budgets    map[string]int `json:"budgets"`
}

func newConfigReport(path string, dir bool, eff *config.Effective) *configReport {
	r := &configReport{Path: path, Dir: dir, Sources: []string{}, Overrides: []string{}, Origins: map[string]string{}}
	for _, s := range eff.Sources {
		r.Sources = append(r.Sources, displayPath(s))
	}
	if len(eff.Ignored) > 0 {
		r.Boundary = displayPath(eff.Boundary)
		for _, s := range eff.Ignored {
			r.Ignored = append(r.Ignored, displayPath(s))
		}
	}
	for _, o := range eff.Overrides {
		r.Overrides = append(r.Overrides, displayPos(o))
	}
	for k, v := range eff.Origins {
		r.Origins[k] = displayPos(v)
	}
	for _, rule := range ruleset.All() {
		r.Rules = append(r.Rules, configRule{ID: rule.ID, Name: rule.Name, Enabled: eff.Enabled[rule.ID], Severity: eff.Severity[rule.ID], DefaultSeverity: rule.Severity})
	}
	r.Fail = eff.Fail
	if r.Fail == nil {
		r.Fail = config.DefaultFail
	}
	cs := eff.Settings
	s := configSettings{Chip: cs.Chip, Machine: displayPath(cs.Machine), Iterations: cs.Iterations, Confidence: cs.Confidence, Lang: cs.Lang, Defines: append([]string{}, cs.Defines...), Budgets: map[string]int{}}
	if s.Chip == "" {
		s.Chip = defaultChip
	}
	if s.Iterations == 0 {
		s.Iterations = simcheck.DefaultIterations
	}
	if s.Confidence == "" {
		s.Confidence = defaultConfidence
	}
	if s.Lang == "" {
		s.Lang = defaultLang
	}
	for _, k := range config.BudgetKeys {
		s.Budgets[k] = regalloc.Ascend950[budgetClass[k]]
		if n, ok := cs.Budgets[k]; ok {
			s.Budgets[k] = n
		}
	}
	r.Settings = s
	return r
}

// origin returns the "FILE:LINE" that set key, or "default".
func (r *configReport) origin(key string) string {
	if o, ok := r.Origins[key]; ok {
		return o
	}
	return "default"
}

func (r *configReport) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	what := r.Path
	if r.Dir {
		what = "a file in " + r.Path
	}
	fmt.Fprintf(tw, "configuration of %s\n", what)
	if len(r.Sources) == 0 {
		fmt.Fprintln(tw, "\nconfiguration files: none, defaults only")
	} else {
		fmt.Fprintln(tw, "\nconfiguration files, root first:")
		for _, s := range r.Sources {
			fmt.Fprintf(tw, "  %s\n", s)
		}
	}
	if len(r.Ignored) > 0 {
		fmt.Fprintf(tw, "not read, above %s where discovery stops (the repository root, or root = true there):\n", r.Boundary)
		for _, s := range r.Ignored {
			fmt.Fprintf(tw, "  %s\n", s)
		}
		fmt.Fprintln(tw, "  (root = false in the repository's topmost ascvet.toml inherits them)")
	}
	if len(r.Overrides) > 0 {
		fmt.Fprintln(tw, "overrides applied:")
		for _, o := range r.Overrides {
			fmt.Fprintf(tw, "  %s\n", o)
		}
	}
	for _, enabled := range []bool{true, false} {
		var rules []configRule
		for _, rule := range r.Rules {
			if rule.Enabled == enabled {
				rules = append(rules, rule)
			}
		}
		state := "enabled"
		if !enabled {
			state = "disabled"
		}
		fmt.Fprintf(tw, "\n%s rules (%d):\n", state, len(rules))
		if len(rules) == 0 {
			continue
		}
		fmt.Fprintln(tw, "  ID\tNAME\tSEVERITY\tSET BY")
		for _, rule := range rules {
			sev := rule.Severity.String()
			if rule.Severity != rule.DefaultSeverity {
				sev += " (was " + rule.DefaultSeverity.String() + ")"
			}
			var by []string
			if o, ok := r.Origins["checks."+rule.ID]; ok {
				by = append(by, o)
			}
			if o, ok := r.Origins["severity."+rule.ID]; ok {
				by = append(by, o+" (severity)")
			}
			if len(by) == 0 {
				by = append(by, "default")
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", rule.ID, rule.Name, sev, strings.Join(by, ", "))
		}
	}
	fmt.Fprintln(tw, "\nsettings:")
	fmt.Fprintf(tw, "  fail\t%s\t%s\n", strings.Join(r.Fail, ", "), r.origin("fail"))
	fmt.Fprintf(tw, "  chip\t%s\t%s\n", r.Settings.Chip, r.origin("chip"))
	machine := r.Settings.Machine
	if machine == "" {
		machine = "(the chip's)"
	}
	fmt.Fprintf(tw, "  machine\t%s\t%s\n", machine, r.origin("machine"))
	fmt.Fprintf(tw, "  iterations\t%d\t%s\n", r.Settings.Iterations, r.origin("iterations"))
	fmt.Fprintf(tw, "  confidence\t%s\t%s\n", r.Settings.Confidence, r.origin("confidence"))
	fmt.Fprintf(tw, "  lang\t%s\t%s\n", r.Settings.Lang, r.origin("lang"))
	if len(r.Settings.Defines) == 0 {
		fmt.Fprintf(tw, "  defines\t(none)\tdefault\n")
	}
	for _, d := range r.Settings.Defines {
		name, _, _ := strings.Cut(d, "=")
		fmt.Fprintf(tw, "  defines\t%s\t%s\n", d, r.origin("defines."+name))
	}
	for _, k := range config.BudgetKeys {
		fmt.Fprintf(tw, "  budgets.%s\t%d\t%s\n", k, r.Settings.Budgets[k], r.origin("budgets."+k))
	}
	return tw.Flush()
}
