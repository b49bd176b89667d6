package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"go/token"
	"io"
	"os"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/ascvet/ascvet/analyzers/fixes"
	"github.com/ascvet/ascvet/analyzers/runner"
	"github.com/ascvet/ascvet/analyzers/settings"
	"github.com/ascvet/ascvet/internal/testfs"
)

// forgeCache rewrites, as a forger who can write the cache folder would,
// the findings of every entry of the cache dir (the files' own entries and
// the packs' results) with change; it returns the entries changed.
func forgeCache(t *testing.T, dir string, change func([]cachedFinding) []cachedFinding) int {
	t.Helper()
	forge := func(data []byte) ([]byte, bool) {
		deps, rest, ok := splitDeps(data)
		if !ok {
			return nil, false
		}
		var stored []cachedFinding
		if !bytes.Equal(rest, noFindings) {
			if gob.NewDecoder(bytes.NewReader(rest)).Decode(&stored) != nil {
				return nil, false
			}
		}
		stored = change(stored)
		out := appendDeps(nil, deps)
		if len(stored) == 0 {
			return append(out, noFindings...), true
		}
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(stored); err != nil {
			t.Fatal(err)
		}
		return append(out, b.Bytes()...), true
	}
	n := 0
	for _, p := range testfs.Files(t, dir) {
		b, err := os.ReadFile(p)
		if err != nil || len(b) <= 2*sha256.Size { // not an entry, or the build's hash
			continue
		}
		payload := b[sha256.Size:]
		var memo storedPack
		if gob.NewDecoder(bytes.NewReader(payload)).Decode(&memo) == nil && memo.Results != nil {
			for k, v := range memo.Results {
				if nv, ok := forge(v); ok {
					memo.Results[k] = nv
					n++
				}
			}
			var mb bytes.Buffer
			if err := gob.NewEncoder(&mb).Encode(memo); err != nil {
				t.Fatal(err)
			}
			payload = mb.Bytes()
		} else if nv, ok := forge(payload); ok {
			payload = nv
			n++
		} else {
			continue
		}
		sum := sha256.Sum256(payload)
		if err := os.WriteFile(p, append(sum[:], payload...), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// probe is the analyzer of the findings stored in these tests.
var probe = &analysis.Analyzer{Name: "probe", Doc: "stands for a rule", Run: func(*analysis.Pass) (any, error) { return nil, nil }}

// store runs one run of a cache in dir: with a memo over src when pack
// is set (a run over a tree: its results go to the pack), else without
// (a file named alone: an entry of its own), storing findings for
// k.asc in src, which holds text.
func store(t *testing.T, dir, src string, text []byte, findings []runner.Finding, pack bool) {
	t.Helper()
	rc := Open(dir, []*analysis.Analyzer{probe}, src, io.Discard)
	if rc == nil {
		t.Fatal("the cache did not open")
	}
	defer rc.Close()
	var memo *Memo
	if pack {
		memo = rc.Memo([]string{src}, 1<<20)
	}
	key, ok := rc.Key("k.asc", text, &settings.Settings{})
	if !ok {
		t.Fatal("no key")
	}
	rc.Put(key, "k.asc", findings, nil, !pack)
	memo.Save(time.Now())
}

// lookup opens the cache in dir again and returns what it serves for
// k.asc in src, which holds text, to a run that takes fixes from the
// cache (noFixes false) or does not.
func lookup(t *testing.T, dir, src string, text []byte, noFixes, pack bool) ([]runner.Finding, bool) {
	t.Helper()
	rc := Open(dir, []*analysis.Analyzer{probe}, src, io.Discard)
	defer rc.Close()
	if pack {
		rc.Memo([]string{src}, 1<<20)
	}
	key, _ := rc.Key("k.asc", text, &settings.Settings{})
	found, _, ok := rc.Get(key, "k.asc", []*analysis.Analyzer{probe}, noFixes)
	return found, ok
}

// TestForgedFix: a fix a forger added to a stored entry (the files' own,
// or a pack's) never serves a run that writes or offers fixes (noFixes):
// that run analyses the file again. A run that only reports takes the
// entry, forged or not: the folder's owner is the trust boundary (store.go).
func TestForgedFix(t *testing.T) {
	text := []byte("__simd_vf__ void F() {}\n")
	finding := runner.Finding{Analyzer: probe, Diagnostic: analysis.Diagnostic{Message: "found"},
		Pos: token.Position{Filename: "k.asc", Offset: 3, Line: 1, Column: 4}, End: token.Position{Filename: "k.asc", Offset: 5, Line: 1, Column: 6}}
	for _, pack := range []bool{false, true} {
		dir, src := t.TempDir(), t.TempDir()
		store(t, dir, src, text, []runner.Finding{finding}, pack)
		if found, ok := lookup(t, dir, src, text, true, pack); !ok || len(found) != 1 || found[0].Diagnostic.Message != "found" {
			t.Fatalf("pack %v: before the forging, %v %v; want the finding, served to every run", pack, found, ok)
		}
		n := forgeCache(t, dir, func(fs []cachedFinding) []cachedFinding {
			fs[0].Fixes = []fixes.Fix{{Pos: 3, Rule: "ASC1001", Message: "forged", Edits: []fixes.Edit{{New: []byte("/* forged */\n")}}}}
			return fs
		})
		if n != 1 {
			t.Fatalf("pack %v: %d entries forged, want 1", pack, n)
		}
		if found, ok := lookup(t, dir, src, text, false, pack); !ok || len(found) != 1 || len(found[0].Fixes) != 1 {
			t.Fatalf("pack %v: a run that only reports got %v %v; want the forged fix (else the test is broken)", pack, found, ok)
		}
		if found, ok := lookup(t, dir, src, text, true, pack); ok {
			t.Errorf("pack %v: a run that writes fixes was served %v", pack, found)
		}
	}
}
