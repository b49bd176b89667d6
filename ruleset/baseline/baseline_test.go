package baseline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// findings returns the entries of rule ASC1001 for the lines of src that
// contain "Pre(", as a driver would make them.
func findings(path, src string) []Entry {
	var es []Entry
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "Pre(") {
			es = append(es, NewEntry("ASC1001", path, Snippet([]byte(src), i+1, i+1), "re-initialised", i+1))
		}
	}
	return es
}

const kernel = `void f() {
    for (int i = 0; i < n; ++i) {
        LoadUnAlignPre(u, src + i * VL);
        LoadUnAlign(r, u, src + i * VL);
    }
    for (int j = 0; j < n; ++j) {
        LoadUnAlignPre(w, dst + j * VL);
    }
}
`

func TestFilter(t *testing.T) {
	base := &Baseline{Version: Version, Tool: Tool, Entries: findings("k/kernel.cpp", kernel)}
	if len(base.Entries) != 2 {
		t.Fatalf("baseline entries %d", len(base.Entries))
	}
	for _, tc := range []struct {
		name           string
		path, src      string
		added, matched []int
		stale          int
	}{
		{"unchanged", "k/kernel.cpp", kernel, nil, []int{0, 1}, 0},
		{"lines shift", "k/kernel.cpp", "// new header\n#include <x>\n\n" + kernel, nil, []int{0, 1}, 0},
		{"reformatted, commented", "./k//kernel.cpp", strings.Replace(kernel, "LoadUnAlignPre(u, src + i * VL);",
			"LoadUnAlignPre( u,src+i*VL ); /* hot */ // really", 1), nil, []int{0, 1}, 0},
		{"flagged line edited", "k/kernel.cpp", strings.Replace(kernel, "src + i * VL);\n        LoadUnAlign(", "src + i * 2 * VL);\n        LoadUnAlign(", 1), []int{0}, []int{1}, 1},
		{"other file", "k/other.cpp", kernel, []int{0, 1}, nil, 2},
		{"fixed", "k/kernel.cpp", strings.Replace(kernel, "LoadUnAlignPre(w", "Load(w", 1), nil, []int{0}, 1},
		{"duplicated", "k/kernel.cpp", strings.Replace(kernel, "    }\n}", "    }\n    LoadUnAlignPre(u, src + i * VL);\n    LoadUnAlignPre(u, src + i * VL);\n}", 1), []int{2, 3}, []int{0, 1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			added, matched, stale := Filter(base, findings(tc.path, tc.src))
			if !slices.Equal(added, tc.added) || !slices.Equal(matched, tc.matched) || len(stale) != tc.stale {
				t.Errorf("Filter = added %v, matched %v, stale %v; want %v, %v, %d stale", added, matched, stale, tc.added, tc.matched, tc.stale)
			}
		})
	}
}

func TestFilterMultiset(t *testing.T) {
	e := func(line int) Entry { return NewEntry("ASC3001", "a.cpp", "Mov(r, s);", "m", line) }
	base := &Baseline{Entries: []Entry{e(30), e(10)}}
	added, matched, stale := Filter(base, []Entry{e(11), e(31), e(50)})
	if !slices.Equal(added, []int{2}) || !slices.Equal(matched, []int{0, 1}) || stale != nil {
		t.Errorf("2 known, 3 now: added %v, matched %v, stale %v", added, matched, stale)
	}
	added, matched, stale = Filter(base, []Entry{e(12)})
	if added != nil || !slices.Equal(matched, []int{0}) || len(stale) != 1 || stale[0].Line != 30 {
		t.Errorf("2 known, 1 now: added %v, matched %v, stale %v (want the entry of line 30)", added, matched, stale)
	}
	if added, _, _ := Filter(nil, []Entry{e(1)}); !slices.Equal(added, []int{0}) {
		t.Errorf("no baseline: added %v", added)
	}
}

// TestFilterAliases: a current finding also matches the entry of one of
// its aliases (a version 1 entry, keyed on another path), once.
func TestFilterAliases(t *testing.T) {
	old := NewEntry("ASC3001", "../repo/a.cpp", "Mov(r, s);", "m", 3) // written from a sibling directory
	now := NewEntry("ASC3001", "a.cpp", "Mov(r, s);", "m", 3)
	base := &Baseline{Version: LegacyVersion, Entries: []Entry{old}}
	if added, _, stale := Filter(base, []Entry{now}); !slices.Equal(added, []int{0}) || len(stale) != 1 {
		t.Fatalf("without aliases: added %v, stale %v; want the finding new and the entry stale", added, stale)
	}
	now.Aliases = []string{Fingerprint("ASC3001", "../repo/a.cpp", "Mov(r, s);")}
	added, matched, stale := Filter(base, []Entry{now, now})
	if !slices.Equal(added, []int{1}) || !slices.Equal(matched, []int{0}) || stale != nil {
		t.Errorf("with aliases: added %v, matched %v, stale %v; want one matched, one new", added, matched, stale)
	}
}

func TestFingerprint(t *testing.T) {
	fp := Fingerprint("ASC1001", "k/a.cpp", "x = f(a, b);")
	for _, same := range [][3]string{
		{"ASC1001", `k\a.cpp`, "x = f(a, b);"}, // Windows separators only where the OS uses them
		{"ASC1001", "./k/a.cpp", "  x=f(a,b); // note\n"},
		{"ASC1001", "k/a.cpp", "x = /* c */ f(a,\n\tb);"},
	} {
		if filepath.Separator != '\\' && strings.Contains(same[1], `\`) {
			continue
		}
		if got := Fingerprint(same[0], same[1], same[2]); got != fp {
			t.Errorf("Fingerprint%q differs", same)
		}
	}
	for _, other := range [][3]string{
		{"ASC1002", "k/a.cpp", "x = f(a, b);"},
		{"ASC1001", "k/b.cpp", "x = f(a, b);"},
		{"ASC1001", "a.cpp", "x = f(a, b);"},
		{"ASC1001", "k/a.cpp", "x = f(a, c);"},
		{"ASC1001", "k/a.cpp", `x = f("a, b");`},
		{"ASC1001", "k/a.cpp", "unsigned x = f(a, b);"},
	} {
		if Fingerprint(other[0], other[1], other[2]) == fp {
			t.Errorf("Fingerprint%q equals", other)
		}
	}
	for in, want := range map[string]string{
		"unsigned  int x = 1 ;":      "unsigned int x=1;",
		`s = "a  //b"; // c`:         `s="a  //b";`,
		"a /* x */ b":                "a b",
		"a/**/+b":                    "a+b",
		"c = '/'; // x":              "c='/';",
		"p = q /* unterminated":      "p=q",
		"s = \"unterminated\nx = 1;": "s=\"unterminated x=1;",
		"s = \"ends in \\":           "s=\"ends in \\",
	} {
		if got := Normalize(in, false); got != want {
			t.Errorf("Normalize(%q) = %q; want %q", in, got, want)
		}
	}
	if got := Normalize("x = '#a'  # note", true); got != "x='#a'" {
		t.Errorf("Normalize python = %q", got)
	}
	if Fingerprint("R", "g.py", "x = 1  # a") != Fingerprint("R", "g.py", "x=1") {
		t.Error("python comment changes the fingerprint")
	}
}

func TestSnippet(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, end int
		want      string
	}{
		{"one\ntwo\nthree\nfour\nfive", 2, 2, "two\n"},
		{"one\ntwo\nthree\nfour\nfive", 2, 0, "two\n"},
		{"one\ntwo\nthree\nfour\nfive", 2, 3, "two\nthree\n"},
		{"one\ntwo\nthree\nfour\nfive", 1, 9, "one\ntwo\nthree\n"},
		{"one\ntwo\nthree\nfour\nfive", 5, 5, "five\n"},
		{"one\ntwo\nthree\nfour\nfive", 6, 6, ""},
		{"one\ntwo\nthree\nfour\nfive", 4, 8, "four\nfive\n"},
		{"one\ntwo\nthree\nfour\nfive", 0, 2, "one\ntwo\n"},
		{"one\ntwo\nthree\nfour\nfive", -1, 0, ""},
		{"one\r\ntwo\r\n", 2, 3, "two\r\n\n"},
		{"", 1, 1, "\n"},
	} {
		if got := Snippet([]byte(tc.src), tc.line, tc.end); got != tc.want {
			t.Errorf("Snippet(%q, %d, %d) = %q; want %q", tc.src, tc.line, tc.end, got, tc.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ascvet-baseline.json")
	es := findings("k/kernel.cpp", kernel)
	es = append(es, NewEntry("ASC3001", "a/b.cpp", "Mov(r, s);", "a \"quoted\" message", 7))
	if err := Write(file, es); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if b.Version != Version || b.Tool != Tool || len(b.Entries) != 3 || b.Entries[0].Path != "a/b.cpp" {
		t.Errorf("read back %+v", b)
	}
	added, matched, stale := Filter(b, es)
	if added != nil || len(matched) != 3 || stale != nil {
		t.Errorf("read back does not match: %v %v %v", added, matched, stale)
	}
	// Stable: the same entries in another order give the same bytes.
	slices.Reverse(es)
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(file, es); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(file)
	if string(first) != string(second) || !strings.HasPrefix(string(first), "{\n  \"version\": 2,\n  \"tool\": \"ascvet\",\n") || !strings.HasSuffix(string(first), "}\n") {
		t.Errorf("unstable output:\n%s\n---\n%s", first, second)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v; want the old file's 0600 kept", fi.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// An empty baseline is an empty list, not null.
	if err := Write(file, nil); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), `"entries": []`) {
		t.Errorf("empty baseline:\n%s", data)
	}
	// A directory that does not exist: an error naming the file, nothing written.
	if err := Write(filepath.Join(dir, "no", "b.json"), es); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "no", "b.json")) {
		t.Errorf("Write into a missing directory: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ data, want string }{
		"missing.json":   {"", `^baseline file \S+missing.json does not exist; create it with -write-baseline`},
		"corrupt.json":   {"{\n  \"version\": 1,\n  \"entries\": [\n    {\"rule\": \"ASC1001\",}\n", `^baseline file \S+corrupt.json is not a valid baseline \(line 4: invalid character '}'`},
		"truncated.json": {`{"version": 1, "tool": "ascvet", "entries": [`, `^baseline file \S+truncated.json is not a valid baseline \(unexpected EOF\)`},
		"type.json":      {`{"version": "1"}`, `^baseline file \S+type.json is not a valid baseline \(line 1: json: cannot unmarshal string`},
		"unknown.json":   {`{"version": 1, "tool": "ascvet", "entries": [], "extra": 1}`, `unknown field "extra"`},
		"trailing.json":  {`{"version": 1, "tool": "ascvet", "entries": []} {}`, `has data after its JSON object`},
		"tool.json":      {`{"version": 1, "tool": "golangci-lint", "entries": []}`, `was written by "golangci-lint", not ascvet$`},
		"version.json":   {`{"version": 3, "tool": "ascvet", "entries": []}`, `has version 3; this ascvet reads versions 1 and 2`},
		"entry.json":     {`{"version": 1, "tool": "ascvet", "entries": [{"rule": "ASC1001", "path": "a.cpp"}]}`, `entry 1 lacks its rule, path or fingerprint`},
		"dir.json":       {"dir", `^cannot read baseline file \S+dir.json: is a directory$`},
		"big.json":       {"big", `^cannot read baseline file \S+big.json: over the limit of 64 MiB for this file \(67108865 bytes\)$`},
	} {
		file := filepath.Join(dir, name)
		switch {
		case tc.data == "dir":
			if err := os.Mkdir(file, 0o755); err != nil {
				t.Fatal(err)
			}
		case tc.data == "big": // a sparse file, over MaxFileSize by a byte
			if err := os.WriteFile(file, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(file, MaxFileSize+1); err != nil {
				t.Fatal(err)
			}
		case tc.data != "":
			if err := os.WriteFile(file, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Read(file)
		if err == nil || !regexp.MustCompile(tc.want).MatchString(err.Error()) || !strings.Contains(err.Error(), file) {
			t.Errorf("Read(%s) = %v; want %s", name, err, tc.want)
		}
		// -write-baseline makes a missing file without a word, and warns
		// that it replaces any other it cannot read.
		if missing := errors.Is(err, fs.ErrNotExist); missing != (tc.data == "") {
			t.Errorf("Read(%s): errors.Is(err, fs.ErrNotExist) = %v", name, missing)
		}
	}
}
