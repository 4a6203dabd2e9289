package plan

import (
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
)

// LabSource is the source of a price the lab recorded itself, seen by
// seenBy ("本组记录（张三）"; a figure's source is one text, kept in
// Chinese).
func LabSource(seenBy string) string { return i18n.ZH.T("labplans.source", seenBy) }

// FromCatalog turns the catalog's marketplaces and overseas clouds (not
// free tiers or AI-art clouds) into the optimizer's platforms and prices:
// each GPU's pay-as-you-go price and its plan prices (CNY per term), with
// the lab's own prices (lab, from config plans:) replacing the catalog's
// for the same platform, GPU and mode, or adding to them.
func FromCatalog(cat *catalog.Catalog, lab []Price) ([]Platform, []Price) {
	var plats []Platform
	var prices []Price
	for i := range cat.Platforms {
		p := &cat.Platforms[i]
		if p.Kind == "free tier" || p.Kind == "ai-art cloud" {
			continue
		}
		pl := Platform{ID: p.ID, GranularityHours: p.Billing.GranularityHours(), MinimumHours: p.Billing.MinimumMinutes / 60,
			DiskFreeGB: p.Storage.DataDiskFreeGB}
		if p.Billing.Granularity == "" {
			pl.GranularityHours = 1 // unknown: rounding up to the hour is the cautious reading
		}
		if f := p.Storage.NoCard.CNYPerHour; p.Storage.NoCard.Available && f != nil {
			v := f.Mid()
			pl.NoCard = &v
		}
		if f := p.Storage.DataDiskCNYPerGBDay; f != nil {
			v := f.Mid()
			pl.DiskCNYPerGBDay = &v
		}
		plats = append(plats, pl)
		for _, pr := range p.Prices {
			if pr.Mode != "" && pr.Mode != "hourly" {
				continue
			}
			prices = append(prices, Price{Platform: p.ID, GPU: pr.GPU, Mode: "hourly", CNY: pr.CNYPerHour})
			for _, l := range pr.Plans {
				prices = append(prices, Price{Platform: p.ID, GPU: pr.GPU, Mode: l.Mode, CNY: l.CNY})
			}
		}
	}
	return plats, withLab(prices, lab)
}

// withLab puts the lab's prices in place of the catalog's for the same
// platform, GPU and mode; the others are added.
func withLab(prices, lab []Price) []Price {
	for _, l := range lab {
		l.Lab = true
		replaced := false
		for i, pr := range prices {
			if pr.Platform == l.Platform && pr.GPU == l.GPU && pr.Mode == l.Mode {
				prices[i], replaced = l, true
			}
		}
		if !replaced {
			prices = append(prices, l)
		}
	}
	return prices
}
