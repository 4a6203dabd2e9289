package commands_test

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/commands"
)

const (
	iStock         = commands.IntentStock
	iEstimate      = commands.IntentEstimate
	iPrices        = commands.IntentPrices
	iHelp          = commands.IntentHelp
	iUnknown       = commands.IntentUnknown
	iSubscribe     = commands.IntentSubscribe
	iUnsubscribe   = commands.IntentUnsubscribe
	iSubscriptions = commands.IntentSubscriptions
	iMute          = commands.IntentMute
)

var (
	parseCatOnce sync.Once
	parseCat     *catalog.Catalog
	parseCatErr  error
)

func parseCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	parseCatOnce.Do(func() { parseCat, parseCatErr = catalog.Load(configs.FS) })
	if parseCatErr != nil {
		tb.Fatalf("embedded catalog does not load: %v", parseCatErr)
	}
	return parseCat
}

// parseCase is a question and what Parse must return. Every field is
// checked: a zero value means "must not be set". Two shorthands keep the
// table readable:
//   - gpus nil with gpu set means gpus = [gpu];
//   - params 0 with model set means the catalog's params_b for that model.
type parseCase struct {
	in        string
	intent    string
	gpu       string
	fam       bool
	gpus      []string
	platform  string
	price     float64 // CNY per GPU-hour
	priceUSD  float64 // a ceiling given in USD: price = priceUSD × fx
	model     string
	modelText string
	params    float64
	method    string
	bits      int
	seq       int
	batch     int
	samples   int
	tokens    float64
	epochs    float64
	count     int
	en        bool
	perSample int      // tokens_per_sample
	rank      int      // lora_rank
	platforms []string // nil with platform set means [platform]
	unknown   string   // unknown_gpu
	optimizer string
	targets   string
	noCkpt    bool
	noFlash   bool
	zero      int
	minFree   int
	region    string
	all       bool
	subRef    string
	mute      int
}

var (
	a100Both = []string{"A100 40GB", "A100 80GB"}
	h100Both = []string{"H100 SXM", "H100 PCIe"}
)

// parseCases are phrasings as lab members write them (the "@bot" mention is
// already stripped by the chat adapter).
var parseCases = []parseCase{
	// Stock alerts.
	{in: "订阅 4090", intent: iSubscribe, gpu: "RTX 4090"},
	{in: "4090 有货了提醒我", intent: iSubscribe, gpu: "RTX 4090"},
	{in: "notify me when an A100 80G is under 6 yuan", intent: iSubscribe, gpu: "A100 80GB", price: 6, en: true},
	{in: "AutoDL 3090 低于1.5元通知我", intent: iSubscribe, gpu: "RTX 3090", platform: "autodl", price: 1.5},
	{in: "4090 至少2张 西北 有货提醒我", intent: iSubscribe, gpu: "RTX 4090", minFree: 2, region: "西北"},
	{in: "取消订阅 4090", intent: iUnsubscribe, gpu: "RTX 4090"},
	{in: "unsubscribe all", intent: iUnsubscribe, all: true, en: true},
	{in: "取消订阅 2", intent: iUnsubscribe, subRef: "2"},
	{in: "我的订阅", intent: iSubscriptions},
	{in: "my subscriptions", intent: iSubscriptions, en: true},
	{in: "静音 2小时", intent: iMute, mute: 120},
	{in: "mute 30m", intent: iMute, mute: 30, en: true},
	{in: "静音半小时", intent: iMute, mute: 30},
	{in: "取消静音", intent: iMute},
	{in: "告诉我哪家有4090", intent: iStock, gpu: "RTX 4090"},
	{in: "let me know which platform has a 4090", intent: iStock, gpu: "RTX 4090", en: true},
	{in: "4090 有货了告诉我", intent: iSubscribe, gpu: "RTX 4090"},
	{in: "notify me when 2 A100 80G are free", intent: iSubscribe, gpu: "A100 80GB", minFree: 2, en: true},
	// Regressions found by trying the bot as a new user.
	{in: "Qwen2.5-7B LoRA 1万条 每条1000 tokens 3个epoch 多少钱", intent: iEstimate, model: "Qwen2.5-7B", method: "lora", samples: 10000, perSample: 1000, epochs: 3},
	{in: "7B LoRA 2万条 每条 512 token", intent: iEstimate, params: 7, method: "lora", samples: 20000, perSample: 512},
	{in: "7B LoRA 10k samples of 1024 tokens", intent: iEstimate, params: 7, method: "lora", samples: 10000, perSample: 1024, en: true},
	{in: "7b lora 2万条 512 tokens", intent: iEstimate, params: 7, method: "lora", samples: 20000, perSample: 512},
	{in: "7B LoRA rank 64 多少钱", intent: iEstimate, params: 7, method: "lora", rank: 64},
	{in: "qwen2.5 7b lora r=8", intent: iEstimate, model: "Qwen2.5-7B", method: "lora", rank: 8, en: true},
	{in: "我在3B教室", intent: iUnknown},
	{in: "看了3b1b的视频", intent: iUnknown},
	{in: "少于5万条数据 7B lora 多少钱", intent: iEstimate, params: 7, method: "lora", samples: 50000},
	{in: "how much is a 4090 on 恒源云", intent: iStock, gpu: "RTX 4090", platform: "hengyuan", en: true},
	{in: "which is cheaper, autodl or 恒源云 for 4090", intent: iStock, gpu: "RTX 4090", platform: "autodl", platforms: []string{"autodl", "hengyuan"}, en: true},
	{in: "3090 ti 有货吗", intent: iStock, gpu: "RTX 3090", unknown: "3090 ti"},
	{in: "B200 哪家有", intent: iStock, unknown: "b200"},
	{in: "3080 有货吗", intent: iStock, unknown: "3080"},
	{in: "DeepSeek-V3 推理 要几张H100", intent: iEstimate, gpu: "H100", fam: true, gpus: h100Both, method: "inference"},
	{in: "数据盘多少钱", intent: iPrices},
	{in: "fp32 全量微调 1.5B 要多少显存", intent: iEstimate, params: 1.5, method: "full", bits: 32},
	{in: "help me", intent: iHelp, en: true},
	{in: "7B 全量微调 8-bit AdamW 多少钱", intent: iEstimate, params: 7, method: "full", optimizer: "adamw8bit"},
	{in: "ChatGLM3-6B 4-bit LoRA r=16 q_proj+v_proj 5万条", intent: iEstimate, model: "ChatGLM3-6B", method: "qlora", bits: 4, rank: 16, targets: "qv", samples: 50000},
	{in: "qwen2.5 7b lora no gradient checkpointing zero2 2张4090", intent: iEstimate, model: "Qwen2.5-7B", method: "lora", noCkpt: true, zero: 2, count: 2, gpu: "RTX 4090"}, // "张" makes it Chinese
	{in: "7B lora 不开 flash attention 在 V100 上要多少显存", intent: iEstimate, params: 7, method: "lora", noFlash: true, gpu: "V100", fam: true, gpus: []string{"V100 16GB", "V100 32GB"}},
	// The phrasings, verbatim.
	{in: "哪家有4090", intent: iStock, gpu: "RTX 4090"},
	{in: "which platform has a 4090 right now", intent: iStock, gpu: "RTX 4090", en: true},
	{in: "3090有货吗", intent: iStock, gpu: "RTX 3090"},
	{in: "A100 80G 哪家便宜", intent: iStock, gpu: "A100 80GB"},
	{in: "AutoDL 的 4090 还有吗", intent: iStock, gpu: "RTX 4090", platform: "autodl"},
	{in: "有没有2块以下的3090", intent: iStock, gpu: "RTX 3090", price: 2},
	{in: "7B LoRA 要多少钱", intent: iEstimate, params: 7, method: "lora"},
	{in: "how much would 7B LoRA cost", intent: iEstimate, params: 7, method: "lora", en: true},
	{in: "用4090做Qwen2.5-7B的QLoRA，5万条数据，3个epoch，大概多少钱", intent: iEstimate, gpu: "RTX 4090", model: "Qwen2.5-7B", method: "qlora", bits: 4, samples: 50000, epochs: 3},
	{in: "部署 Qwen2.5-14B 推理要多大显存", intent: iEstimate, model: "Qwen2.5-14B", method: "inference"},

	// Stock: GPU name normalisation.
	{in: "4090有吗？", intent: iStock, gpu: "RTX 4090"},
	{in: "４０９０ 有货么", intent: iStock, gpu: "RTX 4090"},
	{in: "４０９０有货吗！！！", intent: iStock, gpu: "RTX 4090"},
	{in: "  ４０９０　有货吗？？", intent: iStock, gpu: "RTX 4090"},
	{in: "ＲＴＸ４０９０ 有货吗", intent: iStock, gpu: "RTX 4090"},
	{in: "4090  有  货  吗", intent: iStock, gpu: "RTX 4090"},
	{in: "4090有吗😭", intent: iStock, gpu: "RTX 4090"},
	{in: "4090 🔥🔥", intent: iStock, gpu: "RTX 4090"},  // no words besides the name: answered in Chinese
	{in: "3090 !!!", intent: iStock, gpu: "RTX 3090"}, // no words besides the name: answered in Chinese
	{in: "rtx4090", intent: iStock, gpu: "RTX 4090"},  // no words besides the name: answered in Chinese
	{in: "RTX 4090", intent: iStock, gpu: "RTX 4090"}, // no words besides the name: answered in Chinese
	{in: "4090 24G", intent: iStock, gpu: "RTX 4090"}, // no words besides the name: answered in Chinese
	{in: "RTX-4090 24G 哪里便宜", intent: iStock, gpu: "RTX 4090"},
	{in: "帮我看一下4090有没有", intent: iStock, gpu: "RTX 4090"},
	// 4090D is a different card, however it is spelled.
	{in: "4090D 有没有", intent: iStock, gpu: "RTX 4090D"},
	{in: "RTX 4090 D 有吗", intent: iStock, gpu: "RTX 4090D"},
	{in: "RTX-4090D", intent: iStock, gpu: "RTX 4090D"}, // no words besides the name: answered in Chinese
	// A bare A100 means both variants; a size picks one.
	{in: "a100 哪家有", intent: iStock, gpu: "A100", fam: true, gpus: a100Both},
	{in: "A100", intent: iStock, gpu: "A100", fam: true, gpus: a100Both}, // no words besides the name: answered in Chinese
	{in: "A100-80GB", intent: iStock, gpu: "A100 80GB"},                  // no words besides the name: answered in Chinese
	{in: "a100-80g", intent: iStock, gpu: "A100 80GB"},                   // no words besides the name: answered in Chinese
	{in: "A100  80G", intent: iStock, gpu: "A100 80GB"},                  // no words besides the name: answered in Chinese
	{in: "Ａ１００ ８０Ｇ 哪家便宜", intent: iStock, gpu: "A100 80GB"},
	{in: "A100 40G 还有吗", intent: iStock, gpu: "A100 40GB"},
	{in: "cheapest A100 80GB", intent: iStock, gpu: "A100 80GB", en: true},
	{in: "which platforms have A100s", intent: iStock, gpu: "A100", fam: true, gpus: a100Both, en: true},
	{in: "H100 哪家有货", intent: iStock, gpu: "H100", fam: true, gpus: h100Both},
	// A10 is not a prefix match of A100.
	{in: "A10 有吗", intent: iStock, gpu: "A10"},
	{in: "A800 有吗", intent: iStock, gpu: "A800 80GB"},
	// "V100S" is the 32 GB card's name, not a plural.
	{in: "V100s 有吗", intent: iStock, gpu: "V100 32GB"},
	{in: "L40S 多少钱", intent: iStock, gpu: "L40S"},
	{in: "5090 有货吗", intent: iStock, gpu: "RTX 5090"},
	{in: "2080ti 还有吗", intent: iStock, gpu: "RTX 2080 Ti"},
	{in: "910B 哪里有", intent: iStock, gpu: "Ascend 910B"},
	// "昇腾910B" is the chip's name: no filter on the 昇腾 platform entry.
	{in: "昇腾910B 哪里有", intent: iStock, gpu: "Ascend 910B"},
	{in: "3090/4090 哪家有", intent: iStock, gpu: "RTX 3090", gpus: []string{"RTX 3090", "RTX 4090"}},
	{in: "3090和4090哪个便宜", intent: iStock, gpu: "RTX 3090", gpus: []string{"RTX 3090", "RTX 4090"}},
	// A price per hour for a card: the stock table (cheapest first) is the
	// answer a lab member wants; "价格表" asks for list prices instead.
	{in: "H800 多少钱一小时", intent: iStock, gpu: "H800"},
	{in: "A100 80GB 多少钱一小时", intent: iStock, gpu: "A100 80GB"},
	{in: "4090租一天多少钱", intent: iStock, gpu: "RTX 4090"},
	{in: "runpod 4090 price", intent: iStock, gpu: "RTX 4090", platform: "runpod", en: true},
	// No GPU named: stock across all cards.
	{in: "有没有便宜的卡", intent: iStock},
	{in: "哪家有卡", intent: iStock},

	// Stock: platforms.
	{in: "恒源云的3090还有吗", intent: iStock, gpu: "RTX 3090", platform: "hengyuan"},
	{in: "矩池云 4090", intent: iStock, gpu: "RTX 4090", platform: "matpool"},
	{in: "vast 上 4090 多少钱", intent: iStock, gpu: "RTX 4090", platform: "vastai"},
	{in: "4090 available on autodl?", intent: iStock, gpu: "RTX 4090", platform: "autodl", en: true},
	{in: "lambda 的 H100 多少钱", intent: iStock, gpu: "H100", fam: true, gpus: h100Both, platform: "lambda"},
	{in: "AutoDL 4090 价格", intent: iStock, gpu: "RTX 4090", platform: "autodl"},

	// Stock: price ceilings.
	{in: "低于1.5元的3090", intent: iStock, gpu: "RTX 3090", price: 1.5},
	{in: "3090 under 2 yuan", intent: iStock, gpu: "RTX 3090", price: 2, en: true},
	{in: "¥2以下的4090", intent: iStock, gpu: "RTX 4090", price: 2},
	{in: "4090 ￥1.8以下", intent: iStock, gpu: "RTX 4090", price: 1.8},
	{in: "3090 2块以内", intent: iStock, gpu: "RTX 3090", price: 2},
	{in: "有没有2元以下的3090", intent: iStock, gpu: "RTX 3090", price: 2},
	// "两块" is a price here, not two cards.
	{in: "有没有两块以下的4090", intent: iStock, gpu: "RTX 4090", price: 2},
	// "2块" after the card is a price, not two cards.
	{in: "4090 2块以下", intent: iStock, gpu: "RTX 4090", price: 2},
	{in: "哪家有4090 跑实验", intent: iStock, gpu: "RTX 4090"},
	{in: "2块一小时以内的4090", intent: iStock, gpu: "RTX 4090", price: 2},
	{in: "每小时不超过2块的4090", intent: iStock, gpu: "RTX 4090", price: 2},
	{in: "any 4090s under 2 yuan?", intent: iStock, gpu: "RTX 4090", price: 2, en: true},
	{in: "3090 under $0.3/hr", intent: iStock, gpu: "RTX 3090", priceUSD: 0.3, en: true},
	{in: "4090 below 0.4 usd", intent: iStock, gpu: "RTX 4090", priceUSD: 0.4, en: true},

	// Estimate.
	{in: "两张4090跑 llama2-13b lora 多少钱", intent: iEstimate, gpu: "RTX 4090", model: "Llama-2-13B", method: "lora", count: 2},
	{in: "8卡A100 全量微调 70B 要多久", intent: iEstimate, gpu: "A100", fam: true, gpus: a100Both, params: 70, method: "full", count: 8},
	{in: "qwen2.5 7b qlora 4bit seq 4096 batch 8", intent: iEstimate, model: "Qwen2.5-7B", method: "qlora", bits: 4, seq: 4096, batch: 8, en: true},
	{in: "50k samples 2 epochs Llama-3-8B LoRA cost", intent: iEstimate, model: "Llama-3-8B", method: "lora", samples: 50000, epochs: 2, en: true},
	// Pretraining trains every weight: method full. "0.5B" alone is a size,
	// not the Qwen2.5-0.5B model.
	{in: "1.5亿 tokens 预训练 0.5B 要多少钱", intent: iEstimate, params: 0.5, method: "full", tokens: 1.5e8},
	{in: "ChatGLM3-6B 4-bit LoRA 5万条 seq 2048 batch 4 三个epoch", intent: iEstimate, model: "ChatGLM3-6B", method: "qlora", bits: 4, seq: 2048, batch: 4, samples: 50000, epochs: 3},
	{in: "部署 72B 推理要几张卡", intent: iEstimate, params: 72, method: "inference"},
	{in: "7b 推理 int4 显存多少", intent: iEstimate, params: 7, method: "inference", bits: 4},
	{in: "70B 全量微调 8卡 要多久", intent: iEstimate, params: 70, method: "full", count: 8},
	{in: "两张卡跑 7b lora 多少钱", intent: iEstimate, params: 7, method: "lora", count: 2},
	{in: "能不能用 2x4090 跑 13b lora", intent: iEstimate, gpu: "RTX 4090", params: 13, method: "lora", count: 2},
	{in: "4090 x2 跑 qwen2.5-7b lora", intent: iEstimate, gpu: "RTX 4090", model: "Qwen2.5-7B", method: "lora", count: 2},
	{in: "A100*8 全参 llama3 70b", intent: iEstimate, gpu: "A100", fam: true, gpus: a100Both, model: "Llama-3-70B", method: "full", count: 8},
	{in: "8xA100 80G 全参 70b", intent: iEstimate, gpu: "A100 80GB", params: 70, method: "full", count: 8},
	{in: "8 x H100 pretrain 7b 100B tokens", intent: iEstimate, gpu: "H100", fam: true, gpus: h100Both, params: 7, method: "full", tokens: 1e11, count: 8, en: true},
	{in: "单卡4090 跑 7b lora", intent: iEstimate, gpu: "RTX 4090", params: 7, method: "lora", count: 1},
	{in: "双卡3090 13b qlora", intent: iEstimate, gpu: "RTX 3090", params: 13, method: "qlora", bits: 4, count: 2},
	{in: "H800 8卡 qwen2.5-72b 全参 多久", intent: iEstimate, gpu: "H800", model: "Qwen2.5-72B", method: "full", count: 8},
	{in: "2张A100 40G 跑 qwen2.5-32b qlora", intent: iEstimate, gpu: "A100 40GB", model: "Qwen2.5-32B", method: "qlora", bits: 4, count: 2},
	{in: "llama3 70b lora 8张A100 多少钱", intent: iEstimate, gpu: "A100", fam: true, gpus: a100Both, model: "Llama-3-70B", method: "lora", count: 8},
	{in: "Qwen2.5-72B 推理 几张A100", intent: iEstimate, gpu: "A100", fam: true, gpus: a100Both, model: "Qwen2.5-72B", method: "inference"},
	{in: "llama2 7b 推理 需要几张3090", intent: iEstimate, gpu: "RTX 3090", model: "Llama-2-7B", method: "inference"},
	// "跑" with a size and a card: can these cards run it, at what cost.
	{in: "三张3090 跑7b", intent: iEstimate, gpu: "RTX 3090", params: 7, count: 3},
	{in: "4090 两张 跑 13b lora", intent: iEstimate, gpu: "RTX 4090", params: 13, method: "lora", count: 2},
	{in: "run 7b lora on 2x 4090", intent: iEstimate, gpu: "RTX 4090", params: 7, method: "lora", count: 2, en: true},
	{in: "7b的模型lora微调，数据5w，跑3轮，用4090大概要多久", intent: iEstimate, gpu: "RTX 4090", params: 7, method: "lora", samples: 50000, epochs: 3},
	{in: "samples=50k 7b lora", intent: iEstimate, params: 7, method: "lora", samples: 50000, en: true},
	{in: "数据量 10万条 qwen2.5-7b lora", intent: iEstimate, model: "Qwen2.5-7B", method: "lora", samples: 100000},
	{in: "5千条 7b lora", intent: iEstimate, params: 7, method: "lora", samples: 5000},
	{in: "5万数据 7b lora 多少钱", intent: iEstimate, params: 7, method: "lora", samples: 50000},
	// "4096 tokens" next to 上下文/seq_len is the context, not the data.
	{in: "上下文 4096 tokens 7b 推理", intent: iEstimate, params: 7, method: "inference", seq: 4096},
	{in: "seq_len 4096 tokens qwen2.5-7b lora", intent: iEstimate, model: "Qwen2.5-7B", method: "lora", seq: 4096, en: true},
	// SFT, 微调 and 训练 may be LoRA or full: the parser leaves the method
	// to the estimator's default.
	{in: "sft qwen2.5-7b 5万条", intent: iEstimate, model: "Qwen2.5-7B", samples: 50000},
	{in: "微调 Qwen2.5-7B 要多少钱", intent: iEstimate, model: "Qwen2.5-7B"},
	{in: "用A100 80G训练llama2-7b,10万条,2轮", intent: iEstimate, gpu: "A100 80GB", model: "Llama-2-7B", samples: 100000, epochs: 2},
	{in: "在矩池云上用3090 lora微调chatglm3-6b要多少钱", intent: iEstimate, gpu: "RTX 3090", platform: "matpool", model: "ChatGLM3-6B", method: "lora"},
	// Models the catalog does not know keep their name and size.
	{in: "qwen-7b lora 多少钱", intent: iEstimate, model: "Qwen-7B", method: "lora"}, // first-generation Qwen, in the catalog
	{in: "internlm2-7b lora 多少钱", intent: iEstimate, modelText: "internlm2-7b", params: 7, method: "lora"},
	{in: "7B模型 lora 1万条", intent: iEstimate, params: 7, method: "lora", samples: 10000},
	{in: "70亿参数 lora 多少钱", intent: iEstimate, params: 7, method: "lora"},
	{in: "Qwen2.5-7B-Instruct LoRA 1w条 3 epoch", intent: iEstimate, model: "Qwen2.5-7B", method: "lora", samples: 10000, epochs: 3},
	{in: "ｑｗｅｎ２．５－７ｂ ｌｏｒａ 多少钱", intent: iEstimate, model: "Qwen2.5-7B", method: "lora"},
	{in: "seq 4k bs 16 7b lora", intent: iEstimate, params: 7, method: "lora", seq: 4096, batch: 16, en: true},
	{in: "全量微调7B要多少钱", intent: iEstimate, params: 7, method: "full"},
	{in: "13B 全参微调 需要多少显存", intent: iEstimate, params: 13, method: "full"},
	{in: "7B 预训练 100B tokens 多少钱", intent: iEstimate, params: 7, method: "full", tokens: 1e11},
	// "pretrained" describes the model, it is not a pretraining job.
	{in: "fine-tune a pretrained 7b model", intent: iEstimate, params: 7, en: true},
	{in: "fine-tune a pre-trained 7b model", intent: iEstimate, params: 7, en: true},
	{in: "pre-training a 1b model on 10B tokens, how much?", intent: iEstimate, params: 1, method: "full", tokens: 1e10, en: true},
	{in: "qwen2.5 7b 推理 fp16 要多少显存", intent: iEstimate, model: "Qwen2.5-7B", method: "inference", bits: 16},
	{in: "qwen2.5 7b 推理 8bit", intent: iEstimate, model: "Qwen2.5-7B", method: "inference", bits: 8},
	{in: "Llama-3-8B 全量 bf16 batch 32 seq 8192 100k samples 1 epoch", intent: iEstimate, model: "Llama-3-8B", method: "full", bits: 16, seq: 8192, batch: 32, samples: 100000, epochs: 1},
	{in: "how much for qlora on qwen2.5-14b with 20k samples 3 epochs", intent: iEstimate, model: "Qwen2.5-14B", method: "qlora", bits: 4, samples: 20000, epochs: 3, en: true},
	{in: "fine-tune llama-2-7b with lora, 10k examples, 2 epochs, batch 16", intent: iEstimate, model: "Llama-2-7B", method: "lora", batch: 16, samples: 10000, epochs: 2, en: true},
	{in: "what's the vram for 70b inference in 4bit", intent: iEstimate, params: 70, method: "inference", bits: 4, en: true},
	{in: "Yi-34B QLoRA 2万条 3 epochs", intent: iEstimate, model: "Yi-34B", method: "qlora", bits: 4, samples: 20000, epochs: 3},
	{in: "Mistral-7B LoRA 1w条 seq 1024", intent: iEstimate, model: "Mistral-7B-v0.1", method: "lora", seq: 1024, samples: 10000},
	{in: "deepseek 7b lora 多少钱", intent: iEstimate, model: "DeepSeek-LLM-7B", method: "lora"},
	// No size: still an estimate, so the bot can ask "多大的模型？".
	{in: "lora 多少钱", intent: iEstimate, method: "lora"},

	// Prices.
	{in: "AutoDL 怎么收费", intent: iPrices, platform: "autodl"},
	{in: "autodl 怎么计费", intent: iPrices, platform: "autodl"},
	{in: "恒源云价格", intent: iPrices, platform: "hengyuan"},
	{in: "vast.ai pricing", intent: iPrices, platform: "vastai", en: true},
	{in: "价格表", intent: iPrices},
	{in: "price list", intent: iPrices, en: true},
	{in: "4090 价格表", intent: iPrices, gpu: "RTX 4090"},
	{in: "昇腾怎么收费", intent: iPrices, platform: "ascend"},

	// Help. Empty text (a bare @mention) gets help too.
	{in: "help", intent: iHelp, en: true},
	{in: "HELP!", intent: iHelp, en: true},
	{in: "/help", intent: iHelp}, // a slash command: Chinese first
	{in: "帮助", intent: iHelp},
	{in: "帮助。", intent: iHelp},
	{in: "怎么用", intent: iHelp},
	// "？" has no Chinese character, so English is true as documented,
	// although whoever typed a full-width "？" probably reads Chinese.
	{in: "？", intent: iHelp}, // no words besides the name: answered in Chinese
	{in: "?", intent: iHelp}, // no words besides the name: answered in Chinese
	{in: "", intent: iHelp},
	{in: "    ", intent: iHelp}, // no words besides the name: answered in Chinese

	// Unrelated chat.
	{in: "你好", intent: iUnknown},
	{in: "今天天气怎么样", intent: iUnknown},
	{in: "你是谁", intent: iUnknown},
	{in: "在吗", intent: iUnknown},
	{in: "谢谢", intent: iUnknown},
	{in: "thanks", intent: iUnknown, en: true},
	{in: "hello", intent: iUnknown, en: true},
	{in: "lol", intent: iUnknown, en: true},
	{in: "晚上吃什么", intent: iUnknown},
	{in: "明天组会改到下午三点", intent: iUnknown},
	{in: "我们组有8个人", intent: iUnknown},
	{in: "跑了3个epoch loss不降了", intent: iUnknown, epochs: 3},
	{in: "老板说预算2万", intent: iUnknown},
	{in: "😀🎉🔥👍", intent: iUnknown}, // no words besides the name: answered in Chinese
	{in: strings.Repeat("哈", 5000), intent: iUnknown},
	{in: strings.Repeat("a", 5000), intent: iUnknown, en: true},
	// A long message is cut, but a question at its start still counts.
	{in: "哪家有4090" + strings.Repeat("啊", 5000), intent: iStock, gpu: "RTX 4090"},
}

func parseApprox(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

func caseName(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	if s == "" {
		return "empty"
	}
	return s
}

func TestParse(t *testing.T) {
	c := parseCatalog(t)
	if len(parseCases) < 70 {
		t.Fatalf("only %d cases", len(parseCases))
	}
	for _, tc := range parseCases {
		t.Run(caseName(tc.in), func(t *testing.T) {
			w := tc
			if w.gpus == nil && w.gpu != "" {
				w.gpus = []string{w.gpu}
			}
			if w.model != "" && w.params == 0 {
				m, ok := c.Model(w.model)
				if !ok {
					t.Fatalf("test names unknown model %q", w.model)
				}
				w.params = m.ParamsB
			}
			if w.platforms == nil && w.platform != "" {
				w.platforms = []string{w.platform}
			}
			if w.priceUSD != 0 {
				w.price = w.priceUSD * c.FXUSDCNY
			}
			q := commands.Parse(c, tc.in)
			var errs []string
			check := func(field string, ok bool, got, exp any) {
				if !ok {
					errs = append(errs, fmt.Sprintf("%s: got %#v, want %#v", field, got, exp))
				}
			}
			check("intent", q.Intent == w.intent, q.Intent, w.intent)
			check("gpu", q.GPU == w.gpu, q.GPU, w.gpu)
			check("gpu_family", q.GPUFamily == w.fam, q.GPUFamily, w.fam)
			check("gpus", reflect.DeepEqual(sortedCopy(q.GPUs), sortedCopy(w.gpus)), q.GPUs, w.gpus)
			check("platform", q.Platform == w.platform, q.Platform, w.platform)
			check("max_price_cny", parseApprox(q.MaxPriceCNY, w.price), q.MaxPriceCNY, w.price)
			check("model", q.Model == w.model, q.Model, w.model)
			check("model_text", q.ModelText == w.modelText, q.ModelText, w.modelText)
			check("params_b", parseApprox(q.ParamsB, w.params), q.ParamsB, w.params)
			check("method", q.Method == w.method, q.Method, w.method)
			check("bits", q.Bits == w.bits, q.Bits, w.bits)
			check("seq_len", q.SeqLen == w.seq, q.SeqLen, w.seq)
			check("batch", q.Batch == w.batch, q.Batch, w.batch)
			check("samples", q.Samples == w.samples, q.Samples, w.samples)
			check("tokens", parseApprox(q.Tokens, w.tokens), q.Tokens, w.tokens)
			check("epochs", parseApprox(q.Epochs, w.epochs), q.Epochs, w.epochs)
			check("gpu_count", q.GPUCount == w.count, q.GPUCount, w.count)
			check("english", q.English == w.en, q.English, w.en)
			check("tokens_per_sample", q.TokensPerSample == w.perSample, q.TokensPerSample, w.perSample)
			check("lora_rank", q.LoRARank == w.rank, q.LoRARank, w.rank)
			check("platforms", reflect.DeepEqual(q.Platforms, w.platforms), q.Platforms, w.platforms)
			check("unknown_gpu", q.UnknownGPU == w.unknown, q.UnknownGPU, w.unknown)
			check("optimizer", q.Optimizer == w.optimizer, q.Optimizer, w.optimizer)
			check("lora_targets", q.LoRATargets == w.targets, q.LoRATargets, w.targets)
			check("no_grad_ckpt", q.NoGradCkpt == w.noCkpt, q.NoGradCkpt, w.noCkpt)
			check("no_flash_attn", q.NoFlashAttn == w.noFlash, q.NoFlashAttn, w.noFlash)
			check("zero", q.ZeRO == w.zero, q.ZeRO, w.zero)
			check("min_free", q.MinFree == w.minFree, q.MinFree, w.minFree)
			check("region", q.Region == w.region, q.Region, w.region)
			check("all", q.All == w.all, q.All, w.all)
			check("sub_ref", q.SubRef == w.subRef, q.SubRef, w.subRef)
			check("mute_minutes", q.MuteMinutes == w.mute, q.MuteMinutes, w.mute)
			if len(errs) > 0 {
				t.Errorf("Parse(%q):\n  %s", caseName(tc.in), strings.Join(errs, "\n  "))
			}
		})
	}
}

var parseIntents = map[string]bool{iStock: true, iEstimate: true, iPrices: true, iHelp: true, iUnknown: true, iSubscribe: true, iUnsubscribe: true, iSubscriptions: true, iMute: true,
	commands.IntentStorageAdd: true, commands.IntentStorageList: true, commands.IntentStorageResize: true, commands.IntentStorageStop: true,
	commands.IntentStorageStart: true, commands.IntentStorageRemove: true, commands.IntentDigest: true, commands.IntentDigestOn: true, commands.IntentDigestOff: true}

func FuzzParse(f *testing.F) {
	c := parseCatalog(f)
	for _, tc := range parseCases {
		f.Add(tc.in)
	}
	for _, in := range []string{"登记存储 AutoDL 数据盘 80G 实验数据", "存储 3 扩容到 1.5T", "删除存储 12", "存储周报 2026-W47", "开启周报", "storage add autodl 80GB"} {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		q := commands.Parse(c, in)
		if !parseIntents[q.Intent] {
			t.Fatalf("Parse(%q): intent %q", in, q.Intent)
		}
		for name, v := range map[string]float64{
			"max_price_cny": q.MaxPriceCNY, "params_b": q.ParamsB, "tokens": q.Tokens, "epochs": q.Epochs,
			"bits": float64(q.Bits), "seq_len": float64(q.SeqLen), "batch": float64(q.Batch),
			"samples": float64(q.Samples), "gpu_count": float64(q.GPUCount), "size_gb": q.SizeGB,
		} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Fatalf("Parse(%q): %s = %v", in, name, v)
			}
		}
		if q.GPU != "" && len(q.GPUs) == 0 {
			t.Fatalf("Parse(%q): gpu %q but no gpus", in, q.GPU)
		}
	})
}
