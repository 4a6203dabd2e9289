package slots

import (
	_ "github.com/labgpu/bot/internal/catalog"
	_ "github.com/labgpu/bot/internal/understand/slots/sub"
)
