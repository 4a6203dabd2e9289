package slots

import _ "github.com/labgpu/bot/internal/understand"
