package main

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/labgpu/bot/internal/app"
	"github.com/labgpu/bot/internal/billing/estimator"
)

// jsonErrorCommands are the commands that, asked for --format json,
// print an error object on stdout when they fail, so a program reading
// them always gets one JSON object.
var jsonErrorCommands = map[string]bool{"estimate": true}

// errorObject is a failed command's answer in JSON mode: the intent, the
// message (as stderr has it) and a reason programs can switch on.
type errorObject struct {
	Intent string `json:"intent"`
	Error  string `json:"error"`
	Reason string `json:"reason"`
}

// Reasons an error object gives.
const (
	reasonBadInput     = "bad_input"     // a flag, argument or config is wrong
	reasonUnknownModel = "unknown_model" // not in the catalog and no size given
	reasonNotLLM       = "not_llm"       // BERT, ResNet …: not a language model
	reasonTooManyGPUs  = "too_many_gpus" // more GPUs than one machine holds
	reasonNoEstimate   = "no_estimate"   // the estimator refused the job
	reasonFailed       = "failed"        // anything else
)

// errorReason classifies err for an error object.
func errorReason(err error) string {
	var ne *app.NoEstimateError
	var ue usageError
	switch {
	case errors.Is(err, estimator.ErrUnknownModel):
		return reasonUnknownModel
	case errors.Is(err, estimator.ErrNotLLM):
		return reasonNotLLM
	case errors.Is(err, estimator.ErrTooManyGPUs):
		return reasonTooManyGPUs
	case errors.As(err, &ne):
		return reasonNoEstimate
	case errors.As(err, &ue):
		return reasonBadInput
	}
	return reasonFailed
}

// jsonRequested reports whether args ask for --format json ("--format
// json" or "--format=json"); it reads the raw arguments, since a flag
// that fails to parse can come before --format.
func jsonRequested(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--format" && i+1 < len(args):
			if args[i+1] == app.FormatJSON {
				return true
			}
		case strings.HasPrefix(a, "--format="):
			if strings.TrimPrefix(a, "--format=") == app.FormatJSON {
				return true
			}
		}
	}
	return false
}

// writeErrorObject prints err as an error object of intent on w.
func writeErrorObject(w io.Writer, intent string, err error) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(errorObject{Intent: intent, Error: oneLine(err.Error()), Reason: errorReason(err)})
}
