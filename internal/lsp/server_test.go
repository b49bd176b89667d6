package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/internal/lsp"
	"github.com/ascvet/ascvet/internal/lsp/lsptest"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/internal/vfgen"
)

// TestLSPSession drives a session through the protocol: diagnostics on
// open and change, a fix and a suppression as code actions, hovers on a
// finding and on a loop, shutdown and exit.
func TestLSPSession(t *testing.T) {
	dir := t.TempDir()
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	res := c.Initialize(dir, "en-US")
	if res.Capabilities.HoverProvider != true || res.Capabilities.CodeActionProvider == nil || res.ServerInfo == nil || res.ServerInfo.Name != "ascvet" {
		t.Fatalf("capabilities %+v", res)
	}
	path := filepath.Join(dir, "k.asc")
	text := testfs.Kernel(t, "unaligned_copy.asc")
	uri := c.Open(path, text, 1)
	ds := c.Diagnostics(uri, 1)
	if got := lsptest.Codes(ds); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Fatalf("diagnostics %v, want ASC1001 ASC1002", got)
	}
	pre := lsptest.Find(t, ds, "ASC1001")
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
	actions := c.CodeActions(uri, pre.Range)
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
	fixed := lsptest.ApplyEdits(t, text, fix.Edit.Changes[uri])
	if !strings.Contains(fixed, "    AscendC::Reg::LoadUnAlignPre(uIn, src);\n    for (") || strings.Contains(fixed, "LoadUnAlignPre(uIn, src + i * VL)") {
		t.Fatalf("the fix did not hoist the Pre:\n%s", fixed)
	}
	c.Change(uri, fixed, 2)
	ds = c.Diagnostics(uri, 2)
	if got := lsptest.Codes(ds); !slices.Equal(got, []string{"ASC1002"}) {
		t.Fatalf("after the fix: %v, want ASC1002 alone", got)
	}

	// Hover on the finding: the rule, the simulated cycles.
	post := ds[0]
	h := c.Hover(uri, post.Range.Start.Line, post.Range.Start.Character+3)
	for _, want := range []string{"**ASC1002**", "Simulated (loop):", "cycles before the fix", "over 16 iterations (the trip count does not fold: the -iterations setting)", "StoreUnAlignPost"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on ASC1002 lacks %q:\n%s", want, h)
		}
	}
	// Hover on the loop's first line: the simulation in one line.
	loopLine := uint32(strings.Count(fixed[:strings.Index(fixed, "    for (")], "\n"))
	if h := c.Hover(uri, loopLine, 6); !strings.Contains(h, "**ascvet sim**:") || !strings.Contains(h, "cycles/iteration, IPC") || !strings.Contains(h, "critical chain") {
		t.Errorf("hover on the loop: %q", h)
	}
	if h := c.Hover(uri, 0, 0); h != "" {
		t.Errorf("hover on a comment: %q, want none", h)
	}

	// Suppress the rest, with a reason to fill in.
	actions = c.CodeActions(uri, post.Range)
	suppress = nil
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, "Suppress ASC1002") {
			suppress = &actions[i]
		}
	}
	if suppress == nil {
		t.Fatalf("no suppression for ASC1002 among %+v", actions)
	}
	quiet := lsptest.ApplyEdits(t, fixed, suppress.Edit.Changes[uri])
	if want := "        // ascvet:ignore ASC1002 " + lsp.IgnoreReason + "\n        AscendC::Reg::StoreUnAlignPost"; !strings.Contains(quiet, want) {
		t.Fatalf("suppression inserted:\n%s\nwant a line %q", quiet, want)
	}
	// The placeholder is no reason: the directive suppresses nothing and
	// says so, until the author writes theirs.
	c.Change(uri, quiet, 3)
	if got := lsptest.Codes(c.Diagnostics(uri, 3)); !slices.Equal(got, []string{"ASC0002", "ASC1002"}) {
		t.Errorf("after the suppression with its placeholder: %v, want ASC0002 ASC1002", got)
	}
	quiet = strings.Replace(quiet, lsp.IgnoreReason, "the tail is flushed by the caller", 1)
	c.Change(uri, quiet, 4)
	if ds := c.Diagnostics(uri, 4); len(ds) != 0 {
		t.Errorf("after the suppression with a reason: %v, want none", lsptest.Codes(ds))
	}
	c.Notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if ds := c.Diagnostics(uri, 0); len(ds) != 0 {
		t.Errorf("on close: %v, want the diagnostics cleared", lsptest.Codes(ds))
	}
	if code := c.Shutdown(); code != 0 {
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
		c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
		var res protocol.InitializeResult
		c.Call(protocol.MethodInitialize, json.RawMessage(`{"rootUri": "`+string(lsp.PathURI(dir))+`", "capabilities": `+caps+`}`), &res)
		c.Notify(protocol.MethodInitialized, &protocol.InitializedParams{})
		uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
		post := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1002")
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
		c.Call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: post.Range}, &actions)
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
			want := "        // ascvet:ignore ASC1002 ${1:" + lsp.IgnoreReason + "}\n"
			if e.Snippet.Kind != "snippet" || e.Snippet.Value != want || e.Range.Start != (protocol.Position{Line: 20}) || e.Range.End != e.Range.Start {
				t.Errorf("%s: snippet %+v at %+v, want %q above the Post", caps, e.Snippet, e.Range, want)
			}
		}
		if !found {
			t.Errorf("%s: no suppression among %+v", caps, actions)
		}
	}
	if got := lsp.SnippetEscape(`a$b}c\d`); got != `a\$b\}c\\d` {
		t.Errorf("snippetEscape = %q", got)
	}
}

// TestLSPChinese: a client in Chinese gets the messages, the actions and
// the hover in Chinese, and the rule links to the Chinese docs.
func TestLSPChinese(t *testing.T) {
	c, dir := lsptest.Session(t, "zh-CN")
	uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	d := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1002")
	if !strings.Contains(d.Message, "循环") || d.CodeDescription == nil || !strings.Contains(string(d.CodeDescription.Href), "rules.zh.md#asc1002") {
		t.Errorf("Chinese diagnostic %+v", d)
	}
	if h := c.Hover(uri, d.Range.Start.Line, d.Range.Start.Character); !strings.Contains(h, "模拟（循环）") {
		t.Errorf("Chinese hover: %q", h)
	}
	found := false
	for _, a := range c.CodeActions(uri, d.Range) {
		found = found || strings.HasPrefix(a.Title, "用 ascvet:ignore 抑制 ASC1002")
	}
	if !found {
		t.Error("no Chinese suppression action")
	}
}

// TestLSPRelated: a finding's related locations travel with it.
func TestLSPRelated(t *testing.T) {
	c, dir := lsptest.Session(t, "en")
	text := testfs.Kernel(t, "unaligned_bugs.asc")
	uri := c.Open(filepath.Join(dir, "bugs.asc"), text, 1)
	ds := c.Diagnostics(uri, 1)
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
		t.Errorf("no related locations among %v", lsptest.Codes(ds))
	}
}

// TestLSPPython: DSL kernels are analysed, and their suppression is a #
// comment.
func TestLSPPython(t *testing.T) {
	c, dir := lsptest.Session(t, "en")
	text := testfs.Kernel(t, "scale_rows.py")
	uri := c.Open(filepath.Join(dir, "scale_rows.py"), text, 1)
	d := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1001")
	for _, a := range c.CodeActions(uri, d.Range) {
		if strings.HasPrefix(a.Title, "Suppress ASC1001") {
			got := lsptest.ApplyEdits(t, text, a.Edit.Changes[uri])
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
	c := lsptest.Start(t, append(all.Analyzers(), boom), lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	c.Initialize(dir, "en")
	uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	if got := lsptest.Codes(c.Diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("with a panicking analyzer: %v, want ASC1001 ASC1002", got)
	}
	logs := strings.Join(c.Logs(), "\n")
	if !strings.Contains(logs, "internal error in analyzer boom: panic: boom") {
		t.Errorf("client log %q lacks the panic", logs)
	}
	if code := c.Shutdown(); code != 0 {
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
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	var mu sync.Mutex
	count := map[string]int{}
	c.Server.SetHooks(lsp.Hooks{Analysed: func(path string, _ int32) {
		mu.Lock()
		count[filepath.Base(path)]++
		mu.Unlock()
	}})
	c.Initialize(dir, "en")
	uses := c.Open(filepath.Join(dir, "uses.asc"), vfgen.RowsKernel, 1)
	if got := lsptest.Codes(c.Diagnostics(uses, 1)); !slices.Contains(got, "ASC2001") {
		t.Fatalf("uses.asc: %v, want ASC2001 from rows.h's stride", got)
	}
	other := c.Open(filepath.Join(dir, "other.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	c.Diagnostics(other, 1)
	if err := os.WriteFile(rows, []byte("constexpr uint32_t ROW = 64; // aligned now\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: lsp.PathURI(rows)}})
	if got := lsptest.Codes(c.Diagnostics(uses, 1)); slices.Contains(got, "ASC2001") {
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
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	c.Initialize(dir, "en")
	uses := c.Open(filepath.Join(op, "uses.asc"), vfgen.RowsKernel, 1)
	if got := lsptest.Codes(c.Diagnostics(uses, 1)); slices.Contains(got, "ASC2001") {
		t.Fatalf("uses.asc: %v, want no ASC2001 (include/rows.h's stride is aligned)", got)
	}
	missing := c.Open(filepath.Join(op, "missing.asc"), strings.Replace(vfgen.RowsKernel, `"rows.h"`, `"later.h"`, 1), 1)
	if got := lsptest.Codes(c.Diagnostics(missing, 1)); slices.Contains(got, "ASC2001") {
		t.Fatalf("missing.asc: %v, want no ASC2001 (no header gives ROW)", got)
	}
	near := filepath.Join(op, "rows.h")
	if err := os.WriteFile(near, []byte("constexpr uint32_t ROW = 68;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: lsp.PathURI(near)}})
	if got := lsptest.Codes(c.Diagnostics(uses, 1)); !slices.Contains(got, "ASC2001") {
		t.Errorf("uses.asc after op/rows.h was created: %v, want ASC2001 from its stride", got)
	}
	later := filepath.Join(op, "later.h")
	if err := os.WriteFile(later, []byte("constexpr uint32_t ROW = 68;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: lsp.PathURI(later), Type: protocol.FileChangeTypeCreated}}})
	if got := lsptest.Codes(c.Diagnostics(missing, 1)); !slices.Contains(got, "ASC2001") {
		t.Errorf("missing.asc after later.h was created: %v, want ASC2001 from its stride", got)
	}
}

// TestLSPDebounce: a burst of changes is analysed once, at its last
// version.
func TestLSPDebounce(t *testing.T) {
	dir := t.TempDir()
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 200 * time.Millisecond})
	var mu sync.Mutex
	var versions []int32
	c.Server.SetHooks(lsp.Hooks{Analysed: func(_ string, v int32) {
		mu.Lock()
		versions = append(versions, v)
		mu.Unlock()
	}})
	c.Initialize(dir, "en")
	text := testfs.Kernel(t, "unaligned_copy.asc")
	uri := c.Open(filepath.Join(dir, "k.asc"), text, 1)
	c.Diagnostics(uri, 1)
	for v := int32(2); v <= 6; v++ {
		c.Change(uri, text+strings.Repeat("\n", int(v)), v)
	}
	c.Diagnostics(uri, 6)
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
	lsptest.UseSegments(t)
	text := string(vfgen.Huge(2 << 20))
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
	c := lsptest.Start(t, append(all.Analyzers(), probe), lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	var stopped int
	var published []int32
	c.Server.SetHooks(lsp.Hooks{
		Stopped: func(path string) {
			mu.Lock()
			defer mu.Unlock()
			if filepath.Base(path) == "k.asc" {
				stopped++
			}
		},
		Analysed: func(path string, v int32) {
			mu.Lock()
			defer mu.Unlock()
			if filepath.Base(path) == "k.asc" {
				published = append(published, v)
			}
		},
	})
	dir := t.TempDir()
	c.Initialize(dir, "en")
	ref := c.Open(filepath.Join(dir, "ref.asc"), text, 1)
	want := c.Diagnostics(ref, 1)
	if len(want) < 100 {
		t.Fatalf("%d diagnostics in the generated file, want many", len(want))
	}

	k := filepath.Join(dir, "k.asc")
	edit := func(v int32) string { return fmt.Sprintf("%s// edit %d\n", text, v) }
	uri := c.Open(k, edit(1), 1)
	for v := int32(2); v <= 4; v++ {
		c.WaitAnalysing(k, v-1)
		c.Change(uri, edit(v), v)
	}
	got := c.Diagnostics(uri, 4)
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

// TestLSPEndsItsAnalyses: when the connection closes while a document is
// analysed, serve stops the analysis and returns only once it ended, and
// nothing of it is published.
func TestLSPEndsItsAnalyses(t *testing.T) {
	lsptest.UseSegments(t)
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
	c := lsptest.Start(t, append(all.Analyzers(), probe), lsp.Options{Debounce: time.Millisecond, NoCache: true})
	var stopped atomic.Int32
	c.Server.SetHooks(lsp.Hooks{Stopped: func(string) { stopped.Add(1) }})
	dir := t.TempDir()
	c.Initialize(dir, "en")
	k := filepath.Join(dir, "k.asc")
	c.Open(k, string(vfgen.Huge(2<<20)), 1)
	c.WaitAnalysing(k, 1)
	c.Conn.Close()
	select {
	case <-c.Exit:
	case <-time.After(time.Minute):
		t.Fatal("serve did not return within a minute of the connection closing")
	}
	if active := c.Server.Active(); active != 0 {
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

// TestLSPHostile: a binary buffer and one over the size limit get the
// command line's message in the client's log and no diagnostics; the
// server goes on with the next file. (A buffer is never UTF-16 here: the
// editor decodes the file, and LSP carries text.)
func TestLSPHostile(t *testing.T) {
	c, dir := lsptest.Session(t, "en")
	huge := "// __simd_vf__\n" + strings.Repeat("int x;\n", int(source.DefaultMaxFileSize/7)+1)
	cases := map[string]string{
		"bin.asc":  "__simd_vf__ \x00\x01\x02\xff\xfe garbage \x00",
		"huge.asc": huge,
	}
	for name, text := range cases {
		uri := c.Open(filepath.Join(dir, name), text, 1)
		if ds := c.Diagnostics(uri, 1); len(ds) != 0 {
			t.Errorf("%s: %v, want none", name, lsptest.Codes(ds))
		}
	}
	logs := strings.Join(c.Logs(), "\n")
	for _, want := range []string{"bin.asc: binary file", "huge.asc: ", "over the -max-file-size limit"} {
		if !strings.Contains(logs, want) {
			t.Errorf("client log lacks %q:\n%s", want, logs)
		}
	}
	uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	if got := lsptest.Codes(c.Diagnostics(uri, 1)); len(got) != 2 {
		t.Errorf("after the hostile buffers: %v", got)
	}
}

// TestLSPWatched: a client that can watch files is asked to report the
// sources and ascvet.toml files; a configuration changed on disk is read
// again and the open files analysed again.
func TestLSPWatched(t *testing.T) {
	dir := t.TempDir()
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	var res protocol.InitializeResult
	c.Call(protocol.MethodInitialize, &protocol.InitializeParams{
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(lsp.PathURI(dir)), Name: "w"}},
		Capabilities: protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
			DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesWorkspaceClientCapabilities{DynamicRegistration: true}}},
	}, &res)
	c.Notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	if d := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1001"); d.Severity != protocol.DiagnosticSeverityWarning {
		t.Fatalf("ASC1001 severity %v before the configuration", d.Severity)
	}
	// The server registers from a goroutine of its own once initialized:
	// the request may come after the first diagnostics.
	var reg *protocol.RegistrationParams
	for end := time.Now().Add(10 * time.Second); reg == nil && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		for _, r := range c.Calls() {
			if r.Method() == protocol.MethodClientRegisterCapability {
				reg = &protocol.RegistrationParams{}
				if err := json.Unmarshal(r.Params(), reg); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if reg == nil || len(reg.Registrations) != 1 || reg.Registrations[0].Method != protocol.MethodWorkspaceDidChangeWatchedFiles ||
		!strings.Contains(fmt.Sprint(reg.Registrations[0].RegisterOptions), "ascvet.toml") {
		t.Errorf("registration %+v, want file watchers for the sources and ascvet.toml", reg)
	}
	toml := filepath.Join(dir, "ascvet.toml")
	if err := os.WriteFile(toml, []byte("[severity]\nASC1001 = \"error\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{URI: lsp.PathURI(toml), Type: protocol.FileChangeTypeCreated}}})
	if d := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1001"); d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("ASC1001 severity %v after ascvet.toml made it an error", d.Severity)
	}
}

// BenchmarkLSPChange measures the time from a didChange to the
// publishDiagnostics of its version, on a 70 KB kernel (generated, or the
// file ASCVET_LSP_FILE names), through the protocol over a pipe, with the
// default debounce and with none (the analysis alone):
//
//	go test ./internal/lsp -run XXX -bench LSPChange
//
// Every change alters the text, so no analysis comes from the cache.
func BenchmarkLSPChange(b *testing.B) {
	text := string(vfgen.Huge(70 << 10))
	if p := os.Getenv("ASCVET_LSP_FILE"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		text = string(data)
	}
	lsptest.UseSegments(b)
	for _, debounce := range []time.Duration{lsp.Debounce, 0} {
		b.Run("debounce="+debounce.String(), func(b *testing.B) {
			c := lsptest.Start(b, nil, lsp.Options{Debounce: debounce})
			dir := b.TempDir()
			c.Initialize(dir, "en")
			uri := c.Open(filepath.Join(dir, "k.asc"), text, 1)
			n := len(c.Diagnostics(uri, 1))
			v := int32(1)
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				v++
				c.Change(uri, fmt.Sprintf("%s// edit %d\n", text, v), v)
				if got := len(c.Diagnostics(uri, v)); got != n {
					b.Fatalf("version %d: %d diagnostics, want %d", v, got, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/change")
			b.ReportMetric(float64(n), "diagnostics")
		})
	}
}

// TestLSPMalformed: malformed frames and bodies do not end the session.
// Each is written raw to the server, between well-formed requests; the
// server answers a body that is not JSON-RPC with the JSON-RPC error (id
// null), logs what it dropped, and still answers the next request.
func TestLSPMalformed(t *testing.T) {
	var logs strings.Builder
	var logMu sync.Mutex
	srv, err := lsp.New(&lsp.Options{NoCache: true, Debounce: 5 * time.Millisecond}, all.Analyzers(), writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logs.Write(p)
	}))
	if err != nil {
		t.Fatal(err)
	}
	a, b := net.Pipe()
	exit := make(chan int, 1)
	go func() { exit <- srv.Serve(context.Background(), b) }()
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
