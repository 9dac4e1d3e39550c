"""The board drawing and the tap targets: every legal move of random games on every board can be made by
tapping elements that are really on the page, and the drawing shows what the position holds."""
import random
import re

import pytest

from concordia_ai.engine.content import BOARD_NAMES
from concordia_ai.engine.game import Game
from concordia_ai.web import board, targets
from concordia_ai.web.gamestate import page_state


def svg_ids(svg: str) -> set[str]:
    return set(re.findall(r'data-(?:el|alt)="([^"]+)"', svg.replace("&#x27;", "'")))


def panel_ids(state: dict) -> set[str]:
    """The ids the page's panels carry (app.js: market, players, reveal picker)."""
    ids = {f"card:{d['card']}" for d in state["display"] if d["card"]}
    ids |= {f"good:{g}" for g in state["prices"]}
    for p in state["players"]:
        if p["decides"]:
            ids |= {f"hand:{label}" for label in p["hand"]} | {"colonist:land", "colonist:sea"}
        if p["top"]:
            ids.add(f"top:{p['top']}")
    ids |= {t for m in state["moves"] if m["text"].startswith("reveal ") for t in m["targets"]}
    return ids


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_every_legal_move_has_elements_on_the_page(name):
    rng = random.Random(5)
    seen_verbs = set()
    for seed in range(2):
        g = Game.new(name, 3, seed=seed)
        steps = 0
        while not g.is_over and steps < 400:
            if rng.random() < 0.25:
                s = page_state(g)
                on_page = svg_ids(s["svg"]) | panel_ids(s)
                for m in s["moves"]:
                    seen_verbs.add(m["text"].split()[0])
                    missing = [t for t in m["targets"] if t not in on_page]
                    assert missing == [], (name, m["text"], missing)
                    if m["text"] not in ("done", "cash"):
                        assert m["targets"], m["text"]
            g.apply(rng.choice(g.legal_moves()))
            steps += 1
    assert {"play", "move", "build", "produce", "buy", "sell", "done"} <= seen_verbs


def test_targets_of_each_kind_of_move():
    g = Game.new("creta", 3, seed=1)
    hand = {"Diplomat/Jupiter": 1, "Diplomat/Mars": 1, "Tribune": 1}
    assert targets.targets(g, "play Diplomat", hand) == ["hand:Diplomat/Jupiter", "hand:Diplomat/Mars"]
    assert targets.targets(g, "move sea Knossos > Chersonasos-Knossos") == ["city:Knossos",
                                                                          "route:sea:Chersonasos-Knossos"]
    assert targets.targets(g, "move land Lappa-Rhethymna > Eleutherna-Rhethymna") == [
        "route:land:Lappa-Rhethymna", "route:land:Eleutherna-Rhethymna"]
    assert targets.targets(g, "enter Berenice-FRANKINCENSE") == ["route:sea:Berenice-FRANKINCENSE"]
    assert targets.targets(g, "produce Brown cloth") == ["province:Brown", "good:cloth"]
    assert targets.targets(g, "produce Green") == ["province:Green"]
    assert targets.targets(g, "buy Architect/I paying tool") == ["card:Architect/I", "good:tool"]
    assert targets.targets(g, "sell 3 wine") == ["good:wine"]
    assert targets.targets(g, "place sea Knossos") == ["city:Knossos", "colonist:sea"]
    assert targets.targets(g, "reveal Weaver/II") == ["unseen:Weaver/II"]
    assert targets.targets(g, "copy Mercator/5") == ["top:Mercator/5"]
    assert targets.targets(g, "cash") == [] and targets.targets(g, "done") == []


def test_the_drawing_shows_the_position():
    g = Game.new("italia", 3, seed=7, names=["Ann", "Bob", "<Cy>"])
    for text in ("play Architect", "move land Roma > Casinum-Roma", "build Casinum", "done"):
        g.apply(text)
    svg = board.svg(g)
    assert svg.count('class="el city"') == 26 and svg.count('class="el route ') == len(g.board.routes)
    assert svg.count('class="el province"') == 11
    # Casinum's good, Ann's house there, her colonist on Casinum-Roma, the escaped name of a player
    assert '<title>Casinum: tool</title>' in svg
    assert "<title>Ann&#x27;s house</title>" in svg
    assert '<g class="el pawns" data-el="route:land:Casinum-Roma">' in svg
    # a land and a sea route between Cosa and Roma: two elements, drawn side by side
    assert 'data-el="route:land:Cosa-Roma"' in svg and 'data-el="route:sea:Cosa-Roma"' in svg
    assert "&lt;Cy&gt;: land colonist" in svg and "<Cy>" not in svg
    # every bonus marker on its banner, goods side up at the start: one rect per province
    assert svg.count('class="marker"') == 11


def test_specials_of_aegyptus_and_creta():
    g = Game.new("aegyptus", 2, seed=3)
    svg = board.svg(g)
    assert 'data-el="city:FRANKINCENSE"' in svg and 'data-el="city:GOLD"' in svg
    nile = g.to_json()["nile_marker"]
    assert f"Nile flood: {nile} (the food marker is here)" in svg
    assert svg.count('class="nile"') + svg.count('class="nile nile-on"') == 5
    c = board.svg(Game.new("creta", 2, seed=3))
    assert "2 more coins with every cash bonus" in c
    assert 'class="marker-open"' in c          # Gavdos's variable bonus: no marker until produced


def test_the_layouts_are_the_package_data_and_cover_every_city():
    for name in BOARD_NAMES:
        g = Game.new(name, 2, seed=0)
        lay = board.layout(name)
        assert lay["board"] == name
        placed = set(lay["cities"]) | set(lay.get("squares", {}))
        assert [c for c in g.board.cities if c not in placed] == []
        assert set(lay["provinces"]) == set(g.board.provinces)


def _boxes(svg: str) -> dict:
    """The drawing's boxes the colonists in a city must leave free: the city tokens, the city names (10.5 px
    semi-bold text: 0.62 em a letter at most), the bonus markers; and the cluster of colonists in a city
    (its bed, and its count written above it)."""
    num = r"(-?[\d.]+)"
    tokens = [(float(x) - 13, float(y) - 13, float(x) + 13, float(y) + 13)
              for x, y in re.findall(rf'<circle cx="{num}" cy="{num}" r="13" class="token"', svg)]
    names = []
    for x, y, cls, text in re.findall(rf'<text x="{num}" y="{num}" class="(city-name[^"]*)">([^<]+)</text>', svg):
        half = 0.62 * (12 if "capital" in cls else 10.5) * len(text) / 2
        names.append((float(x) - half, float(y) - 10, float(x) + half, float(y) + 2))
    markers = [(float(x), float(y), float(x) + float(w), float(y) + float(h)) for x, y, w, h in
               re.findall(rf'<rect x="{num}" y="{num}" width="{num}" height="{num}" rx="4" class="marker', svg)]
    cluster = re.search(rf'data-el="city:[^"]+"><title>[^<]*</title>\s*<rect x="{num}" y="{num}" width="{num}" '
                        rf'height="{num}" rx="7" class="pawn-bed"/>', svg)
    x, y, w, h = map(float, cluster.groups())
    return {"tokens": tokens, "names": names, "markers": markers, "cluster": (x, y - 14, x + w, y + h)}


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_the_colonists_in_the_capital_cover_no_city_name_or_marker(name):
    """On Italia the cluster of colonists beside Roma covered Spoletum's name (found in a whole game on the
    page, issue 26): it is placed clear of every city, city name and bonus marker, with 2 to 5 players."""
    for players in (2, 3, 4, 5):
        boxes = _boxes(board.svg(Game.new(name, players, seed=1)))
        for kind in ("tokens", "names", "markers"):
            hits = [b for b in boxes[kind] if _overlap(boxes["cluster"], b)]
            assert not hits, (name, players, kind, boxes["cluster"], hits)
