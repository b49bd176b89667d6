//go:build unix

package simcheck

import (
	"testing"

	"github.com/ascvet/ascvet/internal/regfile/regfiletest"
)

// TestLoadSpecial: a machine file (-machine FILE) that is a link to
// /dev/zero or a FIFO is an error at once, without being read (the link
// took 6-16 GB, the FIFO blocked forever).
func TestLoadSpecial(t *testing.T) {
	regfiletest.CheckSpecial(t, ".toml",
		func(path string) error { _, err := Load(path); return err },
		func(path, kind string) string { return path + ": not a regular file (" + kind + ")" })
}
