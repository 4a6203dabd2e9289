package commands

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/chat"
)

// Definition describes one command: what it answers, how users phrase it,
// and its handler. Help is generated from these, never written by hand.
type Definition struct {
	// Name is a short label ("查库存 / stock").
	Name catalog.Text
	// Intent is the parser intent the command handles; Also lists further
	// intents the same handler serves (resize, stop, start, remove).
	Intent string
	Also   []string
	// Aliases are keywords that lead to the command.
	Aliases []string
	// Description says what the command answers.
	Description catalog.Text
	// Examples are real phrasings, Chinese first.
	Examples []string

	handle func(r *Router, ctx context.Context, res *Result)
}

func definitions() []Definition {
	return []Definition{
		{
			Name:        catalog.Text{Zh: "查库存和报价", En: "stock and prices"},
			Intent:      IntentStock,
			Aliases:     []string{"有货", "哪家有", "还有吗", "which platform", "in stock"},
			Description: catalog.Text{Zh: "哪些平台有这张卡、多少钱、空闲几张，按价格从低到高；每条都标明来源（实时/录制/目录标价）和数据时间。", En: "Which platforms have a GPU, at what price and how many are free, cheapest first; every row says where it came from (live / replay / catalog list price) and how old it is."},
			Examples:    []string{"哪家有4090", "3090有货吗", "A100 80G 哪家便宜", "AutoDL 的 4090 还有吗", "有没有2块以下的3090", "which platform has a 4090 right now"},
			handle:      (*Router).stockAnswer,
		},
		{
			Name:        catalog.Text{Zh: "估算费用", En: "cost estimate"},
			Intent:      IntentEstimate,
			Aliases:     []string{"多少钱", "显存", "LoRA", "QLoRA", "全量微调", "推理", "how much", "cost"},
			Description: catalog.Text{Zh: "训练或推理要多少显存、哪些卡放得下、要跑多久，以及各平台总费用（含数据盘和计费粒度等隐藏成本），并写明估算假设。", En: "VRAM needed, which GPUs fit, how long it runs and the total cost per platform including hidden storage and billing costs, with the assumptions stated."},
			Examples:    []string{"7B LoRA 要多少钱", "用4090做Qwen2.5-7B的QLoRA，5万条数据，3个epoch，大概多少钱", "部署 Qwen2.5-14B 推理要多大显存", "how much would 7B LoRA cost"},
			handle:      (*Router).estimateAnswer,
		},
		{
			Name:        catalog.Text{Zh: "平台价目和计费规则", En: "list prices and billing rules"},
			Intent:      IntentPrices,
			Aliases:     []string{"价格", "收费", "计费", "price list", "pricing"},
			Description: catalog.Text{Zh: "平台的目录标价、计费粒度、数据盘价格、无卡模式和释放规则（关机多久会删数据）。", En: "A platform's list prices, billing granularity, data-disk price, no-GPU mode and retention rules (when stopped instances and data are deleted)."},
			Examples:    []string{"AutoDL 怎么收费", "恒源云价格", "4090 价格表", "vast.ai pricing"},
			handle:      (*Router).pricesAnswer,
		},
		{
			Name:        catalog.Text{Zh: "有货提醒", En: "stock alerts"},
			Intent:      IntentSubscribe,
			Aliases:     []string{"订阅", "提醒我", "通知我", "notify me", "subscribe"},
			Description: catalog.Text{Zh: "某张卡有货（或降到某个价以下）时在本群 @你，每个订阅每次变化只提醒一次；条件可以是卡、平台、最高价、至少几张空闲、地区。", En: "@mentions you in this chat when a GPU is available (or under a price), once per change; conditions: GPU, platforms, top price, fewest free, region."},
			Examples:    []string{"4090 有货了提醒我", "订阅 4090", "AutoDL 3090 低于1.5元通知我", "notify me when an A100 80G is under 6 yuan"},
			handle:      (*Router).subscribeAnswer,
		},
		{
			Name:        catalog.Text{Zh: "我的订阅", En: "my subscriptions"},
			Intent:      IntentSubscriptions,
			Aliases:     []string{"我的订阅", "订阅列表", "my subscriptions"},
			Description: catalog.Text{Zh: "列出你在本群的订阅（只看得到自己的）。", En: "Lists your subscriptions in this chat (only yours)."},
			Examples:    []string{"我的订阅", "my subscriptions"},
			handle:      (*Router).subscriptionsAnswer,
		},
		{
			Name:        catalog.Text{Zh: "取消订阅", En: "unsubscribe"},
			Intent:      IntentUnsubscribe,
			Aliases:     []string{"取消订阅", "退订", "unsubscribe"},
			Description: catalog.Text{Zh: "按卡、编号或全部取消你的订阅。", En: "Cancels your subscriptions by GPU, number or all."},
			Examples:    []string{"取消订阅 4090", "取消订阅 1", "unsubscribe all"},
			handle:      (*Router).unsubscribeAnswer,
		},
		{
			Name:        catalog.Text{Zh: "静音", En: "mute"},
			Intent:      IntentMute,
			Aliases:     []string{"静音", "免打扰", "取消静音", "mute", "unmute"},
			Description: catalog.Text{Zh: "暂停本群的库存提醒一段时间（最长 7 天）；“取消静音”恢复。", En: "Pauses stock alerts in this chat for a while (up to 7 days); “unmute” resumes."},
			Examples:    []string{"静音 2小时", "取消静音", "mute 2h"},
			handle:      (*Router).muteAnswer,
		},
		{
			Name:        catalog.Text{Zh: "登记存储", En: "register storage"},
			Intent:      IntentStorageAdd,
			Aliases:     []string{"登记存储", "记一下", "storage add"},
			Description: catalog.Text{Zh: "把你在某个平台的数据盘记进本群的存储账本（平台、大小、用途），周报按它算花费。", En: "Records a data disk you hold on a platform in this chat's storage ledger (platform, size, purpose); the weekly digest costs it."},
			Examples:    []string{"登记存储 AutoDL 数据盘 80G 实验数据", "记一下：矩池云 200GB 数据集盘", "storage add autodl 80GB"},
			handle:      (*Router).storageAddAnswer,
		},
		{
			Name:        catalog.Text{Zh: "存储列表", En: "storage list"},
			Intent:      IntentStorageList,
			Aliases:     []string{"我的存储", "存储列表", "my storage"},
			Description: catalog.Text{Zh: "列出本群（或你自己）登记的存储：编号、平台、大小、状态、每月费用。", En: "Lists the storage registered in this chat (or yours): number, platform, size, state, monthly cost."},
			Examples:    []string{"我的存储", "存储列表", "my storage"},
			handle:      (*Router).storageListAnswer,
		},
		{
			Name:        catalog.Text{Zh: "修改存储", En: "change storage"},
			Intent:      IntentStorageResize,
			Also:        []string{IntentStorageStop, IntentStorageStart, IntentStorageRemove},
			Aliases:     []string{"扩容", "已关机", "开机", "删除存储", "storage resize/stop/start/remove"},
			Description: catalog.Text{Zh: "按编号改大小、记关机/开机、删除；只有登记人或管理员能改。", En: "Resizes, marks stopped/started or removes an entry by number; only its owner or an admin can."},
			Examples:    []string{"存储 3 扩容到 200G", "存储 2 已关机", "存储 2 开机", "删除存储 3", "storage remove 3"},
			handle:      (*Router).storageChangeAnswer,
		},
		{
			Name:        catalog.Text{Zh: "存储花费周报", En: "storage spend"},
			Intent:      IntentDigest,
			Aliases:     []string{"本周存储花费", "存储周报", "storage spend"},
			Description: catalog.Text{Zh: "本周（或指定周）存储花了多少：和上周比、按人按平台、闲置盘和删掉能省多少、本月至今和全月预计。", En: "What storage cost this week (or a given week): against last week, by member and platform, idle disks and what deleting them saves, month to date and forecast."},
			Examples:    []string{"本周存储花费", "上周存储花费", "存储周报 2026-W47", "storage spend this week"},
			handle:      (*Router).digestAnswer,
		},
		{
			Name:        catalog.Text{Zh: "周报开关", En: "weekly digest on/off"},
			Intent:      IntentDigestOn,
			Also:        []string{IntentDigestOff},
			Aliases:     []string{"开启周报", "关闭周报", "digest on", "digest off"},
			Description: catalog.Text{Zh: "每周一上午在本群发上周的存储花费周报（多副本部署也只发一次）。", En: "Posts last week's storage spend digest in this chat every Monday morning (once, even with several replicas)."},
			Examples:    []string{"开启周报", "关闭周报", "digest on", "digest off"},
			handle:      (*Router).digestSwitchAnswer,
		},
		{
			Name:        catalog.Text{Zh: "排错和选卡", En: "troubleshooting and card choice"},
			Intent:      IntentAdvice,
			Aliases:     []string{"报错", "怎么办", "用什么卡", "error", "which gpu"},
			Description: catalog.Text{Zh: "把报错（整段 traceback、nvidia-smi 或 ssh 输出都行）或问题发来：给出最可能的原因、按步骤的解决办法、相关话题和出处；爆显存会按你的任务估算显存，磁盘满会给数据盘价格，选卡会列出放得下的卡、最便宜的在前。", En: "Paste an error (a whole traceback, nvidia-smi or ssh output) or ask: the likely causes, numbered steps, related topics and the source; an OOM gets the VRAM estimate of your job, a full disk the data-disk prices, a card question the cards that fit, cheapest first."},
			Examples:    []string{"CUDA out of memory 怎么办", "torch.cuda.is_available() 返回 False", "SSH 连不上 Permission denied", "训练跑着跑着进程没了", "微调 BERT 用什么卡", "which GPU should I rent for SDXL images"},
			handle:      (*Router).adviceAnswer,
		},
		{
			Name:        catalog.Text{Zh: "帮助", En: "help"},
			Intent:      IntentHelp,
			Aliases:     []string{"help", "帮助", "怎么用"},
			Description: catalog.Text{Zh: "列出能问的问题和例子。", En: "What you can ask, with examples."},
			Examples:    []string{"帮助", "help"},
			handle:      (*Router).helpAnswer,
		},
	}
}

// helpAnswer lists every definition with its description and examples.
func (r *Router) helpAnswer(_ context.Context, res *Result) {
	en := res.English
	rep := chat.Reply{}
	if en {
		rep.Title = "labgpu bot — GPU rental questions for your lab"
	} else {
		rep.Title = "labgpu bot：帮实验室查 GPU 租用的库存、价格和费用"
	}
	for _, d := range r.defs {
		rep.Lines = append(rep.Lines, fmt.Sprintf("• %s — %s", d.Name.Pick(en), d.Description.Pick(en)))
		if len(d.Aliases) > 0 {
			rep.Lines = append(rep.Lines, pick1(en, "  关键词：", "  keywords: ")+strings.Join(d.Aliases, pick1(en, "、", ", ")))
		}
		var ex []string
		for _, e := range d.Examples {
			ex = append(ex, "“"+e+"”")
		}
		if en {
			rep.Lines = append(rep.Lines, "  e.g. "+strings.Join(ex, "  "))
		} else {
			rep.Lines = append(rep.Lines, "  例如 "+strings.Join(ex, "  "))
		}
		if d.Intent == IntentAdvice && r.advice != nil {
			var titles []string
			for _, t := range r.advice.Topics {
				titles = append(titles, t.Title.Pick(en))
			}
			rep.Lines = append(rep.Lines, pick1(en, "  话题：", "  topics: ")+strings.Join(titles, pick1(en, "；", "; ")))
		}
	}
	res.Reply = rep
}

// reSmallTalk is thanks (group 1) or a greeting, alone.
var reSmallTalk = regexp.MustCompile(`^(?:(谢谢|多谢|感谢|thanks?(?: you)?|thx|ty|好的谢谢|收到谢谢)|你好|您好|hi|hello|hey|在吗|在不在)[\s!！。.~～]*$`)

// unknown answers text the parser could not place with a short help.
func (r *Router) unknown(res *Result) {
	en := res.English
	rep := chat.Reply{}
	if m := reSmallTalk.FindStringSubmatch(strings.TrimSpace(catalog.Fold(res.msg.Text))); m != nil {
		// "谢谢", "你好": one short line, not the menu.
		switch {
		case m[1] != "":
			rep.Title = pick1(en, "不客气！", "You're welcome!")
		default:
			rep.Title = pick1(en, "你好！发“帮助”看我能做什么。", "Hi! Say “help” to see what I can do.")
		}
		res.Intent = IntentUnknown
		res.Reply = rep
		return
	}
	if en {
		rep.Title = "Sorry, I did not get that. You can ask:"
	} else {
		rep.Title = "没看懂这个问题。可以这样问："
	}
	for _, d := range r.defs {
		if d.Intent == IntentHelp || len(d.Examples) == 0 {
			continue
		}
		ex := d.Examples[0]
		if en {
			ex = d.Examples[len(d.Examples)-1]
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "• %s：“%s”", "• %s: “%s”"), d.Name.Pick(en), ex))
	}
	if en {
		rep.Notes = append(rep.Notes, "Say “help” for everything I can do.")
	} else {
		rep.Notes = append(rep.Notes, "发“帮助”看全部功能。")
	}
	res.Intent = IntentUnknown
	res.Reply = rep
}
