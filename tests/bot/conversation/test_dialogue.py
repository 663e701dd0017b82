"""The slot-filling state machine, one message at a time (pure, no storage)."""

from bot.conversation.dialogue import State, step
from bot.conversation.parse import read
from bot.conversation.slots import Draft


def talk(*messages, profile=None):
    state = State()
    turns = []
    for text in messages:
        turn = step(state, read(text), text, profile)
        turns.append(turn)
        state = turn.state
    return turns


def test_model_and_task_are_the_essentials():
    (turn,) = talk("what about a 24GB card?")
    assert turn.missing == ("model", "task")
    assert turn.state.awaiting == "model"


def test_a_memory_question_is_about_running_the_model():
    (turn,) = talk("how much memory does it need?")
    assert turn.missing == ("model",)
    assert turn.implied_task


def test_the_missing_slot_is_answered_by_the_next_message():
    first, second = talk("can I fine-tune on 24GB?", "Qwen2.5-7B")
    assert first.missing == ("model",)
    assert second.missing == ()
    assert second.state.draft.model == "Qwen2.5-7B"
    assert second.state.draft.gpu_memory_gb == 24


def test_a_raw_reply_to_the_model_question_is_looked_up():
    _, second = talk("can I fine-tune on 24GB?", "R1")
    assert second.state.draft.model == "R1"  # an alias of DeepSeek-R1 no sentence would use
    assert second.missing == ()


def test_an_unknown_model_is_asked_again():
    _, second = talk("can I fine-tune on 24GB?", "my own secret model")
    assert second.missing == ("model",)
    assert second.unknown_model == "my own secret model"


def test_a_bare_number_answers_the_hardware_question():
    _, second = talk("what's the biggest model I can run?", "24")
    assert second.state.draft.gpu_memory_gb == 24
    assert second.missing == ()


def test_follow_ups_keep_the_rest_of_the_question():
    turns = talk(
        "can I fine-tune 7B on an RTX 4090?",
        "and with QLoRA?",
        "make it 8k context",
        "what about 2 of them?",
    )
    d = turns[-1].state.draft
    assert (d.model, d.task, d.method, d.context, d.gpu, d.gpus) == (
        "7B",
        "training",
        "qlora",
        8192,
        "GeForce RTX 4090",
        2,
    )
    assert all(t.missing == () for t in turns)


def test_a_correction_replaces_the_slot():
    *_, turn = talk("run 7B on an RTX 4090", "no, I meant 13B")
    assert turn.state.draft.model == "13B"
    assert turn.state.draft.gpu == "GeForce RTX 4090"


def test_switching_task_drops_the_training_method():
    *_, turn = talk("fine-tune 7B with QLoRA on a 3090", "not training, inference")
    assert (turn.state.draft.task, turn.state.draft.method) == ("inference", None)


def test_new_hardware_replaces_the_old_machine():
    *_, turn = talk("run 70B on 2x 3090", "what about an M3 Max 128GB?")
    d = turn.state.draft
    assert (d.apple, d.gpu, d.gpus) == ("M3 Max 128GB", None, None)


def test_a_machines_ram_goes_with_it_unless_a_desktop_card_is_swapped():
    *_, turn = talk("my laptop has 16gb ram no gpu, can i run mistral 7b", "and on an rtx 4090?")
    d = turn.state.draft
    assert (d.gpu, d.laptop, d.ram_gb, d.cpu_only) == ("GeForce RTX 4090", None, None, None)
    *_, turn = talk("llama 3 70b on a 3090 with 64gb ram", "what about a 4090")
    d = turn.state.draft
    assert (d.gpu, d.ram_gb) == ("GeForce RTX 4090", 64)
    # Nor does a board's or a desktop's RAM come along to a Mac or a server GPU.
    *_, turn = talk("llama 3.2 3b on a raspberry pi 5 8gb", "qwen2.5 32b on an rtx a6000")
    assert (turn.state.draft.gpu, turn.state.draft.ram_gb) == ("RTX A6000", None)
    *_, turn = talk("llama 3 70b on a 3090 with 64gb ram", "and on an M2 Ultra 192GB")
    assert (turn.state.draft.apple, turn.state.draft.ram_gb) == ("M2 Ultra 192GB", None)
    *_, turn = talk("llama 3 70b on a 3090 with 64gb ram", "and on an h100")
    assert turn.state.draft.ram_gb is None


def test_renting_drops_the_mac_it_cannot_rent():
    *_, turn = talk(
        "running gemma 2 9b on my m2 max 64gb works great",
        "now i want to serve llama 3.1 70b for 50 users with vllm, what should i rent",
    )
    d = turn.state.draft
    assert (d.apple, d.cloud, d.concurrency) == (None, True, 50)
    assert not d.has_hardware()


def test_which_gpu_to_get_is_not_the_laptop_asked_about_before():
    *_, turn = talk(
        "my laptop has 16gb ram no gpu, can i run mistral 7b",
        "ok cool. what gpu do i need to train qwen 14b with qlora",
    )
    d = turn.state.draft
    assert d.inverse == "smallest_gpu"
    assert (d.laptop, d.ram_gb, d.cpu_only) == (None, None, None)


def test_another_engine_runs_the_format_asked_before_as_it_can():
    *_, turn = talk(
        "running llama 3.1 70b q4 on 2x a6000 with ollama and getting ~8 tok/s",
        "what if i use vllm instead",
    )
    d = turn.state.draft
    assert (d.engine, d.precision) == ("vllm", "int4")  # vLLM loads no GGUF Q4_K_M
    *_, turn = talk("llama 3.1 8b in awq on a 4090", "and on vllm")
    assert turn.state.draft.precision == "awq"  # vLLM runs it as asked


def test_a_gguf_format_named_after_an_engine_that_cannot_load_it_leaves_that_engine():
    # "and with q8 instead?" after a question on vLLM: Q8_0 on the engine that runs it, not a
    # refusal of vLLM with a GGUF file.
    *_, turn = talk("qwen3 14b on 2x 5060 ti 16gb in vllm", "and with q8 instead?")
    d = turn.state.draft
    assert (d.engine, d.precision, d.model) == (None, "q8_0", "Qwen3-14B")
    # A format the engine runs keeps it.
    *_, turn = talk("qwen3 14b on an h100 in vllm", "and in fp8?")
    assert (turn.state.draft.engine, turn.state.draft.precision) == ("vllm", "fp8")


def test_a_new_question_keeps_only_the_hardware():
    *_, turn = talk("serve 7B in int4 to 16 users on an A100 80GB", "can I fine-tune Llama 3.1 8B?")
    d = turn.state.draft
    assert (d.model, d.task, d.precision, d.concurrency) == ("Llama-3.1-8B", "training", None, None)
    # The words as said, so the answer can state the variant it assumed (the SXM board).
    assert d.gpu == "a100 80gb"


def test_the_saved_profile_fills_the_hardware():
    profile = Draft(gpu="GeForce RTX 3090", gpus=2, ram_gb=64)
    (turn,) = talk("can I run llama 3 70b?", profile=profile)
    assert turn.from_profile
    assert (turn.state.draft.gpu, turn.state.draft.gpus) == ("GeForce RTX 3090", 2)


def test_hardware_in_the_message_beats_the_profile():
    profile = Draft(gpu="GeForce RTX 3090")
    (turn,) = talk("can I run llama 3 8b on an L4?", profile=profile)
    assert not turn.from_profile
    assert turn.state.draft.gpu == "L4"


def test_the_machine_just_described_replaces_the_previous_questions():
    # "My machine has a 3090": saved as the user's own, so the next question runs on it, not
    # on the 8 GB card the question before was about.
    profile = Draft(gpu="GeForce RTX 3090", ram_gb=64)
    *_, said, asked = talk(
        "llama 3 8b on 8gb vram",
        "ik heb een 3090 en 64gb ram",
        "kan ik qwen2.5 32b draaien",
        profile=profile,
    )
    assert said.act == "own_hardware"
    assert asked.from_profile and not asked.kept_hardware
    assert (asked.state.draft.gpu, asked.state.draft.gpu_memory_gb) == ("GeForce RTX 3090", None)


def test_a_cloud_question_is_not_about_the_saved_machine():
    profile = Draft(gpu="GeForce RTX 3090", ram_gb=64)
    for text in (
        "wat kost het om llama 3.1 70b te draaien op de cloud",
        "how much does it cost to run llama 3.1 70b in the cloud",
    ):
        (turn,) = talk(text, profile=profile)
        assert not turn.from_profile and not turn.state.draft.has_hardware()
    (own,) = talk("can I run llama 3.1 70b?", profile=profile)
    assert own.from_profile


def test_users_imply_inference_and_say_so():
    (turn,) = talk("Mistral 7B for 10 users on an A10")
    assert turn.implied_task
    assert turn.state.draft.task == "inference"
    assert turn.missing == ()


def test_a_laptop_without_its_hardware_asks_for_it():
    (turn,) = talk("kan ik Llama 3 8B op mijn laptop draaien?")
    assert turn.missing == ("hardware",)


def test_cpu_only_needs_the_ram():
    (turn,) = talk("run 7B on CPU")
    assert turn.missing == ("ram",)


def test_a_phone_or_a_board_is_not_asked_its_ram():
    # They come in a few sizes: the answer takes the smallest and names the others.
    (turn,) = talk("llama 3.2 1b on iphone 15 pro")
    assert turn.missing == ()
    (turn,) = talk("kan ik phi-3 mini draaien op mijn telefoon")
    assert turn.missing == ()


def test_how_much_ram_on_a_cpu_is_the_question_not_a_missing_slot():
    (turn,) = talk("how much ram do i need to run deepseek r1 671b q4 cpu only")
    assert turn.missing == ()
    (turn,) = talk("hoeveel ram heb ik nodig voor qwen2.5 32b op cpu")
    assert turn.missing == ()


def test_reset_starts_over():
    _, turn = talk("can I fine-tune 7B on 24GB?", "new question")
    assert turn.reset
    assert turn.state.draft == Draft()


def test_classical_ml_needs_no_model():
    (turn,) = talk("random forest on 1M rows, do I need a GPU?")
    assert turn.missing == ()


def test_a_comparison_is_kept_by_a_follow_up_and_ended_by_choosing():
    compared, longer, chosen = talk(
        "L4 or T4 for mistral 7b?", "and with 32k context?", "ok, the L4 then"
    )
    assert [o.gpu for o in compared.state.draft.compare] == ["L4", "Tesla T4"]
    assert longer.state.draft.compare == compared.state.draft.compare
    assert longer.state.draft.context == 32768
    assert chosen.state.draft.compare is None
    assert chosen.state.draft.gpu == "L4"


def test_courtesies_leave_the_question_as_it_was():
    answer, thanks, hello = talk("can I run llama 3.1 8b on a 4090?", "thanks!", "hello")
    assert (thanks.act, hello.act) == ("thanks", "greeting")
    assert thanks.state.draft == hello.state.draft == answer.state.draft
    assert hello.state.answered


def test_a_greeting_while_a_slot_is_asked_for_keeps_asking():
    asked, hello = talk("can I fine-tune on 24GB?", "hi")
    assert hello.act == "greeting"
    assert hello.state.awaiting == asked.state.awaiting == "model"


def test_nothing_read_after_an_answer_is_out_of_scope_not_the_answer_again():
    _, other = talk("can I run llama 3.1 8b on a 4090?", "what is the capital of France")
    assert other.act == "out_of_scope"


def test_my_machine_answers_the_hardware_question():
    _, answer = talk("what's the biggest model I can run?", "my pc has an RTX 3090")
    assert answer.act is None
    assert answer.state.draft.gpu == "GeForce RTX 3090"
    assert answer.missing == ()


def test_a_model_on_hardware_is_about_running_it():
    (turn,) = talk("llama 3.1 8b on a 4090")
    assert turn.implied_task and turn.missing == ()


def test_a_one_shot_question_starts_afresh_but_a_follow_up_continues():
    state = State()
    for text in ("can I run llama 3.1 8b on a 4090 with 64GB RAM?",):
        state = step(state, read(text), text, keep_machine=False).state
    new = step(
        state,
        read("can I fine-tune qwen2.5 7b?"),
        "can I fine-tune qwen2.5 7b?",
        keep_machine=False,
    )
    follow = step(state, read("and with 32k context?"), "and with 32k context?", keep_machine=False)
    assert (new.state.draft.gpu, new.state.draft.ram_gb) == (None, None)
    assert follow.state.draft.gpu == "GeForce RTX 4090"


def test_on_my_laptop_after_a_desktop_card_asks_which_laptop():
    desktop, laptop = talk("qwen2.5 7b on a 4090", "kan ik llama 3 8b op mijn laptop draaien")
    assert desktop.state.draft.gpu is not None
    assert laptop.missing == ("hardware",) and laptop.state.draft.gpu is None
    _, mac = talk("qwen2.5 7b on an m2 pro 16gb", "and llama 3.1 8b on my laptop?")
    assert mac.missing == () and mac.state.draft.apple is not None


def test_a_desktop_profile_is_not_taken_for_a_laptop():
    profile = Draft(gpu="RTX 4090")
    (turn,) = talk("can i run llama 3.1 8b on my laptop", profile=profile)
    assert turn.missing == ("hardware",) and not turn.from_profile


def test_which_gpu_or_how_many_without_a_training_word_is_about_running_it():
    for text in ("welke gpu voor qwen3 235b a22b", "how many gpus do i need for llama 3.1 405b"):
        (turn,) = talk(text)
        assert turn.state.draft.task == "inference" and turn.implied_task, text
    (turn,) = talk("what gpu to train a 1b model from scratch")
    assert turn.state.draft.task == "training"


def test_a_size_alone_names_the_previous_models_family_member():
    _, other = talk(
        "gpt-oss 20b on my 16gb macbook pro m4", "ok and the 120b one on an rtx pro 6000 blackwell?"
    )
    assert other.state.draft.model == "gpt-oss-120b"
    _, bigger = talk("qwen2.5 14b on a 4090", "and 72b on 2 of them")
    assert bigger.state.draft.model == "Qwen2.5-72B" and bigger.state.draft.gpus == 2
    # A family without that size: the size is a model of its own.
    _, other = talk("gpt-oss 20b on a 4090", "and a 7b?")
    assert other.state.draft.model == "7B"
    # A line's models named after it: DeepSeek-R1's distills.
    _, other = talk("can i run deepseek r1 on my 3080 10gb", "no i meant the distill, the 14b one")
    assert other.state.draft.model == "DeepSeek-R1-Distill-Qwen-14B"


def test_a_budget_after_a_question_about_a_machine_asks_what_to_buy():
    *_, turn = talk(
        "hoeveel tokens per seconde haal ik met qwen3 30b a3b op een mac mini m4 pro 48gb",
        "we willen een chatbot voor 50 medewerkers, welke hardware? budget rond de 10k",
    )
    d = turn.state.draft
    assert (d.budget, d.apple, d.gpu) == (10_000, None, None)
    assert d.concurrency == 50


def test_a_comparison_after_an_inverse_question_compares_on_the_same_machine():
    *_, turn = talk(
        "hoeveel gebruikers tegelijk kan een enkele a100 80gb aan met llama 3.3 70b int4",
        "wat is het verschil tussen q4 en q8 qua kwaliteit en geheugen",
    )
    d = turn.state.draft
    assert d.inverse is None and d.gpu == "a100 80gb"
    assert [o.precision for o in d.compare] == ["q4_k_m", "q8_0"]
