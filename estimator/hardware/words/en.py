"""English words for hardware: counts, what joins cards into one machine, and what memory is."""

from __future__ import annotations

NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "sixteen": 16,
    "twenty": 20,
    "thirty": 30,
    "sixty": 60,
    "a": 1,
    "an": 1,
    "single": 1,
    "dual": 2,
    "twin": 2,
    "double": 2,
    "pair": 2,
    "triple": 3,
    "quad": 4,
}
# "A second 3090": the card the user would add to the one they have, so two in all. Only after
# an article that adds one (ADDING): "my second card is a 3060" points at a card they have.
ORDINALS = {"second": 2, "third": 3, "fourth": 4}
ADDING = ("a", "an")
# Words between a count and its card ("a pair of 3090s").
COUNT_FILLER = ("of",)
# Cards joined by these are one machine ("a 4090 plus a 3090"); others are alternatives.
JOINERS = ("and", "plus", "with", "along", "together", "alongside")
# Piece words: "ddr5" is read as "ddr" and "5".
RAM = ("ram", "ddr", "lpddr", "dimm", "dimms", "sodimm")
RAM_PHRASES = (("system", "memory"), ("system", "ram"), ("main", "memory"), ("cpu", "memory"))
VRAM = ("vram",)
VRAM_PHRASES = (("video", "memory"), ("gpu", "memory"), ("graphics", "memory"))
MEMORY = ("memory", "unified")
DATA = (
    "csv",
    "data",
    "dataset",
    "datasets",
    "file",
    "files",
    "parquet",
    "json",
    "jsonl",
    "text",
    "corpus",
    "documents",
    "logs",
    "table",
    "database",
    "spreadsheet",
    "excel",
    "model",
    "gguf",
    "download",
    "weights",
    "checkpoint",
)
# Words after a bare number that say it is not a GPU ("4096 tokens").
NOT_A_CARD = (
    "tokens",
    "token",
    "rows",
    "users",
    "context",
    "ctx",
    "steps",
    "samples",
    "examples",
    "requests",
    "words",
    "images",
    "queries",
    "people",
    "epochs",
)
GPU = ("gpu", "gpus", "card", "cards", "graphics", "videocard", "accelerator", "accelerators")
# Words that make the text about a laptop (so "a 4070" is the laptop card).
LAPTOP = ("laptop", "notebook", "macbook")
CPU_ONLY = (
    ("cpu", "only"),
    ("only", "cpu"),
    ("no", "gpu"),
    ("without", "gpu"),
    ("without", "a", "gpu"),
)
SOCKETS = {"dual": 2, "two": 2, "2p": 2, "quad": 4}
