package fixes

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// keptMode are the mode bits a replaced file keeps.
const keptMode = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// ReplaceFile replaces the contents of the file name, which must still hold
// old, with new, so that at every moment the file is either the old one or
// the new one:
//
//  1. A symbolic link is resolved (filepath.EvalSymlinks) and its target
//     replaced, so the link stays a link.
//  2. The target must be a regular file whose owner has write permission.
//     The mode bits are checked, not left to the OS, which lets root write
//     anything; and the file is opened for writing (and closed, unwritten)
//     so that a file the user may not write is refused too. A read-only file
//     is refused, never chmod'ed.
//  3. The target must still hold old: a file changed since it was read (or
//     named twice, say through a link) is refused.
//  4. new is written to a temporary file in the same directory
//     ("."+base+".ascvet-*"), which gets the original's permission bits (and,
//     where the OS allows, its owner and group), is fsynced and closed, then
//     renamed over the target; the directory is fsynced last.
//
// On any error before the rename the temporary file is removed and the
// original is untouched. Errors name the file as given.
//
// ReplaceFile is ReplaceFileVia with the temporary files of os.CreateTemp.
//
// Like every rename-based writer (sed -i, editors' safe save), ReplaceFile
// gives the target a new inode: other hard links to it keep the old
// contents, and extended attributes and ACLs are not carried over.
func ReplaceFile(name string, old, new []byte) error {
	return ReplaceFileVia(name, old, new, nil)
}

// TempFiles makes the temporary files that ReplaceFileVia writes through,
// and hears when each is gone. The ascvet driver names them after its
// process, so that it can remove them when a signal interrupts it and tell
// those a killed run left.
type TempFiles interface {
	// Create creates a new, empty file in dir, open for writing and
	// readable by its owner only, to be renamed over the file base in dir.
	Create(dir, base string) (*os.File, error)
	// Gone is told that the file named name, which Create made, no longer
	// exists under that name: it was renamed over its target, or removed.
	Gone(name string)
}

// ReplaceFileVia is ReplaceFile writing through a temporary file that temps
// creates; nil temps makes it with os.CreateTemp.
func ReplaceFileVia(name string, old, new []byte, temps TempFiles) error {
	target, err := filepath.EvalSymlinks(name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	info, err := os.Lstat(target)
	if err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file; not fixed", name)
	}
	if info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s: file is read-only; not fixed (ascvet does not change permissions)", name)
	}
	if f, err := os.OpenFile(target, os.O_WRONLY, 0); err != nil {
		return fmt.Errorf("%s: not writable: %w; not fixed", name, unwrapPath(err))
	} else if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	cur, err := os.ReadFile(target)
	if err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	if !bytes.Equal(cur, old) {
		return fmt.Errorf("%s: file changed since ascvet read it; not fixed", name)
	}

	dir, base := filepath.Dir(target), filepath.Base(target)
	var tmp *os.File
	if temps == nil {
		tmp, err = os.CreateTemp(dir, "."+base+".ascvet-*")
	} else {
		tmp, err = temps.Create(dir, base)
	}
	if err != nil {
		return fmt.Errorf("%s: cannot create a temporary file beside it: %w", name, unwrapPath(err))
	}
	reached(stageCreated, tmp.Name())
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		if temps != nil {
			temps.Gone(tmp.Name())
		}
	}()
	if _, err := tmp.Write(new); err != nil {
		return fmt.Errorf("%s: writing %s: %w", name, tmp.Name(), unwrapPath(err))
	}
	reached(stageWritten, tmp.Name())
	if err := tmp.Chmod(info.Mode() & keptMode); err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	keepOwner(tmp, info)
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("%s: syncing %s: %w", name, tmp.Name(), unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: closing %s: %w", name, tmp.Name(), unwrapPath(err))
	}
	reached(stageSynced, tmp.Name())
	if err := beforeRename(tmp.Name()); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	// The file is read again just before the rename: an edit saved while
	// the fixed copy was written and synced (a millisecond or so) is not
	// lost under it. Only the moment between this read and the rename
	// remains, as with any writer that does not lock.
	if cur, err := os.ReadFile(target); err != nil || !bytes.Equal(cur, old) {
		return fmt.Errorf("%s: file changed since ascvet read it; not fixed", name)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return fmt.Errorf("%s: renaming the fixed file over it: %w", name, err)
	}
	renamed = true
	reached(stageRenamed, tmp.Name())
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("%s: fixed, but syncing its directory failed: %w", name, unwrapPath(err))
	}
	return nil
}

// beforeRename runs after the temporary file is complete and closed, before
// it is renamed over the target; tests use it to fail there.
var beforeRename = func(string) error { return nil }

// The stages of ReplaceFile that reached reports, in order.
const (
	stageCreated = "created" // the temporary file exists, empty
	stageWritten = "written" // it holds the new contents, not yet synced
	stageSynced  = "synced"  // synced, closed and given the original's mode; not renamed
	stageRenamed = "renamed" // renamed over the target; the directory not yet synced
)

// reached is called at each stage of ReplaceFile with the temporary file's
// name; the crash test kills the process there.
var reached = func(stage, tmp string) {}

// unwrapPath drops the operation and path of a *fs.PathError, which the
// messages above already name.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
