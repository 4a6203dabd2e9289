package embedded

import "testing"

// TestEveryBucketDumped: each bucket of the main file gives a kind of
// dump.Record (bot migrate, backups of the Redis store) or is listed in
// notDumped with the reason; a bucket added without either fails here.
func TestEveryBucketDumped(t *testing.T) {
	for _, b := range allBuckets {
		dumped := notDumped[string(b)] != ""
		for _, d := range dumpBuckets {
			dumped = dumped || string(d.bucket) == string(b)
		}
		if !dumped {
			t.Errorf("bucket %s: no dump kind (dump.go's dumpBuckets) and not in notDumped: bot migrate would leave it behind", b)
		}
	}
}
