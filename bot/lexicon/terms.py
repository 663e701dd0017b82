"""Technical terms every language writes the same way: engines, formats, frameworks, optimizers,
training settings and library names. A concept "kind:value" ("engine:vllm") reads as that value;
within a kind the first concept that matches wins, so the more specific ones come first."""

from __future__ import annotations

_BITS = r"[\s_-]?bits?"

TERMS: dict[str, tuple[str, ...]] = {
    # Inference engines and runtimes, as people name them.
    "engine:vllm": (r"vllm",),
    "engine:ollama": (r"ollama",),
    "engine:lm studio": (r"lm[\s-]?studio",),
    "engine:llama.cpp": (r"llama[.\s_-]?cpp", r"llamacpp", r"llama-server", r"koboldcpp"),
    "engine:mlx": (r"mlx(?:[\s_-]lm)?",),
    "engine:sglang": (r"sglang",),
    "engine:exllamav2": (r"exllama(?:[\s_-]?v?2)?", r"exl2", r"tabbyapi"),
    "engine:tgi": (r"tgi", r"text[\s-]generation[\s-]inference"),
    "engine:tensorrt-llm": (r"tensorrt[\s_-]?llm", r"trt[\s_-]?llm"),
    "engine:transformers": (
        r"(?:hugging\s*face\s+)?transformers",
        r"hf\s+transformers",
        r"pipeline\(\)",
    ),
    # Training frameworks. FSDP and DeepSpeed also come with their sharding (see below).
    "framework:unsloth": (r"unsloth",),
    "framework:axolotl": (r"axolotl",),
    "framework:torchtune": (r"torch[\s_-]?tune",),
    "framework:llama-factory": (r"llama[\s_-]?factory",),
    "framework:fsdp": (r"fsdp2?", r"fully[\s-]sharded(?:[\s-]data[\s-]parallel)?"),
    "framework:deepspeed": (r"deep[\s_-]?speed", r"ds[\s_-]?zero"),
    "framework:trl": (r"trl", r"sft[\s_-]?trainer", r"hf\s+trainer", r"hugging\s*face\s+trainer"),
    "liger": (r"liger(?:[\s_-]kernels?)?",),
    # Alignment and reinforcement-learning objectives.
    "objective:dpo": (r"dpo",),
    "objective:ipo": (r"ipo",),
    "objective:orpo": (r"orpo",),
    "objective:kto": (r"kto",),
    "objective:simpo": (r"simpo",),
    "objective:grpo": (r"grpo",),
    "objective:rloo": (r"rloo",),
    "objective:ppo": (r"ppo", r"rlhf"),
    # Methods that are terms everywhere.
    "qlora": (r"q[\s-]?lora",),
    "lora": (r"lora", r"peft", r"adapters?"),
    "sft": (r"sft",),
    # Weight formats, the GGUF types first (they contain "q4", "q8").
    "precision:gguf": (r"(?:i?q[1-8]_[0-9a-z_]+|f16\.gguf)",),
    "precision:gguf_short": (r"q[2356]",),
    "precision:awq": (r"awq",),
    "precision:gptq": (r"gptq",),
    "precision:exl2": (r"exl2",),
    "precision:nf4": (r"nf4", r"bnb[\s_-]?4" + _BITS, r"bitsandbytes[\s_-]4" + _BITS),
    "precision:mxfp4": (r"mxfp4",),
    "precision:fp8": (r"fp8", r"float8", r"e4m3"),
    "precision:bf16": (r"bf16", r"bfloat[\s-]?16"),
    "precision:fp16": (r"fp16", r"float16", r"f16"),
    "precision:fp32": (r"fp32", r"float32", r"f32"),
    "precision:int8": (r"int8", r"8" + _BITS, r"q8", r"w8a8", r"llm\.int8"),
    "precision:int4": (r"int4", r"4" + _BITS, r"q4", r"w4a16"),
    "gguf": (r"gguf",),
    # Speech and image models, which the sizer does not compute (it sizes language models).
    "other_model": (
        r"whisper",
        r"stable[\s-]?diffusion",
        r"sdxl",
        r"sd[\s-]?(?:1\.5|2\.1|3(?:\.5)?)",
        r"flux(?:\.1)?[\s-](?:dev|schnell|pro)",
        r"dall[\s-]?e",
        r"midjourney",
        r"yolo(?:v?\d+)?",
        r"wav2vec2?",
        r"comfy[\s-]?ui",
        r"automatic1111",
    ),
    # The KV cache and its formats.
    "kv": (r"kv[\s_-]?cache", r"kv", r"k/v[\s_-]?cache"),
    "kv:fp8": (r"fp8", r"float8"),
    "kv:q8_0": (r"q8_0", r"q8"),
    "kv:int8": (r"int8", r"8" + _BITS),
    "kv:q4_0": (r"q4_0", r"q4", r"int4", r"4" + _BITS),
    # Training settings.
    "zero": (r"zero", r"deep[\s_-]?speed(?:[\s_-]zero)?", r"ds[\s_-]?zero", r"ds"),
    "zero_infinity": (r"zero[\s_-]?infinity",),
    "zero_offload": (r"zero[\s_-]?offload",),
    # The data-parallel backend beyond ZeRO and FSDP: hybrid sharding (FSDP within a node,
    # replicas across nodes) and plain DDP ("fully sharded data parallel" is FSDP, not DDP).
    "distributed:hsdp": (r"hsdp", r"hybrid[\s_-]?shard(?:ing|ed)?(?:[\s_-]data[\s_-]parallel)?"),
    "distributed:ddp": (
        r"ddp",
        r"(?<!sharded\s)(?<!sharded-)(?:distributed[\s_-])?data[\s_-]parallel(?:ism)?",
    ),
    # Activations moved to CPU RAM in the forward (torchtune enable_activation_offloading, TRL
    # activation_offloading), which is no offload of the optimizer states.
    "activation_offload": (
        r"activations?[\s_-]*(?:cpu[\s_-]*)?offload\w*",
        r"(?:enable_)?activation_offloading\s*[=:]\s*true",
    ),
    # Online RL: vLLM generating on the training GPUs (TRL vllm_mode="colocate"), completions per
    # prompt (TRL num_generations) and their length (max_completion_length).
    "rollout:vllm": (
        r"vllm[\s_-]+(?:(?:in|as)[\s_-]+)?co[\s_-]?locat\w*(?:[\s_-]mode)?",
        r"co[\s_-]?locat\w*[\s_-]+(?:\w+[\s_-]+)?vllm",
        r"vllm_mode\s*=\s*[\"']?colocate[\"']?",
        r"co[\s_-]?locat(?:e|ed|ion)",
        # TRL's use_vllm, whose vllm_mode defaults to "colocate".
        r"vllm[\s_-]+(?:rollouts?|generat\w*)",
        r"(?:rollouts?|generat\w*)[\s_-]+(?:with|on|via|using|through|met|op)[\s_-]+vllm",
        r"use_vllm\s*=\s*true",
    ),
    "group_size": (r"group[\s_-]?size", r"num[\s_-]?generations"),
    "per_prompt": (r"(?:\w+\s+)?per[\s_-]prompt",),
    "generation_length": (
        r"(?:max[\s_-]?)?completion[\s_-]?length",
        r"max[\s_-]?new[\s_-]?tokens",
        r"generation[\s_-]?length",
    ),
    "generated_tokens": (r"completion[\s_-]?tokens",),
    "fsdp_shard_grad_op": (r"shard[\s_-]?grad[\s_-]?op",),
    "fsdp_no_shard": (r"no[\s_-]shard",),
    # The frozen reference model of DPO, GRPO and PPO (TRL's ref_model; Dutch "referentiemodel").
    "reference_model": (r"ref(?:erence|erentie)?[\s_-]?model(?:l?en)?", r"ref_model"),
    "grad_checkpointing": (
        r"(?:gradient|grad|activation)[\s_-]*(?:checkpoint\w*|ckpt)",
        r"gradi[eë]nt[\s_-]*checkpoint(?:ing)?",
        r"checkpointing",
        r"gc",
    ),
    "grad_checkpointing_flag_off": (
        r"--no[\s_-]grad(?:ient)?[\s_-]checkpointing",
        r"gradient_checkpointing\s*=\s*false",
    ),
    "grad_checkpointing_flag_on": (
        r"--grad(?:ient)?[\s_-]checkpointing",
        r"gradient_checkpointing\s*=\s*true",
    ),
    "packing": (r"(?:sample|sequence|example)?[\s_-]?packing", r"packed", r"packing\s*=\s*true"),
    "offload_term": (r"offload\w*", r"zero[\s_-]?offload", r"offload_optimizer", r"offload_param"),
    "nvme": (r"nvme", r"ssd", r"disk"),
    # Optimizers: the 8-bit and paged variants before the plain names.
    "optimizer:paged_adamw_8bit": (
        r"paged[\s_-]?adam[w]?[\s_-]?8[\s_-]?bits?",
        r"paged[\s_-]?8[\s_-]?bits?[\s_-]?adam[w]?",
    ),
    "optimizer:adamw_8bit": (
        r"8[\s_-]?bits?[\s_-]?adam[w]?",
        r"adam[w]?[\s_-]?8[\s_-]?bits?",
        r"bnb[\s_-]?adam[w]?",
        r"adamw_bnb_8bit",
        r"8[\s_-]?bits?[\s_-]?optimi[sz]ers?",
    ),
    "optimizer:paged_adamw": (r"paged[\s_-]?adam[w]?(?:[\s_-]?32[\s_-]?bits?)?",),
    "optimizer:adafactor": (r"adafactor",),
    "optimizer:sgd": (r"sgd",),
    "optimizer:lion": (r"lion",),
    "optimizer:galore": (r"galore",),
    "optimizer:muon": (r"muon",),
    "optimizer:adamw": (r"adam[w]?(?:[\s_-]?torch)?",),
    # Classical machine learning libraries and model names.
    "classical": (
        r"xgboost",
        r"lightgbm",
        r"catboost",
        r"scikit[\s-]?learn",
        r"sklearn",
        r"svm",
        r"k[\s-]?means",
        r"random[\s-]?forest\w*",
    ),
    "neural_net": (r"mlp", r"cnn", r"lstm"),
    "cloud_provider": (
        r"runpod",
        r"lambda(?:\s*labs)?",
        r"aws",
        r"gcp",
        r"azure",
        r"vast(?:\.ai)?",
        r"coreweave",
        r"paperspace",
        # Hosted notebooks: the GPU is Google's or Kaggle's.
        r"colab",
        r"kaggle",
    ),
    "hf_trainer": (r"trainer",),
    "currency": (r"€", r"\$", r"£", r"eur", r"usd", r"dollars?"),
}
