package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/vfgen"
)

// TestCacheHeaderLater: a header created after a run, where an include
// found nothing or nearer than the file it found, has the files that
// looked for it analysed again, on a file and on a folder (the run's
// pack), with the findings of a run without the cache; one created
// farther than the file found changes nothing, and analyses nothing.
//
// ROW = 68 makes the kernel's stride miss the 32-byte grid (ASC2001);
// ROW = 64 does not; no ROW at all leaves the stride unknown (no ASC2001).
func TestCacheHeaderLater(t *testing.T) {
	const (
		bad  = "constexpr uint32_t ROW = 68; // 272 bytes: off the grid\n"
		good = "constexpr uint32_t ROW = 64; // 256 bytes\n"
	)
	type step struct {
		write, remove string // a file to write (with its text after '='), or to remove
		text          string
		misses        int64 // files analysed again
		want          bool  // ASC2001 reported
	}
	cases := []struct {
		name   string
		tree   map[string]string // relative to the root; the kernel is op/kernel/k.asc
		kernel string
		steps  []step
	}{{
		name:   "missing header created",
		kernel: vfgen.RowsKernel,
		steps:  []step{{write: "op/kernel/rows.h", text: bad, misses: 1, want: true}},
	}, {
		name:   "header next to the kernel shadows an ancestor's include/",
		tree:   map[string]string{"include/rows.h": good},
		kernel: vfgen.RowsKernel,
		steps:  []step{{write: "op/kernel/rows.h", text: bad, misses: 1, want: true}},
	}, {
		name:   "header included by a header, created",
		tree:   map[string]string{"op/kernel/a.h": "#include \"rows.h\"\n"},
		kernel: strings.Replace(vfgen.RowsKernel, `#include "rows.h"`, `#include "a.h"`, 1),
		steps:  []step{{write: "op/kernel/rows.h", text: bad, misses: 1, want: true}},
	}, {
		name:   "nearer ancestor's include/ shadows a farther one's",
		tree:   map[string]string{"include/rows.h": good},
		kernel: vfgen.RowsKernel,
		steps: []step{
			{write: "op/include/rows.h", text: bad, misses: 1, want: true},
			// The reverse: one created farther than the one found is
			// not the answer, and the entry still serves.
			{write: "include/rows.h", text: good + "// touched\n", misses: 0, want: true},
		},
	}, {
		name:   "header next to the kernel removed: the ancestor's is found",
		tree:   map[string]string{"include/rows.h": good, "op/kernel/rows.h": bad},
		kernel: vfgen.RowsKernel,
		steps:  []step{{remove: "op/kernel/rows.h", misses: 1, want: false}},
	}}
	for _, tc := range cases {
		for _, folder := range []bool{false, true} {
			name := tc.name
			if folder {
				name += ", folder run"
			}
			t.Run(name, func(t *testing.T) {
				root := t.TempDir()
				cache := t.TempDir()
				write := func(rel, text string) {
					t.Helper()
					p := filepath.Join(root, rel)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				for rel, text := range tc.tree {
					write(rel, text)
				}
				write("op/kernel/k.asc", tc.kernel)
				target := filepath.Join(root, "op", "kernel", "k.asc")
				if folder {
					target = root
				}
				check := func(misses int64, want bool) {
					t.Helper()
					_, off, _, _ := cacheRun(t, "off", "-fail", "none", target)
					_, out, errs, st := cacheRun(t, cache, "-fail", "none", target)
					if out != off {
						t.Errorf("with the cache:\n%s\nwithout:\n%s", out, off)
					}
					if strings.Contains(out, "ASC2001") != want {
						t.Errorf("ASC2001 reported %v, want %v:\n%s", !want, want, out)
					}
					if st.Misses.Load() != misses {
						t.Errorf("%d files analysed, want %d (stderr %q)", st.Misses.Load(), misses, errs)
					}
				}
				_, first, _, _ := cacheRun(t, cache, "-fail", "none", target)
				check(0, strings.Contains(first, "ASC2001"))
				for _, s := range tc.steps {
					if s.remove != "" {
						if err := os.Remove(filepath.Join(root, s.remove)); err != nil {
							t.Fatal(err)
						}
					} else {
						write(s.write, s.text)
					}
					check(s.misses, s.want)
				}
			})
		}
	}
}

// TestCacheSettingsSwitch: runs over one tree with other settings keep
// their results apart (a pack each), so that switching back and forth
// analyses nothing after the first run of each; an ascvet.toml that
// changes the settings is one more such switch.
func TestCacheSettingsSwitch(t *testing.T) {
	cache, src := t.TempDir(), t.TempDir()
	if err := copySources("../../testdata/kernels", src); err != nil {
		t.Fatal(err)
	}
	misses := func(args ...string) int64 {
		t.Helper()
		_, _, errs, st := cacheRun(t, cache, append([]string{"-fail", "none"}, append(args, src)...)...)
		if errs != "" {
			t.Fatalf("stderr %q", errs)
		}
		return st.Misses.Load()
	}
	cold := misses()
	if cold < 10 {
		t.Fatalf("cold run: %d files analysed", cold)
	}
	if n := misses("-iterations", "3"); n != cold {
		t.Errorf("-iterations 3, first time: %d files analysed, want %d", n, cold)
	}
	for _, args := range [][]string{nil, {"-iterations", "3"}, nil, {"-iterations", "3"}} {
		if n := misses(args...); n != 0 {
			t.Errorf("switched back to %q: %d files analysed, want 0", args, n)
		}
	}
	toml := filepath.Join(src, "ascvet.toml")
	if err := os.WriteFile(toml, []byte("iterations = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := misses(); n != cold {
		t.Errorf("ascvet.toml with other settings: %d files analysed, want %d", n, cold)
	}
	if err := os.Remove(toml); err != nil {
		t.Fatal(err)
	}
	if n := misses(); n != 0 {
		t.Errorf("ascvet.toml removed: %d files analysed, want 0", n)
	}
}
