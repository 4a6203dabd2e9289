// Package slots reads the slots of a chat message: GPU, platform and
// model names, money ("1块5", "两块五", "5毛"), the job's sizes and
// switches, disk sizes and numbers, billing modes and periods, alert and
// mute phrasing, and the answer's language. Extract fills a Query and
// marks the names and figures it used, for the intent scorer; the
// pipeline in package understand (which decides the intent) calls it and
// fills the chosen intent's own slots with the Extraction's finishers
// (SubscribeSlots, MuteSlots …). It imports nothing of the pipeline: the
// Query's reading (Intent, Confidence, Alternatives, Topic, Score, KB) is
// the pipeline's to fill.
//
// The words the extractors read are data (configs/slots/*.yaml), loaded
// and checked by subpackage words, which also holds the one number
// parser (words.ParseNum) and the one vocabulary of times of day and of
// the week; subpackage when reads with that vocabulary the part of the
// week a question names (Query.When), a daily clock range and a plan's
// due date (Query.Deadline). Subpackages read, from the text and what the
// extractors here hand them: language the answer's language, money the
// amounts, conditions the conditions a question states (Query.Stated),
// claim a fact check's claim (Query.Claim), oom a pasted out-of-memory
// error (Query.OOM). None imports this package.
package slots

import (
	"github.com/labgpu/bot/internal/advice"
	"github.com/labgpu/bot/internal/i18n"
	"github.com/labgpu/bot/internal/understand/slots/claim"
	"github.com/labgpu/bot/internal/understand/slots/conditions"
	"github.com/labgpu/bot/internal/understand/slots/oom"
	"github.com/labgpu/bot/internal/understand/slots/when"
)

// Billing modes (slot billing_mode).
const (
	ModeHourly  = "hourly"
	ModeDaily   = "daily"
	ModeWeekly  = "weekly"
	ModeMonthly = "monthly"
	ModeYearly  = "yearly"
	ModeSpot    = "spot"
)

// Periods (slot period).
const (
	PeriodThisWeek  = "this_week"
	PeriodLastWeek  = "last_week"
	PeriodThisMonth = "this_month"
	PeriodLastMonth = "last_month"
)

// Alternative is another reading of a question with its score.
type Alternative struct {
	Intent string  `json:"intent"`
	Topic  string  `json:"topic,omitempty"`
	Score  float64 `json:"score"`
}

// Query is an understood question: the intent, how sure, the runner-up
// readings and every slot found. Zero values mean "not given".
type Query struct {
	Intent string `json:"intent"`
	// Confidence is the chosen reading's probability in [0, 1] (1 for a
	// command recognised by its pattern); Alternatives are the next
	// readings, best first.
	Confidence   float64       `json:"confidence"`
	Alternatives []Alternative `json:"alternatives,omitempty"`
	// GPU is a catalog GPU id, or a family ("A100") when GPUFamily is set;
	// GPUs lists every GPU id the question covers.
	GPU       string   `json:"gpu,omitempty"`
	GPUFamily bool     `json:"gpu_family,omitempty"`
	GPUs      []string `json:"gpus,omitempty"`
	// NamedGPUs are the GPUs as named, one id or family per name ("4090
	// 和 A100" → RTX 4090, A100), for comparisons.
	NamedGPUs []string `json:"named_gpus,omitempty"`
	// UnknownGPU is a GPU-like name the catalog does not know ("3090 ti",
	// "b200"); answers name it instead of guessing.
	UnknownGPU string `json:"unknown_gpu,omitempty"`
	// TypoGPU is a card number typed with two digits swapped ("4900"),
	// read as the card in GPU ("RTX 4090"); answers say so.
	TypoGPU string `json:"typo_gpu,omitempty"`
	// Platform is the first catalog platform id named; Platforms lists all
	// of them ("autodl 和 恒源云").
	Platform  string   `json:"platform,omitempty"`
	Platforms []string `json:"platforms,omitempty"`
	// ExcludePlatforms are platforms the asker rules out ("不要vast",
	// "除了autodl", "except runpod").
	ExcludePlatforms []string `json:"exclude_platforms,omitempty"`
	// Elsewhere asks for other platforms than the one named ("autodl 上
	// 抢不到，哪里还能租"); WhichPlatform asks which platform has a card
	// ("哪家", "where else"); NoCardMode asks about the no-GPU mode
	// ("无卡模式"); Retention asks how long a platform keeps data; Aspect
	// is what a comparison asks about: AspectPrice, AspectSpeed or
	// AspectStability (words in configs/slots/offers.yaml, offers.go).
	Elsewhere     bool `json:"elsewhere,omitempty"`
	WhichPlatform bool `json:"which_platform,omitempty"`
	NoCardMode    bool `json:"no_card_mode,omitempty"`
	Retention     bool `json:"retention,omitempty"`
	// LiveAsked asks whether the prices are live ("价格是实时的吗").
	LiveAsked bool `json:"-"`
	// ListAsked asks for the list price itself ("list price of H100 on
	// runpod"): no offer seen goes before it.
	ListAsked bool `json:"-"`
	// VRAMAsked asks for the VRAM a job needs ("要多大显存", "how much
	// VRAM"): the answer states it first (configs/slots/yesno.yaml).
	VRAMAsked bool `json:"-"`
	// CheapAsked asks for a cheap card ("便宜点的", "cheapest"), comparing
	// none: the cheapest that meets the question is named first.
	CheapAsked bool   `json:"-"`
	Aspect     string `json:"aspect,omitempty"`
	// MaxPriceCNY is a price ceiling, CNY per GPU-hour ("1块5以下" → 1.5).
	MaxPriceCNY float64 `json:"max_price_cny,omitempty"`
	// PriceCNY is a price the question states without a ceiling word
	// ("文章说数据盘0.5元/GB/天"), in its own unit (PriceUnit: "gpu_hour",
	// "gb_day", "gb_month", "hour").
	PriceCNY  float64 `json:"price_cny,omitempty"`
	PriceUnit string  `json:"price_unit,omitempty"`
	// BillingMode is hourly, daily, weekly, monthly, yearly or spot.
	BillingMode string `json:"billing_mode,omitempty"`
	// ModeNamed: the question names the plan outright (包周, 月租), not a
	// length or rate that also reads as one ("每天", "跑一周").
	ModeNamed bool `json:"mode_named,omitempty"`
	// Period is this_week, last_week, this_month or last_month.
	Period string `json:"period,omitempty"`
	// Model is a catalog model id; ModelText the unknown name the user
	// wrote when no catalog model matched.
	Model     string  `json:"model,omitempty"`
	ModelText string  `json:"model_text,omitempty"`
	ParamsB   float64 `json:"params_b,omitempty"`
	// Workload is a non-LLM job of the knowledge base ("resnet", "sdxl").
	Workload string `json:"workload,omitempty"`
	// WorkloadModel and WorkloadDataset are the workload estimator's model
	// and dataset the question names, as ids of configs/workloads.yaml
	// ("resnet50", "imagenet"; a generation model named with training
	// words is its LoRA workload: "sdxl-lora"). Read by WorkloadNames for
	// a question that names no language model and no size.
	WorkloadModel   string `json:"workload_model,omitempty"`
	WorkloadDataset string `json:"workload_dataset,omitempty"`
	// Images, Steps, Resolution and DataPercent are a non-LLM job's
	// figures (workload.go): images to train on or to make ("1000 张图"),
	// sampling steps ("30步"), pixels per side ("1024x1024") and the
	// share of a dataset in percent ("ImageNet 10%").
	Images      int     `json:"images,omitempty"`
	Steps       int     `json:"steps,omitempty"`
	Resolution  int     `json:"resolution,omitempty"`
	DataPercent float64 `json:"data_percent,omitempty"`
	// AudioHours is hours of audio to transcribe or train on ("100 小时音频",
	// "50 hours of audio").
	AudioHours float64 `json:"audio_hours,omitempty"`
	// Method is full, lora, qlora or inference.
	Method  string `json:"method,omitempty"`
	Bits    int    `json:"bits,omitempty"`
	SeqLen  int    `json:"seq_len,omitempty"`
	Batch   int    `json:"batch,omitempty"`
	Samples int    `json:"samples,omitempty"`
	// TokensPerSample is the average length of one training sample.
	TokensPerSample int `json:"tokens_per_sample,omitempty"`
	// Tokens is the dataset size in tokens (one epoch).
	Tokens float64 `json:"tokens,omitempty"`
	// LoRARank is the LoRA rank r.
	LoRARank int `json:"lora_rank,omitempty"`
	// LoRATargets is "attn" or "qv" when the question names them.
	LoRATargets string `json:"lora_targets,omitempty"`
	// Optimizer is "bf16" (pure bf16) or "adamw8bit" when named.
	Optimizer string `json:"optimizer,omitempty"`
	// Stack is the training stack when named: "tuned" (Unsloth, Liger,
	// torchtune, XTuner) or "hf" (plain Transformers); the words are
	// the lexicon's stack_tuned and stack_hf concepts.
	Stack string `json:"stack,omitempty"`
	// NoGradCkpt and NoFlashAttn turn off gradient checkpointing and
	// FlashAttention; ZeRO is 2 or 3 when named.
	NoGradCkpt  bool `json:"no_grad_ckpt,omitempty"`
	NoFlashAttn bool `json:"no_flash_attn,omitempty"`
	ZeRO        int  `json:"zero,omitempty"`
	// DPO: preference training with a reference model ("7B DPO"); SFT
	// plain supervised fine-tuning named ("那SFT呢" after a DPO: no DPO).
	DPO      bool    `json:"dpo,omitempty"`
	SFT      bool    `json:"sft,omitempty"`
	Epochs   float64 `json:"epochs,omitempty"`
	GPUCount int     `json:"gpu_count,omitempty"`
	// People is how many members each rent cards ("我们组5个人每人一张
	// 4090", "3 students, one A100 each") and PerPerson how many each
	// rents: GPUCount is then People × PerPerson. A count said in total
	// ("3个人总共两张") is GPUCount alone.
	People    int `json:"people,omitempty"`
	PerPerson int `json:"per_person,omitempty"`
	// Members is how many members a budget said per member was for
	// ("4个学生，每人每月预算800"): the answer is one member's, so People
	// is 0; a follow-up naming another count ("要是只有2个学生呢") says so.
	Members int `json:"members,omitempty"`
	// MinFree is the fewest free GPUs a subscription wants ("至少2张").
	MinFree int `json:"min_free,omitempty"`
	// Stated are the conditions the question states on what it asks
	// (Region, Conditions and their typed fields; package conditions).
	conditions.Stated
	// All is "cancel all my subscriptions"; SubRef names one subscription
	// to cancel (its number in "我的订阅" or its id).
	All    bool   `json:"all,omitempty"`
	SubRef string `json:"sub_ref,omitempty"`
	// SizeGB is a disk size in GB (1e9 bytes) for storage_add and
	// storage_resize (negative when the question gave a negative size);
	// DiskRef the disk's number in the lab's list; Note the rest of a
	// storage_add ("实验数据"); Mine limits storage_list to the sender's.
	SizeGB float64 `json:"size_gb,omitempty"`
	// SizeText is the size as written when it is no disk size ("-50G",
	// "0G": 0 or less, or over MaxDiskGB), so a refusal can name it.
	SizeText string `json:"size_text,omitempty"`
	DiskRef  string `json:"disk,omitempty"`
	// MoreDisks: the message names a second disk number, which a storage
	// change does not act on; it is refused by name, not dropped.
	MoreDisks bool `json:"more_disks,omitempty"`
	// MoreSizes: the message has a second size ("AutoDL 2TB 和 恒源云
	// 100G"); a registration refuses it by name.
	MoreSizes bool   `json:"more_sizes,omitempty"`
	Note      string `json:"note,omitempty"`
	// NoteCut: the message was too long to read whole (slots.MaxQuestion),
	// so Note may miss its middle; a registration refuses it.
	NoteCut bool `json:"note_cut,omitempty"`
	Mine    bool `json:"mine,omitempty"`
	// AdminCommand is a storage admin command said to the bot whole
	// (storage_list; AdminCommand in admin.go): AdminBind ("绑定管理员",
	// AdminArg the one-time code when given), AdminList, or AdminUnbind
	// (AdminArg the name as written).
	AdminCommand string `json:"-"`
	AdminArg     string `json:"-"`
	// HoursPerWeek, TotalHours, SpanDays, Continuous and Window are a plan
	// question's usage profile: GPU hours a week ("每周跑40小时"), hours in
	// all ("300小时"), how long the work lasts in days ("5天", "一个月" 30),
	// around the clock ("连续"), and words.WindowDay or words.WindowEvening
	// ("晚上跑").
	HoursPerWeek float64 `json:"hours_per_week,omitempty"`
	TotalHours   float64 `json:"total_hours,omitempty"`
	// TotalSaid: the hours were said as a total ("一共60小时", "60 hours in
	// total"); a bare "60小时" after hours a week may be a new weekly
	// figure.
	TotalSaid  bool    `json:"-"`
	SpanDays   float64 `json:"span_days,omitempty"`
	Continuous bool    `json:"continuous,omitempty"`
	Window     string  `json:"window,omitempty"`
	// SetupHours is the setup time a question states ("配环境要一天左右":
	// 24), hours without GPU work; 0 when unstated.
	SetupHours float64 `json:"setup_hours,omitempty"`
	// Deadline is a due date the plan question states ("ddl是下周五",
	// "月底前", "by Friday"): the span runs from now to it (Deadline.Days
	// with the bot's clock) unless the question states a span.
	Deadline *when.Deadline `json:"deadline,omitempty"`
	// Week is an ISO week ("2026-W48") for a digest.
	Week string `json:"week,omitempty"`
	// MuteMinutes is how long "静音 2小时" mutes the chat; 0 with intent
	// mute means unmute.
	MuteMinutes int `json:"mute_minutes,omitempty"`
	// MuteUntil is a local clock time a mute ends at ("免打扰到明早" →
	// "08:00", "静音到晚上10点" → "22:00"): its next occurrence, the next
	// day's when MuteTomorrow. It wins over MuteMinutes.
	MuteUntil    string `json:"mute_until,omitempty"`
	MuteTomorrow bool   `json:"mute_tomorrow,omitempty"`
	// MuteWeekday is the weekday the mute ends on, 1 (Monday) … 7
	// (Sunday), 0 none ("静音到周一早上9点", "mute until monday 9am"; "周末别
	// 提醒", "mute for the weekend", "这周都别提醒" end on Monday at
	// 08:00): the next such day after today. It wins over MuteTomorrow.
	MuteWeekday int `json:"mute_weekday,omitempty"`
	// MuteWeekWords: the weekday was read from words about the week ("周
	// 末别提醒", "mute for the weekend"), not named; a long mute so read is
	// asked first.
	MuteWeekWords bool `json:"-"`
	// AboutMute: the message names the chat's mute ("现在静音了吗"); the
	// subscription list then says first whether the chat is muted.
	AboutMute bool `json:"-"`
	// NamesAlerts: the message names alerts or subscriptions ("订阅",
	// "提醒"); NamesDisks a disk or storage ("盘", "存储"). An action
	// that names neither ("删了吧") has its object decided by the state.
	NamesAlerts bool `json:"-"`
	NamesDisks  bool `json:"-"`
	// LedgerAsk: the message has a word of a question continuing a
	// storage-ledger answer (what it costs or saves, the disk as "它",
	// what is left).
	LedgerAsk bool `json:"-"`
	// Area is the help area asked about ("帮助 告警" → alerts).
	Area string `json:"area,omitempty"`
	// SmallTalk is what a chitchat message is (smalltalk.go):
	// SmallTalkThanks, SmallTalkGreeting or "".
	SmallTalk string `json:"-"`
	// OutOfScope is what the message asks that the bot does not do (a
	// Scope* kind: write code or text, act on a platform, an LLM API's
	// price, draw an image; scope.go), so the answer says so and names
	// the nearest thing it does; "" for any other message.
	OutOfScope string `json:"out_of_scope,omitempty"`
	// Question: the message asks something (a question mark, 吗, 呢, an
	// A-not-A, a wh-word; yesno.go), so no action is offered for it.
	Question bool `json:"-"`
	// YesNo is what a yes/no question asks ("够不够", "划算吗", "有…吗",
	// "is 24G enough"; yesno.go), so the answer opens with the verdict;
	// nil for any other message.
	YesNo *YesNo `json:"yes_no,omitempty"`
	// YesNoAsked: the message asks yes or no, whatever it is about
	// ("关机了还扣钱吗", "does RunPod charge for storage when my pod is
	// stopped?"), so a knowledge-base topic's stated verdict opens the
	// answer even where YesNo names no kind.
	YesNoAsked bool `json:"-"`
	// Topic is the advice entry id (intent advice; empty when nothing
	// matched well enough) and Score its confidence in [0, 1).
	Topic string  `json:"topic,omitempty"`
	Score float64 `json:"score,omitempty"`
	// English is true when the answer is in English: the question's words
	// are English, or a bare paste in a chat whose language is English.
	English bool `json:"english"`
	// Problems are parts of the question that were not understood or not
	// used, each one short sentence for the answer ("batch 0 无效"): Issues
	// worded in the question's language when they were found.
	Problems []string `json:"problems,omitempty"`
	// Issues are the Problems as typed values (a code and its values);
	// an answer words one with Problem.Text.
	Issues []Problem `json:"-"`

	// SizeB is a bare size ("7B") kept even when it is not used as
	// ParamsB, so a follow-up can answer "多大参数量？".
	SizeB float64 `json:"-"`
	// SwitchTo is set for "用4090", "换成 A100", "在恒源云呢": a message that
	// changes the card or platform of the previous question.
	SwitchTo bool `json:"-"`
	// OnlyParams is set when the text holds parameters (seq, batch, data
	// size, epochs …) and nothing that names a job or another question.
	OnlyParams bool `json:"-"`
	// Choice is 1 or 2 for "1", "第二个", "后者": a pick after an ask-back.
	Choice int `json:"-"`
	// How the message may continue the conversation (frame.go): FollowUp
	// when it reads as a follow-up of the last answer (a short message
	// opening or closing with a follow-up word: "那A100呢", "换成4090",
	// "and on vast?", "tomorrow?"; or Bare), Bare when it is nothing but
	// values ("4090", "13B", "4张", "40G的"), Cheaper when it asks for
	// something cheaper than the last answer showed ("再便宜点的"), Confirm
	// when it is a yes ("确认", "confirm") to a question the bot asked.
	FollowUp bool `json:"-"`
	Bare     bool `json:"-"`
	Cheaper  bool `json:"-"`
	Confirm  bool `json:"-"`
	// ConfirmOnly: the yes is one that only answers such a question
	// ("确认", "do it"); with nothing waiting the bot says so.
	ConfirmOnly bool `json:"-"`
	// FollowSizeGB is a size a follow-up names that its own reading does
	// not take (the pipeline drops a size outside a storage or plan
	// question): "40G的呢" after an A100 80GB answer asks for the 40 GB
	// variant.
	FollowSizeGB float64 `json:"-"`
	// FollowCount is a count a follow-up names without a card ("要是两张
	// 呢", "2 of them", "5000张呢"): cards, or images after an image job.
	FollowCount int `json:"-"`
	// FollowLater: a follow-up asks about a time from now ("过两个小时呢",
	// "later?"), which after a stock answer asks when the card is free.
	FollowLater bool `json:"-"`
	// FollowAlso: a follow-up adds to what the last question said ("周末
	// 也跑", "白天也用", "weekends too") instead of replacing it.
	FollowAlso bool `json:"-"`
	// FollowAddOne: a follow-up asks for one more of the same as the
	// last action ("A100 也要", "再加一个h100的", "H100 too").
	FollowAddOne bool `json:"-"`
	// FollowGap: a short message asks by how much the options just
	// compared differ ("贵多少", "how much cheaper?").
	FollowGap bool `json:"-"`
	// CompareWith: a short message sets what it names against the last
	// answer's subject ("和3090比呢", "跟autodl比呢", "vs A100 80G?",
	// "compared to runpod?").
	CompareWith bool `json:"-"`
	// AsksWhy: the message asks why ("num_workers改成0就好了 为啥", "why
	// did that work"); AsksFree how many are free ("how many free", "有
	// 几张").
	AsksWhy, AsksFree bool `json:"-"`
	// MuteEdit: the mute changes the one just set ("actually make it 2
	// hours"): a shorter end replaces it (a mute otherwise never
	// shortens a longer one).
	MuteEdit bool `json:"-"`
	// CancelWord: the message says cancel or delete itself ("取消吧",
	// "删了", "cancel it"), not only a decline ("算了不用").
	CancelWord bool `json:"-"`
	// BareAmount is a number said alone as a follow-up ("2.5呢", "那3
	// 呢"): a new price ceiling after offers under one (0: none).
	BareAmount float64 `json:"-"`
	// AsksHours: the message asks how long a job runs ("4090要多久", "how
	// long on an A100"); AsksFaster: it asks about speed ("快多少"). Read
	// from the whole message, whatever its length.
	AsksHours  bool `json:"-"`
	AsksFaster bool `json:"-"`
	// FollowWhich: a follow-up asks which of the options the
	// conversation named is better ("which is cheaper over a month").
	FollowWhich bool `json:"-"`
	// FollowCheapest: a short message asks for the cheapest ("最便宜的是
	// 哪个", "国内最便宜的多少", "which is cheapest?"): naming no card,
	// platform or job, it narrows the last answer to its cheapest option.
	FollowCheapest bool `json:"-"`
	// Same: the message asks the chat's last question again ("同问",
	// "+1", "我也想知道", "same question").
	Same bool `json:"-"`
	// Still: the message says what was tried did not help ("还是不行",
	// "batch改成1还是爆", "still OOM"); OtherWays asks for other ways
	// ("有没有别的办法", "other options?"). After a troubleshooting
	// answer both ask its topic's next steps.
	Still     bool `json:"-"`
	OtherWays bool `json:"-"`
	// Finding: a short message reports what the member found, has or
	// tried ("batch 已经是1了", "nvidia-smi 看显存是空的", "我装的是 cuda
	// 12.1", "it only happens during eval"); OwnAsk: it asks something of
	// its own ("多少钱", "哪家有", "how much"). After a troubleshooting
	// answer a finding that asks nothing of its own continues its topic.
	Finding bool `json:"-"`
	OwnAsk  bool `json:"-"`
	// TopicAsk: it asks how to do something or which of several
	// ("怎么定位是哪一行", "which version should I install"); after a
	// troubleshooting answer, the step its words name.
	TopicAsk bool `json:"-"`
	// PickAsk: it asks which of the options the last answer set side by
	// side to take ("那我该选哪个", "which should I pick then").
	PickAsk bool `json:"-"`
	// OthersAsk: it asks for other cards than the one just shown ("48G的
	// 还有别的吗").
	OthersAsk bool `json:"-"`
	// HourAsk: it asks whether the last answer's figure is per hour
	// ("是每小时吗", "is that per hour?").
	HourAsk bool `json:"-"`
	// MuteEndAsk asks when the mute just set ends ("那现在几点结束");
	// CurrencyAsk the currency of the last figures ("是美元还是人民币").
	MuteEndAsk, CurrencyAsk bool `json:"-"`
	// CNYAsk: it asks the last answer in yuan ("换算成人民币呢").
	CNYAsk bool `json:"-"`
	// AskWords are the words of such a question that may name a step:
	// lower-case ASCII words of three letters or more and Chinese
	// character pairs, frame.ask_stop left out ("怎么定位是哪一行" → 定位,
	// 位是, 一行).
	AskWords []string `json:"-"`
	// Resolved: the message says the problem is solved ("已经好了 谢谢",
	// "搞定了", "works now"); after a troubleshooting answer it is thanked.
	Resolved bool `json:"-"`
	// WorkedBefore: it worked before ("昨天还好好的", "it worked
	// yesterday"); after a troubleshooting answer, the same problem with
	// what changes between two runs (AdviceWorked).
	WorkedBefore bool `json:"-"`
	// WhyVerdict asks why the last verdict is what it is ("为什么不够",
	// "why not?", "为啥放不下"): after a yes/no answer, the figures
	// that decided it.
	WhyVerdict bool `json:"-"`
	// Undo takes back what the member just asked, and only that ("算了
	// 不要了", "撤销", "nvm, don't"): right after an action the bot did,
	// that action is undone; after anything else nothing changes.
	// UndoSure: it says so outright ("算了", "cancel that"); without it
	// ("不用了谢谢") the action is offered to undo, not undone.
	Undo     bool `json:"-"`
	UndoSure bool `json:"-"`
	// EditVerb changes what the last answer set ("改成1块8", "换成runpod",
	// "change it to runpod"): after an alert just set, that alert.
	EditVerb bool `json:"-"`
	// Referent points at what the last answer showed ("删掉它", "取消这个",
	// "remove it"): after a list of one subscription, that one.
	Referent bool `json:"-"`
	// SaysAll names all of something ("全部取消", "都删了"), whatever the
	// reading: after a list of the member's alerts, all of them.
	SaysAll bool `json:"-"`
	// AlertAsk asks to be told when the card of the last answer is
	// available, naming none ("有了告诉我", "tell me when it is").
	AlertAsk bool `json:"-"`
	// CardVRAM asks how much VRAM a card has ("显存多大" after an answer
	// about the L40S, "4090显存多少"), naming no job.
	CardVRAM bool `json:"-"`
	// Findings are the knowledge base's topic branches the message names
	// ("nvidia-smi能看到卡", "换bf16行吗": "topic#n", advice.Base.Findings);
	// a follow-up of that topic's answer is answered by its branch.
	Findings []string `json:"-"`
	// AdviceBranch (1-based) and AdviceNext are how the conversation
	// answers a follow-up of a troubleshooting answer: the topic's branch
	// it names, or its next steps (AdviceShown of its steps the last
	// answer showed).
	AdviceBranch int  `json:"-"`
	AdviceNext   bool `json:"-"`
	AdviceShown  int  `json:"-"`
	AdviceWorked bool `json:"-"`
	// AdviceAsk is a question how to do one of the topic's fixes ("怎么定位
	// 是哪一行", "which version should I install"): the step its words
	// name is answered first.
	AdviceAsk string `json:"-"`
	// AdviceFit: after an OOM answer with a job, "batch改成1还会爆吗" asks
	// whether the job fits at the settings it names (a verdict first).
	AdviceFit bool `json:"-"`
	// Verbs are the intents that change state whose explicit verb the
	// message has (their definitions' verbs: "静音", "取消订阅", "删除存储
	// 3"): such an intent is done only when it is among them (the
	// pipeline fills it).
	Verbs []string `json:"-"`
	// AskedAbout is the action a message was read as and asks about
	// rather than asks for ("周报是每周几发的": digest_on), answered by
	// the intent its definition names for questions (the pipeline fills
	// it; "" otherwise).
	AskedAbout string `json:"-"`
	// StateAsk: the message asks how a setting of the chat is now
	// ("周报现在开着吗": "digest", "本群静音了吗": "mute", "我订了哪些提醒":
	// "alerts"): answered with the setting, never changed (the pipeline
	// fills it).
	StateAsk string `json:"-"`
	// Explain is the action a message asks what doing would mean
	// ("取消订阅会怎样", "静音之后还能收到提醒吗"): explained, neither done
	// nor offered (the pipeline fills it).
	Explain string `json:"-"`
	// LedgerPick is which of the ledger's disks a ledger follow-up asks
	// about when it names none by number: "total" (all of them added
	// up), "stopped" (the one stopped longest), "per_owner" (GB and CNY a
	// month per member), "over" (the total against LedgerBudget), "backup"
	// and "state" (of DiskRef), "owners" (who holds
	// which: the list), "drop" (which could be deleted, without a
	// budget: advice).
	LedgerPick string `json:"-"`
	// DiskReport is a bare report that the instance of the disk last
	// talked about was shut down or started ("关机了", "开机了"): the
	// intent it reports (IntentStorageStop, IntentStorageStart; "":
	// none).
	DiskReport string `json:"-"`
	// DiskExtra: a data disk size priced is more on top of what one has
	// ("多加100G数据盘要另外付多少"): no free GB off it.
	DiskExtra bool `json:"-"`
	// LedgerBudget is a monthly storage budget (CNY) a ledger question
	// asks which disks to drop to get under; advice only.
	LedgerBudget float64 `json:"-"`
	// CJK: the message has Chinese characters (a follow-up in Chinese is
	// answered in Chinese whatever the question it changes was in).
	CJK bool `json:"-"`
	// Langless: the message itself does not say its language — no Chinese
	// and no English of the asker ("4090?", "13B?", a bare paste): it is
	// answered in the conversation's language, else the chat's.
	Langless bool `json:"-"`
	// KB is the knowledge base's match of the text, and Asked the text as
	// the member wrote it.
	KB    *advice.Result `json:"-"`
	Asked string         `json:"-"`

	// What the advice, fact-check and availability answers read from the
	// whole message (filled by the pipeline's finisher for those intents
	// and for an ask-back, whose reading a pick may choose; AdviceSlots,
	// ClaimSlots, WeekSlots):
	// KBWorkload is the knowledge base's workload the text names ("微调
	// BERT", "跑 SDXL"; its id, "" none), for a card question (filled for
	// every message by the pipeline, beside KB).
	KBWorkload string `json:"-"`
	// OOM are the figures of a pasted CUDA out-of-memory error (nil:
	// none); Serving: the text speaks of inference or serving ("推理",
	// "vllm"), so an OOM report is no training job.
	OOM     *oom.Error `json:"-"`
	Serving bool       `json:"-"`
	// Claim is what a fact check's claim says beside its prices (nil
	// outside a fact check).
	Claim *claim.Claim `json:"-"`
	// When is the part of the week the question names ("周末晚上", "明天
	// 上午10点"; nil: none).
	When *when.WeekWindow `json:"-"`
}

// Problem is a part of a question that was not used as written: Code
// says which (ProblemBatch …) and Args are the values its sentence names.
// Text words it through the message catalog (configs/messages, keys
// understand.problem.*).
type Problem struct {
	Code string `json:"code"`
	Args []any  `json:"args,omitempty"`
}

// Problem codes, with the values each takes (Problem.Args).
const (
	// ProblemMuteInvalid: a mute's length that is no length ("静音 0小时");
	// the mute is an hour.
	ProblemMuteInvalid = "mute_invalid"
	// ProblemMuteCapped: a mute longer than 7 days is 7 days.
	ProblemMuteCapped = "mute_capped"
	// ProblemMuteTime: a mute's end that is no clock time ("静音到25点");
	// the mute is an hour.
	ProblemMuteTime = "mute_time"
	// ProblemPriceLimit: a subscription's price condition the money rules
	// did not read; the subscription has no price limit.
	ProblemPriceLimit = "price_limit"
	// ProblemBatch: a batch that is no batch size; Args: the batch as
	// written (string).
	ProblemBatch = "batch"
	// ProblemQLoRABits: QLoRA at 16 bits or more is LoRA; Args: the bits
	// (int).
	ProblemQLoRABits = "qlora_bits"
	// ProblemFullBits: a full fine-tune below 16 bits is estimated at 16;
	// Args: the bits (int).
	ProblemFullBits = "full_bits"
	// ProblemModelSize: a size that is not the named model's; Args: the
	// model's id (string), the size as written in B (string), the model's
	// size in B (float64).
	ProblemModelSize = "model_size"
)

// problemKeys are the catalog's sentences of the problem codes.
var problemKeys = map[string]string{
	ProblemMuteInvalid: "understand.problem.mute_invalid",
	ProblemMuteCapped:  "understand.problem.mute_capped",
	ProblemMuteTime:    "understand.problem.mute_time",
	ProblemPriceLimit:  "understand.problem.price_limit",
	ProblemBatch:       "understand.problem.batch",
	ProblemQLoRABits:   "understand.problem.qlora_bits",
	ProblemFullBits:    "understand.problem.full_bits",
	ProblemModelSize:   "understand.problem.model_size",
}

// Text is the problem's sentence in l.
func (p Problem) Text(l i18n.Lang) string { return l.T(problemKeys[p.Code], p.Args...) }

// problem records a part of the question that was not used as written:
// the typed value, and its sentence in the question's language as far as
// it is known (Problems).
func (q *Query) problem(code string, args ...any) {
	p := Problem{Code: code, Args: args}
	q.Issues = append(q.Issues, p)
	q.Problems = append(q.Problems, p.Text(i18n.Of(q.English)))
}
