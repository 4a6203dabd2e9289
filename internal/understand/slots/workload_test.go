package slots

import (
	"testing"

	"github.com/labgpu/bot/configs"
	"github.com/labgpu/bot/internal/catalog"
	"github.com/labgpu/bot/internal/workload"
)

// TestWorkloadSlots: a non-LLM job's images, steps, resolution and
// dataset share, and the counts that are not images.
func TestWorkloadSlots(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text                     string
		images, steps, res, gpus int
		percent                  float64
	}{
		{text: "SDXL 出 1000 张图要多久", images: 1000},
		{text: "sd lora 训练 20 张图", images: 20},
		{text: "YOLOv5s 自己的数据集 1万张图 100 epoch", images: 10000},
		{text: "跑个 unet 分割 5千张图 200 epoch", images: 5000},
		{text: "generate 500 images with sdxl at 40 steps", images: 500, steps: 40},
		{text: "sdxl 1024x1024 30步 500张", images: 500, steps: 30, res: 1024},
		{text: "flux 出图 分辨率 768 steps=28", steps: 28, res: 768},
		{text: "ResNet50 ImageNet 10% 30个epoch 用3090", percent: 10},
		{text: "imagenet 百分之二十 的子集", percent: 20},
		// Not images: a model's size, a GPU count, a dataset name.
		{text: "resnet50 imagenet 训练"},
		{text: "4张卡 训练 resnet50", gpus: 4},
		{text: "1280x720 的视频"},
		{text: "4090 至少2张空闲时提醒我"},
		{text: "sd 出 8 张图 试试", images: 8},
	}
	for _, c := range cases {
		q := Extract(cat, c.text, false).Query()
		if q.Images != c.images || q.Steps != c.steps || q.DataPercent != c.percent || q.GPUCount != c.gpus || c.res > 0 && q.Resolution != c.res {
			t.Errorf("%q: images %d steps %d res %d percent %g gpus %d; want %d %d %d %g %d", c.text, q.Images, q.Steps, q.Resolution, q.DataPercent, q.GPUCount,
				c.images, c.steps, c.res, c.percent, c.gpus)
		}
	}
}

// TestWorkloadNames: the workload estimator's model and dataset a
// question names, read from the text by the slot (workload.Data's names
// over configs/workloads.yaml); none for a language model's job or size,
// or without the names.
func TestWorkloadNames(t *testing.T) {
	cat, err := catalog.Load(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	names := workload.Default()
	if names == nil {
		t.Fatal("the embedded workloads do not load")
	}
	cases := []struct {
		text, model, dataset string
		none                 bool // the finder is not given
	}{
		{text: "训练一个ResNet50要多少钱", model: "resnet50"},
		{text: "ResNet50 ImageNet 10% 30个epoch 用3090 多久多少钱", model: "resnet50", dataset: "imagenet"},
		{text: "训练 sdxl 的 lora 要多久", model: "sdxl-lora"},
		{text: "SDXL 出 1000 张图要多久", model: "sdxl"},
		{text: "yolov8m 300 epochs on coco, gpu hours?", model: "yolov8m", dataset: "coco"},
		{text: "BERT-base 微调 10万条", model: "bert-base"},
		// A language model or a size: no workload job.
		{text: "7B LoRA 要多少钱"},
		{text: "用4090做Qwen2.5-7B的QLoRA，5万条数据"},
		{text: "my activity log"},
		{text: "训练一个ResNet50要多少钱", none: true},
	}
	for _, c := range cases {
		x := Extract(cat, c.text, false)
		if c.none {
			x.WorkloadNames(nil)
		} else {
			x.WorkloadNames(names)
		}
		if q := x.Query(); q.WorkloadModel != c.model || q.WorkloadDataset != c.dataset {
			t.Errorf("%q: model %q dataset %q, want %q %q", c.text, q.WorkloadModel, q.WorkloadDataset, c.model, c.dataset)
		}
	}
}
