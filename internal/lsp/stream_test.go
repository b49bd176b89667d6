package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ascvet/ascvet/analyzers/all"
	"github.com/ascvet/ascvet/internal/lsp"
)

// rawSession is a server whose client is the test itself, writing and
// reading the protocol's frames byte for byte: for what lsptest's client
// cannot send (broken frames, an input that ends mid-message) or cannot
// check (that nothing answers a notification, an error answer to the
// server's own request).
type rawSession struct {
	t    *testing.T
	conn net.Conn
	in   *bufio.Reader
	exit chan int // what Serve returned

	logMu sync.Mutex
	log   strings.Builder // what the server wrote to its log (stderr)
}

// startRaw starts a server (every rule, no cache) on a pipe whose other
// end is the test's.
func startRaw(t *testing.T) *rawSession {
	t.Helper()
	return startRawCtx(t, context.Background())
}

// startRawCtx is startRaw with the context Serve is given.
func startRawCtx(t *testing.T, ctx context.Context) *rawSession {
	t.Helper()
	r := &rawSession{t: t, exit: make(chan int, 1)}
	srv, err := lsp.New(&lsp.Options{NoCache: true, Debounce: 5 * time.Millisecond}, all.Analyzers(), writerFunc(func(p []byte) (int, error) {
		r.logMu.Lock()
		defer r.logMu.Unlock()
		return r.log.Write(p)
	}))
	if err != nil {
		t.Fatal(err)
	}
	a, b := net.Pipe()
	r.conn, r.in = a, bufio.NewReader(a)
	served := make(chan struct{})
	go func() {
		defer close(served)
		r.exit <- srv.Serve(ctx, b)
	}()
	t.Cleanup(func() {
		a.Close()
		<-served
	})
	return r
}

// frame frames body as the protocol does.
func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// send writes raw bytes to the server.
func (r *rawSession) send(raw string) {
	r.t.Helper()
	if err := r.conn.SetWriteDeadline(time.Now().Add(30 * time.Second)); err != nil {
		r.t.Fatal(err)
	}
	if _, err := io.WriteString(r.conn, raw); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

// sendOverLimit sends a message of 256 MiB + 1 bytes (x's), one more than
// the limit, its header holding the Content-Length and then extra lines.
func (r *rawSession) sendOverLimit(extra string) {
	const size = 256<<20 + 1
	r.send(fmt.Sprintf("Content-Length: %d\r\n%s\r\n", size, extra))
	chunk := strings.Repeat("x", 1<<20)
	for n := 0; n < size; n += len(chunk) {
		r.send(chunk[:min(len(chunk), size-n)])
	}
}

// recv returns the body of the next frame the server writes.
func (r *rawSession) recv() string {
	r.t.Helper()
	if err := r.conn.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
		r.t.Fatal(err)
	}
	length := -1
	for {
		line, err := r.in.ReadString('\n')
		if err != nil {
			r.t.Fatalf("reading a header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			if length, err = strconv.Atoi(v); err != nil {
				r.t.Fatalf("header %q: %v", line, err)
			}
		}
	}
	if length < 0 {
		r.t.Fatal("a frame without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.in, body); err != nil {
		r.t.Fatal(err)
	}
	return string(body)
}

// recvUntil returns the body of the first frame from now that contains
// want.
func (r *rawSession) recvUntil(want string) string {
	r.t.Helper()
	for {
		if body := r.recv(); strings.Contains(body, want) {
			return body
		}
	}
}

// ping makes a request of a method the server does not know, and checks
// that the very next frame is its answer: method not found, with its id.
func (r *rawSession) ping(id int) {
	r.t.Helper()
	r.send(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ascvet/ping"}`, id)))
	body := r.recv()
	if !strings.Contains(body, fmt.Sprintf(`"id":%d`, id)) || !strings.Contains(body, `"code":-32601`) {
		r.t.Fatalf("answer to ping %d: %s, want method not found for its id", id, body)
	}
}

// ended waits for the session to end and returns Serve's exit code.
func (r *rawSession) ended() int {
	r.t.Helper()
	select {
	case code := <-r.exit:
		return code
	case <-time.After(30 * time.Second):
		r.t.Fatal("the session did not end")
	}
	return -1
}

// logged returns what the server wrote to its log so far.
func (r *rawSession) logged() string {
	r.logMu.Lock()
	defer r.logMu.Unlock()
	return r.log.String()
}

// TestLSPNotificationsUnanswered: a notification is never answered, whether
// the server uses it, ignores it on purpose ($/cancelRequest, $/setTrace,
// workspace/didChangeConfiguration) or does not know it, and whatever its
// parameters; the session goes on. The answer to the request sent after
// them is the first frame the server writes.
func TestLSPNotificationsUnanswered(t *testing.T) {
	r := startRaw(t)
	for i, body := range []string{
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}`,
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"verbose"}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{}}}`,
		`{"jsonrpc":"2.0","method":"ascvet/someNotification","params":{}}`,
		`{"jsonrpc":"2.0","method":"$/progress","params":{"token":1,"value":{}}}`,
		// Notifications the server uses, with parameters it cannot read.
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":7}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":[]}`,
		`{"jsonrpc":"2.0","method":"textDocument/didSave","params":"x"}`,
		`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":5}}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":{}}}`,
	} {
		r.send(frame(body))
		r.ping(100 + i)
	}
	r.conn.Close()
	if code := r.ended(); code != 1 {
		t.Errorf("exit %d when the input ended without shutdown, want 1", code)
	}
}

// TestLSPInputEnds: the end of the input ends the session (Serve returns
// 1: no shutdown came) wherever it comes, in a message's header or body,
// or in the body of a message skipped for its size, which is logged.
func TestLSPInputEnds(t *testing.T) {
	for _, c := range []struct{ name, raw, log string }{
		{"in a body", "Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",", ""},
		{"in a header", "Content-Length: 10\r\nContent-Type: appl", ""},
		{"in the body of a malformed header", "Content-Length: 50\r\nbogus\r\n\r\n{\"json", `malformed header (header line "bogus")`},
		{"in the body of a message over the limit", fmt.Sprintf("Content-Length: %d\r\n\r\n{\"jsonrpc\":", 256<<20+1), "dropped an LSP message of 268435457 bytes, over the 256 MiB limit"},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			r := startRaw(t)
			r.ping(1)
			r.send(c.raw)
			r.conn.Close()
			if code := r.ended(); code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if got := r.logged(); !strings.Contains(got, c.log) {
				t.Errorf("log %q lacks %q", got, c.log)
			}
		})
	}
}

// TestLSPContextCancelled: a session whose context is cancelled ends
// (exit code 1: no shutdown came) and closes its end of the stream,
// without writing anything.
func TestLSPContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := startRawCtx(t, ctx)
	if code := r.ended(); code != 1 {
		t.Errorf("exit %d with a cancelled context, want 1", code)
	}
	if got, err := io.ReadAll(r.in); err != nil || len(got) != 0 {
		t.Errorf("the server wrote %q (%v), want nothing before the end of its stream", got, err)
	}
}

// TestLSPContextCancelledInRead: a context cancelled while the server
// reads a message ends the session too: the message is not answered (the
// answer cannot be written), and Serve returns 1.
func TestLSPContextCancelledInRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := startRawCtx(t, ctx)
	r.ping(1)
	body := `{"jsonrpc":"2.0","id":2,"method":"ascvet/ping"}`
	// Once the header's first line is written, the server has read it: it
	// is in Read, past its check of the context.
	r.send(fmt.Sprintf("Content-Length: %d\r\n", len(body)))
	cancel()
	r.send("\r\n" + body)
	if code := r.ended(); code != 1 {
		t.Errorf("exit %d after the context was cancelled, want 1", code)
	}
	if got, err := io.ReadAll(r.in); err != nil || len(got) != 0 {
		t.Errorf("the server wrote %q (%v), want nothing before the end of its stream", got, err)
	}
}

// TestLSPClientGoneBeforeAnswer: a client that closes the stream with a
// request unanswered (an editor quitting) ends the session: Serve returns
// 1.
func TestLSPClientGoneBeforeAnswer(t *testing.T) {
	r := startRaw(t)
	r.ping(1)
	r.send(frame(`{"jsonrpc":"2.0","id":2,"method":"ascvet/ping"}`))
	r.conn.Close()
	if code := r.ended(); code != 1 {
		t.Errorf("exit %d when the client went away, want 1", code)
	}
}

// TestLSPOverLimitSkipped: a message over the size limit is read through
// and dropped, without being held, and the message after it is answered.
func TestLSPOverLimitSkipped(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 256 MiB through a pipe")
	}
	r := startRaw(t)
	r.ping(1)
	r.sendOverLimit("")
	r.ping(2)
	if got := r.logged(); !strings.Contains(got, "dropped an LSP message of 268435457 bytes, over the 256 MiB limit") {
		t.Errorf("log %q lacks the dropped message", got)
	}
}

// TestLSPLongHeaderLine: a header line longer than the reader's buffer is
// read whole, logged clipped and dropped; the session goes on.
func TestLSPLongHeaderLine(t *testing.T) {
	r := startRaw(t)
	long := strings.Repeat("x", 10<<10)
	r.send(long + "\r\n\r\n")
	r.ping(1)
	// A long line with a Content-Length after it: the line is bad, the
	// body is dropped with it.
	r.send(long + "\r\n" + frame(`{"jsonrpc":"2.0","id":2,"method":"ascvet/ping"}`))
	r.ping(3)
	got := r.logged()
	if want := `malformed header (header line "` + strings.Repeat("x", 80) + `...")`; strings.Count(got, want) != 2 {
		t.Errorf("log %q: want %q twice", got, want)
	}
}

// TestLSPWatchersRefused: a client that says it can watch files but
// refuses the registration gets the refusal logged as a warning
// (window/logMessage), and the session goes on.
func TestLSPWatchersRefused(t *testing.T) {
	r := startRaw(t)
	dir := t.TempDir()
	r.send(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"` + string(lsp.PathURI(dir)) +
		`","capabilities":{"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}}}}}`))
	if body := r.recv(); !strings.Contains(body, `"id":1`) || !strings.Contains(body, `"capabilities"`) {
		t.Fatalf("initialize answered %s", body)
	}
	r.send(frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
	reg := r.recvUntil(`"method":"client/registerCapability"`)
	var call struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal([]byte(reg), &call); err != nil || len(call.ID) == 0 || !strings.Contains(reg, "ascvet.toml") {
		t.Fatalf("registration %s (%v)", reg, err)
	}
	r.send(frame(`{"jsonrpc":"2.0","id":` + string(call.ID) + `,"error":{"code":-32601,"message":"no watching here"}}`))
	msg := r.recvUntil(`"method":"window/logMessage"`)
	if !strings.Contains(msg, "the client did not take the file watchers: no watching here") || !strings.Contains(msg, `"type":2`) {
		t.Errorf("log message %s, want the refusal as a warning", msg)
	}
	r.ping(2)
}

// TestLSPOverLimitMalformedHeader: a message whose header has a bad line
// and a Content-Length over the limit is dropped, body and all, like one
// with a bad line and a smaller length, or one over the limit alone; the
// next message is answered.
func TestLSPOverLimitMalformedHeader(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 256 MiB through a pipe")
	}
	r := startRaw(t)
	r.ping(1)
	r.sendOverLimit("bogus\r\n")
	r.ping(2)
	if got := r.logged(); !strings.Contains(got, `malformed header (header line "bogus")`) {
		t.Errorf("log %q lacks the malformed header", got)
	}
}
