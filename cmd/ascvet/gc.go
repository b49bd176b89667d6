package main

import (
	"runtime/debug"
)

// A check allocates about 20 KB of short-lived trees, flat copies and IR
// per KB of source, and keeps little: the findings and the scan memo. With
// Go's default GOGC=100 the collector ran about 6% of a cold run's CPU
// over the CANN repositories. A check therefore runs with GOGC=400 under
// a 1 GiB soft memory limit (the collector works harder near the limit
// rather than pass it), unless the user set GOGC or GOMEMLIMIT.
// Measured over the six repositories with the cache off (/usr/bin/time):
// GOGC=100 20.9 s user, 200 MB peak RSS; GOGC=400 18.0 s, 600 MB.
const (
	checkGOGC     = 400
	checkMemLimit = 1 << 30
)

// tuneGC sets the collector for a check and returns what restores it.
func tuneGC(getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	gc := debug.SetGCPercent(checkGOGC)
	lim := debug.SetMemoryLimit(checkMemLimit)
	return func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(lim)
	}
}
