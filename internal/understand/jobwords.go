package understand

import "slices"

// jobConcepts sets the job slots whose words are lexicon concepts
// (configs/intents/lexicon.yaml): the training stack ("用unsloth" is
// stack_tuned, "原生transformers" stack_hf) and the low-memory full
// fine-tune ("低显存全参", lowmem_full: bf16 weights and 8-bit AdamW with
// no fp32 master copy).
func jobConcepts(q *Query, concepts []string) {
	switch {
	case slices.Contains(concepts, "@stack_tuned"):
		q.Stack = "tuned"
	case slices.Contains(concepts, "@stack_hf"):
		q.Stack = "hf"
	}
	if slices.Contains(concepts, "@lowmem_full") {
		if q.Method == "" {
			q.Method = "full"
		}
		if q.Method == "full" && q.Optimizer == "" {
			q.Optimizer = "adamw8bit"
		}
	}
}
