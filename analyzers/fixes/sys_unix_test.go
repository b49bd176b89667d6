//go:build unix

package fixes

import (
	"os"
	"syscall"
	"testing"
)

// TestReplaceFileKeepsOwner checks that root fixing another user's file
// leaves it that user's.
func TestReplaceFileKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file away")
	}
	dir := t.TempDir()
	p := write(t, dir, "k.cpp", "old", 0o644)
	const uid, gid = 65534, 65534
	if err := os.Chown(p, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceFile(p, []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := info.Sys().(*syscall.Stat_t)
	if st.Uid != uid || st.Gid != gid {
		t.Errorf("owner %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
	}
	expect(t, p, "new", 0o644)
}
