package driver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/progress"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/ruleset/config"
)

// The check streams. An operator repository is mostly host code: of its
// files, a few percent hold VF code. Each of jobs workers takes the next file
// name, reads it into a buffer of its own, scans it for a VF marker and, if
// it has none, is done with it; a file with one is analysed at once, and
// only its findings are kept (and its source, when -fix or -diff needs
// it). So memory holds the file names (a file free of VF code leaves
// nothing else), jobs files in flight, and the findings, whatever the
// size of the tree.
//
// Order does not depend on jobs: each file's outcome goes to its slot in
// walk order; messages are printed in that order after the run, and the
// findings are sorted as runner.Run sorts them.

// CheckConfig tunes check.
type CheckConfig struct {
	Jobs      int                                           // files read and analysed at once
	Limits    source.Limits                                 // input limits
	KeepFixes bool                                          // keep the sources of files whose findings offer fixes (-fix, -diff)
	Visit     func(runner.File, map[*analysis.Analyzer]any) // runner.Options.Visit (without pipe)
	Pipe      *Pipeline                                     // the per-file pipeline (config, suppressions, issues); nil: analyzers only
	Progress  *progress.Line                                // shows files done on a terminal; nil: nothing shown
	Memo      *resultcache.Memo                             // files known free of VF code from an earlier run; nil: none
}

// fileOutcome is what became of one input file.
type fileOutcome struct {
	msg      string                 // why it was skipped ("" when not)
	size     int64                  // bytes, when read
	read, vf bool                   // it was read; it has a VF marker and was analysed
	src      []byte                 // kept source (checkConfig.keepFixes)
	findings []runner.Finding       // its reported findings
	issues   []report.Issue         // with a pipeline: its issues, suppressed ones included
	errs     []runner.InternalError // analyzers that failed on it
	cfgErr   string                 // its configuration did not load
}

// plain reports whether o is a file read and found free of VF code, with
// nothing to say.
func (o *fileOutcome) plain() bool {
	return o.read && !o.vf && o.msg == "" && o.cfgErr == "" && o.src == nil && o.findings == nil && o.issues == nil && o.errs == nil
}

// Check expands paths, reads every file and analyses those with a VF
// marker. Skipped inputs are reported on stderr, one line each, in walk
// order, and counted; the result is in in.res. Its error is a
// misconfiguration of the analyzers.
func Check(paths []string, as []*analysis.Analyzer, cfg CheckConfig, stderr io.Writer) (*Inputs, error) {
	if _, err := runner.Run(as, nil, runner.Options{}); err != nil {
		return nil, err // analysis.Validate, once
	}
	in := &Inputs{}
	// The configuration of each file asks of every directory above it
	// whether it holds an ascvet.toml or a .git: the walk has just listed
	// the directories below the paths, and tells.
	var listing *source.Listing
	if cfg.Pipe != nil && cfg.Pipe.Loader != nil {
		listing = source.NewListing(config.FileName, ".git")
	}
	names := source.ExpandListed(paths, func(path string, err error) {
		in.Skipped++
		fmt.Fprintf(stderr, "ascvet: %s\n", source.Describe(path, err))
	}, func(path, msg string) {
		fmt.Fprintf(stderr, "ascvet: %s: %s\n", path, msg)
	}, listing)
	if listing != nil {
		cfg.Pipe.Loader.UseListing(listing.Has)
	}
	names, in.Tests = source.DropTests(paths, names, func(name string) bool {
		if cfg.Pipe == nil {
			return false
		}
		eff, err := cfg.Pipe.Loader.ForFile(name, cfg.Pipe.WorkDir)
		return err == nil && eff.Settings.Tests
	})

	cfg.Progress.SetTotal(len(names))
	// A file read and found free of VF code (most files) leaves only its
	// size, added here: its slot stays nil, 8 bytes a file of the tree.
	outs := make([]*fileOutcome, len(names))
	var plainFiles, plainBytes atomic.Int64
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(cfg.Jobs, max(len(names), 1)) {
		wg.Go(func() {
			var buf []byte
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				o := checkFile(names[i], as, &cfg, &buf)
				if o.plain() {
					plainFiles.Add(1)
					plainBytes.Add(o.size)
				} else {
					outs[i] = &o
				}
				cfg.Progress.Add(1)
			}
		})
	}
	wg.Wait()
	cfg.Progress.Finish()
	in.Read, in.Bytes = int(plainFiles.Load()), plainBytes.Load()
	in.names = names

	all := &runner.Result{}
	cfgSeen := map[string]bool{}
	for i, o := range outs {
		if o == nil {
			continue
		}
		if o.msg != "" || o.cfgErr != "" || len(o.errs) > 0 {
			in.unchecked = append(in.unchecked, i)
		}
		if o.msg != "" {
			in.Skipped++
			fmt.Fprintf(stderr, "ascvet: %s\n", o.msg)
		}
		if o.cfgErr != "" {
			in.BadConfig++
			if !cfgSeen[o.cfgErr] { // one bad ascvet.toml spoils many files: say it once
				cfgSeen[o.cfgErr] = true
				for _, line := range strings.Split(o.cfgErr, "\n") {
					fmt.Fprintf(stderr, "ascvet: %s\n", line)
				}
				fmt.Fprintf(stderr, "ascvet: files under it are not checked until it is fixed\n")
			}
		}
		if o.read {
			in.Read++
			in.Bytes += o.size
		}
		if o.vf {
			in.VFFiles++
			in.VFBytes += o.size
		}
		if o.src != nil {
			in.Files = append(in.Files, runner.File{Name: names[i], Src: o.src})
		}
		all.Findings = append(all.Findings, o.findings...)
		in.Issues = append(in.Issues, o.issues...)
		all.Errors = append(all.Errors, o.errs...)
		outs[i] = nil
	}
	in.Res = (&runner.Result{}).Replace(nil, all) // sorted as runner.Run sorts
	sortIssues(in.Issues)
	return in, nil
}

// checkFile reads and, when it has a VF marker, analyses one file.
func checkFile(name string, as []*analysis.Analyzer, cfg *CheckConfig, buf *[]byte) fileOutcome {
	if size, ok := cfg.Memo.Unchanged(name); ok {
		return fileOutcome{read: true, size: size}
	}
	src, size, vf, info, err := source.ReadSourceStat(name, &cfg.Limits, buf)
	if err != nil {
		return fileOutcome{msg: source.Describe(name, err)}
	}
	o := fileOutcome{read: true, size: size}
	if !vf {
		cfg.Memo.NoVF(name, info)
		return o
	}
	if cfg.Pipe != nil {
		a := cfg.Pipe.run(name, src)
		switch {
		case a.Skip != "":
			return fileOutcome{msg: a.Skip}
		case a.ConfigErr != "":
			o.cfgErr = a.ConfigErr
			return o
		}
		o.vf, o.errs, o.issues, o.findings = true, a.Errs, a.Issues, a.reported()
		if cfg.KeepFixes && len(runner.Fixes(o.findings)) > 0 {
			o.src = bytes.Clone(src)
		}
		return o
	}
	// The runner and the analyzers may keep slices of the source (a fix's
	// text, say): give them their own copy, not the reused buffer.
	f := runner.File{Name: name, Src: bytes.Clone(src)}
	res, err := runner.Run(as, []runner.File{f}, runner.Options{Jobs: 1, Visit: cfg.Visit})
	if err != nil {
		panic("internal error: analyzers validated, then not: " + err.Error())
	}
	errs, skips := splitLimits(res.Errors)
	if len(skips) > 0 { // beyond a limit: skipped, not checked
		return fileOutcome{msg: skips[0]}
	}
	o.errs = errs
	o.vf = true
	o.findings = res.Findings
	if cfg.KeepFixes && len(runner.Fixes(res.Findings)) > 0 {
		o.src = f.Src
	}
	return o
}

// splitLimits separates, in errs, the files that cppir refused for a
// limit (a *cppfront.LimitError: the input is skipped, exit 2) from the
// failures of the analyzers (exit 3), and returns the skip messages as
// "file: reason; skipped (raise -flag ...)", without "ascvet: ".
func splitLimits(errs []runner.InternalError) (internal []runner.InternalError, skips []string) {
	for _, e := range errs {
		var le *cppfront.LimitError
		if errors.As(e.Err, &le) {
			skips = append(skips, fmt.Sprintf("%s: %s%s", e.File, le.Msg, source.LimitHint(le)))
			continue
		}
		internal = append(internal, e)
	}
	return internal, skips
}
