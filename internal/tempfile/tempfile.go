// Package tempfile writes files through temporary files beside them, renamed
// over them once complete, and cleans up after itself: on the signals that
// end ascvet, and before writing, the files an ascvet killed left.
package tempfile

// Temporary files. ascvet writes every file that -fix replaces, and every -o
// output, through a temporary file in the same directory, renamed over the
// file once complete (fixes.ReplaceFileVia over Create and Gone, WriteAtomic). The name says
// what the file is and which process made it:
//
//	.NAME.ascvet-tmp-PID-RAND    .k.asc.ascvet-tmp-4127-9f86d0a1
//
// NAME is the base name of the file it will replace, PID the ascvet
// process's id in decimal and RAND 8 lowercase hex digits. The leading dot
// hides it from ls and from ascvet's walk; the .gitignore line
// ".*.ascvet-tmp-*" hides it from git.
//
// The live temporary files are registered in temps. The first one installs
// a handler for the signals that end ascvet (exitSignals: SIGHUP, SIGINT,
// SIGQUIT, SIGTERM on Unix; a signal ignored when ascvet started, as nohup
// ignores SIGHUP, stays ignored). On a signal the handler removes the live
// files, then exits with status 128+signal. A file is created and
// registered under the lock the handler takes, so none appears after the
// handler's sweep. A rename racing with the sweep is harmless: whichever
// comes second fails, and the target holds the old contents or the whole
// new ones.
//
// SIGKILL cannot be caught, so before -fix writes it removes the stale
// temporary files of each directory it is about to write in
// (RemoveStale). Only regular files (not links, not directories) of
// two kinds, and only when the file NAME they were made for is beside them:
//
//   - ".NAME.ascvet-tmp-PID-RAND" whose process is gone (kill(PID, 0) fails
//     with ESRCH). Where that cannot be asked (not Unix), none is removed.
//   - ".NAME.ascvet-DIGITS", the os.CreateTemp name ascvet 0.2.0 and
//     earlier used, last modified more than staleAge ago: no PID tells
//     whether its writer is still at work, so only age does.
//
// Anything else that merely looks similar (".notes.ascvet-draft", a
// directory or a link of that name) is left alone.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ascvet/ascvet/internal/gitquote"
)

// staleAge is how old an old-style temporary file must be to be removed.
const staleAge = time.Minute

var (
	// tempPattern matches the temporary files of ascvet: NAME, PID, RAND.
	tempPattern = regexp.MustCompile(`(?s)^\.(.+)\.ascvet-tmp-([1-9][0-9]{0,9})-[0-9a-f]{8}$`)
	// oldTempPattern matches the temporary files of ascvet 0.2.0 and
	// earlier (os.CreateTemp's random part is a decimal uint32): NAME.
	oldTempPattern = regexp.MustCompile(`(?s)^\.(.+)\.ascvet-[0-9]{1,10}$`)
)

// IsTemp reports whether the base name is that of a temporary file of
// this ascvet, and the id of the process that made it.
func IsTemp(base string) (pid int, ok bool) {
	m := tempPattern.FindStringSubmatch(base)
	if m == nil {
		return 0, false
	}
	pid, err := strconv.Atoi(m[2])
	return pid, err == nil
}

// maxNameLen is the longest file name most file systems take (NAME_MAX).
const maxNameLen = 255

// Name returns the name of a temporary file for base. When base is too
// long for the name to fit in maxNameLen bytes, its end is cut (at a UTF-8
// boundary): such a file is still removed on a signal, but never as stale,
// since its NAME is not beside it.
func Name(base string, pid int, random uint32) string {
	suffix := fmt.Sprintf(".ascvet-tmp-%d-%08x", pid, random)
	if over := 1 + len(base) + len(suffix) - maxNameLen; over > 0 && over < len(base) {
		cut := len(base) - over
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	return "." + base + suffix
}

// tempFiles registers the live temporary files of the process. It is the
// fixes.TempFiles of -fix.
type tempFiles struct {
	mu      sync.Mutex
	live    map[string]bool // paths of the temporary files that exist
	exiting bool            // a signal arrived: the handler removed them, make no more
	catch   sync.Once       // installs the signal handler with the first file
}

// temps are the process's temporary files.
var temps = &tempFiles{live: map[string]bool{}}

// Created, when not nil, is called with the path of each temporary file
// made, outside the lock; the signal test slows the writes with it.
var Created func(path string)

// Create creates and registers a new temporary file in dir for the file
// base will replace (its name: see above); Gone must follow once it is
// renamed or removed.
func Create(dir, base string) (*os.File, error) { return temps.Create(dir, base) }

// Gone unregisters the temporary file path: renamed over its target, or
// removed.
func Gone(path string) { temps.Gone(path) }

// Live is the process's registry of temporary files as a value, for
// writers that take one (fixes.ReplaceFileVia): its methods are Create and
// Gone.
type Live struct{}

// Create is Create.
func (Live) Create(dir, base string) (*os.File, error) { return Create(dir, base) }

// Gone is Gone.
func (Live) Gone(path string) { Gone(path) }

// errExiting is Create's error once a signal is ending the process.
var errExiting = errors.New("ascvet is exiting on a signal")

// Create creates and registers a new temporary file in dir for the file
// base, readable and writable by its owner only.
func (r *tempFiles) Create(dir, base string) (*os.File, error) {
	r.catch.Do(r.catchSignals)
	f, err := r.create(dir, base)
	if err == nil && Created != nil {
		Created(f.Name())
	}
	return f, err
}

func (r *tempFiles) create(dir, base string) (*os.File, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.exiting {
		return nil, errExiting
	}
	pid := os.Getpid()
	var err error
	for range 100 {
		path := filepath.Join(dir, Name(base, pid, rand.Uint32()))
		var f *os.File
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			r.live[path] = true
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	return nil, err
}

// Gone forgets the temporary file path: it was renamed or removed.
func (r *tempFiles) Gone(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.live, path)
}

// removeAll removes the live temporary files and keeps any more from being
// made: Create fails from then on. A write under way then fails at its
// rename, or its rename went first and the removal finds nothing.
func (r *tempFiles) removeAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exiting = true
	for path := range r.live {
		os.Remove(path)
		delete(r.live, path)
	}
}

// catchSignals installs the handler that, on one of exitSignals, removes
// the live temporary files and exits with status 128+signal.
func (r *tempFiles) catchSignals() {
	var sigs []os.Signal
	for _, s := range exitSignals {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	go func() {
		s := <-c
		r.removeAll()
		os.Exit(signalStatus(s))
	}()
}

// RemoveStale removes the stale temporary files in dir (see the top of
// this file) and names each one on stderr. It is quiet about what it cannot
// read or remove: the files are litter, and -fix goes on.
func RemoveStale(stderr io.Writer, dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range entries {
		name := e.Name()
		if name == "" || name[0] != '.' || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, name)
		var why string
		if m := tempPattern.FindStringSubmatch(name); m != nil {
			pid, err := strconv.Atoi(m[2])
			if err != nil || pid > math.MaxInt32 || pid == self || processAlive(pid) {
				continue
			}
			if !regularBeside(dir, m[1]) {
				continue
			}
			why = fmt.Sprintf("left by ascvet process %d, which is gone", pid)
		} else if m := oldTempPattern.FindStringSubmatch(name); m != nil {
			info, err := e.Info()
			if err != nil || now.Sub(info.ModTime()) < staleAge || !regularBeside(dir, m[1]) {
				continue
			}
			why = "left by an interrupted ascvet 0.2.0 or earlier"
		} else {
			continue
		}
		if err := os.Remove(path); err == nil {
			fmt.Fprintf(stderr, "ascvet: removed %s, a temporary file %s\n", gitquote.DisplayName(path), why)
		}
	}
}

// regularBeside reports whether dir holds a regular file named base, or a
// link to one.
func regularBeside(dir, base string) bool {
	info, err := os.Stat(filepath.Join(dir, base))
	return err == nil && info.Mode().IsRegular()
}
