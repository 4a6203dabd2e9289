package jobs

import _ "github.com/robfig/cron/v3"
