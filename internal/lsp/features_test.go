package lsp

import (
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/internal/report"
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

// TestLSPRelatedElsewhere: a related location in another file (a header,
// whose text the server does not hold) is published with that file's URI
// and its byte columns taken as characters; one in the document with the
// document's URI and UTF-16 characters. A finding whose line is past the
// text is placed at its end, and one that ends before it starts is empty.
func TestLSPRelatedElsewhere(t *testing.T) {
	text := "a\n// é😀x\n"
	res := &result{text: []byte(text), lines: lineStarts([]byte(text))}
	doc, hdr := filepath.FromSlash("/w/k.asc"), filepath.FromSlash("/w/inc/rows.h")
	at := func(file string, line, col int) token.Position {
		return token.Position{Filename: file, Line: line, Column: col}
	}
	probe := &analysis.Analyzer{Name: "probe"}
	res.issues = []report.Issue{
		{Finding: runner.Finding{Analyzer: probe, Pos: at(doc, 2, 10), End: at(doc, 2, 11)}, Message: "x", Related: []report.Related{
			{Pos: at(hdr, 3, 5), End: at(hdr, 3, 12), Message: "in the header"},
			{Pos: at(doc, 1, 1), End: at(doc, 1, 2), Message: "in the document"},
			{Pos: at("", 2, 3), End: at("", 2, 4), Message: "no file: the document"},
		}},
		{Finding: runner.Finding{Analyzer: probe, Pos: at(doc, 9, 3), End: at(doc, 1, 1)}, Message: "past the end"},
	}
	uri := PathURI(doc)
	ds := (&Server{}).diagnostics(uri, res)
	rng := func(l0, c0, l1, c1 uint32) protocol.Range {
		return protocol.Range{Start: protocol.Position{Line: l0, Character: c0}, End: protocol.Position{Line: l1, Character: c1}}
	}
	if len(ds) != 2 {
		t.Fatalf("%d diagnostics, want 2", len(ds))
	}
	if ds[0].Range != rng(1, 6, 1, 7) || ds[0].Code != "probe" || ds[0].Message != "x" {
		t.Errorf("diagnostic %+v, want probe at 1:6-1:7", ds[0])
	}
	want := []protocol.DiagnosticRelatedInformation{
		{Location: protocol.Location{URI: PathURI(hdr), Range: rng(2, 4, 2, 11)}, Message: "in the header"},
		{Location: protocol.Location{URI: uri, Range: rng(0, 0, 0, 1)}, Message: "in the document"},
		{Location: protocol.Location{URI: uri, Range: rng(1, 2, 1, 3)}, Message: "no file: the document"},
	}
	if !slices.Equal(ds[0].RelatedInformation, want) {
		t.Errorf("related %+v, want %+v", ds[0].RelatedInformation, want)
	}
	if ds[1].Range != rng(2, 0, 2, 0) {
		t.Errorf("a finding past the text at %+v, want the empty range at its end 2:0", ds[1].Range)
	}
}
