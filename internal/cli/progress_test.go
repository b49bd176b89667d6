package cli

import "testing"

// TestQuiet: -q is a flag of a check, which prints nothing on a clean file.
func TestQuiet(t *testing.T) {
	if code, _, errs := ascvet(t, "-q", "../../testdata/kernels/clean.asc"); code != exitOK || errs != "" {
		t.Errorf("-q: exit %d, stderr %q", code, errs)
	}
}
