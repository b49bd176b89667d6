package driver

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/gitquote"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/tempfile"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// fixTitles returns the fixes of an issue of rule id with their titles
// (the LSP quick fix's, SARIF's fix description) as the user reads the
// issue's message: in the output language lang and, in a pypto_pro Python
// file (py), with the DSL's names, "hoist the vf.load_unalign_pre before
// the loop" rather than LoadUnAlignPre. The fixes are copied, their edits
// shared: the finding's own fixes (cached, or -fix's) keep their titles.
func fixTitles(lang, id string, fs []fixes.Fix, py bool) []fixes.Fix {
	if len(fs) == 0 {
		return fs
	}
	out := slices.Clone(fs)
	for i := range out {
		out[i].Message = i18n.Message(lang, id, out[i].Message)
		if py {
			out[i].Message = dslNames(out[i].Message)
		}
	}
	return out
}

// maxFixRounds bounds the rounds of fixing (see fixAll). Two almost always
// suffice; the bound keeps a fix that keeps conflicting from looping.
const maxFixRounds = 4

// fixedFile is a file that the fixes change.
type fixedFile struct {
	name     string // as in the findings
	old, new []byte // contents as read, and as fixed
	fixed    int    // findings whose fix was applied, over all rounds
}

// fixOutcome is what fixAll did, in memory.
type fixOutcome struct {
	files   []fixedFile            // the files that changed, in input order
	res     *runner.Result         // the findings and errors after fixing
	skipped map[string]int         // per file, fixes left unapplied by the last round (they overlapped others)
	broken  []string               // fixes that do not fit their file: an analyzer's bug
	rerun   []runner.InternalError // analyzers that failed on a fixed text (also in res)
}

// fixAll applies the suggested fixes of res to files, in memory, and returns
// the changed files with the findings that remain.
//
// A round applies the first fix of every finding of a file (fixes.Apply),
// then runs the analyzers again on the files it changed. A fix skipped
// because it overlaps another is not lost: when a round skipped some, the
// next round takes the files where it did, with their fresh findings and
// fixes, so that a second ascvet -fix finds nothing left to fix. The other
// files are done after one round, so that a fix that does not remove its
// finding is applied once, not once per round.
func fixAll(analyse func([]runner.File) (*runner.Result, error), files []runner.File, res *runner.Result) (*fixOutcome, error) {
	cur := make(map[string][]byte, len(files))
	for _, f := range files {
		cur[f.Name] = f.Src
	}
	fixed := map[string]int{}
	skipped := map[string]int{}
	var broken []string
	var rerun []runner.InternalError
	var retry map[string]bool // files to fix in this round; nil for all
	for round := 1; round <= maxFixRounds; round++ {
		var changed []runner.File
		var names []string
		conflicted := map[string]bool{}
		for name := range skipped {
			if retry == nil || retry[name] {
				delete(skipped, name) // counted afresh, if the file still has fixes
			}
		}
		for _, ff := range runner.Fixes(res.Findings) {
			if retry != nil && !retry[ff.Name] {
				continue
			}
			r := fixes.Apply(cur[ff.Name], ff.Fixes)
			for _, s := range r.Skipped {
				if s.Err != nil {
					// The runner checked every fix against the file's size
					// in its FileSet; only an analyzer that sized the file
					// wrongly gets here.
					msg := fmt.Sprintf("%s: internal error in analyzer %s: %v", ff.Findings[s.Fix].Pos, ff.Findings[s.Fix].Analyzer.Name, s.Err)
					if !slices.Contains(broken, msg) {
						broken = append(broken, msg)
					}
					continue
				}
				skipped[ff.Name]++
				conflicted[ff.Name] = true
			}
			if len(r.Applied) == 0 {
				continue
			}
			fixed[ff.Name] += len(r.Applied)
			cur[ff.Name] = r.Src
			changed = append(changed, runner.File{Name: ff.Name, Src: r.Src})
			names = append(names, ff.Name)
		}
		if len(changed) == 0 {
			break
		}
		sub, err := analyse(changed)
		if err != nil {
			return nil, err
		}
		res = res.Replace(names, sub)
		rerun = append(rerun, sub.Errors...)
		if len(conflicted) == 0 {
			break
		}
		retry = conflicted
	}

	out := &fixOutcome{res: res, skipped: map[string]int{}, broken: broken, rerun: rerun}
	for _, f := range files {
		if n := skipped[f.Name]; n > 0 {
			out.skipped[f.Name] = n
		}
		if fixed[f.Name] > 0 && !bytes.Equal(cur[f.Name], f.Src) {
			out.files = append(out.files, fixedFile{name: f.Name, old: f.Src, new: cur[f.Name], fixed: fixed[f.Name]})
		}
	}
	return out, nil
}

// fixReport is what fixOrDiff did: the result to report (after -fix, the
// findings that remain; with -diff, those it was given, and the failures
// of analyzers on the fixed texts besides), the files it wrote, the fixes
// an analyzer offered that do not fit their file (an internal error, each
// reported on stderr), and the files it could not write (each reported).
type fixReport struct {
	res       *runner.Result
	written   []fixedFile
	broken    int
	unwritten int
}

// fixOrDiff implements -fix (write set) and -diff: it fixes the files in
// memory, reports on stderr what could not be fixed, then writes the changed
// files or prints their diff on stdout. Its error is an internal one: the
// fixes could not be made, or the diff not printed.
func fixOrDiff(stdout, stderr io.Writer, pipe *Pipeline, files []runner.File, res *runner.Result, write bool, jobs int) (*fixReport, error) {
	out, err := fixAll(pipe.rerun(jobs), files, res)
	if err != nil {
		return nil, fmt.Errorf("internal error: %w", err)
	}
	rep := &fixReport{broken: len(out.broken)}
	for _, msg := range out.broken {
		fmt.Fprintf(stderr, "ascvet: %s (please report this bug)\n", msg)
	}
	reportSkipped(stderr, files, out.skipped)
	if !write {
		rep.res = &runner.Result{Findings: res.Findings, Errors: slices.Clone(res.Errors)}
		for _, e := range out.rerun {
			e.Err = fmt.Errorf("on the fixed text: %w", e.Err)
			rep.res.Errors = append(rep.res.Errors, e)
		}
		return rep, writeDiffs(stdout, out)
	}
	rep.res, rep.written, rep.unwritten = writeFixes(stderr, out, res)
	return rep, nil
}

// reportSkipped prints one line per file where fixes overlapped others and
// could not be applied within maxFixRounds; their findings remain.
func reportSkipped(stderr io.Writer, files []runner.File, skipped map[string]int) {
	for _, f := range files {
		switch n := skipped[f.Name]; n {
		case 0:
		case 1:
			fmt.Fprintf(stderr, "ascvet: %s: 1 fix not applied: it overlaps another fix\n", gitquote.DisplayName(f.Name))
		default:
			fmt.Fprintf(stderr, "ascvet: %s: %d fixes not applied: they overlap other fixes\n", gitquote.DisplayName(f.Name), n)
		}
	}
}

// writeFixes writes each fixed file atomically and reports it on stderr. A
// file that cannot be written is named on stderr and keeps its findings from
// before fixing, which are returned in the result; failed counts them.
// First it removes the temporary files that killed runs left in the
// directories it writes in (removeStaleTemps).
func writeFixes(stderr io.Writer, out *fixOutcome, before *runner.Result) (res *runner.Result, written []fixedFile, failed int) {
	res = out.res
	now := time.Now()
	swept := map[string]bool{}
	for _, f := range out.files {
		// The temporary file is made beside the file a link points to.
		target, err := filepath.EvalSymlinks(f.name)
		if err != nil {
			continue // ReplaceFileVia says why
		}
		if dir := filepath.Dir(target); !swept[dir] {
			swept[dir] = true
			tempfile.RemoveStale(stderr, dir, now)
		}
	}
	var restore []string
	for _, f := range out.files {
		if err := fixes.ReplaceFileVia(f.name, f.old, f.new, tempfile.Live{}); err != nil {
			fmt.Fprintf(stderr, "ascvet: %v\n", err)
			restore = append(restore, f.name)
			continue
		}
		fmt.Fprintf(stderr, "ascvet: fixed %s in %s\n", report.Plural(f.fixed, "finding"), gitquote.DisplayName(f.name))
		written = append(written, f)
	}
	if len(restore) > 0 {
		res = res.Replace(restore, only(before, restore))
	}
	return res, written, len(restore)
}

// only returns the findings and errors of r for the files named.
func only(r *runner.Result, names []string) *runner.Result {
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	out := &runner.Result{}
	for _, f := range r.Findings {
		if keep[f.Pos.Filename] {
			out.Findings = append(out.Findings, f)
		}
	}
	for _, e := range r.Errors {
		if keep[e.File] {
			out.Errors = append(out.Errors, e)
		}
	}
	return out
}

// writeDiffs prints a unified diff of every fixed file to w, with three
// lines of context and the headers "--- a/NAME" and "+++ b/NAME" written as
// git diff writes them (diffLabel: an odd name is quoted), for git apply and
// patch -p1. Line endings are kept: a CRLF line shows with its CR.
func writeDiffs(w io.Writer, out *fixOutcome) error {
	for _, f := range out.files {
		name := gitquote.DiffName(f.name)
		if _, err := io.WriteString(w, udiff.Unified(gitquote.DiffLabel("a/", name), gitquote.DiffLabel("b/", name), string(f.old), string(f.new))); err != nil {
			return err
		}
	}
	return nil
}
