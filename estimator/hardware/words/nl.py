"""Dutch words for hardware: counts, what joins cards into one machine, and what memory is."""

from __future__ import annotations

NUMBERS = {
    "een": 1,
    "één": 1,
    "twee": 2,
    "drie": 3,
    "vier": 4,
    "vijf": 5,
    "zes": 6,
    "zeven": 7,
    "acht": 8,
    "negen": 9,
    "tien": 10,
    "elf": 11,
    "twaalf": 12,
    "zestien": 16,
    "twintig": 20,
    "dertig": 30,
    "zestig": 60,
    "dubbele": 2,
}
ORDINALS = {"tweede": 2, "derde": 3, "vierde": 4}
ADDING = ("een",)
COUNT_FILLER = ("stuks",)
JOINERS = ("en", "met", "plus", "samen", "naast")
RAM = ("werkgeheugen", "systeemgeheugen", "geheugenreepjes")
RAM_PHRASES = (("intern", "geheugen"), ("systeem", "geheugen"))
VRAM = ("videogeheugen",)
VRAM_PHRASES = (("gpu", "geheugen"), ("video", "geheugen"))
MEMORY = ("geheugen",)
DATA = (
    "bestand",
    "bestanden",
    "gegevens",
    "tekst",
    "documenten",
    "tabel",
    "databank",
    "model",
    "modellen",
)
NOT_A_CARD = ("rijen", "gebruikers", "stappen", "voorbeelden", "verzoeken", "woorden", "mensen")
GPU = ("kaart", "kaarten", "videokaart", "videokaarten", "grafische")
LAPTOP = ("laptop", "notebook")
CPU_ONLY = (("alleen", "cpu"), ("geen", "gpu"), ("zonder", "gpu"), ("zonder", "een", "gpu"))
SOCKETS = {"dubbele": 2, "twee": 2}
