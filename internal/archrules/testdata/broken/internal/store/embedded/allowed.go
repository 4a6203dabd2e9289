package embedded

import _ "github.com/labgpu/bot/internal/stock"
