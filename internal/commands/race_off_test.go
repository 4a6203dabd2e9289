//go:build !race

package commands_test

// raceOn: the race detector is off; corpus-wide passes run whole.
const raceOn = false
