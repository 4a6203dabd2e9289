package offers

import _ "github.com/labgpu/bot/internal/understand"
