package plan_test

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
)

func loadCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
