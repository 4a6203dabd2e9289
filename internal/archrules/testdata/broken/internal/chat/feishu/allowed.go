package feishu

import (
	_ "github.com/labgpu/bot/internal/chat"
	_ "github.com/larksuite/oapi-sdk-go/v3"
)
