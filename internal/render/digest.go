package render

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labgpu/bot/internal/billing"
	"github.com/labgpu/bot/internal/chat"
)

// Digest renders a storage digest; name turns platform ids into
// names.
func Digest(d billing.Digest, en bool, name func(id string, en bool) string) chat.Reply {
	rep := chat.Reply{Title: fmt.Sprintf(pick1(en, "存储花费周报 %s（%s – %s）", "Storage spend %s (%s – %s)"), d.Week,
		d.From.Format("01-02"), d.To.Add(-time.Second).Format("01-02"))}
	line := fmt.Sprintf(pick1(en, "合计 %.2f 元", "Total %.2f CNY"), d.TotalCNY)
	switch {
	case d.DeltaPct != nil:
		line += fmt.Sprintf(pick1(en, "，比上周 %+.2f 元（%+.0f%%）", ", %+.2f CNY (%+.0f%%) against last week"), d.DeltaCNY, *d.DeltaPct)
	case d.PreviousTotalCNY == 0 && d.TotalCNY > 0:
		line += pick1(en, "，上周为 0", ", last week was 0")
	}
	if d.AsOf.Before(d.To) {
		line += fmt.Sprintf(pick1(en, "（截至 %s）", " (so far, to %s)"), d.AsOf.Format("01-02 15:04"))
	}
	rep.Lines = append(rep.Lines, line+pick1(en, "。", "."))
	if len(d.Members) > 0 {
		var parts []string
		rep.Lines = append(rep.Lines, pick1(en, "按人：", "By member:"))
		for _, m := range d.Members {
			rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "  %s %.2f 元（%.0f%%）", "  %s %.2f CNY (%.0f%%)"), m.Name, m.CNY, m.Share*100))
		}
		for _, p := range d.Platforms {
			parts = append(parts, fmt.Sprintf("%s %.2f（%.0f%%）", name(p.Name, en), p.CNY, p.Share*100))
		}
		rep.Lines = append(rep.Lines, pick1(en, "按平台：", "By platform: ")+strings.Join(parts, pick1(en, "，", ", ")))
	}
	for _, m := range d.Movers {
		rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "变化最大：#%s（%s，%s）%.2f → %.2f 元", "Largest change: #%s (%s, %s) %.2f → %.2f CNY"), m.Disk, m.Owner, name(m.Platform, en), m.PreviousCNY, m.CNY))
	}
	if len(d.Idle) > 0 {
		rows := [][]string{}
		for _, i := range d.Idle {
			why := fmt.Sprintf(pick1(en, "关机 %g 天", "stopped %gd"), i.Days)
			if i.Reason == "unchanged" {
				why = fmt.Sprintf(pick1(en, "%g 天未变动", "unchanged %gd"), i.Days)
			}
			rows = append(rows, []string{"#" + i.Disk, i.Owner, name(i.Platform, en), GBText(i.SizeGB), why, fmt.Sprintf("%.1f", i.MonthlyCNY)})
		}
		rep.Table = &chat.Table{Header: strings.Split(pick1(en, "闲置|持有人|平台|大小|原因|删除可省 元/月", "idle|owner|platform|size|why|saves CNY/month"), "|"), Rows: rows}
		rep.Notes = append(rep.Notes, pick1(en, "闲置盘：不用的数据删掉，或下载到本地/对象存储后释放；关机不等于不收费。", "Idle disks: delete what you do not need, or move it to local or object storage and release the disk; a stopped instance still pays for its disk."))
	}
	rep.Lines = append(rep.Lines, fmt.Sprintf(pick1(en, "%s 月至今 %.2f 元，按现有存储估计全月 %.2f 元。", "%s to date %.2f CNY; at the current disks the month comes to about %.2f CNY."), d.Month, d.MonthToDateCNY, d.ForecastCNY))
	if d.Skipped > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf(pick1(en, "账本里有 %d 条前后矛盾的记录（例如同一编号被同时登记两次），计算时已忽略。", "%d inconsistent ledger entries (e.g. one number registered twice at once) were left out."), d.Skipped))
	}
	if len(d.Unpriced) > 0 {
		rep.Notes = append(rep.Notes, pick1(en, "没有价格、未计入金额的平台：", "Platforms without a price, not in the CNY figures: ")+strings.Join(d.Unpriced, ", "))
	}
	if len(d.History) > 1 {
		c := &chat.BarChart{Title: pick1(en, "近 8 周存储花费（元）", "Storage spend, last 8 weeks (CNY)"), Unit: pick1(en, " 元", " CNY")}
		for _, w := range d.History {
			c.Labels = append(c.Labels, w.Week[5:])
			c.Values = append(c.Values, w.CNY)
		}
		rep.Chart = c
	}
	if len(d.Prices) > 0 {
		var ps []string
		for _, p := range d.Prices {
			src := pick1(en, "目录价", "catalog")
			if p.AsOf != "" {
				src += " " + p.AsOf
			}
			if p.Override {
				src = pick1(en, "本实验室配置", "lab config")
			}
			ps = append(ps, fmt.Sprintf(pick1(en, "%s %.4g 元/GB·天（免费 %g GB，%s）", "%s %.4g CNY per GB-day (%g GB free, %s)"), name(p.Platform, en), p.CNYPerGBDay, p.FreeGB, src))
		}
		rep.Notes = append(rep.Notes, pick1(en, "价格：", "Prices: ")+strings.Join(ps, pick1(en, "；", "; ")))
	}
	fresh := pick1(en, "账本里还没有记录。", "The ledger has no entries yet.")
	if !d.LastEntry.IsZero() {
		fresh = fmt.Sprintf(pick1(en, "数据来自本群存储账本（成员自己登记，最后一条 %s），按目录数据盘价计算，不是平台账单。", "From this chat's storage ledger (entered by members, last entry %s), priced at catalog data-disk prices; not the platforms' bills."), d.LastEntry.Format("2006-01-02 15:04"))
	}
	rep.Notes = append(rep.Notes, fresh)
	return rep
}

func GBText(gb float64) string {
	if gb >= 1000 && int(gb)%100 == 0 {
		return strconv.FormatFloat(gb/1000, 'f', -1, 64) + " TB"
	}
	return strconv.FormatFloat(gb, 'f', -1, 64) + " GB"
}
