package lsp_test

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/internal/lsp"
	"github.com/ascvet/ascvet/internal/lsp/lsptest"
	"github.com/ascvet/ascvet/internal/testfs"
)

// hasLog reports whether a message the server logged to the client
// contains want.
func hasLog(c *lsptest.Client, want string) bool {
	return slices.ContainsFunc(c.Logs(), func(m string) bool { return strings.Contains(m, want) })
}

// TestLSPConfigError: a document under an ascvet.toml that does not load
// has no findings (and no loop simulations on hover) until the file is
// fixed, and the error is logged to the client; once the fixed file is
// saved, the open documents are analysed again under it.
func TestLSPConfigError(t *testing.T) {
	dir := t.TempDir()
	toml := testfs.Put(t, dir, "ascvet.toml", "[severity\nASC1001 = \"error\"\n")
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	c.Initialize(dir, "en")
	text := testfs.Kernel(t, "unaligned_copy.asc")
	uri := c.Open(filepath.Join(dir, "k.asc"), text, 1)
	if ds := c.Diagnostics(uri, 1); len(ds) != 0 {
		t.Errorf("under a broken ascvet.toml: %v, want none", lsptest.Codes(ds))
	}
	if !hasLog(c, "ascvet: "+toml+":2: syntax error") {
		t.Errorf("client log %q lacks the configuration's error", c.Logs())
	}
	loop := uint32(strings.Count(text[:strings.Index(text, "    for (")], "\n"))
	if h := c.Hover(uri, loop, 4); h != "" {
		t.Errorf("hover on the loop under a broken ascvet.toml: %q, want none", h)
	}

	testfs.Put(t, dir, "ascvet.toml", "[severity]\nASC1001 = \"error\"\n")
	c.Notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: lsp.PathURI(toml)}})
	ds := c.Diagnostics(uri, 1)
	if got := lsptest.Codes(ds); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Fatalf("after ascvet.toml was fixed: %v, want ASC1001 ASC1002", got)
	}
	if d := lsptest.Find(t, ds, "ASC1001"); d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("ASC1001 severity %v, want error from the fixed ascvet.toml", d.Severity)
	}
	if h := c.Hover(uri, loop, 4); !strings.HasPrefix(h, "**ascvet sim**: ") {
		t.Errorf("hover on the loop under the fixed ascvet.toml: %q, want the simulation", h)
	}
}

// TestLSPOutsideWorkspace: a file outside the workspace folder is
// analysed under the ascvet.toml files above it, not the workspace's.
func TestLSPOutsideWorkspace(t *testing.T) {
	ws, other := t.TempDir(), t.TempDir()
	testfs.Put(t, ws, "ascvet.toml", "[severity]\nASC1001 = \"info\"\n")
	testfs.Put(t, other, "ascvet.toml", "[severity]\nASC1001 = \"error\"\n")
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	c.Initialize(ws, "en")
	text := testfs.Kernel(t, "unaligned_copy.asc")
	for dir, want := range map[string]protocol.DiagnosticSeverity{
		ws:    protocol.DiagnosticSeverityInformation,
		other: protocol.DiagnosticSeverityError,
	} {
		uri := c.Open(filepath.Join(dir, "k.asc"), text, 1)
		if d := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1001"); d.Severity != want {
			t.Errorf("%s: ASC1001 severity %v, want %v from its folder's ascvet.toml", dir, d.Severity, want)
		}
	}
}

// TestLSPSkipped: a document over one of the parser's limits (brackets
// nested deeper than -max-depth) is skipped, as the command line skips
// it: no diagnostics, and the reason as a warning in the client's log.
func TestLSPSkipped(t *testing.T) {
	c, dir := lsptest.Session(t, "en")
	deep := "__simd_vf__ inline void K(__ubuf__ float* dst)\n{\n    int x = " +
		strings.Repeat("(", 1100) + "1" + strings.Repeat(")", 1100) + ";\n}\n"
	uri := c.Open(filepath.Join(dir, "deep.asc"), deep, 1)
	if ds := c.Diagnostics(uri, 1); len(ds) != 0 {
		t.Errorf("a document over the depth limit: %v, want none", lsptest.Codes(ds))
	}
	if !hasLog(c, "deep.asc: brackets nested 1101 levels deep, deeper than the limit of 1000; skipped (raise -max-depth to check it)") {
		t.Errorf("client log %q lacks the skip", c.Logs())
	}
	uri = c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	if got := lsptest.Codes(c.Diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("after the skipped document: %v", got)
	}
}

// TestLSPBaselineUnreadable: a baseline that cannot be read (missing, or
// not a baseline) is reported in the client's log, and the findings are
// published as without one; an empty baseline drops nothing and says
// nothing.
func TestLSPBaselineUnreadable(t *testing.T) {
	dir := t.TempDir()
	text := testfs.Kernel(t, "unaligned_copy.asc")
	for _, b := range []struct{ name, data, log string }{
		{"missing.json", "", "ascvet: -baseline: "},
		{"other.json", `{"version": 2, "tool": "other", "entries": []}`, `ascvet: -baseline: baseline file ` + filepath.Join(dir, "other.json") + ` was written by "other", not ascvet`},
		{"empty.json", `{"version": 2, "tool": "ascvet", "entries": []}`, ""},
	} {
		base := filepath.Join(dir, b.name)
		if b.data != "" {
			testfs.Put(t, dir, b.name, b.data)
		}
		c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true, Baseline: base})
		c.Initialize(dir, "en")
		uri := c.Open(filepath.Join(dir, "k.asc"), text, 1)
		if got := lsptest.Codes(c.Diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
			t.Errorf("%s: %v, want ASC1001 ASC1002", b.name, got)
		}
		switch logged := hasLog(c, "-baseline"); {
		case b.log == "" && logged:
			t.Errorf("%s: client log %q, want nothing of the baseline", b.name, c.Logs())
		case b.log != "" && !hasLog(c, b.log):
			t.Errorf("%s: client log %q lacks %q", b.name, c.Logs(), b.log)
		}
	}
}

// TestLSPCacheStats: a session with the result cache counts its use: a
// buffer that matches its file is analysed and stored, and answered from
// the cache when it is opened again; a session without one has no
// counters.
func TestLSPCacheStats(t *testing.T) {
	t.Setenv("ASCVET_CACHE", t.TempDir())
	dir := t.TempDir()
	text := testfs.Kernel(t, "masks.asc") // findings without fixes: the cache serves them
	path := testfs.Put(t, dir, "masks.asc", text)
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	c.Initialize(dir, "en")
	uri := c.Open(path, text, 1)
	first := lsptest.Codes(c.Diagnostics(uri, 1))
	st := c.Server.CacheStats()
	if st == nil {
		t.Fatal("no cache counters in a session with the cache")
	}
	if h, m, p := st.Hits.Load(), st.Misses.Load(), st.Puts.Load(); h != 0 || m != 1 || p != 1 {
		t.Errorf("first analysis: %d hits, %d misses, %d puts; want 0, 1, 1", h, m, p)
	}
	c.Notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.Diagnostics(uri, 0)
	c.Open(path, text, 2)
	if again := lsptest.Codes(c.Diagnostics(uri, 2)); !slices.Equal(again, first) || len(first) == 0 {
		t.Errorf("from the cache: %v, want %v", again, first)
	}
	if h, m, p := st.Hits.Load(), st.Misses.Load(), st.Puts.Load(); h != 1 || m != 1 || p != 1 {
		t.Errorf("opened again: %d hits, %d misses, %d puts; want 1, 1, 1", h, m, p)
	}

	off := lsptest.Start(t, nil, lsp.Options{NoCache: true})
	off.Initialize(dir, "en")
	if st := off.Server.CacheStats(); st != nil {
		t.Errorf("a session without the cache has counters %+v", st)
	}
}

// TestLSPNewError: New refuses analyzers that do not take the input
// limits, naming the analyzer and the flag.
func TestLSPNewError(t *testing.T) {
	odd := &analysis.Analyzer{Name: "odd", Doc: "takes no depth", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	odd.Flags.Func("max-depth", "a depth it does not take", func(string) error { return errors.New("no depth here") })
	if _, err := lsp.New(&lsp.Options{}, append(all.Analyzers(), odd), io.Discard); err == nil || !strings.Contains(err.Error(), "odd -max-depth") || !strings.Contains(err.Error(), "no depth here") {
		t.Errorf("New with an analyzer refusing -max-depth: %v", err)
	}
}

// TestLSPSegments: the server cuts big files into pieces when it has CPUs
// to parse them on, and keeps the parser's defaults on one CPU.
func TestLSPSegments(t *testing.T) {
	if lo, size := lsp.Segments(1); lo != 1<<20 || size != 256<<10 {
		t.Errorf("Segments(1) = %d, %d; want the defaults 1 MiB, 256 KiB", lo, size)
	}
	for _, cpus := range []int{2, 64} {
		if lo, size := lsp.Segments(cpus); lo != 32<<10 || size != 12<<10 {
			t.Errorf("Segments(%d) = %d, %d; want 32 KiB, 12 KiB", cpus, lo, size)
		}
	}
}

// TestServerDefines: ascvet lsp -D hands its build macros to the parser,
// as the command line's -D does (the cppir analyzer's define flag, part of
// the result cache's key); a server without -D clears them.
func TestServerDefines(t *testing.T) {
	define := cppir.Analyzer.Flags.Lookup("define")
	if define == nil {
		t.Fatal("cppir has no define flag")
	}
	if _, err := lsp.New(&lsp.Options{NoCache: true, Defines: "BUILD_MODE=0;TILE=8"}, all.Analyzers(), io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := define.Value.String(); got != "BUILD_MODE=0;TILE=8" {
		t.Errorf("define flag %q after -D BUILD_MODE=0 -D TILE=8", got)
	}
	if _, err := lsp.New(&lsp.Options{NoCache: true}, all.Analyzers(), io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := define.Value.String(); got != "" {
		t.Errorf("define flag %q after a server without -D", got)
	}
}

// TestLSPConfigDefines: the build macros of the workspace's ascvet.toml
// are the server's, under its -D, once it is initialised with the root.
func TestLSPConfigDefines(t *testing.T) {
	define := cppir.Analyzer.Flags.Lookup("define")
	dir := t.TempDir()
	testfs.Put(t, dir, "ascvet.toml", "defines = [\"BUILD_MODE=1\", \"TILE=8\"]\n")
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true, Defines: "TILE=16"})
	c.Initialize(dir, "en")
	if got := define.Value.String(); got != "BUILD_MODE=1;TILE=16" {
		t.Errorf("define flag %q, want the configuration's BUILD_MODE=1 and -D's TILE=16", got)
	}
}
