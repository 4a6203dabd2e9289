package stock

import (
	_ "github.com/labgpu/bot/internal/app"
	_ "github.com/labgpu/bot/internal/commands"
	_ "github.com/labgpu/bot/internal/config"
	_ "github.com/labgpu/bot/internal/jobs"
	_ "github.com/labgpu/bot/internal/store/embedded"
	_ "github.com/labgpu/bot/internal/understand"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/robfig/cron/v3"
)
