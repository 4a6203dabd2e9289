// Package admin is the bot's admin listener and its client. bbolt lets
// one process open the embedded store's file, so while `bot serve` runs,
// one-shot commands (bot digest, bot storage export, bot backup, bot
// migrate, bot ask …) reach the store through it: `bot serve` listens on
// its own address (loopback by default, BOT_ADMIN_ADDR; never the public
// callback port), each request authenticated by a token from the
// environment (BOT_ADMIN_TOKEN; without one the listener is off), and
// the commands open the file directly only when no bot holds it.
//
// The API (every request with "Authorization: Bearer <token>"):
//
//	GET  /admin/v1/ping            the bot's data directory and store kind (Info)
//	POST /admin/v1/store/<method>  a store method: a JSON array of its arguments
//	                               in, {"result": …, "error": …, "code": …} out
//	GET  /admin/v1/backup          a backup of the store (a gzipped tar of both
//	                               files, each a consistent transaction copy)
package admin

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// DefaultAddr is the admin listener's address when none is configured
// (BOT_ADMIN_ADDR): loopback, so only this machine (or this container)
// reaches it.
const DefaultAddr = "127.0.0.1:8081"

// MinTokenLen is the shortest token accepted.
const MinTokenLen = 16

// Paths of the API.
const (
	pathPing   = "/admin/v1/ping"
	pathStore  = "/admin/v1/store/"
	pathBackup = "/admin/v1/backup"
)

// Info is what the listener says about the bot behind it.
type Info struct {
	// DataDir is the embedded store's directory (absolute), "" for Redis.
	DataDir string `json:"data_dir"`
	// Store is "embedded" or "redis".
	Store string `json:"store"`
}

var (
	// ErrNoToken is the client's error when BOT_ADMIN_TOKEN is not set.
	ErrNoToken = errors.New("BOT_ADMIN_TOKEN is not set")
	// ErrRefused is the client's error when the bot refused the token.
	ErrRefused = errors.New("the running bot refused BOT_ADMIN_TOKEN")
	// ErrNoListener is the client's error when nothing answers at the
	// admin address.
	ErrNoListener = errors.New("no bot answers at the admin address")
	// ErrOtherBot is the client's error when the bot answering keeps its
	// store elsewhere.
	ErrOtherBot = errors.New("the bot answering at the admin address keeps its store elsewhere")
)

// HowTo says how to run a one-shot command beside a running bot on the
// embedded store, for an error's end.
const HowTo = "to run it beside the bot, start bot serve with BOT_ADMIN_TOKEN set (at least 16 characters, e.g. `openssl rand -hex 16`) " +
	"and set the same BOT_ADMIN_TOKEN here (the bot listens on BOT_ADMIN_ADDR, default " + DefaultAddr + "); or stop the bot; or use the Redis store (REDIS_URL)"

// CheckConfig checks an admin address and token: addr host:port on
// another port than the callback's (httpAddr) wherever both listen, a
// token empty (the listener off) or at least MinTokenLen characters.
func CheckConfig(addr, token, httpAddr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("%q is not host:port (e.g. %s)", addr, DefaultAddr)
	}
	if hh, hp, err := net.SplitHostPort(httpAddr); err == nil && hp == port && (host == hh || anyHost(host) || anyHost(hh)) {
		return fmt.Errorf("%q shares its port with http.addr %q: the admin listener must never be reachable on the callback port; use another port (default %s)", addr, httpAddr, DefaultAddr)
	}
	if token != "" && len(token) < MinTokenLen {
		return fmt.Errorf("BOT_ADMIN_TOKEN has %d characters; use at least %d (e.g. `openssl rand -hex 16`)", len(token), MinTokenLen)
	}
	return nil
}

// anyHost reports whether a listen host means every interface.
func anyHost(h string) bool { return h == "" || h == "0.0.0.0" || h == "::" }

// Loopback reports whether addr listens on loopback only.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
