// Package estimate answers what a job costs and what a billing mode
// costs: "7B LoRA 要多少钱" (the estimator's figures over the best known
// prices), "训练一个ResNet50要多少钱" (the workload estimator's hours per card
// at the same prices) and "A100 包月多少" (plan prices, or hourly prices
// times the period; with a usage profile, the plan optimizer). Each intent
// registers from its own file (estimate.go, plan.go) and answers with a
// payload of render/estimateview or render/planview.
package estimate

import (
	"github.com/labgpu/bot/internal/render/estimateview"
)

// Figures are an estimate's figures (estimateview.Figures): what the
// JSON of an answer that estimated a job carries.
type Figures = estimateview.Figures
