package cli

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/tempfile"
	"github.com/ascvet/ascvet/ruleset/config"
)

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
	for _, f := range report.Formats {
		ok = ok || f == v
	}
	if !ok {
		return fmt.Errorf("want one of %s", strings.Join(report.Formats, ", "))
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
func writeOutputs(outs []output, stdout io.Writer, r *report.Report) error {
	for _, out := range outs {
		var buf bytes.Buffer
		w := io.Writer(&buf)
		if out.file == "" {
			w = stdout
		}
		if err := report.Write(w, out.format, r, r.Color && out.file == ""); err != nil {
			return err
		}
		if out.file != "" {
			if err := tempfile.WriteAtomic(out.file, buf.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
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
func (f *failPolicy) fails(is *report.Issue) bool {
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
func (f *failPolicy) spared(is *report.Issue) bool {
	if f.none || f.noSaving || len(is.Suppressed) > 0 || is.Cost == nil {
		return false
	}
	fails, named := f.p.Decide(is.RuleID(), is.Level)
	if !fails || named {
		return false
	}
	return is.Cost.Saved() <= 0
}
