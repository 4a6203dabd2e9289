//go:build race

package commands_test

// raceOn: the race detector is on (go test -race), where every answer
// costs several times as much; corpus-wide passes sample (see
// TestNoStateChangeWithoutAVerb).
const raceOn = true
