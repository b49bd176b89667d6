package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ascvet/ascvet/internal/lsp/lsptest"
	"github.com/ascvet/ascvet/internal/testfs"
)

// TestFixTitles: a quick fix is titled as its finding's message reads: in
// a pypto_pro Python kernel with the DSL's names (vf.load_unalign_pre,
// not LoadUnAlignPre), in the output language, in the editor and in
// SARIF; a C++ kernel keeps the C++ names.
func TestFixTitles(t *testing.T) {
	for _, tc := range []struct {
		locale, kernel string
		want           []string // the fix actions' titles
	}{
		{"en", "scale_rows.py", []string{"hoist the vf.load_unalign_pre before the loop (ASC1001)", "sink the vf.store_unalign_post after the loop (ASC1002)"}},
		{"zh-CN", "scale_rows.py", []string{"将 vf.load_unalign_pre 移至循环之前 (ASC1001)", "将 vf.store_unalign_post 移至循环之后 (ASC1002)"}},
		{"en", "unaligned_copy.asc", []string{"hoist the LoadUnAlignPre before the loop (ASC1001)", "sink the StoreUnAlignPost after the loop (ASC1002)"}},
	} {
		c, dir := lsptest.Session(t, tc.locale)
		uri := c.Open(filepath.Join(dir, tc.kernel), testfs.Kernel(t, tc.kernel), 1)
		var got []string
		for _, d := range c.Diagnostics(uri, 1) {
			for _, a := range c.CodeActions(uri, d.Range) {
				if !strings.Contains(a.Title, "ascvet:ignore") && !slices.Contains(got, a.Title) {
					got = append(got, a.Title)
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s in %s: quick fixes %q; want %q", tc.kernel, tc.locale, got, tc.want)
		}
	}

	code, out, errs := ascvet(t, "-cache", "off", "-f", "sarif", "../../testdata/kernels/scale_rows.py")
	if code == exitUsage || code == exitInternal {
		t.Fatalf("ascvet -f sarif scale_rows.py: exit %d, stderr %q", code, errs)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Fixes []struct {
					Description struct{ Text string } `json:"description"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	var descs []string
	for _, r := range log.Runs[0].Results {
		for _, f := range r.Fixes {
			descs = append(descs, f.Description.Text)
		}
	}
	slices.Sort(descs)
	if want := []string{"hoist the vf.load_unalign_pre before the loop", "sink the vf.store_unalign_post after the loop"}; !slices.Equal(descs, want) {
		t.Errorf("SARIF fix descriptions of scale_rows.py %q; want %q", descs, want)
	}
}
