"""The web page in a real headless Chromium: whole games clicked through, hints, reload, bad moves,
hot-seat, replays (issue 25; docs/web.md).

Each game test plays one human seat by clicking the page, like a person would: a clickable element
of the picture (``svg .act``) when the drawing has one (and a choice in the chooser when it carries
several moves), otherwise one of the listed legal-move buttons, until the result shows. The other
seats are fast bots. The clicks are drawn from a seeded generator, so a failure replays.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

#: Clicks allowed for one whole game before the test gives up (a bound, not an expectation).
MAX_CLICKS = 600
#: Seconds to wait for the page to settle after one click (a bot's or a hint's thinking included).
SETTLE = 60.0
#: Share of the turns on which the player clicks the picture when it offers a move.
PICTURE_SHARE = 0.8

#: game -> (players, the bots in the other seats); the smallest tables with the quickest bots.
GAMES: dict[str, tuple[int, str]] = {
    "police07": (4, "heuristic"),
    "gcbc": (4, "heuristic"),
    "lineup": (3, "heuristic"),
    "escape": (3, "heuristic"),
    "precinct": (2, "heuristic"),
}


def by_id(d: Any, name: str) -> Any:
    from selenium.webdriver.common.by import By

    return d.find_element(By.ID, name)


def all_css(d: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(d.find_elements(By.CSS_SELECTOR, selector))


def visible(d: Any, name: str) -> bool:
    return bool(d.execute_script(f"return !document.getElementById({json.dumps(name)}).hidden"))


def wait_for(d: Any, what: Callable[[], Any], label: str, timeout: float = SETTLE) -> Any:
    """Poll ``what`` until it returns something true; fail naming ``label`` and the page's message."""
    end = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {label}; page message: {message(d)!r}; "
                        f"prompt: {text(d, 'prompt')!r}")
        time.sleep(0.05)


def idle(d: Any) -> bool:
    """No request outstanding and nothing running on the page."""
    return bool(d.execute_script(
        "const s = window.copsolver && window.copsolver.state;"
        "return Boolean(s) && !s.running && s.busy === null && !s.auto"))


def settle(d: Any) -> None:
    wait_for(d, lambda: idle(d), "the page to settle")


def text(d: Any, name: str) -> str:
    return str(d.execute_script(f"return document.getElementById({json.dumps(name)}).textContent"))


def message(d: Any) -> str:
    return text(d, "message") if visible(d, "message") else ""


def start(d: Any, game: str, seats: dict[int, str], players: int, seed: int) -> None:
    """Fill the setup form (``seats``: seat -> bot name, "" for a human) and start the game."""
    from selenium.webdriver.support.ui import Select

    wait_for(d, lambda: visible(d, "setup") and all_css(d, "#game option"), "the setup form")
    Select(by_id(d, "game")).select_by_value(game)
    count = by_id(d, "opt-players")
    count.clear()
    count.send_keys(str(players))
    wait_for(d, lambda: len(all_css(d, ".seat-who")) == players, "one row per seat")
    for seat, bot in seats.items():
        Select(by_id(d, f"seat-{seat}")).select_by_value(bot)
    by_id(d, "seed").send_keys(str(seed))
    by_id(d, "start-btn").click()
    wait_for(d, lambda: visible(d, "play"), "the game to start")
    settle(d)


def click(d: Any, element: Any) -> None:
    """A real mouse click; a script click when something covers the element (a label on a stop)."""
    from selenium.common.exceptions import ElementClickInterceptedException, ElementNotInteractableException

    d.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
    try:
        element.click()
    except (ElementClickInterceptedException, ElementNotInteractableException):
        d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element)


@dataclass
class Clicks:
    """What a played game took: clicks on the picture, on the move buttons, in the chooser."""

    picture: int = 0
    buttons: int = 0
    chooser: int = 0
    hints: int = 0

    @property
    def total(self) -> int:
        return self.picture + self.buttons


def one_move(d: Any, rng: random.Random, clicks: Clicks, holder: str = "picture") -> None:
    """Make one move as a person would: the picture (chooser if asked) or a move button."""
    targets = [e for e in all_css(d, f"#{holder} svg .act") if e.is_displayed()]
    buttons = all_css(d, "#legal button.legal")
    if targets and (not buttons or rng.random() < PICTURE_SHARE):
        clicks.picture += 1
        click(d, rng.choice(targets))
        if visible(d, "chooser"):
            choices = all_css(d, "#chooser button.choice")
            assert choices, "the chooser opened without a move to choose"
            clicks.chooser += 1
            click(d, rng.choice(choices))
    else:
        assert buttons, f"no move to make at: {text(d, 'prompt')!r}"
        clicks.buttons += 1
        click(d, rng.choice(buttons))


def play_to_end(d: Any, rng: random.Random, *, shoot: Callable[[int, Clicks], None] | None = None) -> Clicks:
    """Click through the game until ``#result`` shows; ``shoot(n, clicks)`` runs before move n."""
    clicks = Clicks()
    while not visible(d, "result"):
        if clicks.total >= MAX_CLICKS:
            pytest.fail(f"not over after {MAX_CLICKS} clicks; prompt {text(d, 'prompt')!r}, "
                        f"message {message(d)!r}")
        if visible(d, "reveal"):
            click(d, by_id(d, "reveal-btn"))
            settle(d)
            continue
        if message(d):
            pytest.fail(f"the page shows an error after {clicks.total} clicks: {message(d)!r}")
        if shoot is not None:
            shoot(clicks.total, clicks)
        one_move(d, rng, clicks, "hint-svg" if visible(d, "hint-box") else "picture")
        settle(d)
    return clicks


def ask_hint(d: Any, bot: str = "heuristic", budget: int | None = None) -> None:
    from selenium.webdriver.support.ui import Select

    Select(by_id(d, "hint-bot")).select_by_value(bot)
    box = by_id(d, "hint-budget")
    box.clear()
    if budget is not None:
        box.send_keys(str(budget))
    click(d, by_id(d, "hint-btn"))
    settle(d)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_clicked_through(page: Any, game: str, screenshot: Callable[[Any, str], Path]) -> None:
    d = page
    players, bot = GAMES[game]
    start(d, game, {0: "", **{s: bot for s in range(1, players)}}, players, seed=25)
    rng = random.Random(f"{game}-25")
    drawn = bool(json.loads(d.execute_script(
        "return JSON.stringify(window.copsolver.state.welcome.games[arguments[0]].draw ?? true)", game)))
    shots: dict[str, bool] = {}

    def shoot(n: int, clicks: Clicks) -> None:
        # a hint early (its picture is then clicked for the next move), the board a little later
        if n >= 3 and "hint" not in shots and not by_id(d, "hint-btn").get_attribute("disabled"):
            ask_hint(d)
            assert all_css(d, "#hint-list li"), "the hint lists no move"
            if drawn:
                assert all_css(d, "#hint-svg svg"), "the hint has no picture"
            clicks.hints += 1
            screenshot(d, f"web-{game}-hint")
            shots["hint"] = True
        elif n >= 8 and "board" not in shots and not visible(d, "hint-box"):
            screenshot(d, f"web-{game}")
            shots["board"] = True

    clicks = play_to_end(d, rng, shoot=shoot)
    print(f"{game}: {clicks}")  # shown with -s: how the game was played
    result = text(d, "result")
    assert "game over" in result, result
    assert "Seat 0" in result  # each seat's return is listed
    assert clicks.total > 0
    assert clicks.hints == 1
    if drawn:
        assert clicks.picture > 0, f"no move was made on the picture ({clicks})"
    if "board" not in shots:  # a short game: its last position
        screenshot(d, f"web-{game}")
    logged = all_css(d, "#log li")
    assert len(logged) >= clicks.total, "every move made is in the log"


def test_a_hint_draws_its_picture_and_ranked_moves(page: Any) -> None:
    d = page
    start(d, "police07", {0: "", 1: "heuristic", 2: "heuristic", 3: "heuristic"}, 4, seed=7)
    assert not by_id(d, "hint-btn").get_attribute("disabled")
    ask_hint(d)
    ranked = all_css(d, "#hint-list li")
    legal = {b.get_attribute("data-action") for b in all_css(d, "#legal button.legal")}
    assert ranked and len(ranked) <= len(legal)
    assert all(li.find_element("css selector", ".hint-move").text in legal for li in ranked)
    assert all_css(d, "#hint-svg svg"), "no hint picture"
    assert visible(d, "hint-box") and not visible(d, "picture")
    # the hint picture is clickable: a move made on it is applied
    before = len(all_css(d, "#log li"))
    clicks = Clicks()
    one_move(d, random.Random(1), clicks, "hint-svg")
    settle(d)
    assert clicks.picture == 1
    assert len(all_css(d, "#log li")) > before
    assert not visible(d, "hint-box") and visible(d, "picture")


def test_stop_ends_a_long_hint(page: Any) -> None:
    d = page
    start(d, "police07", {0: "", 1: "heuristic", 2: "heuristic", 3: "heuristic"}, 4, seed=8)
    from selenium.webdriver.support.ui import Select

    Select(by_id(d, "hint-bot")).select_by_value("ismcts")
    by_id(d, "hint-budget").send_keys("200000")
    began = time.monotonic()
    click(d, by_id(d, "hint-btn"))
    wait_for(d, lambda: visible(d, "busy"), "the progress indicator", timeout=20)
    assert "s" in text(d, "busy-text")
    click(d, by_id(d, "stop-btn"))
    settle(d)
    assert time.monotonic() - began < 60
    assert "stopped early" in text(d, "hint-summary")
    assert all_css(d, "#hint-list li")


def test_reload_reconnects_to_the_running_game(page: Any) -> None:
    d = page
    start(d, "gcbc", {0: "", 1: "heuristic", 2: "heuristic", 3: "heuristic"}, 4, seed=11)
    assert "resumed" not in text(d, "conn")  # a fresh tab starts a fresh session
    rng = random.Random(11)
    clicks = Clicks()
    for _ in range(2):
        one_move(d, rng, clicks)
        settle(d)
    assert not visible(d, "result"), "the game should still run"
    before = (text(d, "game-id"), text(d, "prompt"), text(d, "who"),
              [b.get_attribute("data-action") for b in all_css(d, "#legal button.legal")])
    assert before[0] and before[1] and before[3]
    d.refresh()
    wait_for(d, lambda: "resumed" in text(d, "conn"), "the session to resume")
    wait_for(d, lambda: visible(d, "play") and text(d, "prompt"), "the game to show again")
    settle(d)
    after = (text(d, "game-id"), text(d, "prompt"), text(d, "who"),
             [b.get_attribute("data-action") for b in all_css(d, "#legal button.legal")])
    assert after == before
    # and it plays on from there
    one_move(d, rng, clicks)
    settle(d)
    assert not message(d)


def test_a_bad_move_is_refused_and_the_game_goes_on(page: Any) -> None:
    d = page
    start(d, "police07", {0: "", 1: "heuristic", 2: "heuristic", 3: "heuristic"}, 4, seed=5)
    old = [b.get_attribute("data-action") for b in all_css(d, "#legal button.legal")]
    prompt = text(d, "prompt")
    d.execute_script("window.copsolver.play('fly to the moon')")
    wait_for(d, lambda: message(d), "an error message")
    assert message(d).startswith("invalid_action"), message(d)
    assert text(d, "prompt") == prompt  # nothing moved
    click(d, all_css(d, "#legal button.legal")[0])
    settle(d)
    assert not message(d), "a good move clears the message"
    if visible(d, "result"):
        pytest.skip("the game ended at once")
    new = {b.get_attribute("data-action") for b in all_css(d, "#legal button.legal")}
    stale = next(a for a in old if a not in new)  # a move of the last position, not legal now
    d.execute_script("window.copsolver.play(arguments[0])", stale)
    wait_for(d, lambda: message(d), "an error message")
    assert message(d).startswith("illegal_action"), message(d)
    click(d, all_css(d, "#legal button.legal")[0])
    settle(d)
    assert not message(d)


def test_hot_seat_hides_each_seat_until_shown(page: Any) -> None:
    d = page
    start(d, "police07", {0: "", 1: "", 2: "heuristic", 3: "heuristic"}, 4, seed=9)
    rng = random.Random(9)
    seen = []
    clicks = Clicks()
    while len(seen) < 3 and not visible(d, "result"):
        wait_for(d, lambda: visible(d, "reveal"), "the hand-over screen")
        shown = text(d, "reveal-text")
        assert "to play" in shown
        # nothing of the previous seat is left under the screen
        assert not all_css(d, "#picture svg") and not all_css(d, "#legal button.legal")
        seen.append(shown)
        click(d, by_id(d, "reveal-btn"))
        settle(d)
        assert not visible(d, "reveal") and all_css(d, "#legal button.legal")
        one_move(d, rng, clicks)
        settle(d)
    assert seen[:2] == ["Seat 0 to play — show", "Seat 1 to play — show"]


def test_replay_saved_loaded_and_stepped(page: Any, downloads: Path) -> None:
    from selenium.webdriver.support.ui import Select

    d = page
    start(d, "police07", {s: "heuristic" for s in range(4)}, 4, seed=4)
    assert visible(d, "watch-controls")
    click(d, by_id(d, "step-btn"))  # one step by hand, then the rest on Auto
    settle(d)
    assert len(all_css(d, "#log li")) == 2
    Select(by_id(d, "speed")).select_by_visible_text("fast")
    click(d, by_id(d, "auto-btn"))
    wait_for(d, lambda: visible(d, "result"), "the watched game to end", timeout=120)
    settle(d)
    steps = len(all_css(d, "#log li")) - 1
    for old in downloads.glob("*.jsonl"):
        old.unlink()
    click(d, by_id(d, "save-btn"))
    saved = wait_for(d, lambda: [p for p in downloads.glob("*.jsonl") if p.stat().st_size], "the saved file")
    record = saved[0].read_text()
    assert record.count("\n") >= steps
    # a file that is no replay is refused with a message, and the game on screen stays
    game_id = text(d, "game-id")
    bad = downloads / "not-a-replay.txt"
    bad.write_text("this is not a replay\n")
    by_id(d, "replay-file").send_keys(str(bad))
    wait_for(d, lambda: message(d), "the refusal")
    assert "replay" in message(d), message(d)
    assert text(d, "game-id") == game_id and visible(d, "result")
    by_id(d, "replay-file").send_keys(str(saved[0]))
    wait_for(d, lambda: visible(d, "replay-controls"), "the replay's step controls")
    settle(d)
    assert text(d, "step-counter") == f"step {steps} / {steps}"
    end_prompt = text(d, "prompt")
    click(d, by_id(d, "step-back"))
    settle(d)
    click(d, by_id(d, "step-back"))
    settle(d)
    assert text(d, "step-counter") == f"step {steps - 2} / {steps}"
    assert not visible(d, "result")
    click(d, by_id(d, "step-fwd"))
    settle(d)
    assert text(d, "step-counter") == f"step {steps - 1} / {steps}"
    click(d, by_id(d, "step-fwd"))
    settle(d)
    assert text(d, "prompt") == end_prompt
    assert visible(d, "result")


def test_no_error_in_the_console(driver: Any, server_url: str) -> None:
    """The page loads without script errors and fetches nothing from outside the server."""
    driver.get_log("browser")  # what earlier tests left (a favicon of a stylesheet shown alone)
    driver.get(server_url)
    wait_for(driver, lambda: visible(driver, "setup") or visible(driver, "play"), "the page")
    entries = driver.get_log("browser")
    assert not [e for e in entries if e["level"] == "SEVERE"], entries
    sources = driver.execute_script(
        "return Array.from(document.querySelectorAll('[src],[href]')).map(e => e.src || e.href)")
    assert all(s.startswith(server_url.rstrip("/")) or s.startswith("data:") for s in sources), sources


def test_a_move_made_with_the_keyboard(page: Any) -> None:
    """A picture's move is reachable without a mouse: focus it, Enter (and Enter in the chooser)."""
    from selenium.webdriver.common.keys import Keys

    d = page
    start(d, "police07", {0: "", 1: "heuristic", 2: "heuristic", 3: "heuristic"}, 4, seed=12)
    target = all_css(d, "#picture svg .act")[0]
    assert target.get_attribute("tabindex") == "0" and target.get_attribute("role") == "button"
    before = len(all_css(d, "#log li"))
    d.execute_script("arguments[0].focus()", target)
    d.switch_to.active_element.send_keys(Keys.ENTER)
    if visible(d, "chooser"):
        assert d.switch_to.active_element.get_attribute("class") == "choice"
        d.switch_to.active_element.send_keys(Keys.ENTER)
    settle(d)
    assert not message(d)
    assert len(all_css(d, "#log li")) > before


def test_stop_halts_thinking_bots_until_resumed(page: Any) -> None:
    d = page
    from selenium.webdriver.support.ui import Select

    wait_for(d, lambda: visible(d, "setup") and all_css(d, "#game option"), "the setup form")
    Select(by_id(d, "game")).select_by_value("police07")
    for seat in (1, 2, 3):  # search bots with a long think, so Stop has something to stop
        Select(by_id(d, f"seat-{seat}")).select_by_value("ismcts")
        Select(by_id(d, f"seat-{seat}-unit")).select_by_value("seconds")
        by_id(d, f"seat-{seat}-amount").send_keys("20")
    by_id(d, "seed").send_keys("13")
    by_id(d, "start-btn").click()
    wait_for(d, lambda: visible(d, "play"), "the game to start")
    settle(d)
    began = time.monotonic()
    click(d, all_css(d, "#legal button.legal")[0])
    wait_for(d, lambda: visible(d, "busy"), "the bots to think", timeout=10)
    assert "the bots are moving" in text(d, "busy-text")
    click(d, by_id(d, "stop-btn"))
    wait_for(d, lambda: visible(d, "resume-btn") and idle(d), "the bots to halt")
    assert time.monotonic() - began < 20, "Stop ended the search early"
    assert "ismcts" in text(d, "log")  # the stopped search still moved, with what it had
    assert not message(d)
    moved = len(all_css(d, "#log li"))
    click(d, by_id(d, "resume-btn"))  # the next bot thinks again, until stopped once more
    wait_for(d, lambda: visible(d, "busy"), "the bots to think again", timeout=10)
    assert not visible(d, "resume-btn")
    click(d, by_id(d, "stop-btn"))
    wait_for(d, lambda: visible(d, "resume-btn") and idle(d), "the bots to halt again")
    assert len(all_css(d, "#log li")) > moved


def test_pictures_are_cleaned_before_they_are_shown(page: Any) -> None:
    """svg.js keeps drawing only: no script, event attribute or link out of the picture survives,
    and only legal moves become clickable."""
    d = page
    wait_for(d, lambda: visible(d, "setup"), "the page")
    result = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/static/svg.js').then(({ parseSvg, showSvg }) => {
          const text = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" '
            + 'xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" onload="window.bad=1">'
            + '<script>window.bad = 2</script><foreignObject><div>x</div></foreignObject>'
            + '<a xlink:href="javascript:alert(1)"><rect class="act" data-actions=\\'["a","b"]\\' '
            + 'onclick="window.bad=3" width="1" height="1"/></a><use href="#r"/>'
            + '<circle class="act" data-actions=\\'["c"]\\' r="1"/></svg>';
          const svg = parseSvg(text);
          const holder = document.createElement('div');
          const chosen = [];
          const count = showSvg(holder, text, new Set(['a', 'x']), (actions) => chosen.push(actions));
          holder.querySelector('.act').dispatchEvent(new MouseEvent('click', { bubbles: true }));
          done({
            html: svg.outerHTML, viewBox: svg.getAttribute('viewBox'), count, chosen,
            off: holder.querySelectorAll('.act-off').length, bad: window.bad ?? null,
          });
        }, (error) => done({ error: String(error) }));
    """)
    assert "error" not in result, result
    html = result["html"]
    for gone in ("onload", "onclick", "<script", "foreignObject", "javascript:"):
        assert gone not in html, (gone, html)
    assert 'href="#r"' in html  # a link inside the picture stays
    assert result["viewBox"] == "0 0 10 10"
    assert result["count"] == 1 and result["off"] == 1  # "c" is not legal: not clickable
    assert result["chosen"] == [["a"]]  # "b" is not legal either: only "a" is offered
    assert result["bad"] is None


def test_seat_form_offers_each_bots_own_options(page: Any) -> None:
    """The seat form is built from welcome's option specs: LineUp's planner offers its memory levels
    as a select, a search bot its strength; what a person changes is what new_game carries."""
    from selenium.webdriver.support.ui import Select

    d = page
    wait_for(d, lambda: visible(d, "setup") and all_css(d, "#game option"), "the setup form")
    # record what the page sends, without changing it
    d.execute_script(
        "window.__sent = []; const send = WebSocket.prototype.send;"
        "WebSocket.prototype.send = function (data) { window.__sent.push(String(data));"
        " return send.call(this, data); };")
    Select(by_id(d, "game")).select_by_value("lineup")
    wait_for(d, lambda: len(all_css(d, ".seat-who")) >= 2, "the seat rows")
    Select(by_id(d, "seat-1")).select_by_value("planner")
    memory = Select(by_id(d, "seat-1-opt-memory"))
    assert [o.text for o in memory.options] == ["child", "adult", "sharp", "perfect"]
    assert memory.first_selected_option.text == "adult"  # the bot's default
    assert not by_id(d, "seat-1-amount").is_displayed()  # the planner has no strength option
    memory.select_by_visible_text("child")
    Select(by_id(d, "seat-2")).select_by_value("ismcts")
    assert by_id(d, "seat-2-amount").is_displayed()
    assert [o.text for o in Select(by_id(d, "seat-2-unit")).options] == ["iterations", "seconds"]
    by_id(d, "start-btn").click()
    wait_for(d, lambda: visible(d, "play"), "the game to start")
    sent = [json.loads(m) for m in d.execute_script("return window.__sent")]
    new_game = next(m for m in sent if m.get("type") == "new_game")
    assert new_game["bots"]["1"] == {"name": "planner", "options": {"memory": "child"}}
    assert new_game["bots"]["2"] == "ismcts"  # nothing changed: the bot's defaults
