package commands

import (
	"regexp"
	"strings"

	"github.com/labgpu/bot/internal/catalog"
)

// Storage ledger and digest intents.
const (
	IntentStorageAdd    = "storage_add"
	IntentStorageList   = "storage_list"
	IntentStorageResize = "storage_resize"
	IntentStorageStop   = "storage_stop"
	IntentStorageStart  = "storage_start"
	IntentStorageRemove = "storage_remove"
	IntentDigest        = "digest"
	IntentDigestOn      = "digest_on"
	IntentDigestOff     = "digest_off"
)

var (
	reStorageAdd  = regexp.MustCompile(`^\s*(?:登记存储|登记一下|登记|记一下|记录存储|添加存储|新增存储|storage\s+add|add\s+storage|register\s+storage)\s*[:：]?\s*`)
	reStorageList = regexp.MustCompile(`^\s*(?:(我的存储|我的硬盘|我的数据盘|my\s+storage|my\s+disks?)|(存储列表|存储清单|所有存储|全部存储|storage(?:\s+list)?|list\s+storage|disks?))\s*[?？]?\s*$`)
	// "存储 3 扩容到 200G", "storage resize 3 200GB", "扩容存储 3 200G"
	reStorageResize = regexp.MustCompile(`^\s*(?:(?:存储|硬盘|数据盘|storage|disk)\s*#?(\d+)\s*(?:扩容|缩容|改为|改成|调整为|调整到|resize(?:d)?(?:\s+to)?|to)\s*(?:到|为|至)?|(?:扩容|缩容|调整)\s*(?:存储|硬盘|数据盘)\s*#?(\d+)\s*(?:到|为|至)?|storage\s+resize\s+#?(\d+))\s*` + sizePat + `\s*$`)
	reStorageStop   = regexp.MustCompile(`^\s*(?:(?:存储|硬盘|数据盘|storage|disk)\s*#?(\d+)\s*(?:的实例)?\s*(?:已)?(?:关机|停机|stop(?:ped)?)|(?:关机|停机)\s*(?:存储|硬盘|数据盘)\s*#?(\d+)|storage\s+stop\s+#?(\d+))\s*$`)
	reStorageStart  = regexp.MustCompile(`^\s*(?:(?:存储|硬盘|数据盘|storage|disk)\s*#?(\d+)\s*(?:的实例)?\s*(?:已)?(?:开机|启动|start(?:ed)?)|(?:开机|启动)\s*(?:存储|硬盘|数据盘)\s*#?(\d+)|storage\s+start\s+#?(\d+))\s*$`)
	reStorageRemove = regexp.MustCompile(`^\s*(?:(?:删除|删掉|删|释放|移除)\s*(?:存储|硬盘|数据盘)\s*#?(\d+)|(?:存储|硬盘|数据盘)\s*#?(\d+)\s*(?:已)?(?:删除|删掉|释放|移除)|storage\s+(?:remove|rm|delete)\s+#?(\d+))\s*$`)
	reDigest        = regexp.MustCompile(`^\s*(?:(?:本周|这周|上周|)\s*(?:的)?\s*存储(?:花费|费用|开销|账单|周报|花了多少钱?)|存储周报|storage\s+(?:spend|cost|digest)(?:\s+this\s+week|\s+last\s+week)?|digest)\s*(\d{4}-w\d{2})?\s*[?？]?\s*$`)
	reDigestOn      = regexp.MustCompile(`^\s*(?:开启|打开|订阅|开通)\s*(?:存储)?\s*周报|^\s*digest\s+on\s*$|^\s*(?:turn\s+on|enable)\s+(?:the\s+)?(?:weekly\s+)?digest\s*$`)
	reDigestOff     = regexp.MustCompile(`^\s*(?:关闭|关掉|取消|退订|停止)\s*(?:存储)?\s*周报|^\s*digest\s+off\s*$|^\s*(?:turn\s+off|disable)\s+(?:the\s+)?(?:weekly\s+)?digest\s*$`)
	// sizePat is a disk size: "80G", "200 GB", "1.5T", "2TB".
	sizePat = `(\d+(?:\.\d+)?)\s*(gb|g|gib|tb|t|tib)\b`
	reSize  = regexp.MustCompile(sizePat)
)

// parseStorage recognises the storage ledger and digest commands in the
// folded text s. It returns false when s is not one.
func parseStorage(c *catalog.Catalog, q *Query, s string) bool {
	first := func(m []string) string {
		for _, v := range m[1:] {
			if v != "" {
				return v
			}
		}
		return ""
	}
	switch {
	case reStorageAdd.MatchString(s):
		q.Intent = IntentStorageAdd
		rest := reStorageAdd.ReplaceAllString(s, "")
		if ps := c.FindPlatforms(rest); len(ps) > 0 {
			q.Platform = ps[0].ID
			q.Platforms = []string{ps[0].ID}
			rest = blank(rest, ps[0].Start, ps[0].End)
		}
		if m := reSize.FindStringSubmatchIndex(rest); m != nil {
			q.SizeGB = sizeGB(rest[m[2]:m[3]], rest[m[4]:m[5]])
			rest = blank(rest, m[0], m[1])
		}
		q.Note = strings.Join(strings.Fields(strings.NewReplacer("数据盘", "", "硬盘", "", "存储", "", "：", " ", ":", " ").Replace(rest)), " ")
		if q.Platform == "" {
			q.problem("没认出平台（如 AutoDL、恒源云、矩池云）", "no platform recognised (e.g. AutoDL, GPUShare, Matpool)")
		}
		if !(q.SizeGB > 0) {
			q.problem("没认出大小（如 80G、1.5T）", "no size recognised (e.g. 80GB, 1.5TB)")
		}
		return true
	case reStorageList.MatchString(s):
		q.Intent = IntentStorageList
		q.Mine = reStorageList.FindStringSubmatch(s)[1] != ""
		return true
	case reStorageResize.MatchString(s):
		m := reStorageResize.FindStringSubmatch(s)
		q.Intent = IntentStorageResize
		q.DiskRef = first(m[:4])
		q.SizeGB = sizeGB(m[4], m[5])
		return true
	case reStorageStop.MatchString(s):
		q.Intent = IntentStorageStop
		q.DiskRef = first(reStorageStop.FindStringSubmatch(s))
		return true
	case reStorageStart.MatchString(s):
		q.Intent = IntentStorageStart
		q.DiskRef = first(reStorageStart.FindStringSubmatch(s))
		return true
	case reStorageRemove.MatchString(s):
		q.Intent = IntentStorageRemove
		q.DiskRef = first(reStorageRemove.FindStringSubmatch(s))
		return true
	case reDigestOn.MatchString(s):
		q.Intent = IntentDigestOn
		return true
	case reDigestOff.MatchString(s):
		q.Intent = IntentDigestOff
		return true
	case reDigest.MatchString(s):
		q.Intent = IntentDigest
		if m := reDigest.FindStringSubmatch(s); m[1] != "" {
			q.Week = strings.ToUpper(m[1])
		}
		q.LastWeek = strings.Contains(s, "上周") || strings.Contains(s, "last week")
		return true
	}
	return false
}

// sizeGB converts "1.5" "t" to GB (1e9 bytes); GiB and TiB convert exactly.
func sizeGB(num, unit string) float64 {
	v, ok := parseNum(num)
	if !ok {
		return 0
	}
	switch unit {
	case "t", "tb":
		return v * 1000
	case "tib":
		return v * 1099.511627776
	case "gib":
		return v * 1.073741824
	}
	return v
}
