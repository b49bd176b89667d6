package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// formats are the output formats, in the order -h lists them.
var formats = []string{"text", "json", "sarif", "github", "checkstyle", "codequality"}

// output is one -f, written to stdout or to its -o file.
type output struct {
	format string
	file   string // "" for stdout
}

// outputsFlag collects -f and -o: each -o names the file of the -f before
// it ("-f sarif -o out.sarif -f text" writes SARIF to out.sarif and text
// to stdout). A -o before any -f applies to the default text output.
type outputsFlag struct {
	list []output
}

func (o *outputsFlag) setFormat(v string) error {
	ok := false
	for _, f := range formats {
		ok = ok || f == v
	}
	if !ok {
		return fmt.Errorf("want one of %s", strings.Join(formats, ", "))
	}
	o.list = append(o.list, output{format: v})
	return nil
}

func (o *outputsFlag) setFile(v string) error {
	if v == "" {
		return fmt.Errorf("empty file name")
	}
	if len(o.list) == 0 {
		o.list = append(o.list, output{format: "text"})
	}
	last := &o.list[len(o.list)-1]
	if last.file != "" {
		return fmt.Errorf("-f %s already writes to %s; give -f again before another -o", last.format, last.file)
	}
	last.file = v
	return nil
}

// outputs returns the outputs, text to stdout when none was asked, or an
// error when two formats would write to stdout or two to one file.
func (o *outputsFlag) outputs() ([]output, error) {
	if len(o.list) == 0 {
		return []output{{format: "text"}}, nil
	}
	seen := map[string]string{}
	for _, out := range o.list {
		key := out.file
		if key != "" {
			if abs, err := filepath.Abs(key); err == nil {
				key = abs
			}
		}
		if prev, dup := seen[key]; dup {
			where := "stdout"
			if out.file != "" {
				where = out.file
			}
			return nil, fmt.Errorf("-f %s and -f %s both write to %s; give one of them -o FILE", prev, out.format, where)
		}
		seen[key] = out.format
	}
	return o.list, nil
}

// writeOutputs writes the report in every output. A file is written
// atomically (a temporary file renamed over it), so a reader never sees half
// a SARIF log.
func writeOutputs(outs []output, stdout io.Writer, r *report, read int) error {
	for _, out := range outs {
		var buf bytes.Buffer
		w := io.Writer(&buf)
		if out.file == "" {
			w = stdout
		}
		if err := writeFormat(w, out.format, r, read, r.Color && out.file == ""); err != nil {
			return err
		}
		if out.file != "" {
			if err := writeFileAtomic(out.file, buf.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeFileAtomic writes data to a temporary file beside name (see
// tempfiles.go) and renames it over name, so a reader sees the old file or
// the whole new one. A name that is a link is written through: the file it
// names is replaced, the link stays. A name that is no regular file (a
// device such as /dev/null or /dev/stdout, a pipe) is written in place: a
// rename would replace the device with a file.
func writeFileAtomic(name string, data []byte) (err error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(name)
		if err != nil {
			return err
		}
		name = target
	}
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	f, err := temps.Create(filepath.Dir(name), filepath.Base(name))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
		temps.Gone(f.Name())
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// writeFormat writes r in format to w; color colours the text format (on
// stdout only, never in a -o file).
func writeFormat(w io.Writer, format string, r *report, read int, color bool) error {
	switch format {
	case "json":
		return writeJSON(w, r.Issues)
	case "sarif":
		return writeSARIF(w, r)
	case "github":
		var summary io.Writer
		if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
			}
			defer f.Close()
			summary = f
		}
		return writeGitHub(w, r, summary)
	case "checkstyle":
		return writeCheckstyle(w, r)
	case "codequality":
		return writeCodeQuality(w, r)
	}
	return writeText(w, r.Issues, read, textStyle{lang: r.Lang, color: color, spared: r.Spared})
}

// failPolicy is -fail: which reported issues fail the run.
type failPolicy struct {
	p        *config.FailPolicy // from -fail, or the config's fail
	none     bool               // nothing fails (-exit-zero, -write-baseline)
	noSaving bool               // performance findings whose simulation measures no saving fail too (-fail-no-saving)
}

// parseFail parses -fail or a config's fail list: "none", severity names
// (that severity or higher), rule IDs, names and globs, "-RULE".
func parseFail(list []string) (*failPolicy, error) {
	p, err := config.ParseFail(list)
	if err != nil {
		return nil, err
	}
	return &failPolicy{p: p}, nil
}

// fails reports whether a reported issue fails the run.
func (f *failPolicy) fails(is *issue) bool {
	if f.none || len(is.Suppressed) > 0 {
		return false
	}
	fails, named := f.p.Decide(is.RuleID(), is.Level)
	if fails && is.Cost != nil && !f.noSaving && !named {
		// A performance finding promises cycles: one whose simulation
		// measures none is reported, but does not fail the run, unless
		// the fail list names its rule or -fail-no-saving asks.
		if is.Cost.Saved() <= 0 {
			return false
		}
	}
	return fails
}

// spared reports whether a reported issue would fail the run by its
// severity but does not, because its simulation measures no saving (the
// summary says how many, and that -fail-no-saving makes them fail).
func (f *failPolicy) spared(is *issue) bool {
	if f.none || f.noSaving || len(is.Suppressed) > 0 || is.Cost == nil {
		return false
	}
	fails, named := f.p.Decide(is.RuleID(), is.Level)
	if !fails || named {
		return false
	}
	return is.Cost.Saved() <= 0
}

// textStyle is how the text format prints: its language, whether it
// colours the severities and rule IDs (-color), and which issues the
// fail policy spared for want of a measured saving.
type textStyle struct {
	lang   string            // "en" or "zh": the severity words and the summary
	color  bool              // ANSI colours
	spared func(*issue) bool // failPolicy.spared; nil: none
}

// The ANSI colours of the text format: the severity word bold in its
// colour, the rule ID dim.
const (
	ansiReset = "\x1b[0m"
	ansiDim   = "\x1b[2m"
)

var severityColor = [ruleset.Error + 1]string{
	ruleset.Info:    "\x1b[1;36m", // cyan
	ruleset.Warning: "\x1b[1;33m", // yellow
	ruleset.Error:   "\x1b[1;31m", // red
}

// paint returns s in the ANSI colour code when st colours, else s.
func (st textStyle) paint(code, s string) string {
	if !st.color || code == "" {
		return s
	}
	return code + s + ansiReset
}

// writeText prints the issues gcc style, then a summary line. Suppressed
// issues (listed with -show-ignored) are marked and not counted. A file name
// holding a control character or a double quote is quoted (displayName), so
// that each finding stays one line. The severity words and the summary are
// in st.lang; with st.color the severity and the rule ID are coloured.
func writeText(w io.Writer, issues []issue, files int, st textStyle) error {
	var count [ruleset.Error + 1]int
	ignored, total := 0, 0
	for i := range issues {
		is := &issues[i]
		rule := st.paint(ansiDim, is.RuleID())
		if len(is.Suppressed) > 0 {
			ignored++
			fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s] (%s)\n", displayName(is.Pos.Filename), is.Pos.Line, is.Pos.Column,
				st.paint(ansiDim, i18n.Driver(st.lang, "ignored")), is.Message, rule, is.Suppressed[0].Justification)
			continue
		}
		total++
		count[is.Level]++
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", displayName(is.Pos.Filename), is.Pos.Line, is.Pos.Column,
			st.paint(severityColor[is.Level], ruleset.SeverityName(is.Level, st.lang)), is.Message, rule)
	}
	var parts []string
	for s := ruleset.Error; s >= ruleset.Info; s-- {
		if n := count[s]; n > 0 {
			name := s.String()
			if n > 1 && s != ruleset.Info {
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	summary := "no findings"
	if total > 0 {
		summary = fmt.Sprintf("%s (%s)", plural(total, "finding"), strings.Join(parts, ", "))
	}
	if ignored > 0 {
		summary += fmt.Sprintf(", %d ignored", ignored)
	}
	summary = fmt.Sprintf("%s in %s", summary, plural(files, "file"))
	if _, err := fmt.Fprintln(w, i18n.Driver(st.lang, summary)); err != nil {
		return err
	}
	// A run with warnings that exits 0 says why: the warnings whose
	// simulation measures no saving do not fail it.
	spared := 0
	for i := range issues {
		if st.spared != nil && st.spared(&issues[i]) {
			spared++
		}
	}
	if spared == 0 {
		return nil
	}
	line := fmt.Sprintf("%s with no measurable saving did not fail the run (-fail-no-saving)", plural(spared, "finding"))
	_, err := fmt.Fprintln(w, i18n.Driver(st.lang, line))
	return err
}

// jsonVersion is the version of the -f json shape, in its "version"
// field. Adding a field keeps it; removing, renaming or retyping one bumps
// it. docs/ascvet-findings.schema.json describes the shape.
const jsonVersion = 1

// jsonReport is the -f json output: one object.
type jsonReport struct {
	Version  int           `json:"version"`  // jsonVersion
	Tool     string        `json:"tool"`     // "ascvet"
	Findings []jsonFinding `json:"findings"` // in report order (file, line, column, rule)
}

// jsonFinding is one finding in -f json output. Lines and columns are 1-based;
// columns count bytes. Every field is always present: a finding that is not a
// performance finding has null cycles, an unsuppressed one an empty list.
type jsonFinding struct {
	Rule      string           `json:"rule"`       // rule ID, "ASC0001"
	Name      string           `json:"name"`       // rule name, "vf-parse-error"
	Severity  ruleset.Severity `json:"severity"`   // "info", "warning" or "error", as configured
	Message   string           `json:"message"`    // the diagnostic, in the output language
	File      string           `json:"file"`       // path as found from the arguments
	Line      int              `json:"line"`       // start line
	Column    int              `json:"column"`     // start column
	EndLine   int              `json:"end_line"`   // end line
	EndColumn int              `json:"end_column"` // end column (exclusive)
	// For performance findings: the loop simulated before and after the fix;
	// null for the others.
	CyclesBefore *int `json:"cycles_before"`
	CyclesAfter  *int `json:"cycles_after"`
	// For performance findings: the iterations simulated (1 for a region)
	// and where their count came from (known, capped, once, default,
	// region), and, when the fix saves nothing, what binds the loop.
	Iterations *int   `json:"iterations,omitempty"`
	Trip       string `json:"trip,omitempty"`
	Bound      string `json:"bound,omitempty"`
	// For performance findings whose fix saves cycles in its loop: one
	// call of the VF function simulated whole, before and after the fix.
	CallBefore  *int   `json:"call_cycles_before,omitempty"`
	CallAfter   *int   `json:"call_cycles_after,omitempty"`
	Fingerprint string `json:"fingerprint"` // line-independent (the baseline's key)
	Fixable     bool   `json:"fixable"`     // -fix can fix it
	// Why the finding is suppressed (suppressed findings are listed with
	// -show-ignored only); empty when it is not.
	Suppressed []suppression `json:"suppressed"`
}

func writeJSON(w io.Writer, issues []issue) error {
	out := jsonReport{Version: jsonVersion, Tool: "ascvet", Findings: make([]jsonFinding, 0, len(issues))}
	for i := range issues {
		is := &issues[i]
		name := is.RuleID()
		if is.Rule != nil {
			name = is.Rule.Name
		}
		jf := jsonFinding{
			Rule: is.RuleID(), Name: name, Severity: is.Level, Message: is.Message,
			File: is.Pos.Filename, Line: is.Pos.Line, Column: is.Pos.Column, EndLine: is.End.Line, EndColumn: is.End.Column,
			Fingerprint: is.Fingerprint, Fixable: len(is.Fixes) > 0, Suppressed: is.Suppressed,
		}
		if jf.Suppressed == nil {
			jf.Suppressed = []suppression{}
		}
		if is.Cost != nil {
			jf.CyclesBefore, jf.CyclesAfter = &is.Cost.Before, &is.Cost.After
			jf.Iterations, jf.Trip, jf.Bound = &is.Cost.Iterations, is.Cost.Trip, is.Cost.Bound
			if is.Cost.CallBefore > 0 {
				jf.CallBefore, jf.CallAfter = &is.Cost.CallBefore, &is.Cost.CallAfter
			}
		}
		out.Findings = append(out.Findings, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
