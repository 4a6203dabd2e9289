package estimator

// CostOptions prices hours the caller estimated (fits, one per card with
// its GPU count and hours) at every quoted platform, the way Estimate
// prices its own: setup time, each platform's billing granularity and
// minimum, and the data disk beyond the free quota for the days the job
// runs (diskGB). platform limits the rows to one platform id ("" for
// all). The rows come cheapest first. The workload estimator
// (internal/workload) prices its jobs with it.
func (e *Estimator) CostOptions(fits []Fit, diskGB float64, platform string, quotes Quotes) []Option {
	if quotes == nil {
		return nil
	}
	est := &Estimate{Job: Job{Method: MethodFull, Platform: platform}, Fits: fits, DiskGB: diskGB, Cheapest: -1, Fastest: -1}
	e.costRows(est, quotes)
	return est.Options
}
