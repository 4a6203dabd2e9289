package main

import (
	"fmt"
	"sync"

	"github.com/labgpu/bot/tools/soak/fakes"
)

// stockGPU is the GPU the platforms' recordings list (vast.ai's bundles
// also always list an RTX 3090 offer).
const stockGPU = "RTX 4090"

// platforms are the fake vast.ai and RunPod APIs (-platforms).
type platforms struct {
	vast, runpod *fakes.Platform
	runpodKey    string // the bearer token the fake RunPod requires
	stock        *stock
}

// stock is what the fake platforms answer: whether the RTX 4090 is in
// stock ("!stock off|on"), as fakes.Soak.
type stock struct {
	mu     sync.Mutex
	in     bool
	period int // transitions so far
}

// Logf is for the platforms' mode changes, which the fake never makes.
func (s *stock) Logf(string, ...any) {}

// Stock is the current state of the RTX 4090, on every platform.
func (s *stock) Stock(string) (map[string]bool, map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return map[string]bool{stockGPU: s.in}, map[string]int{stockGPU: s.period}
}

// set puts the RTX 4090 in or out of stock; false when it already was.
func (s *stock) set(in bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.in == in {
		return false
	}
	s.in = in
	s.period++
	return true
}

// oneProcess is the one bot process behind a platform's listener.
type oneProcess struct{}

func (oneProcess) StartCount() int { return 1 }

// startPlatforms starts vast.ai and RunPod answering their recordings in
// fixtures (testdata/), the RTX 4090 in stock.
func startPlatforms(fixtures string) (*platforms, error) {
	vastBody, err := fakes.VastBody(fixtures)
	if err != nil {
		return nil, err
	}
	runpodBody, err := fakes.RunPodBody(fixtures)
	if err != nil {
		return nil, err
	}
	p := &platforms{runpodKey: "fake-" + randomHex(8), stock: &stock{in: true}}
	if p.vast, err = fakes.NewPlatform(p.stock, "vastai", "vast.ai", "fake", 1, vastBody, nil, ""); err != nil {
		return nil, err
	}
	if p.runpod, err = fakes.NewPlatform(p.stock, "runpod", "RunPod", "fake", 1, runpodBody, fakes.RunPodCloud, p.runpodKey); err != nil {
		p.vast.Close()
		return nil, err
	}
	for _, f := range []*fakes.Platform{p.vast, p.runpod} {
		f.Attach([]fakes.Replica{oneProcess{}})
	}
	return p, nil
}

func (p *platforms) close() {
	p.vast.Close()
	p.runpod.Close()
}

// providersYAML is the stock.providers block pointing the bot at the
// fakes (under the config's stock: key).
func (p *platforms) providersYAML() string {
	return fmt.Sprintf("  providers:\n    vastai:\n      enabled: true\n      base_url: %s\n    runpod:\n      base_url: %s\n",
		p.vast.URLs[0], p.runpod.URLs[0])
}
