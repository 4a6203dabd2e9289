package estimator

import "math"

// vram computes the per-GPU memory of the job sharded over n GPUs (ZeRO-3
// style: weights, gradients and optimizer state split n ways).
func vram(s shape, j Job, n int) VRAM {
	N, nLin := s.params()
	v := VRAM{Weights: weightBytes(j.Bits, N, nLin, fp32Cast(j))}
	if j.Bits == 4 && (j.Method == MethodInference || j.NoDoubleQuant) {
		// Without double quantisation bitsandbytes keeps an fp32 scale
		// per 64 weights (4.5 bits; GPTQ and AWQ at group size 128 keep
		// 4.25); serving at 4 bits is counted so.
		v.Weights += (0.5 - 0.127) / 8 * nLin
	}
	if j.DPO && j.Method == MethodFull {
		// The frozen reference model: a second copy of the weights.
		v.Weights *= 2
	}
	if n > 1 && j.ZeRO == 0 {
		j.ZeRO = 3
	}
	if j.Method == MethodInference {
		v.Activations = inferenceBytes(s, j)
	} else {
		v.Gradients, v.Optimizer = trainingStateBytes(s, j, N)
		v.Activations, v.Logits = activationBytes(s, j)
	}
	if n > 1 {
		v = shard(v, s, j, N, n)
	}
	return inGB(v)
}

// weightBytes is the memory of N parameters (nLin of them in linear
// layers) at the given precision. 8- and 4-bit quantise only the linear
// layers; 4-bit (NF4) adds 0.127 bits per parameter of quantisation
// constants (QLoRA paper). With fp32 (PEFT's k-bit preparation) the other
// parameters (embeddings, lm_head, norms) are 4 bytes each, else 2.
func weightBytes(bits int, N, nLin float64, fp32 bool) float64 {
	rest := 2.0
	if fp32 {
		rest = 4
	}
	switch bits {
	case 8:
		return 1*nLin + rest*(N-nLin)
	case 4:
		return (0.5+0.127/8)*nLin + rest*(N-nLin)
	case 32:
		return 4 * N
	}
	return 2 * N
}

// inferenceBytes is the KV cache (K and V, bf16) plus the working buffers
// of one forward step.
func inferenceBytes(s shape, j Job) float64 {
	sb := float64(j.SeqLen) * float64(j.Batch)
	kv := 2 * s.L * s.kv * s.d * sb * 2
	return kv + float64(j.Batch)*(s.h*8+s.V*4)
}

// trainingStateBytes returns the gradient and optimizer-state bytes of a
// training job on one GPU.
func trainingStateBytes(s shape, j Job, N float64) (grads, opt float64) {
	if j.Method == MethodFull {
		return fullStateBytes(s, j, N)
	}
	trainable := s.loraParams(float64(j.LoRARank), j.LoRATargets)
	grads, opt = 4*trainable, 12*trainable
	if j.ZeRO != 0 {
		// DeepSpeed keeps an fp32 partition of the gradients beside the
		// half-precision ones: 20 bytes per trainable parameter in all.
		grads += 4 * trainable
	}
	if j.TrainEmbeddings {
		// bf16 gradients and fp32 Adam m, v for embed and lm_head.
		emb := s.V * s.h
		if !s.tied {
			emb *= 2
		}
		grads += 2 * emb
		opt += 8 * emb
	}
	return grads, opt
}

// fullStateBytes: mixed precision keeps bf16 gradients, an fp32 master
// copy and Adam m and v (14 bytes per parameter besides the weights); pure
// fp32 keeps fp32 gradients and Adam m and v; pure bf16 keeps bf16 m and v;
// 8-bit AdamW on bf16 weights keeps 8-bit m and v and no master copy (6
// bytes per parameter in all, LLaMA-Factory's and torchtune's low-memory
// recipes); a paged optimizer (bitsandbytes' paged AdamW) keeps its state
// in unified memory that pages out to the host, holding on the GPU at
// least the state of the parameter being stepped, the largest being the
// embedding's. Optimizer-in-backward (torchtune's optimizer_in_bwd)
// steps each parameter as its gradient arrives: only the largest
// gradient, the embedding's, is held. Source: EleutherAI "Transformer
// Math 101"; torchtune's memory-optimisation tutorial.
func fullStateBytes(s shape, j Job, N float64) (grads, opt float64) {
	per := 2.0
	switch {
	case j.Bits == 32:
		per, opt = 4, 8*N
	case j.Optimizer == OptimizerPureBF16:
		opt = 4 * N
	case j.Optimizer == OptimizerAdamW8bit:
		opt = 2 * N
	case paged(j):
		opt = pagedStateBytes(j) * s.V * s.h
	default:
		opt = 12 * N
	}
	grads = per * N
	if j.OptimInBwd {
		grads = per * s.V * s.h
	}
	return grads, opt
}

// paged reports whether j's optimizer state lives in paged host memory.
func paged(j Job) bool {
	return j.Method == MethodFull && (j.Optimizer == OptimizerPagedAdamW || j.Optimizer == OptimizerPagedAdamW8bit)
}

// pagedStateBytes is a paged optimizer's state per parameter: m and v in
// fp32 (8 bytes) or 8-bit (2).
func pagedStateBytes(j Job) float64 {
	if j.Optimizer == OptimizerPagedAdamW8bit {
		return 2
	}
	return 8
}

// activationBytes is the activation memory of a training step and the
// part of the loss buffer above it (the buffer is held while the loss is
// computed, the layer's backward working set while a layer is recomputed
// and differentiated: the peak is the larger of the two on top of the
// checkpoints).
//
// Per token: one layer stores 14h + 8I bytes in bf16 (Korthikanti et al.
// 2022 for a SwiGLU MLP with FlashAttention; I the MLP width a token
// runs); its backward adds about 3I of gradients of the MLP's
// intermediate values (Unsloth's max-context rows grow 0.2275 MB per
// token for Llama-3.1-8B with the checkpoints offloaded and a fused loss:
// 14h + 11I is 0.215 MB, 0.219 MB with fragmentation). bitsandbytes' 4-bit
// matmul saves its input for the backward pass where a frozen 16-bit
// layer saves none: 2·(2h + I) more per layer (LitGPT's QLoRA rows without
// checkpointing; a tuned stack's own kernels do not). Gradient
// checkpointing keeps each layer's input, 2h bytes (4h when the residual
// stream is fp32 under PEFT's k-bit preparation), on the GPU unless
// offloaded. Without checkpointing every layer's activations are held
// while the loss is computed.
func activationBytes(s shape, j Job) (act, loss float64) {
	t := float64(j.SeqLen) * float64(j.Batch)
	layer := t * (14*s.h + 8*s.Ia) // Ia: the MLP width a token runs (shape)
	if j.NoFlashAttn {
		// Without FlashAttention the attention scores are stored:
		// 5·a·s²·b bytes per layer (Korthikanti et al. 2022, eq. 5).
		layer += 5 * s.a * float64(j.SeqLen) * t
	}
	if j.Method == MethodQLoRA && j.Stack != StackTuned {
		layer += t * 2 * (2*s.h + s.Ia)
	}
	bwd := t * 3 * s.Ia
	loss = t * s.V * lossBytesPerLogit[j.Loss]
	if j.NoGradCkpt {
		return s.L*layer + bwd, loss
	}
	ckpt := 2 * t * s.h * s.L
	switch {
	case offloaded(j):
		ckpt = 0
	case fp32Cast(j):
		ckpt *= 2
	}
	work := layer + bwd
	return ckpt + work, math.Max(0, loss-work)
}

// shard splits v (bytes) over n GPUs: ZeRO-3 (default) splits weights,
// gradients and optimizer state, ZeRO-2 all but the weights; inference
// splits the weights and the KV cache (tensor parallelism).
func shard(v VRAM, s shape, j Job, N float64, n int) VRAM {
	if j.Method == MethodFull {
		// DeepSpeed accumulates sharded gradients in fp32 (bf16
		// gradients plus an fp32 partition): 4 bytes per parameter.
		v.Gradients = 4 * N
	}
	if j.ZeRO != 2 {
		v.Weights /= float64(n)
	}
	v.Gradients /= float64(n)
	v.Optimizer /= float64(n)
	if j.ZeRO != 2 && j.Method != MethodInference {
		// ZeRO-3 gathers whole layers to compute them: the live
		// parameter buffer (DeepSpeed's stage3_max_live_parameters,
		// 1e9 parameters by default, capped at the model) and two
		// layers prefetched, in bf16.
		layer := (N - s.V*s.h) / s.L
		v.Weights += 2*math.Min(1e9, N) + 2*2*layer
	}
	if j.Method == MethodInference {
		// Tensor parallelism splits the KV cache by heads too.
		v.Activations /= float64(n)
	}
	return v
}

// inGB converts v from bytes to GB (1e9 bytes) and adds the overhead:
// OverheadGB plus FragmentationShare of the rest.
func inGB(v VRAM) VRAM {
	const gb = 1e9
	v.Weights /= gb
	v.Gradients /= gb
	v.Optimizer /= gb
	v.Activations /= gb
	v.Logits /= gb
	sum := v.Weights + v.Gradients + v.Optimizer + v.Activations + v.Logits
	v.Overhead = OverheadGB + FragmentationShare*sum
	v.Total = sum + v.Overhead
	return v
}
