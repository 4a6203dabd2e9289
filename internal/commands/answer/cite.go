package answer

import (
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/render/cite"
)

// Cite names a catalog figure's source as a chat reader understands it
// (cite.Figure): "AutoDL 官方文档，2026-08", "第三方公开资料，2026".
func Cite(c *catalog.Catalog, platform string, f catalog.Figure, en bool) string {
	return cite.Figure(c, platform, f, i18n.Of(en))
}
