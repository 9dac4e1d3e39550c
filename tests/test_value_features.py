"""The value model's second feature layout (features 60-70: a seat's economy and what the display offers it)
on a constructed position with exact numbers, and weight sets of the first layout reading only its 60."""
import numpy as np
import pytest

from concordia_ai import core
from concordia_ai.ai import value
from positions import base, load, set_cities, set_markers, set_player

CITIES = {"Lutetia": "cloth", "Massilia": "tool", "Burdigala": "food", "Olisipo": "brick", "Novaria": "tool"}


@pytest.fixture(autouse=True)
def shipped_weights_after():
    yield
    value.load()


def constructed(goods):
    """Seat 0 of scoring's full example (houses in Lutetia cloth, Massilia tool, Olisipo brick, Novaria tool;
    4 colonists on the board; 19 coins), Hispania's marker (wine) on its coin side. The display of the seed-1
    deal: Farmer, Smith, Prefect, Mercator, Mason, Diplomat (Saturnus), Architect, all of deck I."""
    pos = base(3)
    set_cities(pos, CITIES, markers=False)
    set_markers(pos, {"Hispania": ("wine", "coins")})
    set_player(pos, 0, coins=19, goods=goods, houses=["Lutetia", "Massilia", "Olisipo", "Novaria"],
               land=["Roma", "Lutetia", "Massilia"], sea=["Roma"])
    g = load(pos)
    assert g.to_json()["display"] == ["Farmer/I", "Smith/I", "Prefect/I", "Mercator/I", "Mason/I", "Diplomat/I",
                                      "Architect/I"]
    return core.value_features_of(g.state)[0]


def test_the_second_layouts_features_on_a_constructed_position():
    x = constructed(dict(brick=1))
    assert x.shape == (core.VALUE_FEATURES,) == (71,)
    expected = {
        # a Prefect in Gallia: Lutetia cloth 7 + Massilia tool 5, and the marker's cloth 7 for the Prefect
        60: 19 / 20,
        # goods side up: Gallia 12 + Italia (Novaria tool) 5; Hispania (Olisipo brick) shows coins
        61: 17 / 40,
        62: 2 / 20,             # the wine marker's coin side: 2 coins
        63: 2 / 10,             # Vesta: (19 + brick 3) // 10
        64: 3 / 15,             # Jupiter: 4 houses, 1 in a brick city
        65: 3 / 12,             # Saturnus: Gallia, Hispania, Italia
        66: 6 / 10,             # Mercurius: 3 goods produced, 2 each
        67: 8 / 24,             # Mars: 4 colonists on the board, 2 each
        68: 6 / 15,             # Minerva: Smith 3 x 2 tool houses (Weaver 5 x 1, Mason 3 x 1)
        69: 6 / 15,             # the display's best for it: Smith or Mercator (6 each)
        70: 0.0,                # with one brick it can pay for none that is worth anything (Farmer: 0)
    }
    for i, want in expected.items():
        assert x[i] == pytest.approx(want, abs=1e-6), i
    # brick, 2 food and a tool pay for the Smith in slot 2 (brick + tool and one good of any kind)
    rich = constructed(dict(brick=1, food=2, tool=1))
    assert rich[70] == pytest.approx(6 / 15) and rich[63] == pytest.approx(3 / 10)     # 19 + 3 + 8 + 5 = 35
    assert np.array_equal(rich[60:63], x[60:63]) and np.array_equal(rich[64:70], x[64:70])


def weight_set(rng, features, hidden=9):
    return dict(w1=rng.normal(0, 0.3, (hidden, features)).astype(np.float32),
                b1=rng.normal(0, 0.3, hidden).astype(np.float32), w_win=rng.normal(0, 1, hidden).astype(np.float32),
                w_vp=rng.normal(0, 1, hidden).astype(np.float32), b_vp=np.float32(0.2), vp_scale=np.float32(50))


def put(players, w):
    core.value_set_weights(players, w["w1"], w["b1"], w["w_win"], w["w_vp"], float(w["b_vp"]), float(w["vp_scale"]))


def test_a_first_layout_set_reads_the_first_60_features_and_equals_its_zero_padded_second_layout():
    from test_value import random_states
    rng = np.random.default_rng(3)
    first = weight_set(rng, 60)
    padded = dict(first, w1=np.concatenate([first["w1"], np.zeros((9, 11), np.float32)], axis=1))
    for st in random_states("imperium", 4, 12, seed=21):
        put(4, first)
        p1, vp1 = core.value_of(st)
        put(4, padded)
        p2, vp2 = core.value_of(st)
        assert p1 == p2 and vp1 == vp2                 # bit for bit: the new features weigh nothing
        p_n, vp_n = value.forward_numpy(first, core.value_features_of(st))     # numpy reads the first 60 too
        assert np.allclose(p1, p_n, atol=1e-5) and np.allclose(vp1, vp_n, atol=1e-3)
    with pytest.raises(ValueError, match="60 or 71"):
        put(4, weight_set(rng, 65))
