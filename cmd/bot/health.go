package main

import (
	"net"
	"os"

	"github.com/spf13/cobra"
)

// healthURL is where `bot health` finds the bot when --url is not given:
// BOT_HTTP_ADDR, else the config's http.addr (default :8080), on this
// machine (a wildcard host is asked on loopback).
func healthURL(cmd *cobra.Command) string {
	addr := os.Getenv("BOT_HTTP_ADDR")
	if addr == "" {
		if cfg, err := configOf(cmd); err == nil {
			addr = cfg.HTTP.Addr
		}
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host, port = "", "8080"
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
