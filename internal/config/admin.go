package config

import (
	"github.com/labgpu/bot/internal/admin"
)

// AdminConf is `bot serve`'s admin listener (internal/admin): while the
// bot runs on the embedded store, which one process may open, one-shot
// commands (bot digest, bot storage export, bot backup, bot migrate …)
// reach the store through it.
type AdminConf struct {
	// Addr is where it listens (BOT_ADMIN_ADDR; default 127.0.0.1:8081,
	// loopback): never the callback's port.
	Addr string `yaml:"addr"`
	// Token authenticates every request (BOT_ADMIN_TOKEN, at least 16
	// characters; keep it in the environment); empty turns the listener
	// off.
	Token string `yaml:"token"`
}

// validateAdmin checks the admin listener's address and token.
func (c Config) validateAdmin(r *report) {
	if err := admin.CheckConfig(c.Admin.Addr, "", c.HTTP.Addr); err != nil {
		r.add("admin.addr", "%v", err)
	}
	if err := admin.CheckConfig(admin.DefaultAddr, c.Admin.Token, ""); err != nil {
		r.add("admin.token", "%v", err)
	}
}
