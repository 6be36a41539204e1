"""docs/rules.md, "Pyramid" rules end to end through the `pyramid` command: stock, redeal, picks, taps."""

from __future__ import annotations

from pathlib import Path

from display.render import Renderer

from deals import clearable_deal
from test_scripted_mode import scripted

SIZE = (480, 320)


def center_of(target: int | str) -> str:
    """``tap:X,Y`` at the visible middle of a slot, from the renderer's own layout."""
    table = Renderer(SIZE).layout.table()
    rect = {"stock": table.stock, "waste": table.waste}.get(target) if isinstance(target, str) else \
        table.visible_part(target, 7)
    x, y = rect.center
    return f"tap:{x},{y}"


def test_stock_then_redeal_in_drawing_order_then_the_hollow_is_gone(tmp_path: Path) -> None:
    script = " ".join(["up"] * 8 + ["ok"] * 24 + ["ok"] + ["ok"] * 24)
    states = scripted(tmp_path, script, "--game", "pyramid", "--redeals", "one", "--deal", clearable_deal())
    first = states[0]["game"]
    after_pass = states[8 + 24]["game"]
    assert after_pass["stock"] == [] and after_pass["waste"] == first["stock"], "drawn one by one, in order"
    assert after_pass["cursor"] == "stock", "the cursor stays on the stock (now its hollow)"
    redealt = states[8 + 24 + 1]["game"]
    assert redealt["stock"] == first["stock"] and redealt["waste"] == [], "the waste turned over in one block"
    assert redealt["redeals_left"] == 0
    last = states[-1]["game"]
    assert last["stock"] == [] and last["cursor"] != "stock", "no redeal left: the hollow is no target"


def test_choose_cancel_and_back(tmp_path: Path) -> None:
    states = scripted(tmp_path, "right ok ok ok back back", "--game", "pyramid", "--redeals", "none",
                      "--deal", clearable_deal())
    chosen = [state["game"]["chosen"] for state in states[1:5]]
    assert chosen == [None, "Ac", None, "Ac"], "picking the chosen card again cancels it"
    assert states[5]["screen"] == "game" and states[5]["game"]["chosen"] is None, "back cancels first"
    assert states[6]["screen"] == "menu", "then back leaves the game"


def test_taps_pick_cards_the_stock_and_the_waste(tmp_path: Path) -> None:
    # Kc (21) leaves alone; the stock's first card is Ah; Qc (23) and Ah make 13.
    script = " ".join([center_of(21), center_of("stock"), center_of(23), center_of("waste")])
    states = scripted(tmp_path, script, "--game", "pyramid", "--redeals", "none", "--deal", clearable_deal())
    assert states[1]["game"]["pyramid"][6][0] is None and states[1]["game"]["score"] == 5
    assert states[2]["game"]["waste"] == ["Ah"]
    assert states[3]["game"]["chosen"] == "Qc"
    final = states[4]["game"]
    assert final["waste"] == [] and final["pyramid"][6][2] is None
    assert final["score"] == 5 + 5 + 5, "a base card and a waste card: 5 each"
