//go:build unix

package regfile_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ascvet/ascvet/internal/regfile"
	"github.com/ascvet/ascvet/internal/regfile/regfiletest"
)

// TestReadSpecial: a link to /dev/zero and a FIFO are refused at once,
// without reading them (a FIFO without writer would block the open), with
// a NotRegularError.
func TestReadSpecial(t *testing.T) {
	regfiletest.CheckSpecial(t, "",
		func(path string) error {
			_, err := regfile.Read(path, 4<<20)
			var nr *regfile.NotRegularError
			if err != nil && !errors.As(err, &nr) {
				return fmt.Errorf("not a NotRegularError: %w", err)
			}
			return err
		},
		func(path, kind string) string { return "open " + path + ": not a regular file (" + kind + ")" })
}
