// Package lsptest drives an in-process ascvet language server from a test:
// a client connected to a lsp.Server through a pipe, with the requests and
// notifications a test makes and the diagnostics, log messages and
// requests the server sends back.
package lsptest

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/lsp"
)

// Client is the test's end of an in-process session.
type Client struct {
	T      testing.TB
	Conn   jsonrpc2.Conn
	Server *lsp.Server // nil for a client dialled to another server (Dial)
	Exit   chan int    // the exit code Serve returned

	diags chan publishParams
	mu    sync.Mutex
	logs  []string
	calls []jsonrpc2.Request // requests from the server
}

// publishParams are textDocument/publishDiagnostics' parameters, with the
// version the protocol package leaves out.
type publishParams struct {
	URI         protocol.DocumentURI  `json:"uri"`
	Version     *int32                `json:"version,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// Start starts a server with analyzers as (nil: every rule) and options
// opts, connected to a client through a pipe. The server, and every
// analysis it started, ends with the test.
func Start(t testing.TB, as []*analysis.Analyzer, opts lsp.Options) *Client {
	t.Helper()
	if as == nil {
		as = all.Analyzers()
	}
	srv, err := lsp.New(&opts, as, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	a, b := net.Pipe()
	c := Dial(t, a)
	c.Server = srv
	served := make(chan struct{})
	go func() {
		defer close(served)
		c.Exit <- srv.Serve(context.Background(), b)
	}()
	// The server and every analysis it started end with the test, before
	// what the test changed (segment sizes, the index) is put back.
	t.Cleanup(func() {
		c.Conn.Close()
		select {
		case <-served:
		case <-time.After(time.Minute):
			t.Error("the server did not end within a minute of its connection closing")
		}
	})
	return c
}

// UseSegments makes the parses until the end of t cut files as the server
// cuts them on this machine. Called before Start, the sizes are put back
// after the server and its analyses ended.
func UseSegments(t testing.TB) {
	oldMin, oldSize := cppfront.SetSegments(lsp.Segments(runtime.NumCPU()))
	t.Cleanup(func() { cppfront.SetSegments(oldMin, oldSize) })
}

// Dial makes the client end of a session on rwc.
func Dial(t testing.TB, rwc io.ReadWriteCloser) *Client {
	c := &Client{T: t, diags: make(chan publishParams, 64), Exit: make(chan int, 1)}
	c.Conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	c.Conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
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
	t.Cleanup(func() { c.Conn.Close() })
	return c
}

// Session starts a server with every rule and a 5 ms debounce on a new
// workspace folder, initialized in locale; it returns the client and the
// folder.
func Session(t *testing.T, locale string) (*Client, string) {
	t.Helper()
	dir := t.TempDir()
	c := Start(t, nil, lsp.Options{Debounce: 5 * time.Millisecond})
	c.Initialize(dir, locale)
	return c, dir
}

// Logs returns the messages the server logged to the client so far.
func (c *Client) Logs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.logs)
}

// Calls returns the requests the server made of the client so far.
func (c *Client) Calls() []jsonrpc2.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.calls)
}

// Call makes a request and decodes its result; an error fails the test.
func (c *Client) Call(method string, params, result any) {
	c.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Conn.Call(ctx, method, params, result); err != nil {
		c.T.Fatalf("%s: %v", method, err)
	}
}

// Notify sends a notification; an error fails the test.
func (c *Client) Notify(method string, params any) {
	c.T.Helper()
	if err := c.Conn.Notify(context.Background(), method, params); err != nil {
		c.T.Fatalf("%s: %v", method, err)
	}
}

// Initialize opens the session on the workspace folder root in locale.
func (c *Client) Initialize(root, locale string) *protocol.InitializeResult {
	c.T.Helper()
	var res protocol.InitializeResult
	c.Call(protocol.MethodInitialize, &protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: string(lsp.PathURI(root)), Name: "w"}}, Locale: locale}, &res)
	c.Notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	return &res
}

// Diagnostics waits for the diagnostics of uri at version (any version
// when version is 0).
func (c *Client) Diagnostics(uri protocol.DocumentURI, version int32) []protocol.Diagnostic {
	c.T.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri && (version == 0 || p.Version != nil && *p.Version == version) {
				return p.Diagnostics
			}
		case <-timeout:
			c.T.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

// Open opens the document at path with text, and returns its URI.
func (c *Client) Open(path, text string, version int32) protocol.DocumentURI {
	c.T.Helper()
	uri := lsp.PathURI(path)
	lang := "cpp"
	if strings.HasSuffix(path, ".py") {
		lang = "python"
	}
	c.Notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: protocol.LanguageIdentifier(lang), Version: version, Text: text}})
	return uri
}

// Change replaces the text of the open document uri.
func (c *Client) Change(uri protocol.DocumentURI, text string, version int32) {
	c.T.Helper()
	c.Notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
	})
}

// CodeActions returns the code actions for the range r of uri.
func (c *Client) CodeActions(uri protocol.DocumentURI, r protocol.Range) []protocol.CodeAction {
	c.T.Helper()
	var out []protocol.CodeAction
	c.Call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: r}, &out)
	return out
}

// Hover returns the hover text at line and char (UTF-16) of uri; "" for
// none.
func (c *Client) Hover(uri protocol.DocumentURI, line, char uint32) string {
	c.T.Helper()
	var h *protocol.Hover
	c.Call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: line, Character: char}}}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

// Shutdown shuts the session down, exits, and returns the exit code.
func (c *Client) Shutdown() int {
	c.T.Helper()
	c.Call(protocol.MethodShutdown, nil, nil)
	c.Notify(protocol.MethodExit, nil)
	select {
	case code := <-c.Exit:
		return code
	case <-time.After(10 * time.Second):
		c.T.Fatal("the server did not exit")
	}
	return -1
}

// WaitAnalysing waits until version of the document at path is being
// analysed.
func (c *Client) WaitAnalysing(path string, version int32) {
	c.T.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !c.Server.Analysing(path, version) {
		if time.Now().After(deadline) {
			c.T.Fatalf("version %d of %s is not being analysed", version, path)
		}
		time.Sleep(time.Millisecond)
	}
}

// ApplyEdits applies LSP text edits (UTF-16 positions) to text.
func ApplyEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
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

// Codes returns the rule IDs of ds, in order.
func Codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code.(string))
	}
	return out
}

// Find returns the diagnostic of ds with the rule ID code; none fails the
// test.
func Find(t *testing.T, ds []protocol.Diagnostic, code string) protocol.Diagnostic {
	t.Helper()
	for _, d := range ds {
		if d.Code == code {
			return d
		}
	}
	t.Fatalf("no %s among %v", code, Codes(ds))
	return protocol.Diagnostic{}
}
