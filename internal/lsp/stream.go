package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// lspStream is the language server's side of the LSP framing
// (Content-Length headers, then a JSON-RPC body), as jsonrpc2.NewStream
// reads it, but a malformed message does not end the session: jsonrpc2's
// stream returns an error for a bad header or body, and its connection
// then stops for good. Here a message that cannot be read is logged and
// skipped, a body that is not JSON-RPC is answered with the JSON-RPC error
// (parse error or invalid request, id null), and the next message is read.
// Only the end of the input (or a read error) ends the session.
type lspStream struct {
	conn io.ReadWriteCloser
	in   *bufio.Reader
	log  func(format string, args ...any)
	wmu  sync.Mutex
}

// maxLSPMessage bounds one message's body: a larger Content-Length is
// skipped (its bytes read and dropped), not allocated.
const maxLSPMessage = 256 << 20

// maxLSPHeaderLine bounds a header line: a longer one is dropped.
const maxLSPHeaderLine = 4 << 10

func newLSPStream(conn io.ReadWriteCloser, log func(string, ...any)) *lspStream {
	return &lspStream{conn: conn, in: bufio.NewReader(conn), log: log}
}

// connError is every error the connection fails with, the stream's read
// errors and the handler's write errors alike: jsonrpc2 keeps them in an
// atomic.Value, which panics when a later one is of another type than the
// first (an answer that could not be written to a client gone, then the
// read that ends the session).
type connError struct{ error }

func (e connError) Unwrap() error { return e.error }

// Read implements jsonrpc2.Stream.
func (s *lspStream) Read(ctx context.Context) (msg jsonrpc2.Message, n int64, err error) {
	defer func() {
		if err != nil {
			err = connError{err}
		}
	}()
	return s.read(ctx)
}

// read is Read, its errors as they come.
func (s *lspStream) read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		length, n, err := s.header()
		total += n
		if err != nil {
			return nil, total, err
		}
		if length < 0 {
			continue // a header block without a usable Content-Length: logged
		}
		if length > maxLSPMessage {
			s.log("ascvet: dropped an LSP message of %d bytes, over the %d MiB limit", length, maxLSPMessage>>20)
			m, err := io.CopyN(io.Discard, s.in, length)
			total += m
			if err != nil {
				return nil, total, err
			}
			continue
		}
		data := make([]byte, length)
		m, err := io.ReadFull(s.in, data)
		total += int64(m)
		if err != nil {
			return nil, total, err
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return msg, total, nil
		}
		code := jsonrpc2.ParseError
		if errors.Is(err, jsonrpc2.ErrInvalidRequest) {
			code = jsonrpc2.InvalidRequest
		}
		s.log("ascvet: dropped an LSP message that is not JSON-RPC (%v): %q", err, clip(data, 80))
		s.reply(code, err.Error())
	}
}

// header reads one header block: the Content-Length it gives, -1 when it
// gives none that can be used (logged), and the bytes read.
func (s *lspStream) header() (length int64, total int64, err error) {
	length = -1
	bad := ""
	lines := 0
	for {
		line, err := s.readLine()
		total += int64(len(line))
		if err != nil {
			return -1, total, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if lines == 0 {
				continue // blank lines between messages
			}
			break
		}
		lines++
		name, value, ok := strings.Cut(line, ":")
		switch {
		case !ok:
			bad = fmt.Sprintf("header line %q", clip([]byte(line), 80))
		case strings.EqualFold(strings.TrimSpace(name), jsonrpc2.HdrContentLength):
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 {
				bad = fmt.Sprintf("Content-Length %q", clip([]byte(strings.TrimSpace(value)), 40))
				continue
			}
			length = n
		}
	}
	if bad != "" || length < 0 {
		if bad == "" {
			bad = "no Content-Length"
		}
		s.log("ascvet: dropped an LSP message with a malformed header (%s)", bad)
		if length >= 0 && bad != "" {
			// A Content-Length came with a bad line: its body follows and
			// is dropped with it, whatever its length (read through, as
			// one over the limit is).
			m, err := io.CopyN(io.Discard, s.in, length)
			total += m
			if err != nil {
				return -1, total, err
			}
		}
		return -1, total, nil
	}
	return length, total, nil
}

// readLine reads one line, at most maxLSPHeaderLine bytes of it kept.
func (s *lspStream) readLine() (string, error) {
	var b strings.Builder
	for {
		frag, err := s.in.ReadSlice('\n')
		if b.Len() < maxLSPHeaderLine {
			b.Write(frag[:min(len(frag), maxLSPHeaderLine-b.Len())])
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return b.String(), err
	}
}

// reply sends a JSON-RPC error with id null (the id of a message that
// could not be read).
func (s *lspStream) reply(code jsonrpc2.Code, message string) {
	body, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": message},
	})
	if err != nil {
		return
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, err := fmt.Fprintf(s.conn, "%s: %d%s%s", jsonrpc2.HdrContentLength, len(body), jsonrpc2.HdrContentSeparator, body); err != nil {
		s.log("ascvet: could not answer a malformed LSP message: %v", err)
	}
}

// Write implements jsonrpc2.Stream.
func (s *lspStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n, err := fmt.Fprintf(s.conn, "%s: %d%s", jsonrpc2.HdrContentLength, len(data), jsonrpc2.HdrContentSeparator)
	total := int64(n)
	if err != nil {
		return total, fmt.Errorf("write data to conn: %w", err)
	}
	m, err := s.conn.Write(data)
	total += int64(m)
	if err != nil {
		return total, fmt.Errorf("write data to conn: %w", err)
	}
	return total, nil
}

// Close implements jsonrpc2.Stream.
func (s *lspStream) Close() error { return s.conn.Close() }

// clip returns at most n bytes of b, as text.
func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}
