package tempfile

import (
	"os"
	"path/filepath"
)

// WriteAtomic writes data to a temporary file beside name (see
// tempfile.go) and renames it over name, so a reader sees the old file or
// the whole new one. A name that is a link is written through: the file it
// names is replaced, the link stays. A name that is no regular file (a
// device such as /dev/null or /dev/stdout, a pipe) is written in place: a
// rename would replace the device with a file. A file replaced keeps its
// permissions (a report written 0600 stays private); a new one is 0644.
func WriteAtomic(name string, data []byte) (err error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(name)
		if err != nil {
			return err
		}
		name = target
	}
	mode := os.FileMode(0o644) // a new file's; a replaced one keeps its own
	fi, err := os.Stat(name)
	if err == nil && fi.Mode().IsRegular() {
		mode = fi.Mode().Perm()
	}
	if err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		f, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	f, err := Create(filepath.Dir(name), filepath.Base(name))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
		Gone(f.Name())
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
