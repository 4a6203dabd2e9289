package autodl

import (
	"encoding/json"
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// ParseAny parses an AutoDL recording of unknown kind: the stock
// parser, then the machine list, then the instance list; the first that
// yields at least one offer wins. An envelope error (AuthorizeFailed) is
// returned as is; a valid but empty answer is stock.ErrEmpty (a recording
// that lists nothing says nothing about stock).
func ParseAny(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	data, err := autodlData(body)
	if err != nil {
		return nil, err
	}
	parsers := []func(*catalog.Catalog, []byte, time.Time) ([]stock.Offer, error){ParseStock, ParseMachines, ParseInstances}
	rows, list := autodlRowList(data)
	if looksLikeInstances(rows) {
		// Instance rows may carry gpu_name too; read as machines their
		// price (for req_gpu_amount GPUs) would pass as a per-GPU price.
		parsers = []func(*catalog.Catalog, []byte, time.Time) ([]stock.Offer, error){ParseStock, ParseInstances}
	}
	for _, p := range parsers {
		if offers, err := p(c, body, at); err == nil && len(offers) > 0 {
			return offers, nil
		}
	}
	if autodlEmpty(data, list) {
		return nil, httpx.Empty("%s: recording", autodlPlatform)
	}
	return nil, httpx.BadResponse("%s: no AutoDL response shape recognised (tried stock, machine list, instance list)", autodlPlatform)
}

// autodlRowList returns the rows of a bare list or of data.list, and
// data.list as it is (nil when data is not an object).
func autodlRowList(data json.RawMessage) ([]httpx.Object[autodlRow], json.RawMessage) {
	switch httpx.RawKind(data) {
	case "list":
		return httpx.Objects[autodlRow](data), nil
	case "object":
		var p httpx.Object[autodlPage]
		httpx.Decode(data, &p)
		return httpx.Objects[autodlRow](p.V.List), p.V.List
	}
	return nil, nil
}

// looksLikeInstances reports whether the first row carries instance-only
// fields.
func looksLikeInstances(rows []httpx.Object[autodlRow]) bool {
	if len(rows) == 0 {
		return false
	}
	return len(rows[0].V.SnapshotGPUAliasName) > 0 || len(rows[0].V.ReqGPUAmount) > 0
}

// autodlEmpty reports whether unwrapped AutoDL data holds nothing: null,
// an empty list or object, or a null or empty data.list (list, given for
// an object).
func autodlEmpty(data, list json.RawMessage) bool {
	switch httpx.RawKind(data) {
	case "null":
		return true
	case "list":
		var l []json.RawMessage
		_ = json.Unmarshal(data, &l)
		return len(l) == 0
	case "object":
		var m map[string]json.RawMessage
		_ = json.Unmarshal(data, &m)
		if len(m) == 0 {
			return true
		}
		switch httpx.RawKind(list) {
		case "":
			return false
		case "null":
			return true
		case "list":
			var l []json.RawMessage
			_ = json.Unmarshal(list, &l)
			return len(l) == 0
		}
	}
	return false
}
