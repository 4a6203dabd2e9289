// Package answer is what every intent's answer works with: the registry
// (Intent, Register, Lookup), the Ask an answer reads (the Query, the
// Asker, the Env of services: catalog, offers, clock, renderer, stores,
// estimator, knowledge base, history, the storage ledger's state), the
// best price quotes for a job, and the size of a short form. It imports
// no other part of commands.
package answer

import (
	"context"
	"time"

	kb "github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/billing/estimator"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/history"
	"github.com/labgpu/bot/internal/plan"
	"github.com/labgpu/bot/internal/render"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/understand"
	"github.com/labgpu/bot/internal/workload"
)

// Offers supplies the current stock snapshot (stock.Board implements it).
type Offers interface {
	Snapshot(ctx context.Context) stock.Snapshot
}

// Env is what answers read: the catalog, the offers, the clock, the
// months after which a list price is stale (0: the default), the
// renderer of offers and their marks, and the services the router was
// built with (nil or zero when not enabled).
type Env struct {
	Cat             *catalog.Catalog
	Offers          Offers
	Now             func() time.Time
	ListPriceMaxAge int
	Rd              *render.Renderer
	// Loc is the time zone of the times answers show and questions name
	// (config timezone); ChatEnglish the chat's language for bare pastes.
	Loc         *time.Location
	ChatEnglish bool
	// Est is the LLM estimator, Work the other workloads' data, KB the
	// troubleshooting knowledge base (nil when not enabled).
	Est  *estimator.Estimator
	Work *workload.Data
	KB   *kb.Base
	// History is the availability history (nil when not kept); LabPlans
	// the lab's own plan prices (config plans:), QueueRisk the chance of
	// not getting a card (nil: unknown).
	History   *history.Recorder
	LabPlans  []plan.Price
	QueueRisk plan.QueueRisk
	// Alerts are the stock alert stores and policy (nil when alerts are
	// not enabled); Storage the storage ledger's (nil when not enabled).
	Alerts  *Alerts
	Storage *Storage
	// Intents are the intent definitions (configs/intents): their names,
	// descriptions and help phrasings, for help and ask-backs.
	Intents *understand.Intents
	// LedgerOn: the lab's storage ledger is on (an answer about disks
	// then offers to register one).
	LedgerOn bool
}

// Alerts are what the alert intents read and write: the subscriptions,
// the record of alerts sent (and mutes), and the alert policy.
type Alerts struct {
	Subs   stock.SubscriptionStore
	Log    stock.AlertStore
	Policy stock.Policy
}

// A short form fits a phone screen: at most MaxShortLines lines of plain
// text in all (title, lines, table, notes and the "详情" hint), each line
// wrapped at ScreenColumns cells (a CJK character is two), and at most
// MaxShortRows table rows. The rest goes behind "详情".
const (
	MaxShortLines = render.PhoneLines
	MaxShortRows  = render.ShortRows
	ScreenColumns = render.PhoneCells
)
