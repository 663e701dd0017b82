"""A report's buy-or-rent line weighs the GPUs asked about against renting as many."""

from estimator.cost import instance_gpu
from estimator.hardware.catalog import cloud_instances, machine
from estimator.report import report
from estimator.workload import Workload


def test_eight_bought_gpus_are_weighed_against_eight_rented(arch):
    """1B pretrained on 8x H100: one rented card fits the model, but the comparison is with an
    8x H100 SXM instance, the cheapest in the catalog with those GPUs."""
    hw = machine(gpu="H100 SXM5 80GB", gpus=8)
    rep = report(Workload(model=arch("llama 3.2 1b"), task="training"), hw, training_tokens=10**11)
    assert rep.cloud and rep.cloud[0].instance.gpu_count == 1  # the cheapest that fits
    buy = rep.purchase
    assert buy is not None and buy.rented is not None
    same = [
        i
        for i in cloud_instances()
        if i.gpu_count == 8 and instance_gpu(i).name == "H100 SXM5 80GB"
    ]
    assert buy.rented == min(same, key=lambda i: i.usd_per_hour)
    assert buy.break_even_hours == buy.usd / buy.rented.usd_per_hour


def test_one_bought_gpu_is_weighed_against_the_cheapest_instance_that_fits(arch):
    rep = report(Workload(model=arch("qwen2.5 7b"), task="inference"), machine(gpu="RTX 4090"))
    buy = rep.purchase
    assert buy is not None and buy.rented == rep.cloud[0].instance
    assert buy.break_even_hours == buy.usd / rep.cloud[0].usd_per_hour
