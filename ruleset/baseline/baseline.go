// Package baseline records the findings a project has accepted, so that a
// run reports only the findings that are new.
//
// A finding is known by a fingerprint of its rule, its file's path (from
// the repository root, see Entry.Path) and its
// source line(s) normalised (comments dropped, blanks that do not separate
// two words dropped), never by its line number: code that moves, because
// lines were added above it, keeps its fingerprint, while editing the
// flagged line makes the finding new. Identical fingerprints form a
// multiset: with two in the baseline and three now, one is new.
//
//	baseline: ASC1001 k.cpp "LoadUnAlignPre(u, src + i*VL);" line 40
//	now:      ASC1001 k.cpp "LoadUnAlignPre(u,src+i*VL); // hot" line 52  → matched
//
// The file is JSON, versioned and written stably (sorted, indented, one
// trailing newline) and atomically:
//
//	{"version": 2, "tool": "ascvet", "entries": [{"rule": ..., "path": ..., "fingerprint": ..., "message": ..., "line": ...}]}
//
// In version 2 an entry's path, and the path its fingerprint hashes, is the
// file's path from its repository root (the git top-level, else the
// directory of the nearest ascvet.toml, else the working directory), so a
// baseline matches from whatever directory ascvet runs. Version 1 kept the
// path as the finding gave it, relative to the working directory of the
// run that wrote it; Read still accepts it, and a driver can match its
// entries through Entry.Aliases (see LegacyVersion).
package baseline

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ascvet/ascvet/internal/regfile"
)

// Version is the version of the file format that this package writes.
const Version = 2

// LegacyVersion is the version whose paths are relative to the working
// directory of the run that wrote the file, which Read accepts too.
const LegacyVersion = 1

// Tool is the tool name recorded in the file.
const Tool = "ascvet"

// Entry is one finding.
type Entry struct {
	Rule        string `json:"rule"`           // rule ID
	Path        string `json:"path"`           // slash-separated, from the repository root (version 1: as the finding gave it)
	Fingerprint string `json:"fingerprint"`    // Fingerprint(Rule, Path, snippet)
	Message     string `json:"message"`        // for the reader; not matched
	Line        int    `json:"line,omitempty"` // for the reader; not matched
	// Aliases are other fingerprints of a current finding that Filter
	// also matches: those of a version 1 entry's path. Never written.
	Aliases []string `json:"-"`
}

// Baseline is the contents of a baseline file.
type Baseline struct {
	Version int     `json:"version"` // Version
	Tool    string  `json:"tool"`    // Tool
	Entries []Entry `json:"entries"` // sorted by path, line, rule, fingerprint, message
}

// MaxSnippetLines is how many lines of a finding, from its first, Snippet
// takes: a finding about a whole loop must not become new whenever a
// statement in the loop changes.
const MaxSnippetLines = 3

// Snippet returns the text of lines [line, endLine] of src (1-based,
// inclusive, at most MaxSnippetLines of them), clamped to the file.
func Snippet(src []byte, line, endLine int) string {
	return SnippetLines(bytes.Split(src, []byte("\n")), line, endLine)
}

// SnippetLines is Snippet over the lines of a file (bytes.Split on "\n"):
// a file's lines split once serve all its findings.
func SnippetLines(lines [][]byte, line, endLine int) string {
	endLine = min(max(endLine, line), line+MaxSnippetLines-1, len(lines))
	var b strings.Builder
	for n := max(line, 1); n <= endLine; n++ {
		b.Write(lines[n-1])
		b.WriteByte('\n')
	}
	return b.String()
}

// NewEntry returns the entry of a finding of rule in the file at path
// whose source lines are snippet.
func NewEntry(rule, path, snippet, message string, line int) Entry {
	p := cleanPath(path)
	return Entry{Rule: rule, Path: p, Fingerprint: Fingerprint(rule, p, snippet), Message: message, Line: line}
}

// Fingerprint returns the fingerprint of a finding of rule in the file at
// path (relative, as the finding gives it; it is made slash-separated and
// clean) whose source lines are snippet.
func Fingerprint(rule, path, snippet string) string {
	h := sha256.New()
	h.Write([]byte(rule))
	h.Write([]byte{0})
	h.Write([]byte(cleanPath(path)))
	h.Write([]byte{0})
	ext := strings.ToLower(filepath.Ext(path))
	h.Write([]byte(Normalize(snippet, ext == ".py" || ext == ".pyi")))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func cleanPath(p string) string { return path.Clean(filepath.ToSlash(p)) }

// Normalize returns snippet without comments (// and /* */, or # when
// python), and without blanks except one between two word characters, so
// that reformatting does not change it. String literals are kept as they are.
func Normalize(snippet string, python bool) string {
	var b strings.Builder
	space := false // blanks were dropped since the last byte written
	for i := 0; i < len(snippet); {
		c := snippet[i]
		switch {
		case python && c == '#', !python && c == '/' && i+1 < len(snippet) && snippet[i+1] == '/':
			for i < len(snippet) && snippet[i] != '\n' {
				i++
			}
			space = true
		case !python && c == '/' && i+1 < len(snippet) && snippet[i+1] == '*':
			j := strings.Index(snippet[i+2:], "*/")
			if j < 0 {
				i = len(snippet)
			} else {
				i += 2 + j + 2
			}
			space = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
			space = true
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(snippet) && snippet[j] != c && snippet[j] != '\n' {
				if snippet[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(snippet))
			if j < len(snippet) && snippet[j] == c {
				j++
			}
			if space && b.Len() > 0 && isWord(lastByte(&b)) && isWord(c) {
				b.WriteByte(' ')
			}
			b.WriteString(snippet[i:j])
			i, space = j, false
		default:
			if space && b.Len() > 0 && isWord(lastByte(&b)) && isWord(c) {
				b.WriteByte(' ')
			}
			b.WriteByte(c)
			i++
			space = false
		}
	}
	return b.String()
}

func lastByte(b *strings.Builder) byte { s := b.String(); return s[len(s)-1] }

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' || c >= 0x80
}

// Filter matches the current findings against the baseline b. It returns
// the indices in current of the findings that are new (not in b) and of
// those b covers, both in increasing order, and the entries of b that no
// current finding matched (stale: fixed or gone), sorted as Write sorts. Among
// equal fingerprints, current findings match in their order, against
// baseline entries in order of line.
func Filter(b *Baseline, current []Entry) (added, matched []int, stale []Entry) {
	pending := map[string][]Entry{}
	if b != nil {
		entries := slices.Clone(b.Entries)
		slices.SortStableFunc(entries, func(x, y Entry) int { return cmp.Compare(x.Line, y.Line) })
		for _, e := range entries {
			pending[e.Fingerprint] = append(pending[e.Fingerprint], e)
		}
	}
	for i, e := range current {
		if match(pending, e.Fingerprint) || slices.ContainsFunc(e.Aliases, func(fp string) bool { return match(pending, fp) }) {
			matched = append(matched, i)
			continue
		}
		added = append(added, i)
	}
	for _, q := range pending {
		stale = append(stale, q...)
	}
	slices.SortFunc(stale, compareEntries)
	return added, matched, stale
}

// match takes an entry of fingerprint fp from pending, if there is one.
func match(pending map[string][]Entry, fp string) bool {
	q := pending[fp]
	if len(q) == 0 {
		return false
	}
	pending[fp] = q[1:]
	return true
}

func compareEntries(a, b Entry) int {
	return cmp.Or(
		strings.Compare(a.Path, b.Path),
		cmp.Compare(a.Line, b.Line),
		strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Fingerprint, b.Fingerprint),
		strings.Compare(a.Message, b.Message),
	)
}

// MaxFileSize is the size of the largest baseline Read reads: 64 MiB,
// about 300,000 entries. A larger file is an error, and so is a path that
// is not a regular file (a FIFO, a link to /dev/zero): neither is read.
const MaxFileSize = 64 << 20

// notExist is Read's error for a baseline file that does not exist: it
// says how to make one, and is fs.ErrNotExist to errors.Is.
type notExist struct{ path string }

func (e notExist) Error() string {
	return fmt.Sprintf("baseline file %s does not exist; create it with -write-baseline %s", e.path, e.path)
}

func (notExist) Unwrap() error { return fs.ErrNotExist }

// Read reads the baseline file at path. A file that does not exist is an
// error that errors.Is takes for fs.ErrNotExist.
func Read(path string) (*Baseline, error) {
	data, err := regfile.Read(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notExist{path}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read baseline file %s: %w", path, err)
	}
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline file %s is not a valid baseline (%s); write it anew with -write-baseline", path, jsonError(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("baseline file %s has data after its JSON object; write it anew with -write-baseline", path)
	}
	switch {
	case b.Tool != Tool:
		return nil, fmt.Errorf("baseline file %s was written by %q, not %s", path, b.Tool, Tool)
	case b.Version != Version && b.Version != LegacyVersion:
		return nil, fmt.Errorf("baseline file %s has version %d; this ascvet reads versions %d and %d: write it anew with -write-baseline", path, b.Version, LegacyVersion, Version)
	}
	for i, e := range b.Entries {
		if e.Rule == "" || e.Path == "" || e.Fingerprint == "" {
			return nil, fmt.Errorf("baseline file %s: entry %d lacks its rule, path or fingerprint; write the file anew with -write-baseline", path, i+1)
		}
	}
	return &b, nil
}

// jsonError describes a decoding error with its line in data.
func jsonError(data []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	return fmt.Sprintf("line %d: %v", 1+bytes.Count(data[:off], []byte("\n")), err)
}

// Write writes a baseline of entries to path, replacing the file
// atomically: a reader sees the old file or the new one, never a part.
// Entries are sorted; equal inputs give equal bytes.
func Write(path string, entries []Entry) error {
	return WriteVia(path, entries, func(dir, base string) (*os.File, error) {
		return os.CreateTemp(dir, "."+base+".*.tmp")
	}, func(string) {})
}

// WriteVia is Write with the temporary file made by create (in the
// baseline's folder, for its base name) and gone told when it no longer
// exists (renamed or removed): the command line registers it, so that a
// signal removes it and a later run removes it after a SIGKILL, as it does
// for -fix.
func WriteVia(path string, entries []Entry, create func(dir, base string) (*os.File, error), gone func(name string)) error {
	b := Baseline{Version: Version, Tool: Tool, Entries: slices.Clone(entries)}
	if b.Entries == nil {
		b.Entries = []Entry{}
	}
	for i := range b.Entries {
		b.Entries[i].Path = cleanPath(b.Entries[i].Path)
	}
	slices.SortFunc(b.Entries, compareEntries)
	data, err := json.MarshalIndent(&b, "", "  ")
	if err != nil {
		return fmt.Errorf("baseline file %s: %w", path, err)
	}
	data = append(data, '\n')

	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := create(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return fmt.Errorf("cannot write baseline file %s: %w", path, err)
	}
	defer func() {
		os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
		gone(tmp.Name())
	}()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("cannot write baseline file %s: %w", path, err)
	}
	return nil
}
