"""A headless Chromium driven by Selenium, from Debian's `chromium` and `chromium-driver`
packages (.ci/run installs them when missing); nothing is ever downloaded at run time.

Without them the browser tests are skipped, unless SIMSTATS_REQUIRE_BROWSER is set (as .ci/run
sets it), which makes their absence a failure.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def headless_chromium():
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("SIMSTATS_REQUIRE_BROWSER"):
            pytest.fail("chromium and chromium-driver are required here (apt-get install "
                        "chromium chromium-driver)")
        pytest.skip("no chromium/chromedriver: apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # A fresh profile, and none of Chromium's own connections (this machine's network is
    # closed: they would only fail, many at a time).
    profile = tempfile.mkdtemp(prefix="simstats-chromium-")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver: Selenium Manager never looks for (or downloads) one.
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def console_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] in ("SEVERE", "ERROR")]


def screenshot_is_not_blank(driver) -> bool:
    """A screenshot with more than a handful of colours: the page drew something."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 16)
    return colours is None or len(colours) > 50
