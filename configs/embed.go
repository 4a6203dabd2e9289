// Package configs embeds the default configuration files (catalog.yaml,
// gpus.yaml, models.yaml, workloads.yaml, advice.yaml, config.example.yaml and the intent
// definitions and corpus in intents/, compiled into intents.json and
// intents.model by `go generate`; the message catalog in messages/; the
// slot extractors' words in slots/) into the binary, so the bot runs from
// any directory. A file given by --config overrides them. Beside them:
// the words the code reads (chatwords.yaml: the channels'; apiwords.yaml:
// the platforms' API answers'; advicewords.yaml: a problem report's).
package configs

import "embed"

// FS holds the embedded YAML files at its root.
//
//go:generate go run ../internal/understand/compile .
//go:embed *.yaml *.json *.model intents/*.yaml messages/*.yaml slots/*.yaml
var FS embed.FS
