package app

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/labgpu/bot/internal/admin"
)

// Compile-time check: a one-shot command beside a running bot uses the
// admin client as its store.
var _ Store = (*admin.Client)(nil)

// startAdmin runs the admin listener (cfg.Admin) until ctx ends, when a
// token is set; stop waits for it. Without a token it says once that it
// is off.
func (a *App) startAdmin(ctx context.Context) (stop func(), err error) {
	if a.Cfg.Admin.Token == "" {
		a.Log.Info(admin.Off)
		return func() {}, nil
	}
	ln, err := admin.Listen(a.Cfg.Admin.Addr)
	if err != nil {
		return func() {}, err
	}
	srv := &admin.Server{Store: a.Store, Token: a.Cfg.Admin.Token, Info: a.adminInfo(), Log: a.Log}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ctx, ln); err != nil {
			a.Log.Error("admin listener stopped", "err", err)
		}
	}()
	a.Log.Info(admin.Describe(ln.Addr().String()))
	return func() { cancel(); <-done }, nil
}

// adminInfo is what the listener tells a client: the store's kind and,
// for the embedded one, its directory.
func (a *App) adminInfo() admin.Info {
	if a.Cfg.Store.Kind == "redis" {
		return admin.Info{Store: "redis"}
	}
	dir, _ := filepath.Abs(a.Cfg.DataDir)
	return admin.Info{Store: "embedded", DataDir: dir}
}

// throughRunningBot is the store of a one-shot command whose embedded
// store a running bot holds (inUse): that bot's, through its admin
// listener. The error says why not and how to.
func (a *App) throughRunningBot(ctx context.Context, inUse error) (Store, error) {
	c, err := admin.Dial(ctx, admin.DialOptions{Addr: a.Cfg.Admin.Addr, Token: a.Cfg.Admin.Token, DataDir: a.Cfg.DataDir})
	if err != nil {
		return nil, fmt.Errorf("%w; and the running bot cannot be reached: %w", inUse, err)
	}
	a.Log.Info("the embedded store is in use by a running bot: going through its admin listener", "addr", a.Cfg.Admin.Addr)
	return c, nil
}
