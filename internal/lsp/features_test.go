package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestLSPPositions: byte columns become UTF-16 characters.
func TestLSPPositions(t *testing.T) {
	text := "a\n// é😀x\n"
	res := &result{text: []byte(text), lines: lineStarts([]byte(text))}
	x := strings.Index(text, "x")
	if got := res.position(x); got != (protocol.Position{Line: 1, Character: 6}) {
		t.Errorf("position of x %+v, want 1:6 (é is 1 unit, 😀 2)", got)
	}
	if got := res.position(len(text)); got != (protocol.Position{Line: 2, Character: 0}) {
		t.Errorf("end %+v", got)
	}
	if p := URIPath(PathURI("/tmp/a b/k.asc")); p != "/tmp/a b/k.asc" {
		t.Errorf("uri round trip %q", p)
	}
	if URIPath("untitled:Untitled-1") != "" {
		t.Error("an untitled buffer has a path")
	}
}
