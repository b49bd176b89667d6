package driver

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/internal/driver/drivertest"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/testfs"
)

// replacer and noter are the test analyzers of drivertest.
var (
	replacer = drivertest.Replacer
	noter    = drivertest.Noter
)

// vfFile writes a file with a VF marker around body (so the check reads
// and analyses it) and returns its path.
func vfFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	return testfs.Put(t, dir, name, "__simd_vf__ void f() {\n"+body+"}\n")
}

// vfText is the text vfFile writes for body.
func vfText(body string) string { return "__simd_vf__ void f() {\n" + body + "}\n" }

// workDir is the folder a run over paths works from: the first path's
// folder (the first path, when it is one), as in run.
func workDir(paths []string) string {
	if st, err := os.Stat(paths[0]); err == nil && st.IsDir() {
		return paths[0]
	}
	return filepath.Dir(paths[0])
}

// runAs runs Run over paths with the analyzers as (and no others), and
// returns its outcome, stdout and stderr.
func runAs(t *testing.T, as []*analysis.Analyzer, paths []string, o Options) (*Outcome, string, string, error) {
	t.Helper()
	p := newPipeline(t, workDir(paths))
	p.Analyzers = as
	var stdout bytes.Buffer
	out, errs, err := runPipeTo(t, p, paths, o, &stdout)
	return out, stdout.String(), errs, err
}

// runPipe runs Run over paths through p, and returns its outcome and
// stderr; stdout is dropped.
func runPipe(t *testing.T, p *Pipeline, paths []string, o Options) (*Outcome, string, error) {
	t.Helper()
	return runPipeTo(t, p, paths, o, io.Discard)
}

// runPipeTo is runPipe with stdout written to stdout.
func runPipeTo(t *testing.T, p *Pipeline, paths []string, o Options, stdout io.Writer) (*Outcome, string, error) {
	t.Helper()
	o.Jobs, o.Limits = 2, source.DefaultLimits()
	var stderr bytes.Buffer
	out, err := Run(paths, p, &o, stdout, &stderr)
	return out, stderr.String(), err
}

// failWriter fails every write with err.
type failWriter struct{ err error }

func (w *failWriter) Write([]byte) (int, error) { return 0, w.err }

// issueList renders issues as "base:line:col rule" (suppressed ones with
// " (suppressed)"), in order.
func issueList(out *Outcome) []string {
	var s []string
	for _, is := range out.Issues {
		e := fmt.Sprintf("%s:%d:%d %s", filepath.Base(is.Pos.Filename), is.Pos.Line, is.Pos.Column, is.RuleID())
		if len(is.Suppressed) > 0 {
			e += " (suppressed)"
		}
		s = append(s, e)
	}
	return s
}
