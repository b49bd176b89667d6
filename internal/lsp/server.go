// Package lsp is ascvet's language server (ascvet lsp): the findings, their
// costs and fixes inside the editor.
//
// The server speaks the Language Server Protocol (over stdin and stdout
// in ascvet lsp), with go.lsp.dev's JSON-RPC 2 transport and protocol
// types. It analyses each open document from the editor's buffer, through
// the command line's pipeline (driver.Pipeline): the rules, ascvet.toml
// found from the file, directives, the baseline (Options.Baseline) and the
// result cache, shared with the command line (a buffer that matches a file
// already checked is answered from it).
//
//   - Diagnostics are published on open and save, and after a change once
//     the buffer has been quiet for Options.Debounce; an analysis that a newer
//     change (or a save, or the close) overtook is stopped where it is
//     (runner.File.Stop: a big buffer's parse, simulations and fix checks
//     would hold a CPU and their memory to the end for nothing) and
//     dropped. Each carries its rule ID as code, a link
//     to the rule's documentation (codeDescription), its related locations
//     and the severity as clangd maps its own: error 1, warning 2, info 3.
//   - A header saved (or changed on disk, as the client reports) has the
//     open files whose analysis read it analysed again, and only those.
//   - Code actions: each suggested fix (hoist, sink, ...) as a quick fix
//     with its edits, and, for every finding, "suppress with a reason",
//     which inserts an ascvet:ignore directive on the line above with a
//     reason to fill in.
//   - Hover: on a finding, the rule's documentation in the client's
//     language (initialize's locale: zh* gives Chinese) and the simulated
//     cycles before and after the fix; on the first line of a VF loop, a
//     one-line `ascvet sim` summary.
//   - An analyzer that panics is logged to the client (window/logMessage);
//     the other analyzers' findings still arrive. A panic anywhere else in
//     the handling of one message is logged too, and the server goes on.
//
// Documents are synchronised whole (TextDocumentSyncKind Full): kernels
// are tens of kilobytes, and go.lsp.dev's change event cannot tell a whole
// replacement from an edit at 0:0. Positions are in UTF-16 code units, as
// LSP 3.16 requires.
package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/cppir"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/cppfront"
	"github.com/ascvet/ascvet/internal/driver"
	"github.com/ascvet/ascvet/internal/repo"
	"github.com/ascvet/ascvet/internal/report"
	"github.com/ascvet/ascvet/internal/resultcache"
	"github.com/ascvet/ascvet/internal/source"
	"github.com/ascvet/ascvet/ruleset"
	"github.com/ascvet/ascvet/ruleset/config"
	"github.com/ascvet/ascvet/ruleset/i18n"
	"github.com/ascvet/ascvet/simcheck"
)

// Options tune a server.
type Options struct {
	Baseline string         // report only findings that are not in this baseline file; "": none
	Debounce time.Duration  // analyse a changed buffer once it has been quiet this long
	NoCache  bool           // do not use the result cache
	Lang     string         // language of messages and hovers ("": the client's locale, else the environment's)
	Version  string         // the server's version, as initialize's serverInfo gives it
	Defines  source.Defines // -D build macros every file sees first, as the command line's
}

// Debounce is how long a changed buffer must be quiet before it is
// analysed: long enough to take a burst of changes (a paste, an editor's
// several edits for one command) as one, short against the 100 ms in which
// the diagnostics of a change should arrive.
const Debounce = 15 * time.Millisecond

// Segments are the segment sizes of the server's parses (SetSegments):
// a file from 32 KB is cut into pieces of about a third of that, parsed
// and lowered on cpus CPUs at once.
func Segments(cpus int) (min, size int) {
	if cpus < 2 {
		return 1 << 20, 256 << 10 // one CPU: the defaults
	}
	return 32 << 10, 12 << 10
}

// Server is one language server session.
type Server struct {
	opts  Options
	lim   source.Limits
	as    []*analysis.Analyzer
	logw  io.Writer
	conn  jsonrpc2.Conn
	cache *resultcache.Cache
	work  chan struct{} // a token per analysis running at once
	pubMu sync.Mutex    // held while an analysis publishes its diagnostics

	exited   chan struct{} // closed on the client's exit notification
	exitOnce sync.Once

	mu          sync.Mutex
	docs        map[string]*document // by path
	active      int                  // analyses under way
	idle        sync.Cond            // on mu: signalled when active falls to 0
	closed      bool                 // serve is ending: no analysis starts
	pipe        *driver.Pipeline
	lang        string
	shutdown    bool
	watch       bool // the client takes file watchers registered dynamically
	snippets    bool // the client takes snippets in a code action's edit (clientSnippetEdits)
	initialized bool // initialize was answered: a second one is refused
	hooks       Hooks
}

// Hooks are told what the server's analyses do, for tests and tools that
// watch a session. A nil hook is not called.
type Hooks struct {
	Analysed func(path string, version int32) // the diagnostics of a version of the document went out
	Stopped  func(path string)                // an analysis that a newer generation overtook stopped early
}

// SetHooks makes the server call h from now on.
func (s *Server) SetHooks(h Hooks) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks = h
}

// Analysing reports whether the given version of the open document at
// path is being analysed now.
func (s *Server) Analysing(path string, version int32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	return d != nil && d.version == version && d.stop != nil
}

// Active returns the number of analyses under way.
func (s *Server) Active() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active
}

// CacheStats returns the counters of the result cache the session opened
// at initialize; nil without one.
func (s *Server) CacheStats() *resultcache.Counters {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cache.Stats()
}

// document is an open document.
type document struct {
	uri     protocol.DocumentURI
	path    string
	version int32
	text    []byte
	gen     int          // bumped by each change (overtake); an analysis of an older gen is dropped
	stop    *atomic.Bool // the stop flag of the analysis of gen under way; nil when none is
	timer   *time.Timer  // the pending debounced analysis
	res     *result      // the latest analysis published
}

// overtake makes a new generation of d, after a change, a save or the
// close: the analysis of the old one under way stops early, and is
// dropped. s.mu is held.
func (d *document) overtake() {
	d.gen++
	if d.stop != nil {
		d.stop.Store(true)
		d.stop = nil
	}
}

// result is what one analysis of a document found.
type result struct {
	text   []byte          // the text analysed
	lines  []int           // where its lines start
	issues []report.Issue  // reported (not suppressed) issues
	deps   []cppfront.Dep  // what the analysis read and looked up through the project index
	an     driver.Analysed // the pipeline's outcome (settings, configuration)
}

// New makes a server that runs the analyzers as, under the input limits'
// defaults, and logs to logw besides the client.
func New(o *Options, as []*analysis.Analyzer, logw io.Writer) (*Server, error) {
	lim := source.DefaultLimits()
	lim.Defines = o.Defines
	if err := lim.Apply(as); err != nil {
		return nil, err
	}
	s := &Server{opts: *o, lim: lim, as: as, logw: logw, docs: map[string]*document{}, work: make(chan struct{}, max(runtime.NumCPU(), 1)), exited: make(chan struct{})}
	s.idle.L = &s.mu
	return s, nil
}

// start makes the pipeline for the workspace at root, in language lang.
func (s *Server) start(root, lang string) error {
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err != nil {
		return err
	}
	// The build macros of the workspace's configuration, under the -D the
	// server was started with, as a check run at its root takes them (a
	// configuration that does not load is reported with each document).
	var runDefs []string
	if here, err := loader.ForDir(root); err == nil {
		runDefs = here.Settings.Defines
	}
	if defs := s.opts.Defines.Under(runDefs); defs != s.lim.Defines {
		if err := runner.SetFlag(s.as, "define", string(defs)); err != nil {
			return err
		}
		s.mu.Lock()
		s.lim.Defines = defs
		s.mu.Unlock()
	}
	var cache *resultcache.Cache
	if !s.opts.NoCache {
		cache = resultcache.Open(resultcache.Dir(), s.as, root, s.logw)
	}
	s.mu.Lock()
	s.cache = cache
	s.lang = lang
	// Without a scan memo, every file analysed gets a cache entry of its
	// own, which a command line run over the file finds, and the reverse.
	// freshFixes: a code action's edit is written into the buffer, so it
	// is never one read from the cache (resultCache.get): a file whose
	// stored findings carry fixes is analysed again.
	s.pipe = &driver.Pipeline{Analyzers: s.as, Loader: loader, Lang: lang, Parallel: runtime.NumCPU(), Roots: repo.NewRoots(root), Cache: s.cache, WorkDir: root, FreshFixes: true,
		Defines: runDefs, Notes: s.logw}
	s.mu.Unlock()
	return nil
}

// Serve runs the session on rwc until the client exits or the stream
// ends; it returns the exit code LSP asks for: 0 after shutdown, else 1.
//
// The exit notification ends it even while the stream stays open: a
// client may send exit and then wait for the process to end before it
// closes the server's stdin (Neovim does), and a read from stdin cannot be
// interrupted (stdio's Close does nothing).
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	s.conn = jsonrpc2.NewConn(newLSPStream(rwc, func(format string, args ...any) {
		fmt.Fprintf(s.logw, format+"\n", args...)
	}))
	s.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if err := s.handle(ctx, reply, req); err != nil {
			return connError{err} // an answer that could not be written: the connection fails with it
		}
		return nil
	})
	select {
	case <-s.conn.Done():
	case <-s.exited:
	}
	// Stop what is pending and under way, and wait for it: an analysis
	// must not outlive the server (nor write to its cache once closed).
	// What it would publish is dropped (overtake), so none waits on the
	// client.
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, d := range s.docs {
		if d.timer != nil {
			d.timer.Stop()
		}
		d.overtake()
	}
	for s.active > 0 {
		s.idle.Wait()
	}
	s.cache.Close()
	if s.shutdown {
		return 0
	}
	return 1
}

// handle answers one message. It runs on the connection's reading
// goroutine: analyses run elsewhere, and nothing here waits on the client.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logf(protocol.MessageTypeError, "ascvet lsp: internal error handling %s: %v\n%s", req.Method(), r, debug.Stack())
			if _, isCall := req.(*jsonrpc2.Call); isCall {
				err = reply(ctx, nil, fmt.Errorf("ascvet: internal error: %v", r))
			}
		}
	}()
	switch req.Method() {
	case protocol.MethodInitialize:
		var p protocol.InitializeParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err))
		}
		snippets := clientSnippetEdits(req.Params())
		s.mu.Lock()
		again := s.initialized
		s.initialized = true
		if !again {
			s.snippets = snippets
		}
		s.mu.Unlock()
		if again {
			// LSP allows one: another would swap the language, pipeline
			// and cache under the open documents and their analyses.
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "invalid request: the session is initialized already"))
		}
		return reply(ctx, s.initialize(&p), nil)
	case protocol.MethodInitialized:
		s.registerWatchers()
		return nil
	case "$/cancelRequest", "$/setTrace", protocol.MethodWorkspaceDidChangeConfiguration:
		return nil
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		s.exitOnce.Do(func() { close(s.exited) })
		return s.conn.Close()
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if json.Unmarshal(req.Params(), &p) == nil {
			s.open(p.TextDocument.URI, p.TextDocument.Version, []byte(p.TextDocument.Text))
		}
		return nil
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if json.Unmarshal(req.Params(), &p) == nil && len(p.ContentChanges) > 0 {
			s.change(p.TextDocument.URI, p.TextDocument.Version, []byte(p.ContentChanges[len(p.ContentChanges)-1].Text))
		}
		return nil
	case protocol.MethodTextDocumentDidSave:
		var p protocol.DidSaveTextDocumentParams
		if json.Unmarshal(req.Params(), &p) == nil {
			s.saved(URIPath(p.TextDocument.URI))
		}
		return nil
	case protocol.MethodWorkspaceDidChangeWatchedFiles:
		var p protocol.DidChangeWatchedFilesParams
		if json.Unmarshal(req.Params(), &p) == nil {
			for _, c := range p.Changes {
				s.saved(URIPath(c.URI))
			}
		}
		return nil
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if json.Unmarshal(req.Params(), &p) == nil {
			s.close(p.TextDocument.URI)
		}
		return nil
	case protocol.MethodTextDocumentCodeAction:
		var p protocol.CodeActionParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err))
		}
		return reply(ctx, s.codeActions(&p), nil)
	case protocol.MethodTextDocumentHover:
		var p protocol.HoverParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err))
		}
		h := s.hover(&p)
		if h == nil {
			return reply(ctx, nil, nil)
		}
		return reply(ctx, h, nil)
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", req.Method()))
	}
	return nil // a notification the server does not use
}

// initialize answers the client's initialize: the capabilities, and the
// pipeline for its workspace and locale.
func (s *Server) initialize(p *protocol.InitializeParams) *protocol.InitializeResult {
	root := ""
	if len(p.WorkspaceFolders) > 0 {
		root = URIPath(protocol.DocumentURI(p.WorkspaceFolders[0].URI))
	} else if p.RootURI != "" { //nolint:staticcheck // LSP 3.5 and older clients send only rootUri
		root = URIPath(p.RootURI) //nolint:staticcheck // as above
	}
	if root == "" {
		root, _ = os.Getwd()
	}
	lang := s.opts.Lang
	if lang == "" && p.Locale != "" {
		lang = i18n.Normalize(p.Locale)
	}
	if lang == "" {
		lang = i18n.Lang("", os.Getenv)
	}
	if ws := p.Capabilities.Workspace; ws != nil && ws.DidChangeWatchedFiles != nil && ws.DidChangeWatchedFiles.DynamicRegistration {
		s.mu.Lock()
		s.watch = true
		s.mu.Unlock()
	}
	if err := s.start(root, lang); err != nil {
		s.logf(protocol.MessageTypeError, "ascvet lsp: %v", err)
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindFull,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider:      true,
			CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
		},
		ServerInfo: &protocol.ServerInfo{Name: "ascvet", Version: s.opts.Version},
	}
}

// lspSource reports whether the server analyses the file at path: the
// C++ sources the command line walks, and Python DSL files.
func lspSource(path string) bool {
	return runner.IsSource(filepath.Base(path)) || cppir.IsPython(path)
}

func (s *Server) open(uri protocol.DocumentURI, version int32, text []byte) {
	path := URIPath(uri)
	if path == "" || !lspSource(path) {
		return
	}
	s.mu.Lock()
	d := s.docs[path]
	if d == nil {
		d = &document{uri: uri, path: path}
		s.docs[path] = d
	}
	d.version, d.text = version, text
	d.overtake()
	s.mu.Unlock()
	s.schedule(d, 0)
}

func (s *Server) change(uri protocol.DocumentURI, version int32, text []byte) {
	s.mu.Lock()
	d := s.docs[URIPath(uri)]
	if d == nil {
		s.mu.Unlock()
		return
	}
	d.version, d.text = version, text
	d.overtake()
	s.mu.Unlock()
	s.schedule(d, s.opts.Debounce)
}

// saved re-reads the headers from disk and analyses again the document
// at path, when it is open, and every open document whose last analysis
// read it or made a lookup it changes the answer of (a header created
// where an include found nothing); every open document when path is an
// ascvet.toml, whose configuration is read again.
func (s *Server) saved(path string) {
	cppir.ProjectIndex().Refresh()
	isConfig := filepath.Base(path) == "ascvet.toml"
	if isConfig {
		s.reloadConfig()
	}
	s.mu.Lock()
	var again []*document
	for _, d := range s.docs {
		if isConfig || d.path == path || d.res != nil && stale(d.res.deps, path) {
			d.overtake()
			again = append(again, d)
		}
	}
	s.mu.Unlock()
	for _, d := range again {
		s.schedule(d, 0)
	}
}

// stale reports whether an analysis with dependencies deps must be made
// again now that path changed on disk (the index refreshed): it read path,
// or one of its lookups finds another answer, as when path is a header
// created where an include found nothing or nearer than what it found.
func stale(deps []cppfront.Dep, path string) bool {
	ix := cppir.ProjectIndex()
	for _, d := range deps {
		if d.Lookup == "" && d.Path == path || d.Lookup != "" && !ix.Holds(d) {
			return true
		}
	}
	return false
}

// reloadConfig makes the pipeline read the ascvet.toml files again: the
// loader keeps what it parsed for the life of a run.
func (s *Server) reloadConfig() {
	loader, err := config.NewLoader(config.Options{Chips: simcheck.Chips()})
	if err != nil {
		s.logf(protocol.MessageTypeError, "ascvet lsp: %v", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pipe != nil {
		p := *s.pipe
		p.Loader = loader
		s.pipe = &p
	}
}

// lspWatched are the files whose changes on disk the server asks a client
// that can watch files to report (workspace/didChangeWatchedFiles): the
// sources, whose dependents it analyses again, and the configuration.
var lspWatched = []string{"**/*.{asc,cpp,cc,cxx,h,hh,hpp,hxx,py}", "**/ascvet.toml"}

// registerWatchers asks the client, when it can, to report changes to the
// watched files made outside the editor (a checkout, a generator). It
// runs on its own goroutine: the answer arrives on the connection's
// reading goroutine, which handle must not block.
func (s *Server) registerWatchers() {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if !watch {
		return
	}
	watchers := make([]protocol.FileSystemWatcher, len(lspWatched))
	for i, g := range lspWatched {
		watchers[i] = protocol.FileSystemWatcher{GlobPattern: g}
	}
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "ascvet-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := s.conn.Call(ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
			s.logf(protocol.MessageTypeWarning, "ascvet lsp: the client did not take the file watchers: %v", err)
		}
	}()
}

func (s *Server) close(uri protocol.DocumentURI) {
	path := URIPath(uri)
	s.pubMu.Lock() // after any analysis of it that is publishing
	defer s.pubMu.Unlock()
	s.mu.Lock()
	d := s.docs[path]
	if d != nil {
		if d.timer != nil {
			d.timer.Stop()
		}
		d.overtake()
		delete(s.docs, path)
	}
	s.mu.Unlock()
	if d != nil {
		s.publish(uri, nil, []protocol.Diagnostic{})
	}
}

// schedule analyses d after delay, unless a newer change comes first.
func (s *Server) schedule(d *document, delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	gen := d.gen
	d.timer = time.AfterFunc(delay, func() { s.analyse(d, gen) })
}

// analyse analyses generation gen of d and publishes its diagnostics,
// unless a newer generation came meanwhile: the analysis stops early when
// one comes while it runs (overtake sets its flag).
func (s *Server) analyse(d *document, gen int) {
	s.work <- struct{}{}
	defer func() { <-s.work }()
	s.mu.Lock()
	if d.gen != gen || s.pipe == nil || s.closed {
		s.mu.Unlock()
		return
	}
	text, version, pipe := d.text, d.version, s.pipe
	stop := new(atomic.Bool)
	d.stop = stop
	s.active++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if d.stop == stop {
			d.stop = nil
		}
		if s.active--; s.active == 0 {
			s.idle.Broadcast()
		}
		s.mu.Unlock()
	}()

	res, ok := s.run(pipe, d.path, text, stop)
	if !ok {
		return
	}
	diags := s.diagnostics(d.uri, res)
	// One publisher at a time, checking under it that no newer analysis
	// came: an older one never publishes after a newer one.
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	current := d.gen == gen
	if current {
		d.res = res
	}
	analysed := s.hooks.Analysed
	s.mu.Unlock()
	if !current {
		return
	}
	if analysed != nil {
		analysed(d.path, version)
	}
	v := version
	s.publish(d.uri, &v, diags)
}

// run analyses text as the file path through the pipeline, stopping early
// once stop is set; false when it could not (the reason is logged) or was
// stopped (a newer generation overtook it: nothing to say).
func (s *Server) run(pipe *driver.Pipeline, path string, text []byte, stop *atomic.Bool) (res *result, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			s.logf(protocol.MessageTypeError, "ascvet lsp: internal error analysing %s: %v\n%s", path, r, debug.Stack())
			res, ok = nil, false
		}
	}()
	res = &result{text: text, lines: lineStarts(text)}
	// What the command line refuses to read, the server refuses to
	// analyse, with the same message: a huge buffer, UTF-16 or binary.
	if s.lim.MaxFileSize > 0 && int64(len(text)) > s.lim.MaxFileSize {
		s.logf(protocol.MessageTypeWarning, "ascvet: %s", source.Describe(path, source.TooBig(int64(len(text)), &s.lim)))
		return res, true
	}
	if err := source.Sniff(text); err != nil {
		s.logf(protocol.MessageTypeWarning, "ascvet: %s", source.Describe(path, err))
		return res, true
	}
	// The cache keeps the analysis of a buffer that matches its file (as
	// opened, or saved): the command line finds it. The states in between,
	// one a keystroke, are not worth an entry each.
	disk, err := os.ReadFile(path)
	a := pipe.RunStore(path, text, err == nil && bytes.Equal(disk, text), stop)
	if a.Stopped {
		s.mu.Lock()
		stopped := s.hooks.Stopped
		s.mu.Unlock()
		if stopped != nil {
			stopped(path)
		}
		return nil, false
	}
	res.an = a
	switch {
	case a.ConfigErr != "":
		s.logf(protocol.MessageTypeError, "ascvet: %s", a.ConfigErr)
		return res, true // no findings until the configuration loads
	case a.Skip != "":
		s.logf(protocol.MessageTypeWarning, "ascvet: %s", a.Skip)
		return res, true
	}
	for _, e := range a.Errs {
		msg := e.Error()
		if len(e.Stack) > 0 {
			msg += "\n" + string(e.Stack)
		}
		s.logf(protocol.MessageTypeError, "ascvet: %s", msg)
	}
	issues := a.Issues
	if s.opts.Baseline != "" {
		var logb bytes.Buffer
		var err error
		// The open file is all the server analysed: the baseline's
		// entries of the other files are not its to call stale.
		scope := &driver.RunScope{Roots: pipe.Roots, Files: []string{path}}
		if issues, err = driver.ApplyBaseline(&logb, scope, s.opts.Baseline, issues, nil); err != nil {
			s.logf(protocol.MessageTypeError, "ascvet: -baseline: %v", err)
			issues = a.Issues
		}
	}
	for _, is := range issues {
		if len(is.Suppressed) == 0 {
			res.issues = append(res.issues, is)
		}
	}
	res.deps = a.Deps
	return res, true
}

// severity maps a severity as clangd maps clang's: error 1, warning 2,
// note (our info) 3.
func severity(s ruleset.Severity) protocol.DiagnosticSeverity {
	switch s {
	case ruleset.Error:
		return protocol.DiagnosticSeverityError
	case ruleset.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// diagnostics turns an analysis's issues into LSP diagnostics of uri.
func (s *Server) diagnostics(uri protocol.DocumentURI, res *result) []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	for i := range res.issues {
		is := &res.issues[i]
		d := protocol.Diagnostic{
			Range:    res.rangeOf(is.Pos, is.End),
			Severity: severity(is.Level),
			Code:     is.RuleID(),
			Source:   "ascvet",
			Message:  is.Message,
		}
		if is.Rule != nil {
			if href, err := url.Parse(is.Rule.Doc(s.lang).HelpURI); err == nil {
				d.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(href.String())}
			}
		}
		for _, r := range is.Related {
			loc := protocol.Location{URI: uri, Range: res.rangeOf(r.Pos, r.End)}
			if r.Pos.Filename != "" && r.Pos.Filename != is.Pos.Filename {
				loc = protocol.Location{URI: PathURI(r.Pos.Filename), Range: lineRange(r.Pos, r.End)}
			}
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: r.Message})
		}
		out = append(out, d)
	}
	return out
}

func (s *Server) publish(uri protocol.DocumentURI, version *int32, diags []protocol.Diagnostic) {
	p := publishParams{URI: uri, Version: version, Diagnostics: diags}
	if err := s.conn.Notify(context.Background(), protocol.MethodTextDocumentPublishDiagnostics, p); err != nil {
		fmt.Fprintf(s.logw, "ascvet lsp: publishing diagnostics: %v\n", err)
	}
}

// publishParams is PublishDiagnosticsParams with the version left out
// when there is none (go.lsp.dev's sends 0).
type publishParams struct {
	URI         protocol.DocumentURI  `json:"uri"`
	Version     *int32                `json:"version,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// logf logs to stderr (the client's server log) and to the client.
func (s *Server) logf(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(s.logw, msg)
	if s.conn != nil {
		_ = s.conn.Notify(context.Background(), protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: typ, Message: msg})
	}
}

// result returns the latest analysis of the document at uri, or nil.
func (s *Server) result(uri protocol.DocumentURI) *result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[URIPath(uri)]; d != nil {
		return d.res
	}
	return nil
}
