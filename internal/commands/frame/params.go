package frame

// MergeParams sets in m each parameter q names (set records a change).
func MergeParams(m *Query, q Query, set func(bool, func())) {
	size := q.SizeB + q.ParamsB
	set(size > 0 && m.Model == "" && m.ParamsB == 0, func() { m.ParamsB = size })
	set(q.SeqLen > 0, func() { m.SeqLen = q.SeqLen })
	set(q.Batch > 0, func() { m.Batch = q.Batch })
	set(q.Samples > 0, func() { m.Samples = q.Samples; m.Tokens = 0 })
	set(q.Tokens > 0, func() { m.Tokens = q.Tokens })
	set(q.TokensPerSample > 0, func() { m.TokensPerSample = q.TokensPerSample })
	set(q.Epochs > 0, func() { m.Epochs = q.Epochs })
	set(q.Images > 0, func() { m.Images = q.Images })
	set(q.AudioHours > 0, func() { m.AudioHours = q.AudioHours })
	set(q.Steps > 0, func() { m.Steps = q.Steps })
	set(q.Resolution > 0, func() { m.Resolution = q.Resolution })
	set(q.DataPercent > 0, func() { m.DataPercent = q.DataPercent })
	set(q.Bits > 0, func() { m.Bits = q.Bits })
	set(q.LoRARank > 0, func() { m.LoRARank = q.LoRARank })
	set(q.LoRATargets != "", func() { m.LoRATargets = q.LoRATargets })
	set(q.Optimizer != "", func() { m.Optimizer = q.Optimizer })
	set(q.Stack != "", func() { m.Stack = q.Stack })
	set(q.NoGradCkpt, func() { m.NoGradCkpt = true })
	set(q.NoFlashAttn, func() { m.NoFlashAttn = true })
	set(q.ZeRO > 0, func() { m.ZeRO = q.ZeRO })
	set(q.DPO && !m.DPO, func() { m.DPO, m.SFT = true, false })
	set(q.SFT && m.DPO, func() { m.DPO = false })
	set(q.Method != "", func() { m.Method = q.Method })
	set(q.GPUCount > 0, func() { m.GPUCount = q.GPUCount })
	images := q.FollowCount > MaxCards || m.Images > 0 && q.FollowCount > 1 && len(q.GPUs) == 0
	set(q.FollowCount > 0 && images, func() { m.Images = q.FollowCount })
	set(q.FollowCount > 0 && q.GPUCount == 0 && !images, func() { m.GPUCount = q.FollowCount })
	set(len(q.GPUs) > 0, func() { m.GPU, m.GPUs, m.NamedGPUs, m.GPUFamily = q.GPU, q.GPUs, q.NamedGPUs, q.GPUFamily })
	set(len(q.Platforms) > 0, func() { m.Platform, m.Platforms = q.Platform, q.Platforms })
}
