"""The board in a real browser: Debian's chromium driven by Selenium through the system chromedriver
(nothing is downloaded). A short game entered by clicks, undo and redo, a hint played from the page,
the review chart, a move typed in a terminal appearing on the page, the token of the printed address,
stopping a hint and a review. Screenshots go to docs/. Every server takes a free port (port 0) and is
opened, as a person would, at the tokened address `concordia serve` prints."""
import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

from cli_helpers import run

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
DOCS = Path(__file__).resolve().parent.parent / "docs"

if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
    pytest.skip(f"no browser for the board's browser tests: {CHROMIUM} or {DRIVER} is missing "
                "(apt-get install chromium chromium-driver; .ci/run installs them)", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
uvicorn = pytest.importorskip("uvicorn")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from concordia_ai.web import server as web_server  # noqa: E402
from concordia_ai.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="concordia-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", f"--user-data-dir={profile}",
                 "--window-size=1500,1250", "--force-device-scale-factor=1"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


class Board:
    """A served folder (with a game, or none), on a free port, in a server thread: the socket bound with
    port 0 as `concordia serve --port 0` binds it, and served as it is (no second bind)."""

    def __init__(self, folder: Path, game: Path | None):
        self.sock = web_server.listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.game = game
        self.app = create_app(str(folder), None if game is None else str(game), port=self.port)
        self.token = self.app.state.board.guard.token
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.02)
        self.plain = f"http://127.0.0.1:{self.port}/"
        self.url = self.app.state.board.guard.address()        # the address `concordia serve` prints
        assert self.url == f"{self.plain}?token={self.token}"

    def stop(self):
        self.server.should_exit = True
        self.thread.join(5)
        self.sock.close()


@pytest.fixture
def board(tmp_path):
    game = tmp_path / "game.json"
    run("new", game, "--map", "italia", "--players", 3, "--seed", 7, "--names", "Ann,Bob,Cy")
    b = Board(tmp_path, game)
    yield b
    b.stop()


def wait_for(driver, predicate, timeout=15):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate(d))
    except Exception:
        driver.save_screenshot("/tmp/concordia-browser-failure.png")
        raise AssertionError(f"the page did not get there; status: {status(driver)!r}; log: {text_of(driver, '#log')!r}")


def status(driver) -> str:
    # read in the page in one step: the page redraws itself after every answer
    return driver.execute_script("const s = document.getElementById('status'); return s ? s.textContent : '';")


def classes(driver, data_el: str) -> str:
    return driver.execute_script("const e = document.querySelector(`[data-el=\"${arguments[0]}\"]`);"
                                 "return e ? e.getAttribute('class') : '';", data_el)


def text_of(driver, css: str) -> str:
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css) or ""


def el(driver, data_el: str):
    return driver.find_element(By.CSS_SELECTOR, f'[data-el="{data_el}"]')


def tap(driver, data_el: str, svg: bool = False):
    """Click an element by its id: a panel element with the pointer, a board element (an SVG group has no
    box of its own for the pointer) through a click event on it."""
    idle(driver)
    if svg:
        assert driver.execute_script("const e = document.querySelector(`[data-el=\"${arguments[0]}\"]`);"
                                     "if (!e) return false; e.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
                                     "return true;", data_el), data_el
    else:
        el(driver, data_el).click()


def open_board(driver, board):
    driver.get(board.url)
    wait_for(driver, lambda d: d.find_elements(By.ID, "status") and "turn" in status(d))


def settled(driver, text):
    wait_for(driver, lambda d: text in status(d) and not d.execute_script("return document.body.classList.contains('busy')"))


def choose_budget(driver, select_id: str, value: str):
    """A tiny search budget keeps the tests fast: the page takes any "it:N" or "s:N" budget."""
    driver.execute_script("const s = document.getElementById(arguments[0]); s.add(new Option('test', arguments[1]));"
                          "s.value = arguments[1]; s.dispatchEvent(new Event('change'));", select_id, value)


def idle(driver):
    wait_for(driver, lambda d: not d.execute_script("return document.body.classList.contains('busy')"))


def click_move(driver, text):
    idle(driver)
    wait_for(driver, lambda d: d.execute_script("const b = document.querySelector(`[data-move=\"${arguments[0]}\"]`);"
                                                "if (!b) return false; b.click(); return true;", text))


def test_a_short_game_entered_by_clicks(browser, board):
    open_board(browser, board)
    assert status(browser) == "turn 1 (round 1): Ann's turn; Ann decides now: play (plays a card from hand)"
    assert "legal" in classes(browser, "hand:Architect")
    tap(browser, "hand:Architect")
    settled(browser, "architect-move")
    assert "legal" in classes(browser, "route:land:Casinum-Roma")
    tap(browser, "city:Roma", svg=True)                    # the colonist's place first ...
    wait_for(browser, lambda d: "next" in classes(d, "route:land:Casinum-Roma"))
    tap(browser, "route:land:Casinum-Roma", svg=True)      # ... then its new route: one move, played
    settled(browser, "architect-move")
    tap(browser, "route:sea:Neapolis-Roma", svg=True)      # the sea colonist: only one can go there
    wait_for(browser, lambda d: "architect-build" in status(d) or "architect-move" in status(d))
    settled(browser, "Ann")
    tap(browser, "city:Casinum", svg=True)
    click_move(browser, "done")
    settled(browser, "Bob's turn")
    tap(browser, "hand:Prefect")
    settled(browser, "prefect")
    tap(browser, "province:Campania", svg=True)
    settled(browser, "Cy's turn")
    tap(browser, "hand:Architect")
    settled(browser, "architect-move")
    tap(browser, "city:Roma", svg=True)
    tap(browser, "route:land:Cosa-Roma", svg=True)
    settled(browser, "Cy")
    tap(browser, "city:Cosa", svg=True)
    click_move(browser, "done")
    settled(browser, "turn 4 (round 2): Ann's turn")
    log = run("log", board.game).stdout
    assert "1-5       1      1  Ann     Architect  move land Roma > Casinum-Roma; move sea Roma > Neapolis-Roma; " \
           "build Casinum; done" in log
    assert "Bob     Prefect    produce Campania" in log
    assert "Cy      Architect  move land Roma > Cosa-Roma; build Cosa; done" in log
    browser.save_screenshot(str(DOCS / "web-board.png"))


def test_undo_and_redo_from_the_page(browser, board):
    run("play", board.game, "play Prefect", "produce Campania")
    open_board(browser, board)
    assert status(browser).startswith("turn 2 (round 1): Bob's turn")
    idle(browser)
    browser.find_element(By.ID, "undo").click()
    settled(browser, "turn 1 (round 1): Ann's turn; Ann decides now: prefect")
    idle(browser)
    browser.find_element(By.ID, "undo").click()
    settled(browser, "Ann decides now: play")
    assert browser.find_element(By.ID, "undo").get_attribute("disabled") is not None
    idle(browser)
    browser.find_element(By.ID, "redo").click()
    settled(browser, "Ann decides now: prefect")
    idle(browser)
    browser.find_element(By.ID, "redo").click()
    settled(browser, "turn 2 (round 1): Bob's turn")
    assert browser.find_element(By.ID, "redo").get_attribute("disabled") is not None
    browser.find_element(By.ID, "undo-turn").click()
    settled(browser, "turn 1 (round 1): Ann's turn; Ann decides now: play")
    assert "undone: turn 1, Ann: play Prefect; produce Campania" in text_of(browser, "#log")


def test_a_move_typed_in_a_terminal_shows_on_the_page(browser, board):
    open_board(browser, board)
    run("play", board.game, "play Prefect", "produce Campania")
    settled(browser, "turn 2 (round 1): Bob's turn")
    assert "the game file changed: updated" in text_of(browser, "#log")


def test_a_hint_played_from_the_page(browser, board):
    open_board(browser, board)
    choose_budget(browser, "hint-budget", "it:300")
    browser.find_element(By.ID, "hint-go").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-turns .turn-row"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#hint-turns .turn-row")
    assert len(rows) == 5
    first = rows[0].find_element(By.CSS_SELECTOR, ".turn-moves").text
    # hover the first turn that does something on the board (a province, a route, a city)
    on_board = next((r for r in rows if any(t.startswith(("province:", "route:", "city:"))
                                            for t in json.loads(r.get_attribute("data-targets")))), rows[0])
    ActionChains(browser).move_to_element(on_board).perform()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".hint"))
    lit = [e.get_attribute("data-el") for e in browser.find_elements(By.CSS_SELECTOR, ".hint")]
    assert lit and all(x.startswith(("hand:", "city:", "route:", "province:", "colonist:", "card:", "good:"))
                       for x in lit)
    browser.save_screenshot(str(DOCS / "web-hint.png"))
    rows[0].find_element(By.CSS_SELECTOR, ".play-turn").click()
    settled(browser, "Bob's turn")
    assert json.loads(board.game.read_text())["moves"] == first.split("; ")


def api_get(board, path: str) -> dict:
    import urllib.request
    request = urllib.request.Request(board.plain + path.lstrip("/"), headers={"X-Concordia-Token": board.token})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


def win_bars(driver) -> list[tuple[str, str]]:
    """Each player's win bar as the page shows it: (where its figure comes from, its text)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.player')].map(p => { const b = p.querySelector('.winbar');"
        "return b ? [b.getAttribute('data-source'), b.querySelector('.win-pct').textContent] : [null, null]; });")


def shown_percent(text: str) -> float:
    import re
    m = re.fullmatch(r"(\d+\.\d) % win", text)
    assert m, text
    return float(m.group(1))


def assert_shows(bars, source: str, shares: list[float]):
    assert [b[0] for b in bars] == [source] * len(shares), bars
    for (_, text), share in zip(bars, shares):
        assert abs(shown_percent(text) - 100 * share) <= 0.05 + 1e-9, (text, share)


def test_the_win_bars_show_the_hint_after_one(browser, board):
    open_board(browser, board)
    idle(browser)
    # before a hint: the final-result model on the position itself, so labelled
    state = api_get(board, "/api/state")
    assert_shows(win_bars(browser), "position", [p["win"] for p in state["players"]])
    assert text_of(browser, "#win-source") == "win bars: estimate of the position, no search (final-result model)"
    choose_budget(browser, "hint-budget", "it:300")
    browser.find_element(By.ID, "hint-go").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-turns .turn-row"))
    wait_for(browser, lambda d: win_bars(d)[0][0] == "hint")
    job = api_get(board, "/api/job?id=hint-1")
    assert job["state"] == "done" and job["moveCount"] == 0
    seats = job["result"]["seats"]
    assert abs(sum(seats) - 1.0) < 1e-9
    assert_shows(win_bars(browser), "hint", seats)
    assert text_of(browser, "#win-source") == "win bars: " + job["result"]["seatsLabel"]
    # Ann's bar is her top turn's win %, as its row shows it
    row = text_of(browser, '#hint-turns .turn-row[data-turn="0"] .turn-stats b')
    assert abs(float(row.split(" ")[0]) - shown_percent(win_bars(browser)[0][1])) <= 0.1 + 1e-9, row
    # a move: the position changed, the bars are its estimate again
    browser.find_elements(By.CSS_SELECTOR, "#hint-turns .play-turn")[0].click()
    settled(browser, "Bob's turn")
    wait_for(browser, lambda d: win_bars(d)[0][0] == "position")
    state = api_get(board, "/api/state")
    assert state["moveCount"] > 0
    assert_shows(win_bars(browser), "position", [p["win"] for p in state["players"]])
    assert text_of(browser, "#win-source").endswith("estimate of the position, no search (final-result model)")
    # an undo, and a move typed in a terminal, end a hint's bars too
    for n, change in ((2, lambda: browser.find_element(By.ID, "undo-turn").click()),
                      (3, lambda: run("play", board.game, "play Prefect", "produce Campania"))):
        idle(browser)
        browser.find_element(By.ID, "hint-go").click()
        wait_for(browser, lambda d: win_bars(d)[0][0] == "hint")
        assert_shows(win_bars(browser), "hint", api_get(board, f"/api/job?id=hint-{n}")["result"]["seats"])
        idle(browser)
        change()
        wait_for(browser, lambda d: win_bars(d)[0][0] == "position")
        idle(browser)
        assert_shows(win_bars(browser), "position", [p["win"] for p in api_get(board, "/api/state")["players"]])
    assert status(browser).startswith("turn 2 (round 1): Bob's turn")


def test_the_review_chart_opens_a_position(browser, board):
    run("play", board.game, "play Prefect", "produce Campania")
    run("play", board.game, "play Architect", "move land Roma > Casinum-Roma", "build Casinum", "done")
    run("play", board.game, "play Mercator/3", "sell 1 food", "buy 1 cloth", "done")
    run("play", board.game, "play Senator", "buy Colonist/I paying food", "done")
    run("play", board.game, "play Prefect", "produce Etruria")
    open_board(browser, board)
    choose_budget(browser, "review-budget", "it:300")
    browser.find_element(By.ID, "review").click()
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chart circle.point")) == 5, timeout=30)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart polyline.series")) == 3
    rows = browser.find_elements(By.CSS_SELECTOR, "table.graded tr")
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows[1:]] == ["Ann", "Bob", "Cy", "Ann", "Bob"]
    browser.execute_script("document.getElementById('review-panel').scrollIntoView()")
    browser.save_screenshot(str(DOCS / "web-review.png"))
    point = browser.find_element(By.CSS_SELECTOR, '#chart circle.point[data-turn="2"]')
    assert point.get_attribute("data-start") == "2"     # Bob's turn 2 begins after Ann's two moves
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", point)
    wait_for(browser, lambda d: d.find_elements(By.ID, "back"))
    banner = text_of(browser, ".banner")
    assert banner.startswith("Viewing an earlier position") and "(after move 2 of 15; read-only)" in banner
    browser.find_element(By.ID, "back").click()
    settled(browser, "turn 6 (round 2)")


def test_the_printed_address_brings_its_token(browser, board):
    """On 127.0.0.1 too the board answers only with its token: the plain address is refused with one line;
    the printed one opens the board, and its cookie lets the plain address work afterwards."""
    browser.get(board.plain)
    browser.delete_all_cookies()
    browser.get(board.plain)
    wait_for(browser, lambda d: "needs its token" in text_of(d, "body"))
    assert json.loads(text_of(browser, "body")) == {"error": "this board needs its token: open the address that "
                                                             "`concordia serve` printed (it ends with ?token=...)"}
    open_board(browser, board)
    browser.get(board.plain)          # no token in the address: the cookie carries it
    wait_for(browser, lambda d: d.find_elements(By.ID, "status") and "turn" in status(d))
    tap(browser, "hand:Prefect")
    settled(browser, "prefect")
    assert json.loads(board.game.read_text())["moves"] == ["play Prefect"]


def test_a_running_review_is_stopped_from_the_page(browser, board):
    run("play", board.game, "play Prefect", "produce Campania")
    run("play", board.game, "play Architect", "move land Roma > Casinum-Roma", "build Casinum", "done")
    run("play", board.game, "play Mercator/3", "sell 1 food", "buy 1 cloth", "done")
    open_board(browser, board)
    choose_budget(browser, "review-budget", "s:600")      # 3 turns of 600 s each: half an hour unstopped
    browser.find_element(By.ID, "review").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "review-stop"))
    started = time.monotonic()
    browser.find_element(By.ID, "review-stop").click()
    wait_for(browser, lambda d: "review stopped" in text_of(d, "#log"), timeout=30)
    assert time.monotonic() - started < 30
    assert "review stopped: 0 turns graded" in text_of(browser, "#log")
    assert not browser.find_elements(By.ID, "review-stop")
    assert api_get(board, "/api/job?id=review-1")["state"] == "stopped"


def test_a_running_hint_is_stopped_from_the_page(browser, board):
    open_board(browser, board)
    choose_budget(browser, "hint-budget", "s:600")
    browser.find_element(By.ID, "hint-go").click()
    wait_for(browser, lambda d: d.find_elements(By.ID, "hint-stop"))
    time.sleep(0.5)                                        # a little search to show
    browser.find_element(By.ID, "hint-stop").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-turns .turn-row"), timeout=30)
    assert "hint stopped" in text_of(browser, "#log")
    assert not browser.find_elements(By.ID, "hint-stop")
    assert api_get(board, "/api/job?id=hint-1")["state"] == "stopped"


def test_a_game_started_on_the_page(browser, tmp_path):
    served = Board(tmp_path, None)
    try:
        browser.get(served.url)
        wait_for(browser, lambda d: d.find_elements(By.ID, "start-sim"))
        browser.execute_script("const f = document.getElementById('new-sim'); f.elements.seed.value = '7';"
                               "f.elements.map.value = 'imperium'; f.elements.names.value = 'Ann, Bob';")
        browser.find_element(By.ID, "start-sim").click()
        settled(browser, "turn 1 (round 1): Ann's turn")
        assert "created game.json: Imperium, 2 players (Ann, Bob), simulation, seed 7" in text_of(browser, "#log")
        assert json.loads((tmp_path / "game.json").read_text())["initial"]["board"] == "imperium"
    finally:
        served.stop()


def test_a_tournament_game_stepped_through(browser, board, tmp_path):
    from concordia_ai.ai.bots import make_bot, play_game
    played = play_game([make_bot("greedy", seed=1), make_bot("heuristic", seed=2), make_bot("random", seed=3)],
                       "italia", seed=5, record_texts=True)
    g = played.game
    record = {"block": 0, "rotation": 0, "index": 0, "seed": 5, "board": "italia", "players": 3,
              "seats": [{"bot": b, "spec": b} for b in ("greedy", "heuristic", "random")], "moves": played.texts,
              "scores": g.scores(), "ranking": g.ranking(), "ranks": [1 + g.ranking().index(s) for s in range(3)],
              "winner": ("greedy", "heuristic", "random")[g.ranking()[0]]}
    (tmp_path / "t1").mkdir()
    (tmp_path / "t1" / "games.jsonl").write_text(json.dumps(record) + "\n")
    open_board(browser, board)
    idle(browser)
    browser.find_element(By.ID, "games").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".log-file"))
    browser.find_element(By.CSS_SELECTOR, ".log-file").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-games .turn-row"))
    idle(browser)
    browser.find_element(By.CSS_SELECTOR, "#replay-games .turn-row").click()
    wait_for(browser, lambda d: "move 0 of" in text_of(d, ".banner"))
    for _ in range(3):
        idle(browser)
        browser.find_element(By.ID, "replay-next").click()
    wait_for(browser, lambda d: f"move 3 of {len(played.texts)}" in text_of(d, ".banner"))
    assert text_of(browser, ".banner").startswith("Replay: game 1 greedy · heuristic · random")
    assert browser.execute_script("return document.querySelectorAll('#decide .move').length") == 0
    idle(browser)
    browser.find_element(By.XPATH, "//button[text()='Back to the game']").click()
    settled(browser, "turn 1 (round 1): Ann's turn")
