"""Which card a budget buys, against the catalog's prices read by hand."""

from estimator.budget import RECENT_YEARS, _on_sale, best_card, cheapest_card


def test_the_most_memory_the_budget_buys():
    # 1,000 USD: the Radeon RX 7900 XTX (24 GB, 999 USD at launch) over the 16 GB RTX 5080
    # (999 USD); memory decides what runs at all.
    pick = best_card(1000)
    assert pick is not None and pick.gpu.name == "Radeon RX 7900 XTX"
    assert pick.usd == 999 and pick.verified
    # 2,000 USD: the RTX 5090's 32 GB (1,999 USD) over the 4090's 24 GB (1,599 USD).
    assert best_card(2000).gpu.name == "GeForce RTX 5090"  # type: ignore[union-attr]
    # One dollar less and the 5090 is out of reach.
    assert best_card(1998).gpu.memory_gib == 32  # type: ignore[union-attr]
    assert best_card(1998).gpu.name != "GeForce RTX 5090"  # type: ignore[union-attr]


def test_nvidia_first_among_equal_memory_then_faster_memory():
    # 500 USD buys three 16 GB cards: the RTX 5060 Ti (429 USD, 448 GB/s), the RTX 4060 Ti
    # (499 USD, 288 GB/s) and the Radeon RX 9060 XT (349 USD): NVIDIA, then the faster one.
    assert best_card(500).gpu.name == "GeForce RTX 5060 Ti 16GB"  # type: ignore[union-attr]


def test_a_street_price_is_marked_unverified():
    # The Radeon AI PRO R9700 (32 GB) has a street price of 1,299 USD and no sourced launch price.
    pick = best_card(1500)
    assert pick is not None and pick.gpu.name == "Radeon AI PRO R9700"
    assert not pick.verified


def test_old_cards_are_not_for_sale_new():
    # The TITAN RTX (2018, 24 GB) is older than the catalog's last four launch years.
    names = {p.gpu.name for p in _on_sale(laptops=False)}
    assert "TITAN RTX" not in names
    newest = max(p.gpu.launch_year for p in _on_sale(laptops=False))
    assert all(p.gpu.launch_year > newest - RECENT_YEARS for p in _on_sale(laptops=False))


def test_too_small_a_budget_buys_nothing_and_the_cheapest_card_is_named():
    assert best_card(100) is None
    cheapest = cheapest_card()
    assert cheapest is not None and cheapest.gpu.name == "Arc A380" and cheapest.usd == 139


def test_a_servers_module_is_not_a_card_one_buys():
    # 20,000 USD is within the MI300X's 10,000-15,000 USD street price and the H100 SXM's
    # 25,000-30,000 is not; but both are modules on an 8-GPU baseboard (OAM, SXM), sold as
    # servers: the pick is a card for a slot (Gaudi 3 at 128 GB, its PCIe card HL-338).
    pick = best_card(20000)
    assert pick is not None and pick.gpu.form_factor not in ("sxm", "oam", "superchip")
    assert pick.gpu.name != "Instinct MI300X"
    assert all(p.gpu.form_factor not in ("sxm", "oam") for p in _on_sale(laptops=False))
