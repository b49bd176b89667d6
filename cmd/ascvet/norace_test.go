//go:build !race

package main

// raceEnabled: the tests run under the race detector, ten times slower;
// the heavier ones shrink.
const raceEnabled = false
