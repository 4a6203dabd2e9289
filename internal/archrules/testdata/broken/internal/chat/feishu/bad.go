package feishu

import (
	_ "github.com/eatmoreapple/openwechat"
	_ "github.com/labgpu/bot/internal/stock"
)
