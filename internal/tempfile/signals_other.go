//go:build !unix

package tempfile

import "os"

// exitSignals are the signals that end ascvet, which remove its temporary
// files first (see tempfile.go).
var exitSignals = []os.Signal{os.Interrupt}

// processAlive cannot tell here whether a process exists, so it says every
// one does: no temporary file is removed for its process being gone.
func processAlive(int) bool { return true }

// signalStatus is the exit status that tells a shell a signal ended the
// process: 128 plus its number, 130 for an interrupt (Ctrl-C).
func signalStatus(os.Signal) int { return 128 + 2 }
