package autodl

import (
	"time"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/stock"
	"github.com/labgpu/bot/internal/stock/provider/httpx"
)

// ParseAny parses an AutoDL recording of unknown kind: the stock
// parser, then the machine list, then the instance list; the first that
// yields at least one offer wins. An envelope error (AuthorizeFailed) is
// returned as is; a valid but empty answer gives no offers and no error.
func ParseAny(c *catalog.Catalog, body []byte, at time.Time) ([]stock.Offer, error) {
	data, err := autodlData(body)
	if err != nil {
		return nil, err
	}
	parsers := []func(*catalog.Catalog, []byte, time.Time) ([]stock.Offer, error){ParseStock, ParseMachines, ParseInstances}
	if looksLikeInstances(data) {
		// Instance rows may carry gpu_name too; read as machines their
		// price (for req_gpu_amount GPUs) would pass as a per-GPU price.
		parsers = []func(*catalog.Catalog, []byte, time.Time) ([]stock.Offer, error){ParseStock, ParseInstances}
	}
	for _, p := range parsers {
		if offers, err := p(c, body, at); err == nil && len(offers) > 0 {
			return offers, nil
		}
	}
	if autodlEmpty(data) {
		return nil, nil
	}
	return nil, httpx.BadResponse("%s: no AutoDL response shape recognised (tried stock, machine list, instance list)", autodlPlatform)
}

// autodlRowList returns the rows of a bare list or of data.list.
func autodlRowList(data any) []any {
	switch d := data.(type) {
	case []any:
		return d
	case map[string]any:
		l, _ := d["list"].([]any)
		return l
	}
	return nil
}

// looksLikeInstances reports whether the first row carries instance-only
// fields.
func looksLikeInstances(data any) bool {
	rows := autodlRowList(data)
	if len(rows) == 0 {
		return false
	}
	m, _ := rows[0].(map[string]any)
	_, alias := m["snapshot_gpu_alias_name"]
	_, req := m["req_gpu_amount"]
	return alias || req
}

// autodlEmpty reports whether unwrapped AutoDL data holds nothing: null,
// an empty list or object, or a null or empty data.list.
func autodlEmpty(data any) bool {
	switch d := data.(type) {
	case nil:
		return true
	case []any:
		return len(d) == 0
	case map[string]any:
		if len(d) == 0 {
			return true
		}
		l, has := d["list"]
		if !has {
			return false
		}
		if l == nil {
			return true
		}
		rows, isList := l.([]any)
		return isList && len(rows) == 0
	}
	return false
}
