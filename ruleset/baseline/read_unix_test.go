//go:build unix

package baseline

import (
	"testing"

	"github.com/ascvet/ascvet/internal/regfile/regfiletest"
)

// TestReadSpecial: a baseline that is a link to /dev/zero or a FIFO is an
// error at once, without being read (the link took 6-16 GB, the FIFO
// blocked forever).
func TestReadSpecial(t *testing.T) {
	regfiletest.CheckSpecial(t, ".json",
		func(path string) error { _, err := Read(path); return err },
		func(path, kind string) string {
			return "cannot read baseline file " + path + ": not a regular file (" + kind + ")"
		})
}
