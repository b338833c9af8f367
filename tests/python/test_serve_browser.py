"""`latrunculi serve` in a real browser: headless Chromium driven by Selenium.

Plays a whole game against `random` by clicking squares, replays a committed game record
to its recorded result (keys and the slider), and asks agents for an analysis. Takes a
few seconds once Chromium is installed.

Needs: the `latrunculi` binary (the debug build that `cargo test --workspace` leaves in
`target/debug/`, or `$LATRUNCULI_BIN`; built with `cargo build -p latrunculi-cli` when
missing), Debian's `chromium` and `chromium-driver` (installed here with apt-get when
missing) and Selenium (`notebooks/requirements.txt`, the first part of the README's test
command). With `LATRUNCULI_SCREENSHOTS=1` it also writes the README's screenshots,
`docs/img/serve-play.png` and `docs/img/serve-study.png`.
"""

import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
IMG = ROOT / "docs" / "img"


def binary():
    """The `latrunculi` binary with the `serve` command, built if there is none."""
    if os.environ.get("LATRUNCULI_BIN"):
        return pathlib.Path(os.environ["LATRUNCULI_BIN"])
    candidates = []
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    candidates += [target / "debug" / "latrunculi", target / "release" / "latrunculi"]
    for c in candidates:
        if c.is_file() and subprocess.run([c, "serve", "--help"], capture_output=True).returncode == 0:
            return c
    subprocess.run(["cargo", "build", "-q", "-p", "latrunculi-cli"], cwd=ROOT, check=True)
    return target / "debug" / "latrunculi"


def chromium():
    """The paths of Debian's chromium and chromedriver, installed when missing."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        if not shutil.which("apt-get"):
            pytest.skip("no chromium and no apt-get to install it")
        sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        install = sudo + ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium", "chromium-driver"]
        if subprocess.run(install, env=env, capture_output=True).returncode != 0:
            subprocess.run(sudo + ["apt-get", "update", "-q"], env=env, check=True, capture_output=True)
            subprocess.run(install, env=env, check=True, capture_output=True)
    return shutil.which("chromium"), shutil.which("chromedriver")


@pytest.fixture(scope="module")
def server():
    """A `latrunculi serve` on a free port; yields its URL."""
    proc = subprocess.Popen(
        [binary(), "serve", "--port", "0", "--root", ROOT],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()
    match = re.search(r"http://[\d.]+:\d+/", line)
    assert match, f"no address in {line!r}"
    yield match.group(0)
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chrome, driver = chromium()
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    profile = tempfile.mkdtemp(prefix="latrunculi-chromium-")
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1200,820",
    ]:
        opts.add_argument(flag)
    b = webdriver.Chrome(service=Service(driver), options=opts)
    b.set_script_timeout(30)
    yield b
    b.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait(browser, condition, what, timeout=20):
    """Waits until `condition()` is true (polling); fails naming `what` and the page's error."""
    end = time.time() + timeout
    while time.time() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    error = browser.execute_script("return document.getElementById('error').textContent")
    raise AssertionError(f"timed out waiting for {what}; page error: {error!r}")


def click_square(browser, square):
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, f"rect.sq[data-square='{square}']").click()


def screenshot(browser, name):
    if os.environ.get("LATRUNCULI_SCREENSHOTS") == "1":
        IMG.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(IMG / name))


def game(browser):
    return browser.execute_script("return state.game")


def test_a_whole_game_against_random_by_clicking(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server)
    wait(browser, lambda: game(browser), "the first game")
    # A small board and a no-capture limit keep the game short; captures first.
    for field, value in [("ruleset", "xxi@6x6+end.no_capture_limit=30"), ("white", "human"), ("black", "random")]:
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.execute_script("const s = document.getElementById('speed'); s.value = 0; s.dispatchEvent(new Event('input'))")
    browser.find_element(By.ID, "new-game").click()
    wait(browser, lambda: (game(browser) or {}).get("ruleset") == "xxi@6x6+end.no_capture_limit=30", "the new game")
    clicks = 0
    while True:
        g = wait(browser, lambda: (lambda s: s if s and not s["agent_to_move"] else None)(game(browser)), "my turn")
        if g["board"]["outcome"]:
            break
        legal = g["legal"]
        best = next((m for m in legal if "#" in m["text"]), None) or next((m for m in legal if "x" in m["text"]), legal[0])
        ply = g["board"]["ply"]
        if best["kind"] == "move":
            click_square(browser, best["from"])
            wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, f"circle[data-target='{best['to']}']"), "targets")
            if clicks == 4:
                screenshot(browser, "serve-play.png")  # a piece selected, its moves shown
        click_square(browser, best["to"])
        clicks += 1
        wait(browser, lambda: game(browser)["board"]["ply"] > ply, "my move to be played")
    outcome = browser.find_element(By.ID, "outcome")
    assert outcome.is_displayed() and re.search(r"(White wins|Black wins|Draw)", outcome.text), outcome.text
    assert browser.find_element(By.ID, "error").get_attribute("hidden") is not None
    moves = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert len(moves) == g["board"]["ply"] and clicks >= len(moves) // 2
    # An illegal move typed through the API is refused on the page, and nothing changes.
    before = game(browser)["board"]["fen"]
    browser.execute_script("sendMove('a1-a9')")
    wait(browser, lambda: browser.find_element(By.ID, "error").is_displayed(), "the error")
    assert "a1-a9" in browser.find_element(By.ID, "error").text
    assert game(browser)["board"]["fen"] == before


def test_a_committed_game_replays_to_its_result_and_is_analysed(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    browser.get(server)
    wait(browser, lambda: game(browser), "the page")
    browser.find_element(By.ID, "tab-study").click()
    wait(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#study-files option")) > 1, "the file list")
    # The list is grouped by directory; a folder and a filter narrow it.
    labels = [g.get_attribute("label") for g in browser.find_elements(By.CSS_SELECTOR, "#study-files optgroup")]
    assert "data/games/xxi" in labels and len(labels) == len(set(labels)), labels
    Select(browser.find_element(By.ID, "study-folder")).select_by_value("data/games")
    browser.find_element(By.ID, "study-filter").send_keys("joyce")
    listed = [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#study-files optgroup option")]
    assert listed == ["data/games/xxi/joyce-carrillo-2016-08.txt"], listed
    assert browser.find_element(By.ID, "study-count").text.startswith("1 of "), browser.find_element(By.ID, "study-count").text
    Select(browser.find_element(By.ID, "study-files")).select_by_value("data/games/xxi/joyce-carrillo-2016-08.txt")
    browser.find_element(By.ID, "study-open").click()
    wait(browser, lambda: browser.execute_script("return state.study"), "the study")
    study = browser.execute_script("return state.study")
    n = len(study["moves"])
    assert study["agrees"] and study["recorded"] == "0-1"
    # Keys step through it; End goes to the last position, whose result is the record's.
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert browser.execute_script("return state.ply") == 2
    body.send_keys(Keys.ARROW_LEFT)
    assert browser.execute_script("return state.ply") == 1
    body.send_keys(Keys.END)
    assert browser.find_element(By.ID, "ply-label").text == f"ply {n} of {n}"
    assert "Black wins 0-1" in browser.find_element(By.ID, "outcome").text
    assert "the replay agrees" in browser.find_element(By.ID, "study-info").text
    # The slider goes to any ply; ask the search player, then a searching agent with a
    # policy (its heat map drawn on the board).
    browser.execute_script("const s = document.getElementById('slider'); s.value = 20; s.dispatchEvent(new Event('input'))")
    assert browser.find_element(By.ID, "ply-label").text == f"ply 20 of {n}"
    agent = browser.find_element(By.ID, "analyse-agent")
    agent.clear()
    agent.send_keys("alphabeta:ms=300")
    browser.find_element(By.ID, "analyse").click()
    text = wait(browser, lambda: "Score" in browser.find_element(By.ID, "analysis").text and browser.find_element(By.ID, "analysis").text, "the analysis")
    assert "Line:" in text and "best move" in text
    agent.clear()
    agent.send_keys("mcts:sims=300")
    browser.find_element(By.ID, "analyse").click()
    wait(browser, lambda: "Visits" in browser.find_element(By.ID, "analysis").text, "the visits")
    assert browser.find_elements(By.CSS_SELECTOR, "rect.heat")
    screenshot(browser, "serve-study.png")
    # The rules panel names the parameters in words.
    browser.find_element(By.ID, "tab-rules").click()
    wait(browser, lambda: "end.repetition" in browser.find_element(By.ID, "rules").text, "the rules")
    assert "Rules 16" in browser.find_element(By.ID, "rules").text
