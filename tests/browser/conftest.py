"""Fixtures of the browser tests: the web server in this process and a headless Chromium.

The browser is the distribution's (``/usr/bin/chromium`` and ``/usr/bin/chromedriver``, packages
``chromium`` and ``chromium-driver``), driven by Selenium through that chromedriver, so Selenium
Manager never downloads a browser or a driver. Without selenium, the browser or the web extra the
tests are skipped with the reason, unless ``COPSOLVER_REQUIRE_BROWSER=1`` (CI), which turns the
skip into a failure. ``COPSOLVER_WEB_URL`` points the tests at a server already running instead of
starting one.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = ("/usr/bin/chromium", "chromium", "chromium-browser")
CHROMEDRIVER = ("/usr/bin/chromedriver", "chromedriver")
WINDOW = (1400, 1000)
DOCS = Path(__file__).resolve().parents[2] / "docs"


def _which(names: tuple[str, ...]) -> str | None:
    for name in names:
        found = name if os.path.isabs(name) and os.access(name, os.X_OK) else shutil.which(name)
        if found:
            return found
    return None


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install selenium)"
    if _which(CHROMIUM) is None:
        return "no chromium browser (apt-get install chromium chromium-driver)"
    if _which(CHROMEDRIVER) is None:
        return "no chromedriver (apt-get install chromium-driver)"
    if os.environ.get("COPSOLVER_WEB_URL") is None:
        for module in ("starlette", "uvicorn"):
            if importlib.util.find_spec(module) is None:
                return f"{module} is not installed (pip install '.[web]')"
    return None


@pytest.fixture(scope="session")
def browser_ready() -> None:
    """Skip (or, with COPSOLVER_REQUIRE_BROWSER=1, fail) when the browser tests cannot run."""
    why = _missing()
    if why is not None:
        if os.environ.get("COPSOLVER_REQUIRE_BROWSER") == "1":
            pytest.fail(f"COPSOLVER_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)


@pytest.fixture(scope="session")
def server_url(browser_ready: None) -> Iterator[str]:
    """The page's address: a server on a free port of 127.0.0.1, run in this process."""
    external = os.environ.get("COPSOLVER_WEB_URL")
    if external:
        yield external.rstrip("/") + "/"
        return
    from bots.web.server import serve_in_thread

    url, stop = serve_in_thread(port=0)
    try:
        yield url.rstrip("/") + "/"
    finally:
        stop()


@pytest.fixture(scope="session")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser saves files (the Save button's replays)."""
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="session")
def driver(browser_ready: None, downloads: Path) -> Iterator[Any]:
    """One headless Chromium for the session (a test opens its own fresh tab state)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="copsolver-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = _which(CHROMIUM) or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}",
                f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads),
        "download.prompt_for_download": False,
    })
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=_which(CHROMEDRIVER) or "")
    browser = webdriver.Chrome(service=service, options=options)
    browser.set_page_load_timeout(30)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(driver: Any, server_url: str) -> Any:
    """The page freshly opened in a new session: this tab's stored token is forgotten on a page of
    the same origin that runs no script (the app would store its token again)."""
    driver.get(server_url + "static/style.css")
    driver.execute_script("sessionStorage.clear()")
    driver.get(server_url)
    return driver


@pytest.fixture(scope="session")
def screenshot(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Any, str], Path]:
    """Save the window as ``<name>.png`` in a tmp folder, and in docs/ when
    COPSOLVER_SCREENSHOTS=docs (how docs/web-*.png are made)."""
    folder = tmp_path_factory.mktemp("screenshots")
    to_docs = os.environ.get("COPSOLVER_SCREENSHOTS") == "docs"

    def save(browser: Any, name: str) -> Path:
        path = folder / f"{name}.png"
        browser.save_screenshot(str(path))
        if to_docs:
            _small_copy(path, DOCS / f"{name}.png")
        return path

    return save


def _small_copy(source: Path, target: Path) -> None:
    """Copy a screenshot for the repository, in 256 colours when Pillow is there (a third of the
    bytes; the page's flat colours survive it)."""
    try:
        from PIL import Image
    except ImportError:
        shutil.copyfile(source, target)
        return
    with Image.open(source) as image:
        image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)
