"""The words and patterns questions use, in English and Dutch, for each slot."""

from __future__ import annotations

import re

TRAINING = re.compile(
    r"\b(fine[\s-]?tun\w*|finetun\w*|fijn[\s-]?tun\w*|train\w*|bijtrain\w*|lora|qlora|sft|leren)\b"
)
INFERENCE = re.compile(
    r"\b(serve|serving|run|running|runs|inference|inferentie|infer|host|hosting|hosten|deploy\w*|draai\w*|bedienen|"
    r"chat(?:ten)?\s+met|use|gebruik(?:en)?|serveren|load|laden|generate|genereren)\b"
)
QLORA = re.compile(r"\bq[\s-]?lora\b")
LORA = re.compile(r"\blora\b")
FULL = re.compile(
    r"\b(full|volledige?|all\s+parameters|alle\s+parameters)\b(?!\s+(?:precision|precisie))"
)
FREEZE = re.compile(r"\b(freeze|bevroren|freezing)\b")

PRECISIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(q[2-8]_k(?:_[sml])?|q[458]_[01]|iq[1-4]_\w+)\b"), "gguf"),
    (re.compile(r"\bawq\b"), "awq"),
    (re.compile(r"\bgptq\b"), "gptq"),
    (re.compile(r"\bnf4\b"), "nf4"),
    (re.compile(r"\bfp8\b|\bfloat8\b"), "fp8"),
    (re.compile(r"\b(bf16|bfloat16|bfloat\s*16)\b"), "bf16"),
    (re.compile(r"\b(fp16|float16|half[\s-]precision|halve\s+precisie)\b"), "fp16"),
    (
        re.compile(r"\b(fp32|float32|full\s+precision|volle\s+precisie|volledige\s+precisie)\b"),
        "fp32",
    ),
    (re.compile(r"\b(int8|8[\s-]?bits?|q8)\b"), "int8"),
    (re.compile(r"\b(int4|4[\s-]?bits?|q4)\b"), "int4"),
)

ENGINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bvllm\b"), "vllm"),
    (re.compile(r"\b(llama[.\s-]?cpp|ollama|lm\s*studio)\b"), "llama.cpp"),
    (re.compile(r"\bdeepspeed\b"), "deepspeed"),
    (re.compile(r"\btorchtune\b"), "torchtune"),
    (re.compile(r"\b(transformers|hugging\s*face\s+trainer)\b"), "transformers"),
)

CPU_ONLY = re.compile(
    r"\b(on\s+(?:a\s+|the\s+|my\s+)?cpu|cpu[\s-]only|only\s+(?:a\s+)?cpu|alleen\s+(?:een\s+|de\s+)?cpu|"
    r"op\s+(?:een\s+|de\s+|mijn\s+)?cpu|no\s+gpu|without\s+(?:a\s+)?gpu|zonder\s+(?:een\s+)?gpu|geen\s+gpu)\b"
)
LAPTOP = re.compile(r"\b(laptop|notebook|macbook)\b")
CLOUD = re.compile(r"\b(cloud|rent|renting|huren|huur|runpod|lambda|aws|gcp|azure)\b")
CHEAPEST = re.compile(r"\b(cheap\w*|goedkoop\w*|lowest\s+price|laagste\s+prijs)\b")

INVERSE: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"\b(biggest|largest|grootste|best)\s+(\w+\s+){0,2}(model|llm)\b"),
        "largest_model",
    ),
    (
        re.compile(
            r"\b(max(?:imum|imale)?|longest|langste|largest|grootste|hoe\s+lang\w*)\s+(\w+\s+)?(context\w*|ctx)\b"
        ),
        "max_context",
    ),
    (
        re.compile(
            r"\b(how\s+many|hoeveel|max(?:imum|imaal)?)\s+(\w+\s+)?(users|gebruikers|concurrent|gelijktijdige|requests|sessions|verzoeken)\b"
        ),
        "max_concurrency",
    ),
    (
        re.compile(
            r"\b(best|which|what|welke|wat|lowest|laagste|beste)\s+"
            r"(quanti[sz]ation|kwanti[sz]atie|precision|precisie|quant|format|formaat)\b"
        ),
        "best_precision",
    ),
    (
        re.compile(
            r"\b(smallest|cheapest|kleinste|goedkoopste|which|what|welke|minimum)\s+(gpu|graphics\s+card|videokaart|kaart)\b"
        ),
        "smallest_gpu",
    ),
    # Read before the hardware is blanked out: "how many H100s", "hoeveel 4090's".
    (
        re.compile(
            r"\b(how\s+many|hoeveel)\s+(?:[\w-]+\s+)?"
            r"(gpu(?:s|'s)?|cards|kaarten|videokaarten|[a-z]*\d{2,4}\w*?'?s)(?!\w)"
        ),
        "gpus_needed",
    ),
)

CLASSICAL = re.compile(
    r"\b(random\s+forest\w*|xgboost|lightgbm|catboost|gradient\s+boost\w*|linear\s+regression|"
    r"logistic\s+regression|lineaire\s+regressie|logistische\s+regressie|svm|k[\s-]?means|decision\s+trees?|"
    r"beslisbom\w*|scikit[\s-]?learn|sklearn)\b"
)
NEURAL_NET = re.compile(
    r"\b(small\s+(?:neural\s+)?(?:net|network)|mlp|cnn|klein\w*\s+neura\w*\s+netwerk\w*|neural\s+net\w*)\b"
)
RETRAIN = re.compile(
    r"\b(retrain\w*|every\s+(?:day|hour|week)|daily|elke\s+(?:dag|week|uur)|dagelijks|opnieuw\s+train\w*)\b"
)

# A number with an optional scale: 32k, 8192, 1.5M, 7b. Binary k for token counts (32k = 32768).
NUMBER = r"(\d+(?:[.,]\d+)?)\s*(k|m|mln|million|miljoen|thousand|duizend)?"
CONTEXT = (
    re.compile(
        r"\b"
        + NUMBER
        + r"\s*(?:-?\s*tokens?\s*)?(?:context|ctx|contextlengte|contextvenster|context\s+window)\b"
    ),
    re.compile(
        r"\b(?:context|ctx|contextlengte|context\s+(?:length|window))\s*(?:of|van|:|=|length|lengte|tot)?\s*"
        + NUMBER
        + r"(?:\s*tokens?)?\b"
    ),
    re.compile(r"\b" + NUMBER + r"\s*tokens?\b"),
)
USERS = re.compile(
    r"\b"
    + NUMBER
    + r"\s+(?:concurrent\s+|simultaneous\s+|parallel\s+|gelijktijdige\s+|tegelijke\s+)?"
    r"(?:users|gebruikers|requests|verzoeken|sessions|sessies|people|mensen|clients|streams|conversations)\b"
)
BATCH = re.compile(r"\bbatch(?:\s*size|grootte)?\s*(?:of|van|=|:)?\s*(\d+)\b")
ROWS = re.compile(r"\b" + NUMBER + r"\s*(?:rows|rijen|records|samples|regels)\b")
FEATURES = re.compile(r"\b(\d+)\s*(?:features|kenmerken|columns|kolommen)\b")
ML_PARAMS = re.compile(r"\b" + NUMBER + r"\s*(?:parameters|params)\b")
RAM = re.compile(
    r"\b(\d+(?:[.,]\d+)?)\s*(?:gb|gib|g)\s*(?:of\s+|aan\s+)?(?:system\s+|systeem\s+)?(?:ram|memory|geheugen|werkgeheugen|ddr\d?)\b"
)
VRAM = re.compile(
    r"\b(\d+(?:[.,]\d+)?)\s*(?:gb|gib|g)\b(?:\s*(?:of\s+)?(?:vram|gpu|video\s*memory|videogeheugen|card|kaart))?"
)
SIZE = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)\s*([bmt])(?![\w])")
COUNT = re.compile(r"\b(\d+|two|three|four|eight|twee|drie|vier|acht)\s*(?:x|×|\*)?\s*$")
WORD_NUMBERS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "eight": 8,
    "twee": 2,
    "drie": 3,
    "vier": 4,
    "acht": 8,
}
