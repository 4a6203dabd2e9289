package commands

import "strings"

// regionEnglish names Chinese platform regions in English answers: AutoDL's
// console regions and 矩池云's domains (stock-apis.md §1, §3).
var regionEnglish = map[string]string{
	"西北B区": "Northwest B", "西北企业区": "Northwest Enterprise", "北京A区": "Beijing A", "北京B区": "Beijing B",
	"内蒙A区": "Inner Mongolia A", "内蒙B区": "Inner Mongolia B", "佛山区": "Foshan", "重庆A区": "Chongqing A",
	"V100专区": "V100 zone", "L20专区": "L20 zone", "3090专区": "3090 zone",
	"1区": "Zone 1", "亚太2区": "Asia-Pacific 2", "13区": "Zone 13", "16区": "Zone 16", "国产卡": "Chinese GPUs",
}

// regionText is a region as the reader's language names it; an unknown
// Chinese name is kept as is.
func regionText(region string, en bool) string {
	if !en {
		return region
	}
	if e, ok := regionEnglish[strings.TrimSpace(region)]; ok {
		return e
	}
	return region
}
