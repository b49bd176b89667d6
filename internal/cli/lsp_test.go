package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/lsp"
	"github.com/ascvet/ascvet/internal/lsp/lsptest"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/internal/vfgen"
)

// TestLSPSharesCache: the server and the command line share the result
// cache, whether the file is named relatively (the command line, from the
// repository) or absolutely (the server): a buffer that matches a file the
// command line checked is answered from the cache, unless its findings
// carry fixes (code actions write them: they are made afresh), and the
// command line finds what the server analysed of a saved buffer. An
// unsaved buffer's analysis is not stored.
func TestLSPSharesCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ASCVET_CACHE", t.TempDir())
	text := testfs.Kernel(t, "unaligned_copy.asc")
	k := filepath.Join(dir, "k.asc")
	r := filepath.Join(dir, "r.asc")
	for p, s := range map[string]string{k: text, r: vfgen.RowsKernel, filepath.Join(dir, "rows.h"): "constexpr uint32_t ROW = 68;\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var cli resultcache.Counters
	withCacheStats(&cli, func() { ascvet(t, "-fail", "none", "k.asc", "r.asc") })
	if cli.Misses.Load() != 2 {
		t.Fatalf("command line: %d files analysed, want 2", cli.Misses.Load())
	}
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	c.Initialize(dir, "en")
	ruri := c.Open(r, vfgen.RowsKernel, 1)
	if got := lsptest.Codes(c.Diagnostics(ruri, 1)); !slices.Equal(got, []string{"ASC2001"}) {
		t.Errorf("diagnostics from the cache: %v", got)
	}
	if h, m := c.Server.CacheStats().Hits.Load(), c.Server.CacheStats().Misses.Load(); h != 1 || m != 0 {
		t.Errorf("server: %d hits, %d misses; want the command line's entry", h, m)
	}
	uri := c.Open(k, text, 1)
	if got := lsptest.Codes(c.Diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("diagnostics of the file with fixes: %v", got)
	}
	if h, m := c.Server.CacheStats().Hits.Load(), c.Server.CacheStats().Misses.Load(); h != 1 || m != 1 {
		t.Errorf("server: %d hits, %d misses; want the file with fixes analysed afresh", h, m)
	}
	puts := c.Server.CacheStats().Puts.Load()
	// An unsaved change is analysed but not stored; once saved, it is.
	edited := strings.Replace(text, "scale, all);", "scale, all); // scaled", 1)
	c.Change(uri, edited, 2)
	c.Diagnostics(uri, 2)
	if n := c.Server.CacheStats().Puts.Load() - puts; n != 0 {
		t.Errorf("an unsaved buffer stored %d entries, want none", n)
	}
	if err := os.WriteFile(k, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.Diagnostics(uri, 2)
	if n := c.Server.CacheStats().Puts.Load() - puts; n != 1 {
		t.Errorf("the saved buffer stored %d entries, want 1", n)
	}
	cli = resultcache.Counters{}
	var out string
	withCacheStats(&cli, func() { _, out, _ = ascvet(t, "-fail", "none", "k.asc") })
	if cli.Misses.Load() != 0 || cli.Hits.Load() != 1 {
		t.Errorf("command line after the server analysed the buffer: %d hits, %d misses; want the server's entry", cli.Hits.Load(), cli.Misses.Load())
	}
	if !strings.Contains(out, "k.asc:17:9: warning:") {
		t.Errorf("command line output from the server's entry:\n%s", out)
	}
}

// TestLSPCorpus compares, when ASCVET_CORPUS names a tree of kernels (the
// public CANN repositories), the server's diagnostics for every tenth
// VF file with the command line's findings for it: rule, line and column.
//
//	ASCVET_CORPUS=/work/corpus go test ./internal/cli -run LSPCorpus
func TestLSPCorpus(t *testing.T) {
	dir := os.Getenv("ASCVET_CORPUS")
	if dir == "" {
		t.Skip("ASCVET_CORPUS is not set")
	}
	var sample []string
	n := 0
	for _, p := range source.Expand([]string{dir}, func(string, error) {}) {
		src, err := os.ReadFile(p)
		if err != nil || !cppfront.HasVFMarker(src) {
			continue
		}
		if n++; n%10 == 0 {
			sample = append(sample, p)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, nil, lsp.Options{NoCache: true})
	c.Initialize(abs, "en")
	diffs, total := 0, 0
	for i, p := range sample {
		_, out, _ := ascvet(t, "-f", "json", "-fail", "none", "-cache", "off", p)
		var rep struct {
			Findings []struct {
				Rule         string
				Line, Column int
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var want []string
		for _, f := range rep.Findings {
			want = append(want, fmt.Sprintf("%s@%d", f.Rule, f.Line))
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ap, _ := filepath.Abs(p)
		uri := c.Open(ap, string(src), int32(i+1))
		var got []string
		for _, d := range c.Diagnostics(uri, int32(i+1)) {
			got = append(got, fmt.Sprintf("%s@%d", d.Code, d.Range.Start.Line+1))
		}
		c.Notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
		c.Diagnostics(uri, 0)
		total += len(want)
		if !slices.Equal(got, want) {
			diffs++
			t.Errorf("%s: server %v, command line %v", p, got, want)
		}
	}
	t.Logf("%d files, %d findings, %d files differ", len(sample), total, diffs)
}

// TestLSPConfigBaseline: the server reads ascvet.toml from the file up,
// as the command line does (rules, severities), and drops what the
// baseline (-baseline) holds.
func TestLSPConfigBaseline(t *testing.T) {
	dir := t.TempDir()
	text := testfs.Kernel(t, "unaligned_copy.asc")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "ascvet.toml"), "[severity]\nASC1001 = \"error\"\n")
	write(filepath.Join(dir, "quiet", "ascvet.toml"), "checks = [\"inherit\", \"-ASC1002\"]\n")
	a, b := filepath.Join(dir, "a.asc"), filepath.Join(dir, "quiet", "b.asc")
	write(a, text)
	write(b, text)
	base := filepath.Join(dir, "base.json")
	t.Chdir(dir)
	if code, _, errs := ascvet(t, "-write-baseline", base, "a.asc"); code != exitOK {
		t.Fatalf("-write-baseline: exit %d: %s", code, errs)
	}
	plain := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	plain.Initialize(dir, "en")
	ds := plain.Diagnostics(plain.Open(a, text, 1), 1)
	if d := lsptest.Find(t, ds, "ASC1001"); d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("ASC1001 severity %v, want error from ascvet.toml", d.Severity)
	}
	if got := lsptest.Codes(plain.Diagnostics(plain.Open(b, text, 1), 1)); !slices.Equal(got, []string{"ASC1001"}) {
		t.Errorf("quiet/b.asc: %v, want ASC1002 disabled by quiet/ascvet.toml", got)
	}
	based := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, Baseline: base})
	based.Initialize(dir, "en")
	if ds := based.Diagnostics(based.Open(a, text, 1), 1); len(ds) != 0 {
		t.Errorf("with the baseline: %v, want none", lsptest.Codes(ds))
	}
	// A finding the baseline does not hold is reported, as the command
	// line reports it.
	changed := strings.Replace(text, "LoadUnAlignPre(uIn, src + i * VL)", "LoadUnAlignPre(uIn, src + VL * i)", 1)
	uri := lsp.PathURI(a)
	based.Change(uri, changed, 2)
	got := lsptest.Codes(based.Diagnostics(uri, 2))
	write(a, changed)
	_, out, _ := ascvet(t, "-f", "json", "-fail", "none", "-baseline", base, "a.asc")
	var rep struct{ Findings []struct{ Rule string } }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range rep.Findings {
		want = append(want, f.Rule)
	}
	if !slices.Equal(want, []string{"ASC1001"}) || !slices.Equal(got, want) {
		t.Errorf("a new finding beside the baseline's: server %v, command line %v", got, want)
	}
}

// TestLSPProcess runs the built binary as an editor does, with the
// --stdio that VS Code's client adds: a session ends with exit code 0
// after shutdown, 1 without.
func TestLSPProcess(t *testing.T) {
	bin := filepath.Join(buildAscvet(t), "ascvet")
	dir := t.TempDir()
	for _, polite := range []bool{true, false} {
		cmd := exec.Command(bin, "lsp", "--stdio", "-cache", "off")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c := lsptest.Dial(t, processPipe{stdout, stdin})
		c.Initialize(dir, "en")
		uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 7)
		if got := lsptest.Codes(c.Diagnostics(uri, 7)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
			t.Errorf("diagnostics %v", got)
		}
		if polite {
			c.Call(protocol.MethodShutdown, nil, nil)
		}
		c.Notify(protocol.MethodExit, nil)
		err = cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if want := map[bool]int{true: 0, false: 1}[polite]; code != want {
			t.Errorf("shutdown %v: exit %d (%v), want %d; stderr %q", polite, code, err, want, stderr.String())
		}
	}
}

// processPipe is a child's stdout and stdin as one stream.
type processPipe struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p processPipe) Write(b []byte) (int, error) { return p.w.Write(b) }

func (p processPipe) Close() error {
	p.w.Close()
	return p.ReadCloser.Close()
}

// TestLSPExitStdinOpen: the exit notification ends the session while the
// client keeps the server's stdin open, as Neovim does: it sends shutdown
// and exit, then waits for the process to end. The server reads a stream
// whose Close cannot interrupt the read, as stdin's.
func TestLSPExitStdinOpen(t *testing.T) {
	srv, err := lsp.New(&lsp.Options{NoCache: true}, analyzers(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()   // the server's stdin
	outR, outW := io.Pipe() // its stdout
	t.Cleanup(func() { inW.Close(); outR.Close() })
	exit := make(chan int, 1)
	go func() { exit <- srv.Serve(context.Background(), stdio{inR, outW}) }()
	client := jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{outR, inW}))
	client.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, _ jsonrpc2.Request) error {
		return reply(ctx, nil, nil)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res protocol.InitializeResult
	if _, err := client.Call(ctx, protocol.MethodInitialize, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(lsp.PathURI(t.TempDir())), Name: "w"}}}, &res); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Call(ctx, protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := client.Notify(ctx, protocol.MethodExit, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d after shutdown, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end its session on exit while its stdin stayed open")
	}
}
