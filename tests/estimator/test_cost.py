"""What renting and buying cost."""


def test_a_rented_machine_costs_its_own_instances_for_the_job():
    from estimator.cost import rented_as
    from estimator.hardware.catalog import machine
    from estimator.models import lookup
    from estimator.resolve import resolve
    from estimator.training_time import training_time
    from estimator.workload import Workload

    w = Workload(
        model=lookup.require("Mistral-7B-v0.3").architecture, task="training", method="lora"
    )
    hw = machine(gpu="H100 SXM5 80GB")
    found = rented_as(w, hw, 200_000_000)
    assert found and all(o.instance.gpu == "H100 SXM5 80GB" for o in found)
    assert [o.usd_per_hour for o in found] == sorted(o.usd_per_hour for o in found)
    # The job's cost is the training time on that machine times the instance's price.
    hours = training_time(resolve(w, hw), hw, 200_000_000).hours
    first = found[0]
    assert first.job_usd.low == hours.low * first.usd_per_hour
    # No GPU of that kind to rent at all: nothing listed.
    assert rented_as(w, machine(gpu="GeForce RTX 2060"), 200_000_000) == ()


def test_a_gpu_count_no_instance_has_is_priced_as_single_gpu_pods():
    from estimator.cost import rented_as
    from estimator.hardware.catalog import cloud_instances, machine
    from estimator.models import lookup
    from estimator.workload import Workload

    w = Workload(model=lookup.require("Llama-3.1-8B").architecture, task="inference")
    found = rented_as(w, machine(gpu="H100 SXM5 80GB", gpus=2))
    single = min(
        i.usd_per_hour for i in cloud_instances() if i.gpu == "H100 SXM5 80GB" and i.gpu_count == 1
    )
    assert found[0].usd_per_hour == 2 * single
    assert found[0].instance.gpu_count == 2 and found[0].instance.instance.endswith("× 2")
