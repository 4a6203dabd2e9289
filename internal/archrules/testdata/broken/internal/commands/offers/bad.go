package offers

import (
	_ "regexp"

	_ "github.com/labgpu/bot/internal/textgate"
)
