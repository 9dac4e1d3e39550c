"""How `show` and the status line name things a player at the table sees (issue 26, wording)."""
from concordia_ai.engine.game import CHANCE, Game
from concordia_ai.table import render

CITIES = Game.new("imperium", 3, seed=1).to_json()["cities"]
DISPLAY = ["Diplomat/I", "Mercator/I", "Farmer/I", "Smith/I", "Prefect/I", "Mason/I", "Architect/I"]


def _lines(text: str, start: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith(start)]


def test_a_bought_card_in_hand_is_linked_to_its_name_in_the_display():
    g = Game.from_table("imperium", 3, CITIES, DISPLAY, names=["Ann", "Bob", "Cy"])
    assert _lines(render.show(g), "Mercator/5") == []          # only the starting cards: nothing to explain
    g.apply("play senator")
    g.apply("buy Diplomat/I")
    g.apply("buy Mercator/I paying brick")
    text = render.show(g)
    hand = _lines(text, "hand:")[0]
    assert "Mercator/5" in hand and "Diplomat/Saturnus" in hand   # the kind, as `play Mercator/5` takes it
    assert _lines(text, "Mercator/5") == [
        "Mercator/5 (pays 5 coins) is the card bought as Mercator/I, Mercator/II, Mercator/III or Mercator/V"]
    assert _lines(text, "Diplomat/Saturnus") == [
        "Diplomat/Saturnus (god Saturnus) is the card bought as Diplomat/I or Diplomat/III"]
    # the starting kinds are sold under no other name, so they get no line
    assert _lines(text, "Mercator/3") == [] and _lines(text, "Diplomat/Jupiter") == []
    # on a discard pile it is named and explained the same way
    g.apply("reveal Colonist/I")
    pos = g.to_json()
    ann = pos["players"][0]
    del ann["hand"]["Mercator/5"], ann["hand"]["Diplomat/Saturnus"]
    ann["discard"].update({"Mercator/5": 1, "Diplomat/Saturnus": 1})
    text = render.show(Game.from_json(pos))
    assert "Mercator/5" in _lines(text, "discard:")[0] and len(_lines(text, "Mercator/5")) == 1


def test_the_reveal_prompt_is_one_sentence():
    g = Game.from_table("imperium", 3, CITIES, DISPLAY)
    g.apply("play senator")
    g.apply("buy Diplomat/I")
    g.apply("done")
    assert g.decider == CHANCE
    text = render.PHASE_TEXT["chance"]
    assert "is revealed" not in text and ":" not in text
    assert f"Reveal {text}" == "Reveal the card turned up into the display"     # the page's heading
    assert render.status_line(g).endswith("now a card is turned up into the display (chance)")
