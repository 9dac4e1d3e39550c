"""The fixes from a full game tracked at the table (issue 16, part 1, items 3 and 6-10), each on the command
line with the exact message."""
import json

from concordia_ai.engine.game import Game
from concordia_ai.table.game_file import GameFile
from cli_helpers import run


def game_file(tmp_path, edit=None, board="imperium", names=("Ann", "Bob", "Cid"), seed=5):
    """A game file from the opening position of `board` (seed 5), changed by `edit(position)`."""
    pos = Game.new(board, len(names), seed=seed, names=list(names)).to_json()
    if edit:
        edit(pos)
    f = tmp_path / "g.json"
    GameFile.create(str(f), Game.from_json(pos)).save()
    return f


def refused(f, *moves):
    return run("play", f, *moves, code=2).stderr


def goods(**given):
    return {g: given.get(g, 0) for g in ("brick", "food", "tool", "wine", "cloth")}


# ---------------------------------------------------------------- 6. reasons
def test_produce_in_a_province_on_its_coin_side_says_so(tmp_path):
    def coin_side(pos):
        pos["provinces"]["Corsica"]["side"] = "coins"
    f = game_file(tmp_path, coin_side, board="italia")
    assert refused(f, "play prefect", "produce cors") == (
        "error: move 2 of 2 'produce cors' rejected: 'produce cors' is not a legal move for Ann: the bonus marker "
        "of Corsica is on its coin side (produced there since the last cash): produce in a province whose marker "
        "shows its good, or cash (which turns every marker back) (11 legal moves now)\n")


def test_a_reveal_made_by_itself_is_not_entered_again(tmp_path):
    def real_table(pos):
        pos["chance"], pos["stack_order"] = "external", None
    f = game_file(tmp_path, real_table)
    r = run("play", f, "play Senator", "buy Diplomat/I", "done")
    assert r.stdout.splitlines()[3] == "revealed: Mercator/I (the only card left in deck I), turned up in Ann's turn 1, round 1"
    assert refused(f, "reveal merc/i") == (
        "error: move 'reveal merc/i' rejected: 'reveal merc/i' is not a legal move for Bob: Mercator/I is in the "
        "display already and deck I has no card left (the last card of a deck is revealed by itself); nothing to "
        "enter; legal now: play Tribune, play Architect, play Prefect, play Mercator/3, play Diplomat, play Senator\n")
    assert refused(f, "reveal diplomat/i").startswith(
        "error: move 'reveal diplomat/i' rejected: 'reveal diplomat/i' is not a legal move for Bob: 'reveal' is a card "
        "turned up from the stack")        # bought: no longer in the display


def test_paying_is_not_needed_when_one_good_can_pay(tmp_path):
    def wine_and_food(pos):
        pos["players"][0]["goods"] = goods(food=1, wine=1)
    f = game_file(tmp_path, wine_and_food)       # Prefect/I (wine) at display place 3, which adds any one good
    r = run("play", f, "play senator", "buy prefect/i")
    assert r.stdout.splitlines()[1] == "played: buy Prefect/I paying food (Ann, turn 1, round 1)"


def test_a_card_no_good_can_pay_says_what_it_costs(tmp_path):
    def wine_only(pos):
        pos["players"][0]["goods"] = goods(wine=1)
    f = game_file(tmp_path, wine_only)
    assert refused(f, "play senator", "buy prefect/i") == (
        "error: move 2 of 2 'buy prefect/i' rejected: 'buy prefect/i' is not a legal move for Ann: Prefect/I costs "
        "wine + any one good here; Ann lacks one more good of any kind; legal now: done\n")


def test_the_paying_example_is_a_legal_one(tmp_path):
    def no_food(pos):
        pos["players"][0]["goods"] = goods(brick=1, wine=2)
    f = game_file(tmp_path, no_food)
    assert refused(f, "play senator", "buy prefect/i") == (
        "error: move 2 of 2 'buy prefect/i' rejected: 'buy prefect/i' is not a legal move for Ann: Prefect/I's "
        "place in the display adds any one good: say which, e.g. buy Prefect/I paying brick (it can be paid "
        "with brick, wine); legal now: done, buy Prefect/I paying brick, buy Prefect/I paying wine\n")


# ---------------------------------------------------------------- 7. refusals after reordering
def test_a_refusal_after_reordering_names_the_coins_as_typed(tmp_path):
    def marco(pos):
        pos["players"][0]["coins"] = 11       # 14 with the Mercator's 3
    f = game_file(tmp_path, marco, board="italia", names=("Marco", "Bob", "Cy"), seed=1)
    # the canonical order buys food before tool: after it Marco would have 10, but he typed the tool first
    assert refused(f, "play mercator", "buy 5 tool", "buy 1 food") == (
        "error: move 2 of 3 'buy 5 tool' rejected: 'buy 5 tool' is not a legal move for Marco: 5 tool cost 25 "
        "coins; Marco has 14 (17 legal moves now)\n")
    # typed after the food, the food's price is gone
    assert refused(f, "play mercator", "buy 1 food", "buy 5 tool") == (
        "error: move 3 of 3 'buy 5 tool' rejected: 'buy 5 tool' is not a legal move for Marco: 5 tool cost 25 "
        "coins; Marco has 10; legal now: done, buy 1 tool, buy 1 wine, buy 1 cloth\n")


# ---------------------------------------------------------------- 8. @FILE lists
DISPLAY = "Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I"


def cities_file(tmp_path, rename=None):
    """An @FILE of an Italia layout, one CITY=GOOD a line after a comment with commas."""
    cities = Game.new("italia", 3, seed=5).to_json()["cities"]
    lines = ["# Italia, seed 5: Venetia first, then Transpadana"]
    lines += [f"{rename.get(c, c) if rename else c}={g},  # {c}, one token" for c, g in cities.items()]
    f = tmp_path / "cities.txt"
    f.write_text("\n".join(lines) + "\n")
    return f


def test_a_comment_in_a_list_file_may_hold_commas(tmp_path):
    r = run("new", tmp_path / "g.json", "--map", "italia", "--names", "Ann,Bob,Cy", "--cities",
            f"@{cities_file(tmp_path)}", "--display", DISPLAY)
    assert r.stdout.startswith(f"created {tmp_path / 'g.json'}: Italia, 3 players")
    assert json.loads((tmp_path / "g.json").read_text())["initial"]["cities"] == \
        Game.new("italia", 3, seed=5).to_json()["cities"]


def test_a_misspelt_city_in_a_list_file_is_quoted_with_its_line(tmp_path):
    f = cities_file(tmp_path, {"Bauzanum": "Bauzanm"})
    r = run("new", tmp_path / "g.json", "--map", "italia", "--names", "Ann,Bob,Cy", "--cities", f"@{f}",
            "--display", DISPLAY, code=2)
    assert r.stderr == f"error: --cities: 'Bauzanm' on {f} line 3 is no city of Italia; did you mean Bauzanum?\n"
    assert not (tmp_path / "g.json").exists()
    r = run("new", tmp_path / "g.json", "--map", "italia", "--names", "Ann,Bob,Cy", "--cities", "Bauzanm=food",
            "--display", DISPLAY, code=2)
    assert r.stderr == "error: --cities: 'Bauzanm' is no city of Italia; did you mean Bauzanum?\n"


# ---------------------------------------------------------------- 10. review: no best line that is the played turn
def test_review_shows_no_best_line_that_is_the_played_turn(tmp_path):
    from concordia_ai.ai.search import TABLE_SEARCH, SearchConfig, search
    from concordia_ai.ai.turns import recorded_turns
    from concordia_ai.table import review as rv
    g = Game.new("imperium", 3, seed=11, names=["Ann", "Bob", "Cid"])
    config = SearchConfig(iterations=300, seed=0, **TABLE_SEARCH)     # the table's footing
    top = search(g, config).turns[0]
    f = tmp_path / "g.json"
    gf = GameFile.create(str(f), g)
    gf.apply(top.texts)                   # Ann plays the search's top turn
    gf.save()

    def worded_otherwise(game, cfg, **kw):      # the same turn, in other words (the search's own wording)
        result = search(game, cfg, **kw)
        result.turns[0].texts = [t.upper() for t in result.turns[0].texts]
        return result
    rt = recorded_turns(g, gf.moves)[0]
    rec = rv.review_turn(gf.initial, gf.moves, rt, config, search_fn=worded_otherwise)
    assert (rec["rank"], rec["inList"], rec["best"], rec["played"]) == (1, True, top.texts, top.texts)

    # a review log written before names the best in the search's words: the table still shows no best line
    run("review", f, "--iterations", 300, "--jobs", 1, "-q")
    log = tmp_path / "g.review.jsonl"
    old = json.loads(log.read_text())
    log.write_text(json.dumps(dict(old, best=[t.upper() for t in old["played"]])) + "\n")
    lines = run("review", f, "--iterations", 300, "--jobs", 1, "-q").stdout.splitlines()
    lines = [x for x in lines if not x.startswith("note: ")]     # 300 iterations: the calibration note
    assert lines[0] == f"review of {f}: 1 turns (0 searched now, 1 read from {log}); budget: 300 iterations of " \
                       "search per turn, 1 turn at once"
    assert lines[2].endswith("  " + "; ".join(top.texts)) and not any("best:" in x for x in lines)


# ---------------------------------------------------------------- 3. play --suggested plays the hint just shown
def test_play_suggested_plays_the_hint_just_shown(tmp_path):
    f = game_file(tmp_path)
    hint = json.loads(run("hint", f, "--iterations", 600, "--json", "-q").stdout)
    cache = tmp_path / "g.hint.json"
    kept = json.loads(cache.read_text())
    assert kept["format"] == "concordia-hint-cache" and kept["key"]["config"]["iterations"] == 600
    assert [t["texts"] for t in kept["turns"][:5]] == [t["moves"] for t in hint["turns"]]
    # the hint's list is played, not a new search's: a list changed by hand shows which one was used
    kept["turns"][0], kept["turns"][1] = kept["turns"][1], kept["turns"][0]
    cache.write_text(json.dumps(kept))
    second = kept["turns"][0]
    r = run("play", f, "--suggested", "--iterations", 600, "-q")
    assert r.stdout.splitlines()[0] == (
        f"suggested turn 1 for Ann (win {100 * second['win']:.1f} ± {100 * second['winSe']:.1f} %, "
        f"{second['visits']} visits; budget: 600 iterations in each of 1 search thread; from the list of the hint "
        "just shown (same position, budget and seed; no new search))")
    assert json.loads(f.read_text())["moves"] == second["texts"]


def test_play_suggested_searches_again_for_another_budget_seed_or_position(tmp_path):
    f = game_file(tmp_path)
    run("hint", f, "--iterations", 600, "-q")
    for options in (["--iterations", 700], ["--iterations", 600, "--seed", 1], ["--iterations", 600, "--jobs", 2]):
        g = tmp_path / "copy.json"
        g.write_bytes(f.read_bytes())
        (tmp_path / "copy.hint.json").write_bytes((tmp_path / "g.hint.json").read_bytes())
        r = run("play", g, "--suggested", *options, "-q")
        assert r.stdout.splitlines()[0].endswith("; from a new search)"), options
    (tmp_path / "g.hint.json").write_text("{not json")         # a damaged cache is no hint: search again
    r = run("play", f, "--suggested", "--iterations", 600, "-q")
    assert r.stdout.splitlines()[0].endswith("; from a new search)")


def test_hint_move_is_one_search_and_reports_its_whole_time(tmp_path):
    # the intended turn is named to the one search (issue 15, 3): no second search, the time shown is all of it
    f = game_file(tmp_path)
    data = json.loads(run("hint", f, "--iterations", 600, "--json", "-q", "--top", 40).stdout)
    listed = {tuple(t["moves"]) for t in data["turns"]}
    odd = next(t for t in ["play Prefect; cash", "play Mercator/3; sell 1 wine; done", "play Senator; done"]
               if tuple(t.split("; ")) not in listed)
    out = run("hint", f, "--iterations", 600, "-q", "--move", odd).stdout.splitlines()
    assert out[1].startswith("budget: 600 iterations in each of 1 search thread; took ")
    info = json.loads(run("hint", f, "--iterations", 600, "--json", "-q", "--move", odd).stdout)["rootInfo"]
    # one search: the budget, and the unlisted turn's share of the final choice on top of it
    assert f" s of wall time; {info['iterations']} iterations, " in out[1]
    assert 600 < info["iterations"] < 700 and info["searches"] == 1


# ---------------------------------------------------------------- 9. joining a game
def test_the_template_asks_only_for_what_the_table_shows(tmp_path):
    out = tmp_path / "now.json"
    run("position", "template", "--map", "italia", "--players", 3, "--names", "Ann,Bob,Cid", "--out", out)
    text = out.read_text()
    for internal in ('"scratch"', '"pend"', '"rng"', '"stack_order"', '"decider"', '"intermediate_paid"',
                     '"trigger_this_turn"', '"unseen"'):
        assert internal not in text, internal


def test_check_fill_writes_in_what_follows_from_the_rest(tmp_path):
    out = tmp_path / "now.json"
    run("position", "template", "--map", "italia", "--players", 3, "--names", "Ann,Bob,Cid", "--out", out)
    table = Game.new("italia", 3, seed=3).to_json()
    pos = json.loads(out.read_text())
    pos["cities"], pos["display"] = table["cities"], table["display"]
    out.write_text(json.dumps(pos))
    r = run("position", "check", out, "--fill")
    lines = r.stdout.splitlines()
    assert lines[0] == 'filled: $.provinces.Venetia.marker: "tool" (from the most valuable good of its cities)'
    assert len(lines) == 11 + 1 + 1
    assert lines[11] == ('filled: $.unseen: {"I": ["Prefect"], "II": ["Architect", "Colonist", "Consul", "Mercator", '
                         '"Prefect", "Vintner", "Weaver"], "III": ["Architect", "Colonist", "Consul", "Diplomat", '
                         '"Mercator", "Prefect"]} (from the display and the hands)')
    assert lines[12] == (f"{out}: a sound position: Italia, 3 players; turn 1 (round 1): Ann's turn; Ann decides "
                         "now: play (plays a card from hand)")
    written = json.loads(out.read_text())
    assert written["provinces"] == table["provinces"] and written["unseen"] == table["unseen"]
    assert run("position", "check", out, "--fill").stdout.splitlines() == lines[12:]    # nothing left to fill
    run("new", tmp_path / "g.json", "--position", out)


def test_check_fill_writes_nothing_when_nothing_follows(tmp_path):
    out = tmp_path / "now.json"
    run("position", "template", "--map", "italia", "--players", 3, "--out", out)
    before = out.read_bytes()
    r = run("position", "check", out, "--fill", code=2)      # the cities are still "?": no marker follows
    assert r.stderr == f"error: {out}: 44 fields to fill in (listed on stdout)\n"
    assert out.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["now.json"]


def test_the_hint_cache_never_writes_through_a_planted_link(tmp_path):
    f = game_file(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    (tmp_path / "g.hint.json").symlink_to(outside)
    run("hint", f, "--iterations", 300, "-q")
    assert outside.read_text() == "keep me\n"
    assert not (tmp_path / "g.hint.json").is_symlink()
    assert json.loads((tmp_path / "g.hint.json").read_text())["format"] == "concordia-hint-cache"
