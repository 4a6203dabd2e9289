package advice_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/advice"
)

func loadKB(tb testing.TB) *advice.Base {
	tb.Helper()
	b, err := advice.Load(configs.FS)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

const tracebackOOM = `Traceback (most recent call last):
  File "/root/autodl-tmp/LLaMA-Factory/src/train.py", line 28, in <module>
    main()
  File "/root/autodl-tmp/LLaMA-Factory/src/llamafactory/train/tuner.py", line 50, in run_exp
    run_sft(model_args, data_args, training_args, finetuning_args, generating_args, callbacks)
  File "/root/miniconda3/lib/python3.10/site-packages/transformers/trainer.py", line 1938, in train
    return inner_training_loop(
  File "/root/miniconda3/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1532, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
  File "/root/miniconda3/lib/python3.10/site-packages/torch/utils/checkpoint.py", line 264, in forward
    outputs = run_function(*args)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 22.58 GiB memory in use.`

const nvidiaSMIFail = `root@autodl-container-4a5b:~# nvidia-smi
Failed to initialize NVML: Driver/library version mismatch
NVML library version: 535.183`

const cudaFalse = `>>> import torch
>>> torch.__version__
'2.3.1+cpu'
>>> torch.cuda.is_available()
False`

const sshRefused = `$ ssh -p 41234 root@connect.westb.seetacloud.com
ssh: connect to host connect.westb.seetacloud.com port 41234: Connection refused`

const sshDenied = `root@connect.bjb1.seetacloud.com's password:
Permission denied, please try again.
root@connect.bjb1.seetacloud.com's password:`

const ncclTrace = `[rank1]: Traceback (most recent call last):
[rank1]:   File "train.py", line 91, in <module>
[rank1]:     dist.barrier()
[rank1]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.`

const diskFull = `Saving model checkpoint to /root/autodl-tmp/output/checkpoint-3000
Traceback (most recent call last):
  File "/root/miniconda3/lib/python3.10/site-packages/torch/serialization.py", line 628, in save
    _save(obj, opened_zipfile, pickle_module, pickle_protocol, _disable_byteorder_record)
OSError: [Errno 28] No space left on device`

const busError = `ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
Traceback (most recent call last):
RuntimeError: DataLoader worker (pid 3127) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.`

const killed = `Loading checkpoint shards:  67%|██████▋   | 2/3 [00:41<00:20, 20.66s/it]
Killed
root@container:~/work# echo $?
137`

const noKernel = `NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.
The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.
RuntimeError: CUDA error: no kernel image is available for execution on the device`

const pipConflict = `ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.
torchvision 0.16.0+cu118 requires torch==2.1.0, but you have torch 2.3.1 which is incompatible.`

const hfTimeout = `requests.exceptions.ConnectionError: (MaxRetryError("HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f>, 'Connection to huggingface.co timed out. (connect timeout=10)'))"), '(Request ID: 9d1c)')`

const dockerGPU = `$ docker run --gpus all -it pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime
docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].`

const aptDenied = `$ apt-get install htop
E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)
E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?`

const hostKey = `@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
Host key verification failed.`

const driverOld = `RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx`

// TestRealInputs maps error pastes and chat questions, Chinese and English,
// to their topics; unrelated chat maps to none.
func TestRealInputs(t *testing.T) {
	kb := loadKB(t)
	cases := []struct{ text, topic string }{
		// Terminal pastes.
		{tracebackOOM, "cuda-oom"},
		{nvidiaSMIFail, "driver-cuda-mismatch"},
		{cudaFalse, "cuda-unavailable"},
		{sshRefused, "ssh-cannot-connect"},
		{sshDenied, "ssh-cannot-connect"},
		{ncclTrace, "nccl-error"},
		{diskFull, "disk-full"},
		{busError, "shared-memory"},
		{killed, "host-oom-killed"},
		{noKernel, "gpu-arch-unsupported"},
		{pipConflict, "image-dependency-conflict"},
		{hfTimeout, "slow-download"},
		{dockerGPU, "docker-gpus"},
		{aptDenied, "non-root"},
		{hostKey, "ssh-cannot-connect"},
		{driverOld, "driver-cuda-mismatch"},
		{"RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call", "cuda-oom"},
		{"AssertionError: Torch not compiled with CUDA enabled", "cuda-unavailable"},
		{"[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 1800000 milliseconds before timing out.", "nccl-error"},
		// Chat questions, Chinese.
		{"torch.cuda.is_available() 返回 False 怎么办", "cuda-unavailable"},
		{"CUDA out of memory 怎么办", "cuda-oom"},
		{"7B LoRA seq 4096 用4090 爆显存了", "cuda-oom"},
		{"SSH 连不上，一直 Permission denied", "ssh-cannot-connect"},
		{"训练跑着跑着进程没了", "ssh-disconnect-kills"},
		{"ssh 断开以后训练就停了，nohup 也没用", "ssh-disconnect-kills"},
		{"No space left on device 怎么办", "disk-full"},
		{"数据盘满了怎么扩容", "disk-full"},
		{"GPU 利用率只有 30%，训练很慢", "slow-dataloader"},
		{"微调 BERT 用什么卡", "card-choice"},
		{"跑 SD 出图用什么卡", "card-choice"},
		{"7B 推理用什么卡", "card-choice"},
		{"jupyter 打不开，浏览器无法访问", "jupyter-unreachable"},
		{"实例重启后环境丢失了，conda 环境都没了", "env-lost-after-restart"},
		{"竞价实例被回收了，训练白跑", "spot-reclaimed"},
		{"释放实例以后数据全没了", "data-lost-on-release"},
		{"关机了为什么还在扣钱", "idle-storage-cost"},
		{"晚上高峰期 4090 一直排队开不出来", "peak-queue"},
		{"两张4090 多卡训练加速不明显", "multi-gpu-scaling"},
		{"上传数据集太慢了，几万个小文件 scp 要好几个小时", "slow-upload"},
		{"能不能在实例上自己重装 nvidia 驱动", "dont-reinstall-driver"},
		// Chat questions, English.
		{"which GPU should I rent for fine-tuning BERT", "card-choice"},
		{"my training dies whenever my SSH session disconnects", "ssh-disconnect-kills"},
		{"GPU utilization is only 30%, the dataloader seems slow", "slow-dataloader"},
		{"my spot instance was reclaimed in the middle of training", "spot-reclaimed"},
		{"got CUDA OOM with batch size 8, how do I fix it", "cuda-oom"},
		// More pastes: the Killed line in its usual places, loss NaN in a
		// trainer log, device-side asserts, devices, ssh drops.
		{"bash: line 1: 12345 Killed                  python train.py", "host-oom-killed"},
		{"Epoch 1:  37%|███▋      | 1200/3245 [05:12<08:51, 3.93it/s]\nKilled", "host-oom-killed"},
		{"$ python train.py\nLoading data...\nKilled", "host-oom-killed"},
		{"OOM killer killed my process", "host-oom-killed"},
		{"{'loss': 1.982, 'grad_norm': 3.1, 'epoch': 0.2}\n{'loss': nan, 'grad_norm': nan, 'learning_rate': 0.0002, 'epoch': 0.25}", "loss-nan"},
		{"3090 上 loss nan 了", "loss-nan"},
		{"RuntimeError: CUDA error: device-side assert triggered\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.", "cuda-device-assert"},
		{"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)", "device-mismatch"},
		{"client_loop: send disconnect: Broken pipe", "ssh-disconnect-kills"},
		{"RuntimeError: No CUDA GPUs are available", "cuda-unavailable"},
		{"A100 上 NCCL timeout", "nccl-error"},
		{"数据加载太慢了", "slow-dataloader"},
		{"微调 BERT 用 3090 还是 4090，选哪张卡", "card-choice"},
		{"显存空间不足", "cuda-oom"},
		{"$ git clone git@github.com:lab/project.git\nCloning into 'project'...\ngit@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.", "git-ssh-key"},
		{"OSError: You are trying to access a gated repo.\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json.", "hf-gated-repo"},
		{"(base) root@autodl:~# conda activate llm\nCondaError: Run 'conda init' before 'conda activate'", "conda-init"},
		{"OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.", "extension-build"},
	}
	// Unrelated chat: no topic.
	unrelated := []string{"今天中午吃什么", "哪家有4090", "7B LoRA 要多少钱", "AutoDL 怎么收费", "收到，谢谢", "明天组会几点", "the room is cold today", "4090 有货了提醒我",
		"排队吃饭吗", "晚上一起去吃饭，食堂排队太长了", "Killed the old jupyter kernel, now it works, thanks", "killed it, thanks",
		"The model I killed yesterday was bad", "AutoDL 有没有 root", "帮我看看这个代码", "4090 多少钱", "论文 deadline 是周五",
		// Two cards side by side is the compare command's question.
		"4090 和 3090 选哪个"}
	if len(cases) < 40 {
		t.Fatalf("only %d cases; the issue asks for at least 40", len(cases))
	}
	for _, c := range cases {
		name := c.text
		if i := strings.IndexByte(name, '\n'); i > 0 {
			name = name[:i]
		}
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			if _, ok := kb.Topic(c.topic); !ok {
				t.Fatalf("topic %q is not in advice.yaml", c.topic)
			}
			r := kb.Match(c.text)
			if r.Best == nil {
				t.Fatalf("no topic; want %q (closest %v)", c.topic, ids(r.Closest))
			}
			if r.Best.Topic.ID != c.topic {
				t.Fatalf("topic %q (%.2f, %v); want %q (related %v)", r.Best.Topic.ID, r.Best.Score, r.Best.Terms, c.topic, ids(r.Related))
			}
		})
	}
	for _, text := range unrelated {
		if r := kb.Match(text); r.Best != nil {
			t.Errorf("%q matched %q (%.2f, %v); want no topic", text, r.Best.Topic.ID, r.Best.Score, r.Best.Terms)
		}
	}
}

// TestEveryExampleFindsItsTopic: each entry's own examples select it (Load
// already checks that every term occurs in one of them).
func TestEveryExampleFindsItsTopic(t *testing.T) {
	kb := loadKB(t)
	for _, tp := range kb.Topics {
		for _, ex := range tp.Examples {
			r := kb.Match(ex)
			if r.Best == nil || r.Best.Topic.ID != tp.ID {
				got := "none"
				if r.Best != nil {
					got = r.Best.Topic.ID
				}
				t.Errorf("%s: example %q selects %s", tp.ID, ex, got)
			}
		}
	}
	for _, w := range kb.Workloads {
		for _, ex := range w.Examples {
			if got := kb.WorkloadIn(ex); got == nil || got.ID != w.ID {
				t.Errorf("workload %s: example %q names %v", w.ID, ex, got)
			}
		}
	}
}

// TestSeedPitfallsCovered: every pitfall the two seed articles name has an
// entry whose source cites it (seed 000 §6 table and its four extra pits,
// §4, §5, §7; seed 001 §2 hidden costs, §3, §4 table, §5).
func TestSeedPitfallsCovered(t *testing.T) {
	kb := loadKB(t)
	pitfalls := map[string]string{
		"PyTorch 检测不到 GPU (seed 000 §6)":      "cuda-unavailable",
		"显存不足 OOM (seed 000 §6)":              "cuda-oom",
		"SSH 连不上 (seed 000 §6)":               "ssh-cannot-connect",
		"Jupyter 打不开 (seed 000 §6)":           "jupyter-unreachable",
		"实例重启后环境丢失 (seed 000 §6)":             "env-lost-after-restart",
		"训练脚本被杀 SIGHUP (seed 000 §6)":         "ssh-disconnect-kills",
		"数据盘空间不足 (seed 000 §6)":               "disk-full",
		"容器里 GPU 透传 --gpus all (seed 000 §6)": "docker-gpus",
		"免费 GPU 断连 (seed 000 §6)":             "free-tier-disconnect",
		"别在租用平台重装驱动 (seed 000 §6)":            "dont-reinstall-driver",
		"数据加载慢 GPU 利用率 30% (seed 000 §6)":     "slow-dataloader",
		"镜像选成熟版本 (seed 000 §4.1)":             "image-dependency-conflict",
		"大数据集上传 (seed 000 §4.3)":              "slow-upload",
		"最低计费时长、反复开关机 (seed 000 §5)":          "min-billing-restart",
		"等待成本、排队 (seed 000 §5)":               "peak-queue",
		"小额充值先试 (seed 000 §7)":                "top-up-small",
		"自动保存 checkpoint (seed 000 §7)":       "checkpointing",
		"先跑通小实验再上大卡 (seed 000 §7)":            "test-small-first",
		"长期不用的数据盘 (seed 000 §7)":              "idle-storage-cost",
		"多卡通信 NVLink/以太网 (seed 000 §2)":       "multi-gpu-scaling",
		"CUDA 版本不匹配 (seed 001 §4)":            "driver-cuda-mismatch",
		"镜像环境污染 (seed 001 §4)":                "image-dependency-conflict",
		"释放实例丢失数据 (seed 001 §4)":              "data-lost-on-release",
		"高峰期排队严重 (seed 001 §4)":               "peak-queue",
		"竞价实例被回收 (seed 001 §4)":               "spot-reclaimed",
		"数据安全无保障 (seed 001 §4)":               "data-security",
		"数据盘存储费、无卡模式 (seed 001 §2)":           "idle-storage-cost",
		"带宽和下载慢 (seed 001 §2)":                "slow-download",
		"大厂云绑定资源、关机收费 (seed 001 §1)":          "big-cloud-bundling",
		"释放后环境持久化 (seed 001 §2)":              "env-lost-after-restart",
		"昇腾生态适配 (seed 001 §3)":                "ascend-compat",
		"2×4090 加速比只有 1.6 (seed 001 §3)":      "multi-gpu-scaling",
		"非 Root 权限 (seed 001 §1)":             "non-root",
		"选卡：显存、算力、带宽、价格 (seed 000 §2)":        "card-choice",
	}
	// The check itself: the section must be in that seed's part.
	for _, c := range []struct {
		src, seed, sec string
		want           bool
	}{
		{"seed 000 §4.1 (x), §6 table; seed 001 §3", "seed 000", "§6", true},
		{"seed 000 §4.1 (x); seed 001 §6", "seed 000", "§6", false},
		{"seed 000 §4.1 (x)", "seed 000", "§4", false},
		{"seed 000 §4.1 (x)", "seed 000", "§4.1", true},
		{"seed 001 §1 and §2", "seed 000", "§1", false},
	} {
		if got := citesSection(c.src, c.seed, c.sec); got != c.want {
			t.Errorf("citesSection(%q, %q, %q) = %v", c.src, c.seed, c.sec, got)
		}
	}
	for pit, id := range pitfalls {
		tp, ok := kb.Topic(id)
		if !ok {
			t.Errorf("%s: no topic %q", pit, id)
			continue
		}
		ref := strings.TrimSuffix(pit[strings.LastIndex(pit, "(seed ")+1:], ")")
		seed, sec, _ := strings.Cut(ref, " §")
		if !citesSection(tp.Source, seed, "§"+sec) {
			t.Errorf("%s: topic %q does not cite %s §%s (source %q)", pit, id, seed, sec, tp.Source)
		}
	}
}

// citesSection reports whether source cites section sec ("§6", "§4.1")
// of seed ("seed 000") in the part of the text about that seed.
func citesSection(source, seed, sec string) bool {
	i := strings.Index(source, seed)
	if i < 0 {
		return false
	}
	part := source[i+len(seed):]
	if j := strings.Index(part, "seed 0"); j >= 0 {
		part = part[:j]
	}
	for k := 0; k < len(part); {
		j := strings.Index(part[k:], sec)
		if j < 0 {
			return false
		}
		end := k + j + len(sec)
		// "§4" must not match "§4.1" or "§41".
		if end == len(part) || !strings.ContainsRune("0123456789.", rune(part[end])) || part[end] == '.' && (end+1 == len(part) || part[end+1] < '0' || part[end+1] > '9') {
			return true
		}
		k = end
	}
	return false
}

func ids(hs []advice.Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Topic.ID)
	}
	return out
}

// FuzzMatchKB: the real knowledge base on any text: no panic, scores in
// range.
func FuzzMatchKB(f *testing.F) {
	for _, s := range []string{tracebackOOM, nvidiaSMIFail, sshDenied, killed, "\xff\xfe", "", "Killed\n\n\nKilled"} {
		f.Add(s)
	}
	kb := loadKB(f)
	f.Fuzz(func(t *testing.T, text string) {
		r := kb.Match(text)
		if r.Best != nil && (r.Best.Score < advice.Threshold || r.Best.Score >= 1) {
			t.Fatalf("best score %v", r.Best.Score)
		}
		_ = kb.WorkloadIn(text)
	})
}

// BenchmarkMatchTraceback matches a 50-line traceback (target < 1 ms).
func BenchmarkMatchTraceback(b *testing.B) {
	kb := loadKB(b)
	var sb strings.Builder
	for i := 0; sb.Len() == 0 || strings.Count(sb.String(), "\n") < 48; i++ {
		sb.WriteString("  File \"/root/miniconda3/lib/python3.10/site-packages/transformers/trainer.py\", line 1938, in train\n")
		sb.WriteString("    return inner_training_loop(args=args, resume_from_checkpoint=resume_from_checkpoint)\n")
	}
	text := "Traceback (most recent call last):\n" + sb.String() + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.06 GiB is free."
	if n := strings.Count(text, "\n") + 1; n != 50 {
		b.Fatalf("%d lines, want 50", n)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := kb.Match(text); r.Best == nil || r.Best.Topic.ID != "cuda-oom" {
			b.Fatal("wrong topic")
		}
	}
}

// BenchmarkMatchLog matches 50 lines of training and install output that
// mention many of the patterns' literals (gpu, training, install, root,
// download, free, available), ending in an error no topic covers.
func BenchmarkMatchLog(b *testing.B) {
	kb := loadKB(b)
	lines := []string{
		"{'loss': 1.2345, 'grad_norm': 0.98, 'learning_rate': 0.0002, 'epoch': 0.12} training on gpu 0, memory free 3.2 GiB",
		"Downloading shards: 100%|██████████| 4/4 [00:12<00:00, 3.01s/it] available in /root/.cache/huggingface/hub",
		"Requirement already satisfied: torch in /root/miniconda3/lib/python3.10/site-packages (2.3.1) pip install -r requirements.txt",
	}
	var sb strings.Builder
	for i := 0; i < 49; i++ {
		sb.WriteString(lines[i%len(lines)])
		sb.WriteByte('\n')
	}
	sb.WriteString("ValueError: too many values to unpack (expected 2)")
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		kb.Match(text)
	}
}

// FuzzMatchWorkload: matching and finding the workload in one pass gives
// what Match and WorkloadIn give apart.
func FuzzMatchWorkload(f *testing.F) {
	for _, s := range []string{"CUDA out of memory 用4090训练 yolov8", "sdxl 出图 爆显存了", "Killed", "微调 BERT-base 10万条", ""} {
		f.Add(s)
	}
	kb := loadKB(f)
	f.Fuzz(func(t *testing.T, text string) {
		m, w := kb.MatchWorkload(text)
		if !reflect.DeepEqual(m, kb.Match(text)) || w != kb.WorkloadIn(text) {
			t.Fatalf("MatchWorkload(%q) differs from Match and WorkloadIn", text)
		}
	})
}
