// Package procs runs the soak's processes: its own redis-server, and the
// `bot serve` replicas it kills and restarts, with their log lines.
package procs

import (
	"net"
	"syscall"
)

// FreePort returns a loopback port that was free a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// childAttr puts a child in its own process group (a Ctrl-C of the
// terminal reaches only the soak, which then stops its children) and
// kills it when the soak dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
