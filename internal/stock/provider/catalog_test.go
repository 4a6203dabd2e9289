package provider_test

import (
	"context"
	"testing"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider"
	"github.com/labgpu/bot/internal/stock/provider/providertest"
)

func TestCatalogProvider(t *testing.T) {
	c := providertest.LoadCatalog(t)
	p := provider.NewCatalog(c, provider.CatalogOptions{})
	if p.Name() != "catalog" {
		t.Errorf("Name %q", p.Name())
	}
	got, err := p.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, pl := range c.Platforms {
		n += len(pl.Prices)
	}
	if len(got) != n {
		t.Errorf("%d offers for %d list prices", len(got), n)
	}
	for _, o := range got {
		providertest.CheckOfferSane(t, o)
		if o.Source != stock.SourceCatalog || o.Free != nil || o.State() != stock.Unknown || o.Currency != "CNY" || o.GPUsPerInstance != 1 {
			t.Errorf("catalog offer: %+v", o)
		}
		if o.AsOfText == "" {
			t.Errorf("catalog offer without its date: %+v", o)
		}
	}
	pl, ok := c.Platform("autodl")
	if !ok {
		t.Fatal("no autodl platform in the catalog")
	}
	pr, ok := pl.PriceFor("RTX 4090")
	if !ok {
		t.Fatal("no AutoDL RTX 4090 list price in the catalog")
	}
	ms := providertest.Find(got, func(o stock.Offer) bool { return o.Platform == "autodl" && o.GPU == "RTX 4090" })
	if len(ms) != 1 {
		t.Fatalf("%d AutoDL 4090 catalog offers", len(ms))
	}
	o := ms[0]
	f := pr.CNYPerHour
	if o.CNYPerGPUHour != f.Low || o.OriginalPrice != f.Low || o.AsOfText != f.AsOf || o.Verified != f.Verified || o.Note != f.Note {
		t.Errorf("AutoDL 4090 offer %+v does not carry figure %+v", o, f)
	}
	if f.IsRange() != (o.PriceHigh == f.High && o.PriceHigh > 0) {
		t.Errorf("PriceHigh %v for figure %+v", o.PriceHigh, f)
	}
	if !o.ObservedAt.Equal(catalog.ParseAsOf(f.AsOf)) || o.ObservedAt.IsZero() {
		t.Errorf("ObservedAt %v for as_of %q", o.ObservedAt, f.AsOf)
	}
}

func TestCatalogProviderRangeAndMode(t *testing.T) {
	gpus := []catalog.GPU{{ID: "RTX 4090", Class: "consumer", MemoryGB: 24, TensorTFLOPS: 165, BandwidthGBs: 1008, Source: "x"}}
	pls := []catalog.Platform{{
		ID: "p", Name: catalog.Text{En: "P"},
		Prices: []catalog.Price{
			{GPU: "RTX 4090", CNYPerHour: catalog.Figure{Low: 1.5, High: 2.5, AsOf: "2026-08 survey", Source: "s", Verified: false, Note: "range"}},
			{GPU: "RTX 4090", Mode: "monthly", CNYPerHour: catalog.Figure{Low: 1.2, High: 1.2, AsOf: "late 2026", Source: "s", Verified: true}},
		},
	}}
	c, err := catalog.New(pls, gpus, nil, 7.2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := provider.NewCatalog(c, provider.CatalogOptions{}).Fetch(context.Background())
	if err != nil || len(got) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	if got[0].CNYPerGPUHour != 1.5 || got[0].PriceHigh != 2.5 || got[0].Verified || got[0].Note != "range" ||
		!got[0].ObservedAt.Equal(time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("range offer %+v", got[0])
	}
	if got[1].PriceHigh != 0 || got[1].Note != "billing mode monthly" || !got[1].ObservedAt.IsZero() || got[1].AsOfText != "late 2026" {
		t.Errorf("mode offer %+v", got[1])
	}
	if got, err := provider.NewCatalog(nil, provider.CatalogOptions{}).Fetch(context.Background()); err != nil || got != nil {
		t.Errorf("nil catalog: %v %v", got, err)
	}
}

func TestParseAsOf(t *testing.T) {
	d := func(y, m, dd int) time.Time { return time.Date(y, time.Month(m), dd, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2026-08-21", d(2026, 8, 21)},
		{"2026-08", d(2026, 8, 1)},
		{"2026", d(2026, 1, 1)},
		{" 2026-06-10 ", d(2026, 6, 10)},
		{"2026-08 survey", d(2026, 8, 1)},
		{"2026-08-21 (member price)", d(2026, 8, 21)},
		{"2026 Q3", d(2026, 1, 1)},
		{"2026-8", d(2026, 1, 1)},
		{"2026-13", d(2026, 1, 1)},
		{"20261", time.Time{}},
		{"late 2026", time.Time{}},
		{"", time.Time{}},
		{"２０２６", time.Time{}},
	}
	for _, tt := range tests {
		if got := catalog.ParseAsOf(tt.in); !got.Equal(tt.want) {
			t.Errorf("ParseAsOf(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
