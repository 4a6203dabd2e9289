package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStorageImportPlatformNames: the names people write (the Chinese
// names the bot prints, English names, pinyin, misspellings) import as
// the platform ids the digest prices; a file with an unknown platform is
// refused whole, exits non-zero and names each bad line with the closest
// names.
func TestStorageImportPlatformNames(t *testing.T) {
	dir := t.TempDir()
	env := []string{"BOT_DATA_DIR=" + filepath.Join(dir, "data")}
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte(`time,owner,platform,disk,action,size_gb,note
2026-11-16T00:00:00+08:00,alice,矩池云,1,add,500,
2026-11-16T00:00:00+08:00,bob,恒源云,2,add,200,
2026-11-16T00:00:00+08:00,carol,Mita Compute,3,add,100,
2026-11-16T00:00:00+08:00,dave,hengyuanyun,4,add,100,
2026-11-16T00:00:00+08:00,erin,auto dl,5,add,100,
2026-11-16T00:00:00+08:00,frank,run pod,6,add,100,
`), 0o600)
	out, stderr, code := run(t, "", env, "storage", "import", "--lab", "feishu/oc_lab", good)
	if code != 0 || !strings.Contains(out, "imported 6 events") {
		t.Fatalf("import: exit %d %s %s", code, out, stderr)
	}
	out, _, _ = run(t, "", env, "storage", "export", "--lab", "feishu/oc_lab")
	for _, want := range []string{",alice,matpool,1,", ",bob,hengyuan,2,", ",carol,mita,3,", ",dave,hengyuan,4,", ",erin,autodl,5,", ",frank,runpod,6,"} {
		if !strings.Contains(out, want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte(`time,owner,platform,disk,action,size_gb,note
2026-11-20T00:00:00+08:00,alice,AutoDL,7,add,80,
2026-11-20T00:00:00+08:00,bob,阿巴云,8,add,80,
2026-11-20T00:00:00+08:00,carol,autdll,9,add,-50,
`), 0o600)
	out, stderr, code = run(t, "", env, "storage", "import", "--lab", "feishu/oc_lab", bad)
	if code == 0 || strings.Contains(out, "imported") {
		t.Fatalf("bad file: exit %d %s", code, out)
	}
	for _, want := range []string{"nothing imported: 2 bad lines", "\nline 3: platform \"阿巴云\"", "closest: 阿里云 (aliyun)", "\nline 4: platform \"autdll\"", "closest: AutoDL (autodl)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	out, _, _ = run(t, "", env, "storage", "export", "--lab", "feishu/oc_lab")
	if strings.Contains(out, ",alice,autodl,7,") {
		t.Errorf("a line of the refused file was imported:\n%s", out)
	}
}
