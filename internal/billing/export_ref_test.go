package billing_test

import (
	"io"

	"github.com/labgpu/bot/internal/billing"
)

var (
	readRef = func(r io.Reader) ([]billing.VRAMRow, error) { return billing.ReadVRAMReference(r) }
	summary = billing.VRAMSummary
)
