def test_vllm_is_not_planned_on_gpus_older_than_volta():
    # vLLM's CUDA build needs compute capability 7.0 (V100) or newer: a GTX 1080 Ti is 6.1.
    from estimator import engines
    from estimator.hardware.catalog import machine

    vllm = engines.get("vllm")
    assert not vllm.runs_on(machine(gpu="GTX 1080 Ti"))
    assert not vllm.runs_on(machine(gpu="RTX 3090 + GTX 1080 Ti"))
    assert vllm.runs_on(machine(gpu="Tesla V100 32GB")) and vllm.runs_on(machine(gpu="RTX 3090"))
    assert engines.get("llama.cpp").runs_on(machine(gpu="GTX 1080 Ti"))
