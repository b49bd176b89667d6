package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/ascvet/ascvet/internal/lsp"
	"github.com/ascvet/ascvet/internal/lsp/lsptest"
	"github.com/ascvet/ascvet/internal/testfs"
	"github.com/ascvet/ascvet/internal/vfgen"
)

// callErr makes a request that must fail, and returns its JSON-RPC error.
func callErr(t *testing.T, c *lsptest.Client, method string, params any) *jsonrpc2.Error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res json.RawMessage
	_, err := c.Conn.Call(ctx, method, params, &res)
	var e *jsonrpc2.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: result %s, error %v; want a JSON-RPC error", method, res, err)
	}
	return e
}

// TestLSPBadRequests: a request whose parameters do not decode is answered
// with invalid params, one the server does not know with method not
// found; the session goes on, and an initialize that failed can be made
// again.
func TestLSPBadRequests(t *testing.T) {
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	for _, r := range []struct {
		method string
		params string
		code   jsonrpc2.Code
	}{
		{protocol.MethodInitialize, `{"capabilities": 5}`, jsonrpc2.InvalidParams},
		{protocol.MethodTextDocumentCodeAction, `{"textDocument": "k.asc"}`, jsonrpc2.InvalidParams},
		{protocol.MethodTextDocumentHover, `{"position": {"line": "one"}}`, jsonrpc2.InvalidParams},
		{protocol.MethodTextDocumentHover, `[1, 2]`, jsonrpc2.InvalidParams},
		{"textDocument/definition", `{}`, jsonrpc2.MethodNotFound},
		{"ascvet/unknown", `null`, jsonrpc2.MethodNotFound},
	} {
		if e := callErr(t, c, r.method, json.RawMessage(r.params)); e.Code != r.code {
			t.Errorf("%s %s: error %d %q, want code %d", r.method, r.params, e.Code, e.Message, r.code)
		}
	}
	dir := t.TempDir()
	if res := c.Initialize(dir, "en"); res.ServerInfo == nil || res.ServerInfo.Name != "ascvet" {
		t.Fatalf("initialize after a failed one: %+v", res)
	}
	uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	if got := lsptest.Codes(c.Diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("diagnostics after the bad requests: %v, want ASC1001 ASC1002", got)
	}
}

// TestLSPErrorDetail: an error answer says what was wrong: the method
// not found, the parameter that did not decode.
func TestLSPErrorDetail(t *testing.T) {
	c := lsptest.Start(t, nil, lsp.Options{NoCache: true})
	if e := callErr(t, c, "textDocument/definition", json.RawMessage(`{}`)); !strings.Contains(e.Message, "textDocument/definition") {
		t.Errorf("method not found: %q does not name the method", e.Message)
	}
	if e := callErr(t, c, protocol.MethodTextDocumentHover, json.RawMessage(`{"position": {"line": "one"}}`)); !strings.Contains(e.Message, "line") {
		t.Errorf("invalid params: %q does not say what did not decode", e.Message)
	}
}

// TestLSPUnknownDocuments: what the server does not analyse has no code
// actions and no hover: a document never opened, one closed, one that is
// not a source (a .txt file, even holding a kernel) and one that is not a
// file (untitled:). A change to a document that is not open is ignored:
// the document is analysed once opened, at the version it is opened with.
func TestLSPUnknownDocuments(t *testing.T) {
	dir := t.TempDir()
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	var mu sync.Mutex
	analysed := map[string][]int32{}
	c.Server.SetHooks(lsp.Hooks{Analysed: func(path string, v int32) {
		mu.Lock()
		defer mu.Unlock()
		analysed[filepath.Base(path)] = append(analysed[filepath.Base(path)], v)
	}})
	c.Initialize(dir, "en")
	text := testfs.Kernel(t, "unaligned_copy.asc")
	everything := protocol.Range{End: protocol.Position{Line: 1000}}
	none := func(what string, uri protocol.DocumentURI) {
		t.Helper()
		if a := c.CodeActions(uri, everything); len(a) != 0 {
			t.Errorf("%s: %d code actions, want none", what, len(a))
		}
		if h := c.Hover(uri, 16, 10); h != "" {
			t.Errorf("%s: hover %q, want none", what, h)
		}
	}
	none("a document never opened", lsp.PathURI(filepath.Join(dir, "never.asc")))

	txt := c.Open(filepath.Join(dir, "notes.txt"), text, 1)
	c.Notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: "untitled:Untitled-1", LanguageID: "cpp", Version: 1, Text: text}})
	// A change to k.asc before it is opened.
	k := filepath.Join(dir, "k.asc")
	uri := lsp.PathURI(k)
	c.Change(uri, text, 2)
	uri = c.Open(k, text, 3)
	ds := c.Diagnostics(uri, 3)
	if got := lsptest.Codes(ds); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Fatalf("k.asc: %v, want ASC1001 ASC1002", got)
	}
	none("a .txt file", txt)
	none("an untitled buffer", "untitled:Untitled-1")
	if len(c.CodeActions(uri, ds[0].Range)) == 0 || c.Hover(uri, ds[0].Range.Start.Line, ds[0].Range.Start.Character) == "" {
		t.Fatal("no code actions or no hover on k.asc's ASC1001")
	}

	c.Notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if ds := c.Diagnostics(uri, 0); len(ds) != 0 {
		t.Errorf("on close: %v, want the diagnostics cleared", lsptest.Codes(ds))
	}
	none("a closed document", uri)
	c.Change(uri, text+"\n", 4)
	c.Open(k, text, 5)
	if got := lsptest.Codes(c.Diagnostics(uri, 5)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("k.asc opened again: %v, want ASC1001 ASC1002", got)
	}
	if code := c.Shutdown(); code != 0 {
		t.Errorf("exit %d after shutdown, want 0", code)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(analysed["k.asc"], []int32{3, 5}) || len(analysed) != 1 {
		t.Errorf("analysed %v, want k.asc at versions 3 and 5 alone", analysed)
	}
}

// TestLSPActionsWithoutFixes: a finding without a suggested fix gets the
// suppression alone; one with a fix gets the fix, preferred when it is its
// only one, and the suppression. Each action carries its diagnostic.
func TestLSPActionsWithoutFixes(t *testing.T) {
	c, dir := lsptest.Session(t, "en")
	text := testfs.Kernel(t, "unaligned_bugs.asc")
	uri := c.Open(filepath.Join(dir, "bugs.asc"), text, 1)
	ds := c.Diagnostics(uri, 1)
	titles := func(code string) (fixes, suppress []protocol.CodeAction) {
		t.Helper()
		d := lsptest.Find(t, ds, code)
		for _, a := range c.CodeActions(uri, d.Range) {
			if len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != code {
				continue // a finding of another rule on the same range
			}
			if a.Kind != protocol.QuickFix || a.Edit == nil || len(a.Edit.Changes[uri]) == 0 {
				t.Errorf("%s action %+v, want a quick fix with edits of the document", code, a)
			}
			if a.Diagnostics[0].Range != d.Range || a.Diagnostics[0].Message != d.Message {
				t.Errorf("%s action's diagnostic %+v, want %+v", code, a.Diagnostics[0], d)
			}
			if strings.HasPrefix(a.Title, "Suppress "+code+" ") {
				suppress = append(suppress, a)
			} else {
				fixes = append(fixes, a)
			}
		}
		return fixes, suppress
	}
	fixes, suppress := titles("ASC1004")
	if len(fixes) != 0 || len(suppress) != 1 {
		t.Errorf("ASC1004 (no fix): %d fixes, %d suppressions; want 0 and 1", len(fixes), len(suppress))
	} else if got := lsptest.ApplyEdits(t, text, suppress[0].Edit.Changes[uri]); !strings.Contains(got, "        // ascvet:ignore ASC1004 "+lsp.IgnoreReason+"\n        AscendC::Reg::LoadUnAlign(v, uIn, src, offset, 0);") {
		t.Errorf("ASC1004 suppression gives:\n%s", got)
	}
	fixes, suppress = titles("ASC1005")
	if len(fixes) != 1 || len(suppress) != 1 {
		t.Fatalf("ASC1005 (a fix): %d fixes, %d suppressions; want 1 and 1", len(fixes), len(suppress))
	}
	if !fixes[0].IsPreferred || !strings.HasSuffix(fixes[0].Title, "(ASC1005)") || suppress[0].IsPreferred {
		t.Errorf("ASC1005 fix %q preferred %v, suppression preferred %v; want the fix alone preferred", fixes[0].Title, fixes[0].IsPreferred, suppress[0].IsPreferred)
	}
	fixed := lsptest.ApplyEdits(t, text, fixes[0].Edit.Changes[uri])
	if !strings.Contains(fixed, "StoreUnAlignPost(dst, uOut, 0);") || strings.Contains(fixed, "StoreUnAlignPost(dst, uIn, 0);") {
		t.Errorf("the ASC1005 fix does not flush uOut:\n%s", fixed)
	}
	c.Change(uri, fixed, 2)
	if got := lsptest.Codes(c.Diagnostics(uri, 2)); slices.Contains(got, "ASC1005") {
		t.Errorf("after the ASC1005 fix: %v", got)
	}
}

// TestLSPExitWithoutShutdown: exit without shutdown ends the session with
// exit code 1, as LSP asks.
func TestLSPExitWithoutShutdown(t *testing.T) {
	c, dir := lsptest.Session(t, "en")
	uri := c.Open(filepath.Join(dir, "k.asc"), testfs.Kernel(t, "unaligned_copy.asc"), 1)
	c.Diagnostics(uri, 1)
	c.Notify(protocol.MethodExit, nil)
	select {
	case code := <-c.Exit:
		if code != 1 {
			t.Errorf("exit %d without shutdown, want 1", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not exit")
	}
}

// TestLSPNoWorkspace: a client that names no workspace (no folders, no
// rootUri) still gets its documents analysed, the workspace being the
// server's working directory.
func TestLSPNoWorkspace(t *testing.T) {
	text := testfs.Kernel(t, "unaligned_copy.asc")
	t.Chdir(t.TempDir())
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	var res protocol.InitializeResult
	c.Call(protocol.MethodInitialize, json.RawMessage(`{"capabilities": {}}`), &res)
	if res.ServerInfo == nil || res.ServerInfo.Name != "ascvet" || !res.Capabilities.HoverProvider.(bool) {
		t.Fatalf("initialize without a workspace: %+v", res)
	}
	c.Notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	uri := c.Open(filepath.Join(t.TempDir(), "k.asc"), text, 1)
	if got := lsptest.Codes(c.Diagnostics(uri, 1)); !slices.Equal(got, []string{"ASC1001", "ASC1002"}) {
		t.Errorf("without a workspace: %v, want ASC1001 ASC1002", got)
	}
}

// TestLSPSnippetCapabilityMalformed: a client whose snippet capability is
// not a boolean is taken as one without snippets: its suppression is the
// placeholder as text, in the edit's changes.
func TestLSPSnippetCapabilityMalformed(t *testing.T) {
	dir := t.TempDir()
	c := lsptest.Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond, NoCache: true})
	var res protocol.InitializeResult
	c.Call(protocol.MethodInitialize, json.RawMessage(`{"rootUri": "`+string(lsp.PathURI(dir))+`", "capabilities": {"workspace": {"workspaceEdit": {"snippetEditSupport": "yes"}}}}`), &res)
	c.Notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	text := testfs.Kernel(t, "unaligned_copy.asc")
	uri := c.Open(filepath.Join(dir, "k.asc"), text, 1)
	post := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1002")
	for _, a := range c.CodeActions(uri, post.Range) {
		if !strings.HasPrefix(a.Title, "Suppress ASC1002") {
			continue
		}
		if a.Edit == nil || len(a.Edit.DocumentChanges) != 0 || len(a.Edit.Changes[uri]) != 1 {
			t.Fatalf("suppression edit %+v, want one text edit in changes", a.Edit)
		}
		if got := lsptest.ApplyEdits(t, text, a.Edit.Changes[uri]); !strings.Contains(got, "        // ascvet:ignore ASC1002 "+lsp.IgnoreReason+"\n        AscendC::Reg::StoreUnAlignPost") {
			t.Errorf("suppression gives:\n%s", got)
		}
		return
	}
	t.Error("no suppression for ASC1002")
}

// TestLSPInitializeTwice: initialize may only be sent once (LSP 3.17); a
// second one is refused (invalid request) and changes nothing of the
// session: the analysis under way when it comes publishes its findings in
// the session's language, messages and documentation links alike.
func TestLSPInitializeTwice(t *testing.T) {
	lsptest.UseSegments(t)
	c, dir := lsptest.Session(t, "en")
	k := filepath.Join(dir, "k.asc")
	uri := c.Open(k, string(vfgen.Huge(1<<20)), 1)
	c.WaitAnalysing(k, 1)
	params := &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(lsp.PathURI(dir)), Name: "w"}}, Locale: "zh-CN"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.Conn.Call(ctx, protocol.MethodInitialize, params, nil)
	if e := (*jsonrpc2.Error)(nil); !errors.As(err, &e) || e.Code != jsonrpc2.InvalidRequest {
		t.Errorf("a second initialize: error %v, want invalid request", err)
	}
	d := lsptest.Find(t, c.Diagnostics(uri, 1), "ASC1001")
	if !strings.Contains(d.Message, "hoist it before the loop") || d.CodeDescription == nil || !strings.HasSuffix(string(d.CodeDescription.Href), "docs/rules.md#asc1001") {
		t.Errorf("ASC1001 after a second initialize: %q, docs %+v; want English and the English docs", d.Message, d.CodeDescription)
	}
}
