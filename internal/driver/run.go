// Package driver is what one run of ascvet does around the rules: the
// walk and reading of the path arguments, the pipeline of each file with
// VF code (its configuration, the analyzers or the result cache, its
// suppression directives, its issues), -fix and -diff, -new-from-rev and
// the baseline. Run returns an Outcome, which the command line turns into
// an exit code and outputs; the language server runs the Pipeline on the
// buffers it is given.
package driver

import (
	"fmt"
	"io"
	"time"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/progress"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/source"
)

// Options are what a run does around the pipeline: the command line's
// -j, limits, -fix and -diff, -new-from-rev and the baseline flags.
type Options struct {
	Jobs          int            // files read and analysed at once (-j)
	Limits        source.Limits  // input limits
	Progress      *progress.Line // shows files done on a terminal; nil: nothing shown
	Fix, Diff     bool           // write the fixes (-fix), or print them as a diff (-diff)
	NewFromRev    string         // report only issues on lines changed since this git revision; "": all
	Baseline      string         // suppress the issues this baseline file holds; "": none
	WriteBaseline string         // write the issues to this baseline file; "": none
}

// Outcome is what a run found and did; the command line turns it into an
// exit code and outputs.
type Outcome struct {
	Inputs *Inputs        // what the run read: counts, skipped and unconfigured files
	Res    *runner.Result // the reported findings and the internal errors (after -fix: of the fixed texts)
	// Issues is every issue, suppressed ones included, sorted: after -fix,
	// those of the fixed texts; with a baseline, its entries marked
	// suppressed; with -new-from-rev, only those on changed lines. With
	// -diff, the issues as found: neither is applied.
	Issues          []report.Issue
	Broken          int  // fixes an analyzer offered that do not fit their file (internal errors, each reported)
	Unwritten       int  // files -fix could not write (each reported)
	Diffed          bool // -diff: the diff was the output
	BaselineWritten bool // -write-baseline wrote its file
}

// Error is why a run stopped before it had an outcome.
type Error struct {
	Err      error
	Usage    bool // a bad argument (-new-from-rev, -baseline): the command line adds its usage hint
	Internal bool // an internal error; otherwise a file could not be written (-write-baseline)
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Run checks the files the path arguments name through pipe, then applies
// -fix or -diff, -new-from-rev and the baseline as o asks. What it cannot
// read, the fixes it writes and the stale baseline entries are reported on
// stderr, one line each; the diff goes to stdout. Its error is an *Error.
func Run(paths []string, pipe *Pipeline, o *Options, stdout, stderr io.Writer) (*Outcome, error) {
	start := time.Now()
	memo := pipe.Cache.Memo(paths, o.Limits.MaxFileSize)
	pipe.named = namedFiles(paths)
	pipe.FreshFixes = o.Fix || o.Diff
	in, err := Check(paths, pipe.Analyzers, CheckConfig{Jobs: o.Jobs, Limits: o.Limits, KeepFixes: o.Fix || o.Diff, Pipe: pipe, Progress: o.Progress, Memo: memo}, stderr)
	memo.Save(start)
	if err != nil {
		return nil, &Error{Err: fmt.Errorf("internal error: %w", err), Internal: true}
	}
	out := &Outcome{Inputs: in, Res: in.Res, Issues: in.Issues}
	if o.Fix || o.Diff {
		fr, err := fixOrDiff(stdout, stderr, pipe, in.Files, in.Res, o.Fix, o.Jobs)
		if err != nil {
			return nil, &Error{Err: err, Internal: true}
		}
		out.Res, out.Broken, out.Unwritten = fr.res, fr.broken, fr.unwritten
		if o.Diff { // the diff is the output; the issues as found decide the exit code
			out.Diffed = true
			return out, nil
		}
		out.Issues = reanalyse(pipe, out.Issues, fr.written)
	}
	// -new-from-rev narrows what is reported, not what the run found: the
	// baseline is written from, and matched against, every issue of the
	// files analysed, and only then are those on unchanged lines dropped.
	var touched func(*report.Issue) bool
	if o.NewFromRev != "" {
		if touched, err = changedSince(pipe.Roots, paths, out.Issues, o.NewFromRev); err != nil {
			return nil, &Error{Err: fmt.Errorf("-new-from-rev %s: %w", o.NewFromRev, err), Usage: true}
		}
	}
	var scope *RunScope
	if o.WriteBaseline != "" || o.Baseline != "" {
		scope = newRunScope(pipe.Roots, paths, in.analysed(), pipe.Checks)
	}
	if o.WriteBaseline != "" {
		written, kept, err := saveBaseline(stderr, scope, o.WriteBaseline, out.Issues)
		if err != nil {
			return nil, &Error{Err: fmt.Errorf("-write-baseline: %w", err)}
		}
		msg := fmt.Sprintf("ascvet: wrote %s to %s", report.Plural(written, "finding"), o.WriteBaseline)
		if kept > 0 {
			msg += fmt.Sprintf(", and kept its %d %s of files or rules outside this run", kept, report.PluralWord(kept, "entry", "entries"))
		}
		fmt.Fprintln(stderr, msg)
		out.BaselineWritten = true
	}
	if o.Baseline != "" {
		if out.Issues, err = ApplyBaseline(stderr, scope, o.Baseline, out.Issues, touched); err != nil {
			return nil, &Error{Err: fmt.Errorf("-baseline: %w", err), Usage: true}
		}
	}
	if touched != nil {
		out.Issues = keepIssues(out.Issues, touched)
	}
	sameOverrun(out.Issues, pipe.Lang)
	return out, nil
}
