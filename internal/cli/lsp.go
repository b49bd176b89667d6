package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/lsp"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/ruleset/i18n"
)

// lspOptions are the flags of ascvet lsp.
type lspOptions struct {
	baseline string
	debounce time.Duration
	cache    string
	lang     string
	logFile  string
	defines  source.Defines
}

// lspFlags defines the flags of ascvet lsp on a new flag set whose usage
// goes to stderr.
func lspFlags(stderr io.Writer) (*flag.FlagSet, *lspOptions) {
	fs := flag.NewFlagSet("ascvet lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &lspOptions{}
	fs.StringVar(&o.baseline, "baseline", "", "report only findings that are not in the baseline `FILE`, as the command line's -baseline")
	fs.DurationVar(&o.debounce, "debounce", lsp.Debounce, "analyse a changed buffer once it has been quiet for `DURATION`")
	fs.StringVar(&o.cache, "cache", "on", "use the result cache, shared with the command line: on or off (`MODE`)")
	fs.StringVar(&o.lang, "lang", "", "language `LANG` of messages and hovers: en or zh (default: the client's locale, else the environment's)")
	fs.StringVar(&o.logFile, "log", "", "also write the server's log to `FILE`")
	addDefineFlag(fs, &o.defines)
	fs.Bool("stdio", true, "talk LSP over stdin and stdout (the only transport; accepted because clients such as VS Code's pass it)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: ascvet lsp [-baseline FILE] [-debounce DURATION] [-cache on|off] [-lang en|zh] [-log FILE] [-D MACRO] [-stdio]

Runs the ascvet language server on stdin and stdout, for an editor: see
docs/editors.md for Neovim, VS Code and other clients
(https://github.com/ascvet/ascvet/blob/main/docs/editors.md).

Flags:
`)
		fs.PrintDefaults()
	}
	return fs, o
}

// runLSP is "ascvet lsp".
func runLSP(args []string, stdout, stderr io.Writer) int {
	fs, o := lspFlags(stderr)
	if code, ok := parseArgs(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return commandError(stderr, "lsp", "takes no arguments")
	}
	if o.cache != "on" && o.cache != "off" {
		return commandError(stderr, "lsp", fmt.Sprintf("-cache %s: want on or off", o.cache))
	}
	if o.lang != "" && !i18n.Supported(o.lang) {
		return commandError(stderr, "lsp", fmt.Sprintf("-lang %s: want en or zh", o.lang))
	}
	logw := stderr
	if o.logFile != "" {
		f, err := os.OpenFile(o.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return commandError(stderr, "lsp", err.Error())
		}
		defer f.Close()
		logw = io.MultiWriter(stderr, f)
	}
	cppfront.SetSegments(lsp.Segments(runtime.NumCPU()))
	s, err := lsp.New(&lsp.Options{Baseline: o.baseline, Debounce: o.debounce, NoCache: o.cache == "off", Lang: o.lang, Version: readVersion().Version, Defines: o.defines}, analyzers(), logw)
	if err != nil {
		fmt.Fprintf(stderr, "ascvet lsp: %v\n", err)
		return exitUsage
	}
	return s.Serve(context.Background(), stdio{os.Stdin, stdout})
}

// stdio is the server's end of the client's pipe.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
