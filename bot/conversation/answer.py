"""A complete Draft answered: the workload (memory, speed, cost, advice), an inverse question,
the CPU-versus-GPU guidance for classical machine learning, or each option of a comparison.

Every setting the question gave reaches the estimator (the training frameworks, alignment
objectives and Liger kernels it models as they run); one it does not know (an engine, an
optimizer) is kept in the Draft and the answer says it was not applied, never silently
dropped."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, replace

from estimator import budget
from estimator.errors import EstimatorError
from estimator.frameworks import ALIASES as FRAMEWORK_ALIASES
from estimator.hardware.catalog import find_cpu
from estimator.hardware.catalog import machine as make_machine
from estimator.hardware.types import Machine
from estimator.inverse import RAM_SIZES_GB, smallest_ram
from estimator.inverse import Answer as InverseAnswer
from estimator.models import catalog
from estimator.resolve import resolve
from estimator.result import Note
from estimator.speed import Speed, inference_speed
from estimator.vocabulary import GB, GIB
from estimator.workload import Workload, validate
from rules import Advice, Situation, advise_ml

from .. import searches, sizing
from ..model_source import resolve_model
from .slots import FIT_QUESTION, Draft

PLACEHOLDER_MODEL = "7B"  # the largest-model search replaces it
# Whether a question may name a config.json on this machine: the terminal's front ends turn it
# on; off for everyone else (see model_source.resolve_model), also in threads that start with
# a fresh context.
LOCAL_FILES: ContextVar[bool] = ContextVar("local_files", default=False)
# A features count assumed for classical machine learning when the question gives none.
ASSUMED_FEATURES = 100
FLOAT64_BYTES = 8  # numpy's and scikit-learn's default for a numeric table


# The inverse questions about the hardware the user has, and those whose answer is hardware.
_ON_THE_HARDWARE = frozenset({"context", "concurrency", "precision", "model"})
_CHOOSES_HARDWARE = frozenset({"gpu", "gpus", "cloud"})


def _speed_at(
    question: str, found: InverseAnswer, work: Workload, box: Machine | None
) -> Speed | None:
    """How fast an inverse answer runs ("what can I run and how fast", "the cheapest instance,
    I need 20 tokens/s"): the answer's model, format, engine, context and sequences on the
    user's machine, or on the hardware the answer chose."""
    est = found.estimate
    if est is None:
        return None
    i = est.inputs
    if question in _CHOOSES_HARDWARE and i.machine_kind == "gpu" and i.machine:
        try:
            box = make_machine(gpu=i.machine, gpus=i.gpu_count)
        except EstimatorError:
            return None
    elif question not in _ON_THE_HARDWARE:
        return None
    if box is None:
        return None
    if i.task != "inference":
        return None
    model = work.model
    if question == "model":
        entry = catalog.find(str(found.value))
        if entry is None:
            return None
        model = entry.architecture
    at = replace(
        work,
        model=model,
        engine=i.engine,
        precision=i.precision,
        kv_precision=i.kv_precision,
        context=i.context,
        concurrency=i.concurrency,
    )
    try:
        return inference_speed(resolve(at, box), box, est)
    except EstimatorError:
        return None


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a comparison, answered."""

    draft: Draft  # the whole question with this option's slots
    varied: Draft  # only the slots that make this option
    outcome: Outcome | None
    error: EstimatorError | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    draft: Draft
    workload: sizing.Sizing | None = None
    question: str | None = None  # the fit question, for inverse questions
    inverse: InverseAnswer | None = None  # its answer, with the estimate at that answer
    inverse_speed: Speed | None = None  # how fast the answer's configuration runs there
    smallest_gpu: InverseAnswer | None = None  # when no hardware was given
    ml: Advice | None = None
    ml_notes: tuple[Note, ...] = ()
    options: tuple[Option, ...] = ()  # a comparison: each option answered
    bought: budget.Pick | None = None  # the card a budget buys, when the answer is for it


def sold_sized(draft: Draft) -> bool:
    """A phone or a single-board computer comes in a few RAM sizes: the answer takes the
    smallest and says which others there are, rather than asking."""
    platform = find_cpu(draft.cpu) if draft.cpu else None
    return platform is not None and platform.device


def machine(draft: Draft) -> Machine | None:
    gpu = draft.gpu or draft.apple or ("cpu" if draft.cpu_only else None)
    return make_machine(
        gpu=gpu,
        gpu_memory_gb=None if gpu else draft.gpu_memory_gb,
        gpus=draft.gpus or 1,
        ram_gb=draft.ram_gb,
        cpu=draft.cpu,
    )


def _settings(draft: Draft) -> tuple[dict[str, object], list[Note]]:
    """The Workload fields for the question's training settings and engine, and a note for
    each setting that reached the estimator in another form or not at all."""
    task = draft.task or "inference"
    fields: dict[str, object] = {}
    notes: list[Note] = []
    if task == "inference":
        if draft.engine:
            fields["engine"] = draft.engine.replace(" ", "")
        return fields, notes
    engine = draft.framework or (draft.engine if draft.engine == "torchtune" else None)
    if engine == "trl":
        engine = "transformers"  # TRL's trainers are the Hugging Face Trainer's profile
    if engine:
        fields["engine"] = FRAMEWORK_ALIASES.get(engine, engine)
    if draft.zero is not None:
        fields["zero"] = draft.zero
    if draft.offload is not None:
        fields["offload"] = draft.offload
        if draft.offload and draft.offload_to == "nvme":
            fields["offload_device"] = "nvme"
    for name in (
        "grad_checkpointing",
        "optimizer",
        "lora_rank",
        "lora_targets",
        "distributed",
        "activation_offload",
        "rollout_engine",
        "group_size",
        "generation_length",
    ):
        value = getattr(draft, name)
        if value is not None:
            fields[name] = value
    if draft.reference_model is not None and draft.method not in ("lora", "qlora"):
        # With adapters the reference is their own base with the adapters off, whatever was
        # said of it (TRL refuses a second copy beside a peft_config unless forced).
        fields["reference_model"] = draft.reference_model
    if draft.packing:
        notes.append(Note("packing", {}))
    if draft.liger:
        fields["liger"] = True
    if draft.objective:
        fields["objective"] = draft.objective
    return fields, notes


def context_of(draft: Draft) -> tuple[int | None, tuple[Note, ...]]:
    """The context to size: as said, else for training the length of the examples given."""
    if draft.context is not None or draft.task != "training" or not draft.example_tokens:
        return draft.context, ()
    return draft.example_tokens, (Note("context_from_examples", {"tokens": draft.example_tokens}),)


def workload(draft: Draft) -> tuple[Workload, tuple[Note, ...]]:
    choice = resolve_model(
        draft.model or PLACEHOLDER_MODEL, files=LOCAL_FILES.get(), precision=draft.precision
    )
    fields, notes = _settings(draft)
    running = (draft.task or "inference") == "inference"
    if "engine" not in fields and choice.engine and running:
        fields["engine"] = choice.engine  # an Ollama tag: Ollama; a GGUF file: llama.cpp
    context, context_notes = context_of(draft)
    work = Workload(
        model=choice.architecture,
        task=draft.task or "inference",
        method=draft.method,
        # A GGUF's quantization is how it runs; training starts from the published weights.
        precision=draft.precision or (choice.precision if running else None),
        kv_precision=draft.kv_precision,
        context=context,
        batch=draft.batch or 1,
        concurrency=draft.concurrency or 1,
        **fields,  # type: ignore[arg-type]
    )
    work, dropped = _known(work)
    return work, choice.notes + context_notes + tuple(notes) + dropped


def _known(work: Workload) -> tuple[Workload, tuple[Note, ...]]:
    """The workload without the engine or optimizer the estimator does not know (yet), each
    with a note that it was not applied; other refusals stand."""
    notes: list[Note] = []
    for _ in range(2):
        try:
            validate(work)
            break
        except EstimatorError as exc:
            if exc.code == "unknown_engine" and work.engine:
                notes.append(Note("engine_not_applied", {"engine": work.engine}))
                work = replace(work, engine=None)
            elif exc.code == "unknown_optimizer" and work.optimizer:
                notes.append(Note("optimizer_not_applied", {"optimizer": work.optimizer}))
                work = replace(work, optimizer=None)
            else:
                break
    return work, tuple(notes)


def training_tokens(draft: Draft) -> tuple[int | None, tuple[Note, ...]]:
    """The tokens a training run processes, from what the question says about its data."""
    if draft.task != "training":
        return None, ()
    epochs = draft.epochs or 1
    # One pass over the data and several are said differently (no "epoch(s)").
    passes = "" if epochs == 1 else "_epochs"
    if draft.dataset_tokens:
        total = round(draft.dataset_tokens * epochs)
        params = {"tokens": total, "data_tokens": draft.dataset_tokens, "epochs": epochs}
        return total, (Note("training_tokens" + passes, params),)
    if draft.examples:
        per = draft.example_tokens or draft.context
        if per is None:
            return None, (Note("examples_without_length", {"examples": draft.examples}),)
        total = round(draft.examples * per * epochs)
        params = {"tokens": total, "examples": draft.examples, "per_example": per, "epochs": epochs}
        return total, (Note("training_examples" + passes, params),)
    return None, ()


def situation(draft: Draft, box: Machine | None, from_profile: bool) -> Situation:
    """Who asks, as the question tells: hardware from their profile is theirs, and so is a
    consumer card, a workstation card, a Mac or a CPU they name; a data-centre GPU named in a
    question is one they would rent or buy; hardware they say they rent (a provider, Colab) is
    rented, with no power bill of theirs."""
    rented = box is not None and box.gpu is not None and box.gpu.segment == "datacenter"
    owns = box is not None and (from_profile or not (rented or draft.cloud))
    choosing = draft.inverse in ("smallest_gpu", "cheapest_cloud", "gpus_needed")
    return Situation(
        owns_hardware=owns and not choosing,
        asked_gpu_count=bool(draft.gpus and draft.gpus > 1) or draft.inverse == "gpus_needed",
        rented=bool(draft.cloud),
    )


def answer(
    draft: Draft,
    extra_notes: tuple[Note, ...] = (),
    kwh_price: float | None = None,
    from_profile: bool = False,
) -> Outcome:
    """Raises EstimatorError for what cannot be computed (an unknown GPU, a nonsense size)."""
    if draft.compare:
        return _compare(draft, extra_notes, kwh_price, from_profile)
    if draft.ml_kind:
        features = draft.features
        notes: tuple[Note, ...] = ()
        if draft.ml_kind == "classical" and not features:
            features = ASSUMED_FEATURES
            notes = (Note("assumed_features", {"features": features}),)
        rows = draft.rows or 0
        if not rows and draft.data_gb and features:
            # A number in a CSV takes about as many bytes as in float64 (8 to 10 characters
            # with its separator), so the file's size is the table's size in memory.
            rows = round(draft.data_gb * GB / (features * FLOAT64_BYTES))
            notes += (Note("rows_from_data_size", {"gb": draft.data_gb, "rows": rows}),)
        advice = advise_ml(
            draft.ml_kind,
            rows=rows,
            features=features or 0,
            params=draft.ml_params or 0,
            retrain_often=bool(draft.retrain_often),
        )
        return Outcome(draft, ml=advice, ml_notes=notes)
    draft, bought = _bought(draft)
    if bought is not None:
        on_card = answer(draft, extra_notes, kwh_price, from_profile)
        return replace(on_card, bought=bought)
    work, notes = workload(draft)
    if draft.cpu_only and draft.ram_gb is None and not sold_sized(draft):
        draft, ram_note = _ram_asked(draft, work)
        notes += (ram_note,)
    box = machine(draft)
    notes = extra_notes + notes
    tokens, token_notes = training_tokens(draft)
    if draft.inverse:
        question = FIT_QUESTION[draft.inverse]
        found = searches.search(
            question, work, box, laptops=bool(draft.laptop), purpose=draft.purpose, tokens=tokens
        )
        if found.value is None and box is not None and question in _ON_THE_HARDWARE:
            # Nothing on this hardware: the workload itself, with the plan that runs elsewhere.
            forward = sizing.size(
                work, box, notes, kwh_price=kwh_price, situation=situation(draft, box, from_profile)
            )
            return Outcome(draft, workload=forward, question=question, inverse=found)
        speed = _speed_at(question, found, work, box)
        return Outcome(draft, question=question, inverse=found, inverse_speed=speed)
    smallest = None
    if box is None:
        smallest = searches.search("gpu", work, None, laptops=bool(draft.laptop))
    price = draft.kwh_price if draft.kwh_price is not None else kwh_price
    if draft.kwh_price is not None:
        token_notes += (Note("kwh_price_given", {"price": draft.kwh_price}),)
    return Outcome(
        draft,
        workload=sizing.size(
            work,
            box,
            notes + token_notes,
            tokens=tokens,
            kwh_price=price,
            situation=situation(draft, box, from_profile),
        ),
        smallest_gpu=smallest,
    )


def _ram_asked(draft: Draft, work: Workload) -> tuple[Draft, Note]:
    """ "How much RAM do I need" on a CPU: the question on the smallest usual RAM it fits in."""
    most = RAM_SIZES_GB[-1]
    cpu = machine(draft.model_copy(update={"ram_gb": most}))
    assert cpu is not None
    found = smallest_ram(work, cpu)
    if found.value is None:
        raise EstimatorError("ram_none_fits", ram=most)
    note = Note("ram_asked", {"ram_bytes": found.value * GIB})
    return draft.model_copy(update={"ram_gb": found.value}), note


def _bought(draft: Draft) -> tuple[Draft, budget.Pick | None]:
    """A budget and no hardware: the question on the card the budget buys, or the biggest model
    it runs when no model was named. Prices are in USD; a budget in another currency is compared
    as said (the answer says so)."""
    if draft.budget is None or draft.has_hardware():
        return draft, None
    if draft.laptop:
        raise EstimatorError("budget_laptop")
    pick = budget.best_card(draft.budget)
    if pick is None:
        cheapest = budget.cheapest_card()
        assert cheapest is not None
        raise EstimatorError(
            "budget_buys_no_card",
            budget=round(draft.budget),
            currency=draft.budget_currency or "USD",
            gpu=cheapest.gpu.name,
            usd=round(cheapest.usd),
        )
    update: dict[str, object] = {"gpu": pick.gpu.name}
    if draft.model is None:
        update["inverse"] = "largest_model"
    elif draft.inverse == "smallest_gpu":
        update["inverse"] = None  # the budget chose the card
    return draft.model_copy(update=update), pick


def _compare(
    draft: Draft, notes: tuple[Note, ...], kwh_price: float | None, from_profile: bool
) -> Outcome:
    """Each option answered on its own; the Outcome's own answer is the best option's."""
    # The question without what any option sets (it reads as its first option).
    varies = {k for option in draft.compare or [] for k in option.model_dump(exclude_none=True)}
    if any(option.has_hardware() for option in draft.compare or []):
        varies |= {"gpu", "gpus", "gpu_memory_gb", "apple", "cpu", "cpu_only"}
    base = draft.model_copy(update={"compare": None, **{k: None for k in varies}})
    options = []
    for varied in draft.compare or []:
        whole = varied.merged_over(base)
        try:
            options.append(Option(whole, varied, answer(whole, notes, kwh_price, from_profile)))
        except EstimatorError as exc:
            options.append(Option(whole, varied, None, exc))
    from .compare import best

    chosen = best(options)
    if chosen is None or chosen.outcome is None:
        return Outcome(draft, options=tuple(options))
    return replace(chosen.outcome, draft=draft, options=tuple(options))
