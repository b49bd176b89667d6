//go:build !linux

package tsutil

import "time"

// threadCPU reports false: a thread's CPU clock is read on Linux only.
func threadCPU() (time.Duration, bool) { return 0, false }
