//go:build !race

package cli

// raceEnabled: the tests run under the race detector, ten times slower;
// the heavier ones shrink.
const raceEnabled = false
