package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
)

// lspClient is the test's end of an in-process ascvet lsp session.
type lspClient struct {
	t     testing.TB
	conn  jsonrpc2.Conn
	srv   *lspServer
	diags chan publishParams
	mu    sync.Mutex
	logs  []string
	calls []jsonrpc2.Request // requests from the server
	exit  chan int
}

// startLSP starts a server with analyzers as (nil: every rule) and
// options opts, connected to a client through a pipe.
func startLSP(t testing.TB, as []*analysis.Analyzer, opts lspOptions) *lspClient {
	t.Helper()
	if as == nil {
		as = analyzers()
	}
	if opts.cache == "" {
		opts.cache = "on"
	}
	srv, err := newLSPServer(&opts, as, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	a, b := net.Pipe()
	c := dialLSP(t, a)
	c.srv = srv
	served := make(chan struct{})
	go func() {
		defer close(served)
		c.exit <- srv.serve(context.Background(), b)
	}()
	// The server and every analysis it started end with the test, before
	// what the test changed (segment sizes, the index) is put back.
	t.Cleanup(func() {
		c.conn.Close()
		select {
		case <-served:
		case <-time.After(time.Minute):
			t.Error("the server did not end within a minute of its connection closing")
		}
	})
	return c
}

// useLSPSegments makes the parses until the end of t cut files as the
// server cuts them on this machine. Registered before startLSP, the sizes
// are put back after the server and its analyses ended.
func useLSPSegments(t testing.TB) {
	oldMin, oldSize := cppfront.SetSegments(lspSegments(runtime.NumCPU()))
	t.Cleanup(func() { cppfront.SetSegments(oldMin, oldSize) })
}

// dialLSP makes the client end of a session on rwc.
func dialLSP(t testing.TB, rwc io.ReadWriteCloser) *lspClient {
	c := &lspClient{t: t, diags: make(chan publishParams, 64), exit: make(chan int, 1)}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case protocol.MethodTextDocumentPublishDiagnostics:
			var p publishParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.diags <- p
		case protocol.MethodWindowLogMessage:
			var p protocol.LogMessageParams
			_ = json.Unmarshal(req.Params(), &p)
			c.mu.Lock()
			c.logs = append(c.logs, p.Message)
			c.mu.Unlock()
		}
		if _, call := req.(*jsonrpc2.Call); call {
			c.mu.Lock()
			c.calls = append(c.calls, req)
			c.mu.Unlock()
			return reply(ctx, nil, nil)
		}
		return nil
	})
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// session starts a server with every rule and a 5 ms debounce on a new
// workspace folder, initialized in locale; it returns the client and the
// folder.
func session(t *testing.T, locale string) (*lspClient, string) {
	t.Helper()
	dir := t.TempDir()
	c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	c.initialize(dir, locale)
	return c, dir
}

func (c *lspClient) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *lspClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *lspClient) initialize(root, locale string) *protocol.InitializeResult {
	c.t.Helper()
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(pathURI(root)), Name: "w"}}, Locale: locale}, &res)
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	return &res
}

// diagnostics waits for the diagnostics of uri at version (any version
// when version is 0).
func (c *lspClient) diagnostics(uri protocol.DocumentURI, version int32) []protocol.Diagnostic {
	c.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri && (version == 0 || p.Version != nil && *p.Version == version) {
				return p.Diagnostics
			}
		case <-timeout:
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

func (c *lspClient) open(path, text string, version int32) protocol.DocumentURI {
	c.t.Helper()
	uri := pathURI(path)
	lang := "cpp"
	if strings.HasSuffix(path, ".py") {
		lang = "python"
	}
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: protocol.LanguageIdentifier(lang), Version: version, Text: text}})
	return uri
}

func (c *lspClient) change(uri protocol.DocumentURI, text string, version int32) {
	c.t.Helper()
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
	})
}

func (c *lspClient) codeActions(uri protocol.DocumentURI, r protocol.Range) []protocol.CodeAction {
	c.t.Helper()
	var out []protocol.CodeAction
	c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: r}, &out)
	return out
}

func (c *lspClient) hover(uri protocol.DocumentURI, line, char uint32) string {
	c.t.Helper()
	var h *protocol.Hover
	c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: line, Character: char}}}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

func (c *lspClient) shutdown() int {
	c.t.Helper()
	c.call(protocol.MethodShutdown, nil, nil)
	c.notify(protocol.MethodExit, nil)
	select {
	case code := <-c.exit:
		return code
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit")
	}
	return -1
}

// applyEdits applies LSP text edits (UTF-16 positions) to text.
func applyEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	t.Helper()
	offset := func(p protocol.Position) int {
		lines := strings.SplitAfter(text, "\n")
		off := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			off += len(lines[i])
		}
		if int(p.Line) >= len(lines) {
			return len(text)
		}
		units := 0
		for i, r := range lines[p.Line] {
			if units >= int(p.Character) {
				return off + i
			}
			units += len(utf16.Encode([]rune{r}))
		}
		return off + len(strings.TrimSuffix(lines[p.Line], "\n"))
	}
	sorted := slices.Clone(edits)
	slices.SortFunc(sorted, func(a, b protocol.TextEdit) int { return offset(b.Range.Start) - offset(a.Range.Start) })
	for _, e := range sorted {
		s, en := offset(e.Range.Start), offset(e.Range.End)
		text = text[:s] + e.NewText + text[en:]
	}
	return text
}

func diagCodes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code.(string))
	}
	return out
}

func findDiag(t *testing.T, ds []protocol.Diagnostic, code string) protocol.Diagnostic {
	t.Helper()
	for _, d := range ds {
		if d.Code == code {
			return d
		}
	}
	t.Fatalf("no %s among %v", code, diagCodes(ds))
	return protocol.Diagnostic{}
}

func readKernel(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../testdata/kernels", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLSPSession drives a session through the protocol: diagnostics on
// open and change, a fix and a suppression as code actions, hovers on a
// finding and on a loop, shutdown and exit.
func TestLSPSession(t *testing.T) {
	dir := t.TempDir()
	c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	res := c.initialize(dir, "en-US")
	if res.Capabilities.HoverProvider != true || res.Capabilities.CodeActionProvider == nil || res.ServerInfo == nil || res.ServerInfo.Name != "ascvet" {
		t.Fatalf("capabilities %+v", res)
	}
	path := filepath.Join(dir, "k.asc")
	text := readKernel(t, "unaligned_copy.asc")
	uri := c.open(path, text, 1)
	ds := c.diagnostics(uri, 1)
	if got := diagCodes(ds); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Fatalf("diagnostics %v, want ASC1001 ASC1002", got)
	}
	pre := findDiag(t, ds, "ASC1001")
	if pre.Range.Start != (protocol.Position{Line: 16, Character: 8}) || pre.Range.End != (protocol.Position{Line: 16, Character: 55}) {
		t.Errorf("ASC1001 range %+v, want 16:8-16:55", pre.Range)
	}
	if pre.Severity != protocol.DiagnosticSeverityWarning || pre.Source != "ascvet" || !strings.Contains(pre.Message, "hoist it before the loop") {
		t.Errorf("ASC1001 diagnostic %+v", pre)
	}
	if pre.CodeDescription == nil || !strings.HasSuffix(string(pre.CodeDescription.Href), "docs/rules.md#asc1001") {
		t.Errorf("ASC1001 codeDescription %+v, want the rule's docs", pre.CodeDescription)
	}

	// The hoist, as a quick fix.
	actions := c.codeActions(uri, pre.Range)
	var fix, suppress *protocol.CodeAction
	for i := range actions {
		switch {
		case strings.HasPrefix(actions[i].Title, "Suppress ASC1001"):
			suppress = &actions[i]
		case strings.Contains(actions[i].Title, "(ASC1001)"):
			fix = &actions[i]
		}
	}
	if fix == nil || suppress == nil || fix.Edit == nil || suppress.Edit == nil {
		t.Fatalf("code actions %+v: want the ASC1001 fix and its suppression", actions)
	}
	if fix.Kind != protocol.QuickFix || len(fix.Diagnostics) != 1 || fix.Diagnostics[0].Code != "ASC1001" {
		t.Errorf("fix action %+v", fix)
	}
	fixed := applyEdits(t, text, fix.Edit.Changes[uri])
	if !strings.Contains(fixed, "    AscendC::Reg::LoadUnAlignPre(uIn, src);\n    for (") || strings.Contains(fixed, "LoadUnAlignPre(uIn, src + i * VL)") {
		t.Fatalf("the fix did not hoist the Pre:\n%s", fixed)
	}
	c.change(uri, fixed, 2)
	ds = c.diagnostics(uri, 2)
	if got := diagCodes(ds); !slices.Equal(got, []string{"ASC1002"}) {
		t.Fatalf("after the fix: %v, want ASC1002 alone", got)
	}

	// Hover on the finding: the rule, the simulated cycles.
	post := ds[0]
	h := c.hover(uri, post.Range.Start.Line, post.Range.Start.Character+3)
	for _, want := range []string{"**ASC1002**", "Simulated (loop):", "cycles before the fix", "over 16 iterations (the trip count does not fold: the -iterations setting)", "StoreUnAlignPost"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on ASC1002 lacks %q:\n%s", want, h)
		}
	}
	// Hover on the loop's first line: the simulation in one line.
	loopLine := uint32(strings.Count(fixed[:strings.Index(fixed, "    for (")], "\n"))
	if h := c.hover(uri, loopLine, 6); !strings.Contains(h, "**ascvet sim**:") || !strings.Contains(h, "cycles/iteration, IPC") || !strings.Contains(h, "critical chain") {
		t.Errorf("hover on the loop: %q", h)
	}
	if h := c.hover(uri, 0, 0); h != "" {
		t.Errorf("hover on a comment: %q, want none", h)
	}

	// Suppress the rest, with a reason to fill in.
	actions = c.codeActions(uri, post.Range)
	suppress = nil
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, "Suppress ASC1002") {
			suppress = &actions[i]
		}
	}
	if suppress == nil {
		t.Fatalf("no suppression for ASC1002 among %+v", actions)
	}
	quiet := applyEdits(t, fixed, suppress.Edit.Changes[uri])
	if want := "        // ascvet:ignore ASC1002 " + ignoreReason + "\n        AscendC::Reg::StoreUnAlignPost"; !strings.Contains(quiet, want) {
		t.Fatalf("suppression inserted:\n%s\nwant a line %q", quiet, want)
	}
	// The placeholder is no reason: the directive suppresses nothing and
	// says so, until the author writes theirs.
	c.change(uri, quiet, 3)
	if got := diagCodes(c.diagnostics(uri, 3)); !slices.Equal(got, []string{"ASC0002", "ASC1002"}) {
		t.Errorf("after the suppression with its placeholder: %v, want ASC0002 ASC1002", got)
	}
	quiet = strings.Replace(quiet, ignoreReason, "the tail is flushed by the caller", 1)
	c.change(uri, quiet, 4)
	if ds := c.diagnostics(uri, 4); len(ds) != 0 {
		t.Errorf("after the suppression with a reason: %v, want none", diagCodes(ds))
	}
	c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if ds := c.diagnostics(uri, 0); len(ds) != 0 {
		t.Errorf("on close: %v, want the diagnostics cleared", diagCodes(ds))
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit %d after shutdown, want 0", code)
	}
}

// TestLSPSuppressSnippet: a client that takes snippets in edits (LSP
// 3.18's snippetEditSupport, or the experimental snippetTextEdit) gets the
// suppression as a snippet whose placeholder is the reason, selected for
// the author to type over.
func TestLSPSuppressSnippet(t *testing.T) {
	for _, caps := range []string{
		`{"workspace": {"workspaceEdit": {"snippetEditSupport": true}}}`,
		`{"experimental": {"snippetTextEdit": true}}`,
	} {
		dir := t.TempDir()
		c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
		var res protocol.InitializeResult
		c.call(protocol.MethodInitialize, json.RawMessage(`{"rootUri": "`+string(pathURI(dir))+`", "capabilities": `+caps+`}`), &res)
		c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
		uri := c.open(filepath.Join(dir, "k.asc"), readKernel(t, "unaligned_copy.asc"), 1)
		post := findDiag(t, c.diagnostics(uri, 1), "ASC1002")
		var actions []struct {
			Title string `json:"title"`
			Edit  struct {
				Changes         map[string]any `json:"changes"`
				DocumentChanges []struct {
					TextDocument struct {
						URI string `json:"uri"`
					} `json:"textDocument"`
					Edits []struct {
						Range   protocol.Range `json:"range"`
						Snippet struct {
							Kind  string `json:"kind"`
							Value string `json:"value"`
						} `json:"snippet"`
					} `json:"edits"`
				} `json:"documentChanges"`
			} `json:"edit"`
		}
		c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: post.Range}, &actions)
		found := false
		for _, a := range actions {
			if !strings.HasPrefix(a.Title, "Suppress ASC1002") {
				continue
			}
			found = true
			dc := a.Edit.DocumentChanges
			if a.Edit.Changes != nil || len(dc) != 1 || dc[0].TextDocument.URI != string(uri) || len(dc[0].Edits) != 1 {
				t.Fatalf("%s: suppression edit %+v, want one snippet edit of the document", caps, a.Edit)
			}
			e := dc[0].Edits[0]
			want := "        // ascvet:ignore ASC1002 ${1:" + ignoreReason + "}\n"
			if e.Snippet.Kind != "snippet" || e.Snippet.Value != want || e.Range.Start != (protocol.Position{Line: 20}) || e.Range.End != e.Range.Start {
				t.Errorf("%s: snippet %+v at %+v, want %q above the Post", caps, e.Snippet, e.Range, want)
			}
		}
		if !found {
			t.Errorf("%s: no suppression among %+v", caps, actions)
		}
	}
	if got := snippetEscape(`a$b}c\d`); got != `a\$b\}c\\d` {
		t.Errorf("snippetEscape = %q", got)
	}
}

// TestLSPChinese: a client in Chinese gets the messages, the actions and
// the hover in Chinese, and the rule links to the Chinese docs.
func TestLSPChinese(t *testing.T) {
	c, dir := session(t, "zh-CN")
	uri := c.open(filepath.Join(dir, "k.asc"), readKernel(t, "unaligned_copy.asc"), 1)
	d := findDiag(t, c.diagnostics(uri, 1), "ASC1002")
	if !strings.Contains(d.Message, "循环") || d.CodeDescription == nil || !strings.Contains(string(d.CodeDescription.Href), "rules.zh.md#asc1002") {
		t.Errorf("Chinese diagnostic %+v", d)
	}
	if h := c.hover(uri, d.Range.Start.Line, d.Range.Start.Character); !strings.Contains(h, "模拟（循环）") {
		t.Errorf("Chinese hover: %q", h)
	}
	found := false
	for _, a := range c.codeActions(uri, d.Range) {
		found = found || strings.HasPrefix(a.Title, "用 ascvet:ignore 抑制 ASC1002")
	}
	if !found {
		t.Error("no Chinese suppression action")
	}
}

// TestLSPRelated: a finding's related locations travel with it.
func TestLSPRelated(t *testing.T) {
	c, dir := session(t, "en")
	text := readKernel(t, "unaligned_bugs.asc")
	uri := c.open(filepath.Join(dir, "bugs.asc"), text, 1)
	ds := c.diagnostics(uri, 1)
	n := 0
	for _, d := range ds {
		for _, r := range d.RelatedInformation {
			n++
			if r.Location.URI != uri || r.Message == "" {
				t.Errorf("%s related %+v", d.Code, r)
			}
		}
	}
	if n == 0 {
		t.Errorf("no related locations among %v", diagCodes(ds))
	}
}

// TestLSPPython: DSL kernels are analysed, and their suppression is a #
// comment.
func TestLSPPython(t *testing.T) {
	c, dir := session(t, "en")
	text := readKernel(t, "scale_rows.py")
	uri := c.open(filepath.Join(dir, "scale_rows.py"), text, 1)
	d := findDiag(t, c.diagnostics(uri, 1), "ASC1001")
	for _, a := range c.codeActions(uri, d.Range) {
		if strings.HasPrefix(a.Title, "Suppress ASC1001") {
			got := applyEdits(t, text, a.Edit.Changes[uri])
			if !strings.Contains(got, "# ascvet:ignore ASC1001 ") {
				t.Errorf("Python suppression:\n%s", got)
			}
			return
		}
	}
	t.Error("no suppression action for the Python finding")
}

// TestLSPPanic: an analyzer that panics is logged to the client, and the
// other analyzers' findings still arrive.
func TestLSPPanic(t *testing.T) {
	boom := &analysis.Analyzer{
		Name:     "boom",
		Doc:      "panics on every file",
		Requires: []*analysis.Analyzer{cppir.Analyzer},
		Run:      func(*analysis.Pass) (any, error) { panic("boom") },
	}
	dir := t.TempDir()
	c := startLSP(t, append(analyzers(), boom), lspOptions{debounce: 5 * time.Millisecond, cache: "off"})
	c.initialize(dir, "en")
	uri := c.open(filepath.Join(dir, "k.asc"), readKernel(t, "unaligned_copy.asc"), 1)
	if got := diagCodes(c.diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("with a panicking analyzer: %v, want ASC1001 ASC1002", got)
	}
	c.mu.Lock()
	logs := strings.Join(c.logs, "\n")
	c.mu.Unlock()
	if !strings.Contains(logs, "internal error in analyzer boom: panic: boom") {
		t.Errorf("client log %q lacks the panic", logs)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestLSPHeaderSaved: a header saved has the open files whose analysis
// read it analysed again, and no other.
func TestLSPHeaderSaved(t *testing.T) {
	dir := t.TempDir()
	rows := filepath.Join(dir, "rows.h")
	if err := os.WriteFile(rows, []byte("constexpr uint32_t ROW = 68;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	var mu sync.Mutex
	count := map[string]int{}
	c.srv.analysed = func(path string, _ int32) {
		mu.Lock()
		count[filepath.Base(path)]++
		mu.Unlock()
	}
	c.initialize(dir, "en")
	uses := c.open(filepath.Join(dir, "uses.asc"), cacheKernel, 1)
	if got := diagCodes(c.diagnostics(uses, 1)); !slices.Contains(got, "ASC2001") {
		t.Fatalf("uses.asc: %v, want ASC2001 from rows.h's stride", got)
	}
	other := c.open(filepath.Join(dir, "other.asc"), readKernel(t, "unaligned_copy.asc"), 1)
	c.diagnostics(other, 1)
	if err := os.WriteFile(rows, []byte("constexpr uint32_t ROW = 64; // aligned now\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(rows)}})
	if got := diagCodes(c.diagnostics(uses, 1)); slices.Contains(got, "ASC2001") {
		t.Errorf("uses.asc after rows.h was saved aligned: %v", got)
	}
	time.Sleep(50 * time.Millisecond) // room for a wrong analysis of other.asc to show
	mu.Lock()
	defer mu.Unlock()
	if count["uses.asc"] != 2 || count["other.asc"] != 1 {
		t.Errorf("analyses %v, want uses.asc twice, other.asc once", count)
	}
}

// TestLSPHeaderCreated: a header created, where an open file's include
// found nothing or nearer than what it found, has that file analysed
// again (reported saved, or created on disk through the file watchers).
func TestLSPHeaderCreated(t *testing.T) {
	dir := t.TempDir()
	op := filepath.Join(dir, "op")
	if err := os.MkdirAll(filepath.Join(dir, "include"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(op, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "include", "rows.h"), []byte("constexpr uint32_t ROW = 64;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	c.initialize(dir, "en")
	uses := c.open(filepath.Join(op, "uses.asc"), cacheKernel, 1)
	if got := diagCodes(c.diagnostics(uses, 1)); slices.Contains(got, "ASC2001") {
		t.Fatalf("uses.asc: %v, want no ASC2001 (include/rows.h's stride is aligned)", got)
	}
	missing := c.open(filepath.Join(op, "missing.asc"), strings.Replace(cacheKernel, `"rows.h"`, `"later.h"`, 1), 1)
	if got := diagCodes(c.diagnostics(missing, 1)); slices.Contains(got, "ASC2001") {
		t.Fatalf("missing.asc: %v, want no ASC2001 (no header gives ROW)", got)
	}
	near := filepath.Join(op, "rows.h")
	if err := os.WriteFile(near, []byte("constexpr uint32_t ROW = 68;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: pathURI(near)}})
	if got := diagCodes(c.diagnostics(uses, 1)); !slices.Contains(got, "ASC2001") {
		t.Errorf("uses.asc after op/rows.h was created: %v, want ASC2001 from its stride", got)
	}
	later := filepath.Join(op, "later.h")
	if err := os.WriteFile(later, []byte("constexpr uint32_t ROW = 68;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathURI(later), Type: protocol.FileChangeTypeCreated}}})
	if got := diagCodes(c.diagnostics(missing, 1)); !slices.Contains(got, "ASC2001") {
		t.Errorf("missing.asc after later.h was created: %v, want ASC2001 from its stride", got)
	}
}

// TestLSPDebounce: a burst of changes is analysed once, at its last
// version.
func TestLSPDebounce(t *testing.T) {
	dir := t.TempDir()
	c := startLSP(t, nil, lspOptions{debounce: 200 * time.Millisecond})
	var mu sync.Mutex
	var versions []int32
	c.srv.analysed = func(_ string, v int32) {
		mu.Lock()
		versions = append(versions, v)
		mu.Unlock()
	}
	c.initialize(dir, "en")
	text := readKernel(t, "unaligned_copy.asc")
	uri := c.open(filepath.Join(dir, "k.asc"), text, 1)
	c.diagnostics(uri, 1)
	for v := int32(2); v <= 6; v++ {
		c.change(uri, text+strings.Repeat("\n", int(v)), v)
	}
	c.diagnostics(uri, 6)
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(versions, []int32{1, 6}) {
		t.Errorf("analysed versions %v, want [1 6]", versions)
	}
}

// TestLSPStopsStale: a big buffer changed while it is analysed has the
// analysis of the old text stopped where it is, in its parse (issue 33: each
// one ran to the end, and a 10 MiB buffer changed three times took 36 s
// and 2.8 GB); only the last version is published, with the diagnostics of
// the text analysed alone. A probe analyzer after the parse counts the
// analyses that got past it: one per version that was not overtaken.
func TestLSPStopsStale(t *testing.T) {
	useLSPSegments(t)
	text := string(genHugeVF(2 << 20))
	var mu sync.Mutex
	probed := map[string]int{} // the text's last edit ("" for none): analyses that got past the parse
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "count the analyses that got past the parse",
		Requires: []*analysis.Analyzer{cppir.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			src, _ := pass.ReadFile(pass.OtherFiles[0])
			edit := ""
			if i := strings.LastIndex(string(src), "// edit "); i >= 0 {
				edit = strings.TrimSpace(string(src[i:]))
			}
			mu.Lock()
			probed[edit]++
			mu.Unlock()
			return nil, nil
		},
	}
	c := startLSP(t, append(analyzers(), probe), lspOptions{debounce: 5 * time.Millisecond, cache: "off"})
	var stopped int
	var published []int32
	c.srv.stopped = func(path string) {
		mu.Lock()
		defer mu.Unlock()
		if filepath.Base(path) == "k.asc" {
			stopped++
		}
	}
	c.srv.analysed = func(path string, v int32) {
		mu.Lock()
		defer mu.Unlock()
		if filepath.Base(path) == "k.asc" {
			published = append(published, v)
		}
	}
	dir := t.TempDir()
	c.initialize(dir, "en")
	ref := c.open(filepath.Join(dir, "ref.asc"), text, 1)
	want := c.diagnostics(ref, 1)
	if len(want) < 100 {
		t.Fatalf("%d diagnostics in the generated file, want many", len(want))
	}

	k := filepath.Join(dir, "k.asc")
	edit := func(v int32) string { return fmt.Sprintf("%s// edit %d\n", text, v) }
	uri := c.open(k, edit(1), 1)
	for v := int32(2); v <= 4; v++ {
		c.waitAnalysing(k, v-1)
		c.change(uri, edit(v), v)
	}
	got := c.diagnostics(uri, 4)
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if string(gj) != strings.ReplaceAll(string(wj), string(ref), string(uri)) { // related locations name the document
		t.Errorf("version 4: %d diagnostics, want the %d of the text analysed alone", len(got), len(want))
	}
	mu.Lock()
	defer mu.Unlock()
	if stopped != 3 || !slices.Equal(published, []int32{4}) {
		t.Errorf("%d analyses stopped, versions %v published; want 3 stopped, [4] published", stopped, published)
	}
	for v := 1; v <= 4; v++ {
		n, wantN := probed[fmt.Sprintf("// edit %d", v)], 0
		if v == 4 {
			wantN = 1
		}
		if n != wantN {
			t.Errorf("version %d got past the parse %d times, want %d", v, n, wantN)
		}
	}
}

// waitAnalysing waits until the analysis of version of the document at
// path is under way: the server has taken the change and its analysis
// has a stop flag.
func (c *lspClient) waitAnalysing(path string, version int32) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c.srv.mu.Lock()
		d := c.srv.docs[path]
		on := d != nil && d.version == version && d.stop != nil
		c.srv.mu.Unlock()
		if on {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("version %d of %s is not being analysed", version, path)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestLSPEndsItsAnalyses: when the connection closes while a document is
// analysed, serve stops the analysis and returns only once it ended, and
// nothing of it is published.
func TestLSPEndsItsAnalyses(t *testing.T) {
	useLSPSegments(t)
	var ran atomic.Int32 // analyses that got past the parse and are still in it
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "note analyses still running once serve returned",
		Requires: []*analysis.Analyzer{cppir.Analyzer},
		Run: func(*analysis.Pass) (any, error) {
			ran.Add(1)
			return nil, nil
		},
	}
	c := startLSP(t, append(analyzers(), probe), lspOptions{debounce: time.Millisecond, cache: "off"})
	var stopped atomic.Int32
	c.srv.stopped = func(string) { stopped.Add(1) }
	dir := t.TempDir()
	c.initialize(dir, "en")
	k := filepath.Join(dir, "k.asc")
	c.open(k, string(genHugeVF(2<<20)), 1)
	c.waitAnalysing(k, 1)
	c.conn.Close()
	select {
	case <-c.exit:
	case <-time.After(time.Minute):
		t.Fatal("serve did not return within a minute of the connection closing")
	}
	c.srv.mu.Lock()
	active := c.srv.active
	c.srv.mu.Unlock()
	if active != 0 {
		t.Errorf("%d analyses still under way once serve returned", active)
	}
	if stopped.Load()+ran.Load() == 0 {
		t.Error("the analysis under way neither stopped nor ended")
	}
	n := ran.Load()
	time.Sleep(50 * time.Millisecond)
	if ran.Load() != n {
		t.Error("an analysis ran past the parse after serve returned")
	}
}

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
	text := readKernel(t, "unaligned_copy.asc")
	k := filepath.Join(dir, "k.asc")
	r := filepath.Join(dir, "r.asc")
	for p, s := range map[string]string{k: text, r: cacheKernel, filepath.Join(dir, "rows.h"): "constexpr uint32_t ROW = 68;\n"} {
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
	c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	c.initialize(dir, "en")
	ruri := c.open(r, cacheKernel, 1)
	if got := diagCodes(c.diagnostics(ruri, 1)); !slices.Equal(got, []string{"ASC2001"}) {
		t.Errorf("diagnostics from the cache: %v", got)
	}
	if h, m := c.srv.cache.Stats().Hits.Load(), c.srv.cache.Stats().Misses.Load(); h != 1 || m != 0 {
		t.Errorf("server: %d hits, %d misses; want the command line's entry", h, m)
	}
	uri := c.open(k, text, 1)
	if got := diagCodes(c.diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("diagnostics of the file with fixes: %v", got)
	}
	if h, m := c.srv.cache.Stats().Hits.Load(), c.srv.cache.Stats().Misses.Load(); h != 1 || m != 1 {
		t.Errorf("server: %d hits, %d misses; want the file with fixes analysed afresh", h, m)
	}
	puts := c.srv.cache.Stats().Puts.Load()
	// An unsaved change is analysed but not stored; once saved, it is.
	edited := strings.Replace(text, "scale, all);", "scale, all); // scaled", 1)
	c.change(uri, edited, 2)
	c.diagnostics(uri, 2)
	if n := c.srv.cache.Stats().Puts.Load() - puts; n != 0 {
		t.Errorf("an unsaved buffer stored %d entries, want none", n)
	}
	if err := os.WriteFile(k, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.diagnostics(uri, 2)
	if n := c.srv.cache.Stats().Puts.Load() - puts; n != 1 {
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
//	ASCVET_CORPUS=/work/corpus go test ./cmd/ascvet -run LSPCorpus
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
	c := startLSP(t, nil, lspOptions{cache: "off"})
	c.initialize(abs, "en")
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
		uri := c.open(ap, string(src), int32(i+1))
		var got []string
		for _, d := range c.diagnostics(uri, int32(i+1)) {
			got = append(got, fmt.Sprintf("%s@%d", d.Code, d.Range.Start.Line+1))
		}
		c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
		c.diagnostics(uri, 0)
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
	text := readKernel(t, "unaligned_copy.asc")
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
	plain := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	plain.initialize(dir, "en")
	ds := plain.diagnostics(plain.open(a, text, 1), 1)
	if d := findDiag(t, ds, "ASC1001"); d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("ASC1001 severity %v, want error from ascvet.toml", d.Severity)
	}
	if got := diagCodes(plain.diagnostics(plain.open(b, text, 1), 1)); !slices.Equal(got, []string{"ASC1001"}) {
		t.Errorf("quiet/b.asc: %v, want ASC1002 disabled by quiet/ascvet.toml", got)
	}
	based := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond, baseline: base})
	based.initialize(dir, "en")
	if ds := based.diagnostics(based.open(a, text, 1), 1); len(ds) != 0 {
		t.Errorf("with the baseline: %v, want none", diagCodes(ds))
	}
	// A finding the baseline does not hold is reported, as the command
	// line reports it.
	changed := strings.Replace(text, "LoadUnAlignPre(uIn, src + i * VL)", "LoadUnAlignPre(uIn, src + VL * i)", 1)
	uri := pathURI(a)
	based.change(uri, changed, 2)
	got := diagCodes(based.diagnostics(uri, 2))
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

// TestLSPHostile: a binary buffer and one over the size limit get the
// command line's message in the client's log and no diagnostics; the
// server goes on with the next file. (A buffer is never UTF-16 here: the
// editor decodes the file, and LSP carries text.)
func TestLSPHostile(t *testing.T) {
	c, dir := session(t, "en")
	huge := "// __simd_vf__\n" + strings.Repeat("int x;\n", int(source.DefaultMaxFileSize/7)+1)
	cases := map[string]string{
		"bin.asc":  "__simd_vf__ \x00\x01\x02\xff\xfe garbage \x00",
		"huge.asc": huge,
	}
	for name, text := range cases {
		uri := c.open(filepath.Join(dir, name), text, 1)
		if ds := c.diagnostics(uri, 1); len(ds) != 0 {
			t.Errorf("%s: %v, want none", name, diagCodes(ds))
		}
	}
	c.mu.Lock()
	logs := strings.Join(c.logs, "\n")
	c.mu.Unlock()
	for _, want := range []string{"bin.asc: binary file", "huge.asc: ", "over the -max-file-size limit"} {
		if !strings.Contains(logs, want) {
			t.Errorf("client log lacks %q:\n%s", want, logs)
		}
	}
	uri := c.open(filepath.Join(dir, "k.asc"), readKernel(t, "unaligned_copy.asc"), 1)
	if got := diagCodes(c.diagnostics(uri, 1)); len(got) != 2 {
		t.Errorf("after the hostile buffers: %v", got)
	}
}

// TestLSPWatched: a client that can watch files is asked to report the
// sources and ascvet.toml files; a configuration changed on disk is read
// again and the open files analysed again.
func TestLSPWatched(t *testing.T) {
	dir := t.TempDir()
	c := startLSP(t, nil, lspOptions{debounce: 5 * time.Millisecond})
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(pathURI(dir)), Name: "w"}},
		Capabilities: protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
			DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesWorkspaceClientCapabilities{DynamicRegistration: true}}},
	}, &res)
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	uri := c.open(filepath.Join(dir, "k.asc"), readKernel(t, "unaligned_copy.asc"), 1)
	if d := findDiag(t, c.diagnostics(uri, 1), "ASC1001"); d.Severity != protocol.DiagnosticSeverityWarning {
		t.Fatalf("ASC1001 severity %v before the configuration", d.Severity)
	}
	// The server registers from a goroutine of its own once initialized:
	// the request may come after the first diagnostics.
	var reg *protocol.RegistrationParams
	for end := time.Now().Add(10 * time.Second); reg == nil && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		c.mu.Lock()
		for _, r := range c.calls {
			if r.Method() == protocol.MethodClientRegisterCapability {
				reg = &protocol.RegistrationParams{}
				if err := json.Unmarshal(r.Params(), reg); err != nil {
					t.Fatal(err)
				}
			}
		}
		c.mu.Unlock()
	}
	if reg == nil || len(reg.Registrations) != 1 || reg.Registrations[0].Method != protocol.MethodWorkspaceDidChangeWatchedFiles ||
		!strings.Contains(fmt.Sprint(reg.Registrations[0].RegisterOptions), "ascvet.toml") {
		t.Errorf("registration %+v, want file watchers for the sources and ascvet.toml", reg)
	}
	toml := filepath.Join(dir, "ascvet.toml")
	if err := os.WriteFile(toml, []byte("[severity]\nASC1001 = \"error\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: pathURI(toml), Type: protocol.FileChangeTypeCreated}}})
	if d := findDiag(t, c.diagnostics(uri, 1), "ASC1001"); d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("ASC1001 severity %v after ascvet.toml made it an error", d.Severity)
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
		c := dialLSP(t, processPipe{stdout, stdin})
		c.initialize(dir, "en")
		uri := c.open(filepath.Join(dir, "k.asc"), readKernel(t, "unaligned_copy.asc"), 7)
		if got := diagCodes(c.diagnostics(uri, 7)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
			t.Errorf("diagnostics %v", got)
		}
		if polite {
			c.call(protocol.MethodShutdown, nil, nil)
		}
		c.notify(protocol.MethodExit, nil)
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

// TestLSPPositions: byte columns become UTF-16 characters.
func TestLSPPositions(t *testing.T) {
	text := "a\n// é😀x\n"
	res := &lspResult{text: []byte(text), lines: lineStarts([]byte(text))}
	x := strings.Index(text, "x")
	if got := res.position(x); got != (protocol.Position{Line: 1, Character: 6}) {
		t.Errorf("position of x %+v, want 1:6 (é is 1 unit, 😀 2)", got)
	}
	if got := res.position(len(text)); got != (protocol.Position{Line: 2, Character: 0}) {
		t.Errorf("end %+v", got)
	}
	if p := uriPath(pathURI("/tmp/a b/k.asc")); p != "/tmp/a b/k.asc" {
		t.Errorf("uri round trip %q", p)
	}
	if uriPath("untitled:Untitled-1") != "" {
		t.Error("an untitled buffer has a path")
	}
}

// BenchmarkLSPChange measures the time from a didChange to the
// publishDiagnostics of its version, on a 70 KB kernel (generated, or the
// file ASCVET_LSP_FILE names), through the protocol over a pipe, with the
// default debounce and with none (the analysis alone):
//
//	go test ./cmd/ascvet -run XXX -bench LSPChange
//
// Every change alters the text, so no analysis comes from the cache.
func BenchmarkLSPChange(b *testing.B) {
	text := string(genHugeVF(70 << 10))
	if p := os.Getenv("ASCVET_LSP_FILE"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		text = string(data)
	}
	useLSPSegments(b)
	for _, debounce := range []time.Duration{lspDebounce, 0} {
		b.Run("debounce="+debounce.String(), func(b *testing.B) {
			c := startLSP(b, nil, lspOptions{debounce: debounce})
			dir := b.TempDir()
			c.initialize(dir, "en")
			uri := c.open(filepath.Join(dir, "k.asc"), text, 1)
			n := len(c.diagnostics(uri, 1))
			v := int32(1)
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				v++
				c.change(uri, fmt.Sprintf("%s// edit %d\n", text, v), v)
				if got := len(c.diagnostics(uri, v)); got != n {
					b.Fatalf("version %d: %d diagnostics, want %d", v, got, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/change")
			b.ReportMetric(float64(n), "diagnostics")
		})
	}
}

// TestLSPExitStdinOpen: the exit notification ends the session while the
// client keeps the server's stdin open, as Neovim does: it sends shutdown
// and exit, then waits for the process to end. The server reads a stream
// whose Close cannot interrupt the read, as stdin's.
func TestLSPExitStdinOpen(t *testing.T) {
	srv, err := newLSPServer(&lspOptions{cache: "off"}, analyzers(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()   // the server's stdin
	outR, outW := io.Pipe() // its stdout
	t.Cleanup(func() { inW.Close(); outR.Close() })
	exit := make(chan int, 1)
	go func() { exit <- srv.serve(context.Background(), stdio{inR, outW}) }()
	client := jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{outR, inW}))
	client.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, _ jsonrpc2.Request) error {
		return reply(ctx, nil, nil)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res protocol.InitializeResult
	if _, err := client.Call(ctx, protocol.MethodInitialize, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(pathURI(t.TempDir())), Name: "w"}}}, &res); err != nil {
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

// TestLSPMalformed: malformed frames and bodies do not end the session.
// Each is written raw to the server, between well-formed requests; the
// server answers a body that is not JSON-RPC with the JSON-RPC error (id
// null), logs what it dropped, and still answers the next request.
func TestLSPMalformed(t *testing.T) {
	srv, err := newLSPServer(&lspOptions{cache: "off", debounce: 5 * time.Millisecond}, analyzers(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	var logMu sync.Mutex
	srv.logw = writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logs.Write(p)
	})
	a, b := net.Pipe()
	exit := make(chan int, 1)
	go func() { exit <- srv.serve(context.Background(), b) }()
	in := bufio.NewReader(a)
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	send := func(raw string) {
		t.Helper()
		if err := a.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(a, raw); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	// recv reads frames until one whose body contains want.
	recv := func(want string) string {
		t.Helper()
		if err := a.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		for {
			length := 0
			for {
				line, err := in.ReadString('\n')
				if err != nil {
					t.Fatalf("reading a header, waiting for %q: %v", want, err)
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					length, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, length)
			if _, err := io.ReadFull(in, body); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(body), want) {
				return string(body)
			}
		}
	}
	ping := func(id int) {
		t.Helper()
		send(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ascvet/unknown"}`, id)))
		recv(fmt.Sprintf(`"id":%d`, id))
	}
	ping(1)
	cases := []struct{ raw, answer string }{
		{frame(`{"jsonrpc":"2.0","id":2,"method":`), `"code":-32700`}, // truncated JSON
		{frame(`not json at all`), `"code":-32700`},                   // not JSON
		{frame(`{"jsonrpc":"2.0"}`), `"code":-32600`},                 // neither a request nor a response
		{frame(`[1,2,3]`), `"code":-32700`},                           // JSON, not an object
		{"Content-Length: abc\r\n\r\n", ""},                           // a bad length
		{"Content-Length: -5\r\n\r\n", ""},                            // a negative length
		{"X-Header: 1\r\n\r\n", ""},                                   // no length
		{"garbage line without colon\r\n\r\n", ""},                    // a line that is not a header
		{"Content-Length: 2\r\nbogus\r\n\r\n{}", ""},                  // a bad line beside a length: its body dropped
		{"\r\n\r\n", ""},                                              // blank lines between messages
		{"Content-Length: 999999999999\r\n\r\n", "skip"},              // over the limit (its body never comes: last)
	}
	for i, c := range cases {
		if c.answer == "skip" {
			continue
		}
		send(c.raw)
		if c.answer != "" {
			if body := recv(c.answer); !strings.Contains(body, `"id":null`) {
				t.Errorf("case %d: answer %s, want id null", i, body)
			}
		}
		ping(10 + i)
	}
	logMu.Lock()
	got := logs.String()
	logMu.Unlock()
	for _, want := range []string{"not JSON-RPC", "malformed header (Content-Length \"abc\")", "no Content-Length", "header line \"garbage line without colon\""} {
		if !strings.Contains(got, want) {
			t.Errorf("the server's log lacks %q:\n%s", want, got)
		}
	}
	a.Close()
	select {
	case <-exit:
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end when its input closed")
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
