package resultcache

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"honnef.co/go/tools/lintcmd/cache"
)

// The cache's storage, and whom it trusts.
//
// The cache keeps what it stores out of other users' reach, and never lets
// what it finds in its folder make ascvet write elsewhere:
//
//   - the folder is made 0700 (and an existing one is narrowed to it),
//     each file 0600;
//   - a folder that is not the user's, or that its group or others can
//     write, is not used: ascvet says so in one line on stderr and runs
//     without the cache (a full run, with the same findings). The folder
//     may be a symbolic link (a CI job linking it onto a volume): the
//     directory it leads to is what is checked, and the run then works
//     through that directory's handle (os.Root), so that swapping the
//     folder after the check changes nothing;
//   - every file is reached through that handle, which no name inside the
//     cache can lead out of, and is read only when it is a regular file
//     (never through a symbolic link); a file is written by creating a
//     new temporary name (O_CREATE|O_EXCL, which follows no link) and
//     renaming it over the entry, which replaces a link instead of
//     writing through it;
//   - a fix that comes from the cache is never written: runs that write
//     fixes or print them as a diff (-fix, -diff) analyse again a file
//     whose stored findings carry fixes (Cache.Get).
//
// The trust boundary is the user: whoever can write the folder as that
// user can make a run report what they like, as they could with the
// user's ascvet binary.
//
// staticcheck's cache (honnef.co/go/tools/lintcmd/cache), which the
// results were kept in before, makes its folders 0777 and files 0666 less
// the umask, opens its index files with O_CREATE through links, and
// updates times through links; its keys (cache.ActionID, cache.NewHash)
// are still used, its storage is not. Its two files a put ("-a", "-d")
// left by earlier versions are trimmed like any unused entry.

// diskStore is the cache folder.
type diskStore struct {
	root *os.Root
	now  func() time.Time
}

// Entries unused for trimLimit are removed, at most once per trimEvery; a
// use marks an entry at most once per markEvery (as staticcheck and the go
// command do).
const (
	trimEvery = 24 * time.Hour
	trimLimit = 5 * 24 * time.Hour
	markEvery = time.Hour
)

// errUnsafeCache is a folder ascvet does not use.
var errUnsafeCache = errors.New("unsafe cache folder")

// openStore opens the cache folder dir, making it when it does not exist.
// A folder it must not use (see above) is errUnsafeCache, after one line on
// warn; any other failure (dir is a file, cannot be made) says nothing.
func openStore(dir string, warn io.Writer) (*diskStore, error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		// The umask only removes bits; a umask of 0200 or so would leave
		// the folder unwritable.
		_ = os.Chmod(dir, 0o700)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	st, err := root.Stat(".") // the directory the handle holds, not the name
	if err == nil && !st.IsDir() {
		err = fmt.Errorf("%s: not a directory", dir)
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	if why := unsafeFolder(st); why != "" {
		root.Close()
		fmt.Fprintf(warn, "ascvet: cache folder %s %s; running without the cache\n", dir, why)
		return nil, errUnsafeCache
	}
	if _, unix := fileOwner(st); unix && st.Mode().Perm()&0o077 != 0 {
		_ = root.Chmod(".", 0o700) // made by an earlier version: readable by others
	}
	return &diskStore{root: root, now: time.Now}, nil
}

// unsafeFolder says why the folder st must not be used: not the user's, or
// writable by its group or others; "" when it may. Where files have no
// owning uid (Windows, whose modes do not tell who may write), nothing is
// checked.
func unsafeFolder(st os.FileInfo) string {
	uid, ok := fileOwner(st)
	if !ok {
		return ""
	}
	if uid != os.Getuid() {
		return fmt.Sprintf("is owned by uid %d, not by you (uid %d)", uid, os.Getuid())
	}
	if m := st.Mode().Perm(); m&0o022 != 0 {
		return fmt.Sprintf("is writable by others (mode %04o)", m)
	}
	return ""
}

func (s *diskStore) close() {
	if s != nil {
		s.root.Close()
	}
}

// name is the file of id: in the folder of its first byte.
func (s *diskStore) name(id cache.ActionID) string {
	h := hex.EncodeToString(id[:])
	return path.Join(h[:2], h+"-r")
}

// An entry's file is the sha256 of its data, then the data: a file cut
// short (a crash before the disk had it) is a miss.

// get returns the data stored under id.
func (s *diskStore) get(id cache.ActionID) ([]byte, bool) {
	name := s.name(id)
	st, err := s.root.Lstat(name)
	if err != nil || !st.Mode().IsRegular() {
		return nil, false // a link, a folder, a FIFO, a device: never opened
	}
	f, err := s.root.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(f)
	if err != nil || len(b) < sha256.Size || sha256.Sum256(b[sha256.Size:]) != [sha256.Size]byte(b[:sha256.Size]) {
		return nil, false
	}
	if s.now().Sub(st.ModTime()) > markEvery {
		_ = s.root.Chtimes(name, s.now(), s.now()) // used: kept from the trim
	}
	return b[sha256.Size:], true
}

// put stores data under id.
func (s *diskStore) put(id cache.ActionID, data []byte) error {
	sum := sha256.Sum256(data)
	return s.write(s.name(id), sum[:], data)
}

// write makes name hold the concatenation of parts: a new file of a fresh
// name, renamed over it. Nothing already in the cache is opened for
// writing, so that no link there is written through.
func (s *diskStore) write(name string, parts ...[]byte) error {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:]) // never fails
	tmp := name + "." + hex.EncodeToString(rnd[:]) + ".tmp"
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrNotExist) && path.Dir(name) != "." {
		if err = s.root.Mkdir(path.Dir(name), 0o700); err == nil || errors.Is(err, fs.ErrExist) {
			f, err = s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		}
	}
	if err != nil {
		return err
	}
	for _, p := range parts {
		if _, err = f.Write(p); err != nil {
			break
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.root.Rename(tmp, name)
	}
	if err != nil {
		_ = s.root.Remove(tmp)
	}
	return err
}

// trim removes the entries unused for trimLimit, at most once per
// trimEvery, as the time in trim.txt tells.
func (s *diskStore) trim() {
	if s == nil {
		return
	}
	now := s.now()
	if st, err := s.root.Lstat("trim.txt"); err == nil && st.Mode().IsRegular() && st.Size() < 64 {
		data, _ := s.root.ReadFile("trim.txt")
		if t, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && now.Sub(time.Unix(t, 0)) < trimEvery {
			return
		}
	}
	cutoff := now.Add(-trimLimit - markEvery)
	for i := -1; i < 256; i++ {
		sub := "." // trim.txt's temporary files
		if i >= 0 {
			sub = fmt.Sprintf("%02x", i)
		}
		if st, err := s.root.Lstat(sub); err != nil || !st.IsDir() {
			continue
		}
		d, err := s.root.Open(sub)
		if err != nil {
			continue
		}
		names, _ := d.Readdirnames(-1)
		d.Close()
		for _, n := range names {
			if !strings.HasSuffix(n, ".tmp") && (sub == "." || !strings.HasSuffix(n, "-r") && !strings.HasSuffix(n, "-a") && !strings.HasSuffix(n, "-d")) {
				continue // "-a" and "-d": staticcheck's files, of earlier versions
			}
			p := path.Join(sub, n)
			if st, err := s.root.Lstat(p); err == nil && st.ModTime().Before(cutoff) {
				_ = s.root.Remove(p) // a link is removed, not what it leads to
			}
		}
	}
	_ = s.write("trim.txt", fmt.Appendf(nil, "%d", now.Unix()))
}
