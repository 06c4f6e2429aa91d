"""`fastblur serve`'s page in a real browser: headless Chromium driven by Selenium (Debian's
chromium, chromium-driver, python3-selenium; a missing one fails these tests, never skips them).
Screenshots of each step go to $FASTBLUR_SERVE_ARTIFACTS. Run by ctest (serve_browser)."""
import base64
import os
import pathlib

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from serve_helpers import Server, cli, png, wait_until

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ARTIFACTS = pathlib.Path(os.environ.get("FASTBLUR_SERVE_ARTIFACTS", "serve_artifacts"))


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.kill()


@pytest.fixture(scope="module")
def browser(server):
    for path in (CHROMIUM, CHROMEDRIVER):
        assert os.access(path, os.X_OK), f"{path} is missing: apt-get install chromium chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,1300",
                "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--proxy-server=direct://", "--proxy-bypass-list=*"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        driver.get(server.url)
        yield driver
    finally:
        driver.quit()


def el(driver, id_):
    return driver.find_element(By.ID, id_)


def updates(driver):
    """How many results the page has shown (app.js counts them in body[data-updated])."""
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-updated") or 0)


def text(driver, id_):
    """An element's text, found and read in one script call: the page re-renders parts of itself on
    each result, so an element found first and read after can be stale by then (seen under the ASan
    build's slower server)."""
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]); return e ? e.innerText.trim() : null", id_)


def metric(driver, key):
    return text(driver, "m-" + key)


def shot(driver, name):
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def idle(driver):
    """No request in flight and none waiting behind the page's debounce timer (a change's request
    starts 150 ms after it: a test that saw no request in that gap went on while one was coming)."""
    return driver.execute_script("return !fastblurState.timer && !Object.keys(fastblurState.inflight).length")


def test_page_loads_with_the_scene(browser):
    assert browser.title == "fastblur explorer"
    wait_until(lambda: updates(browser) >= 1 and idle(browser), 120, "the first result")
    wait_until(lambda: "<svg" in el(browser, "plot-impulse").get_attribute("innerHTML"), 30, "the plots")
    assert "/api/preview/" in el(browser, "img-result").get_attribute("src")
    assert el(browser, "img-result").get_property("naturalWidth") == 1024
    assert metric(browser, "time").endswith(" ms") and metric(browser, "exact-time").endswith(" ms")
    assert float(metric(browser, "effective-sigma")) == pytest.approx(4, abs=0.1)
    assert text(browser, "explain").startswith("plan: ")
    names = [o.get_attribute("value") for o in Select(el(browser, "algorithm")).options]
    assert names[0] == "auto" and {"fir", "box", "iir", "kawase", "dual-kawase", "mip-poisson"} <= set(names)
    assert "fir-linear" not in names  # the CPU does not run it
    assert browser.execute_script("return performance.getEntriesByType('resource').every("
                                  "e => e.name.startsWith(location.origin) || e.name.startsWith('data:'))")
    shot(browser, "01_loaded")


def test_moving_the_sigma_slider_changes_image_and_metrics(browser):
    wait_until(lambda: idle(browser), 30, "an idle page")
    before = (el(browser, "img-result").get_attribute("src"), metric(browser, "effective-sigma"), updates(browser))
    slider = el(browser, "sigma")
    slider.click()
    slider.send_keys(*[Keys.ARROW_RIGHT] * 60)
    sigma = float(el(browser, "sigma-number").get_attribute("value"))
    assert sigma > 5
    wait_until(lambda: updates(browser) > before[2] and idle(browser) and
               float(metric(browser, "effective-sigma")) == pytest.approx(sigma, abs=0.15), 120, "the new sigma's result")
    assert el(browser, "img-result").get_attribute("src") != before[0]
    assert metric(browser, "effective-sigma") != before[1]
    # Debounced: 60 key presses, a handful of requests.
    assert updates(browser) - before[2] <= 6
    shot(browser, "02_sigma")


def test_switching_algorithm_changes_the_plot(browser):
    wait_until(lambda: idle(browser) and "<svg" in el(browser, "plot-impulse").get_attribute("innerHTML"), 30, "plots")
    before = el(browser, "plot-impulse").get_attribute("innerHTML")
    n = updates(browser)
    Select(el(browser, "algorithm")).select_by_value("box")
    wait_until(lambda: updates(browser) > n and idle(browser) and el(browser, "plot-impulse").get_attribute("innerHTML") != before,
               120, "box's plot")
    assert ">box<" in el(browser, "plot-impulse").get_attribute("innerHTML")
    assert ">box<" in el(browser, "plot-cross").get_attribute("innerHTML")
    assert metric(browser, "algorithm") == "box" and text(browser, "explain").startswith("plan: box")
    # The algorithm's own options appear and apply.
    passes = browser.find_element(By.CSS_SELECTOR, "#options [data-flag=passes]")
    n = updates(browser)
    passes.send_keys("5")
    wait_until(lambda: updates(browser) > n and idle(browser) and "box_passes: 5" in text(browser, "explain"), 120, "passes 5")
    # The difference picture is fetched only when its view is shown.
    diff_url = browser.execute_script("return fastblurState.last.images.diff")
    assert el(browser, "img-diff").get_attribute("src") != browser.execute_script("return location.origin") + diff_url
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=diff]").click()
    assert el(browser, "frame-diff").is_displayed() and not el(browser, "frame-a").is_displayed()
    wait_until(lambda: el(browser, "img-diff").get_attribute("src").endswith(diff_url)
               and el(browser, "img-diff").get_property("complete")
               and el(browser, "img-diff").get_property("naturalWidth") == el(browser, "img-result").get_property("naturalWidth"),
               30, "the difference picture")
    assert float(text(browser, "diff-max").split()[0]) > 0
    shot(browser, "03_box_difference")
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=split]").click()


def test_shader_text_is_fastblur_codegen(browser):
    n = updates(browser)
    Select(el(browser, "algorithm")).select_by_value("kawase")
    wait_until(lambda: updates(browser) > n and idle(browser), 120, "kawase's result")
    sigma = el(browser, "sigma-number").get_attribute("value")
    expected = cli("codegen", "--sigma", sigma, "--method", "kawase").stdout
    wait_until(lambda: el(browser, "shader").get_attribute("textContent") == expected, 30, "kawase's shader")
    Select(el(browser, "cg-lang")).select_by_value("hlsl")
    expected = cli("codegen", "--sigma", sigma, "--method", "kawase", "--lang", "hlsl").stdout
    wait_until(lambda: el(browser, "shader").get_attribute("textContent") == expected, 30, "the HLSL shader")
    Select(el(browser, "cg-method")).select_by_value("linear")
    expected = cli("codegen", "--sigma", sigma, "--method", "linear", "--lang", "hlsl").stdout
    wait_until(lambda: el(browser, "shader").get_attribute("textContent") == expected, 30, "the linear shader")
    el(browser, "copy").click()
    wait_until(lambda: text(browser, "copy-status") == "copied", 10, "the copy button")
    shot(browser, "04_shader")


def test_uploaded_png_round_trips(browser, tmp_path):
    source = tmp_path / "photo.png"
    source.write_bytes(png(64, 48, 3, seed=5))
    n = updates(browser)
    el(browser, "file").send_keys(str(source))
    wait_until(lambda: el(browser, "image-select").get_attribute("value") != "scene" and updates(browser) > n and idle(browser),
               120, "the uploaded image's result")
    assert text(browser, "image-info").startswith("photo.png: 64×48, 3 channels, u8")
    # The page is idle once the result's URL is set; the image decodes after (under ASan with other
    # tests running, the check ran before it had: naturalWidth 0).
    wait_until(lambda: el(browser, "img-result").get_property("naturalWidth") == 64, 30, "the uploaded image's result decoded")
    assert text(browser, "upload-error") == ""
    # The page's download is the CLI's blur of the file, byte for byte.
    n = updates(browser)
    Select(el(browser, "algorithm")).select_by_value("fir")
    wait_until(lambda: updates(browser) > n and idle(browser), 30, "fir")
    sigma = el(browser, "sigma-number").get_attribute("value")
    data = browser.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const p = params(); delete p.client;
      fetch('/api/download?params=' + encodeURIComponent(JSON.stringify(p))).then(r => r.arrayBuffer()).then(b => {
        let s = ''; for (const x of new Uint8Array(b)) s += String.fromCharCode(x); done(btoa(s)); });""")
    assert cli("blur", "photo.png", "out.png", "--sigma", sigma, "--algorithm", "fir", cwd=tmp_path).returncode == 0
    assert base64.b64decode(data) == (tmp_path / "out.png").read_bytes()
    el(browser, "download").click()
    wait_until(lambda: text(browser, "status") == "downloaded photo_blur.png", 30,
               lambda: f"the download button (status {text(browser, 'status')!r})")
    Select(el(browser, "zoom")).select_by_value("4")
    assert el(browser, "img-result").size["width"] == 256
    shot(browser, "05_upload_zoom")


def test_corrupt_upload_shows_the_error(browser, tmp_path):
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    el(browser, "file").send_keys(str(bad))
    expected = cli("blur", "broken.png", "out.png", "--sigma", "1", cwd=tmp_path).stderr.strip()
    assert expected.startswith("fastblur: error: cannot read 'broken.png'")
    wait_until(lambda: text(browser, "upload-error"), 30, "the upload error")
    assert "fastblur: error: " + text(browser, "upload-error") == expected
    shot(browser, "06_corrupt_upload")


def test_per_axis_sigma_device_and_no_console_errors(browser):
    Select(el(browser, "image-select")).select_by_value("scene")
    Select(el(browser, "algorithm")).select_by_value("iir")
    wait_until(lambda: idle(browser) and metric(browser, "algorithm") == "iir", 120, "iir on the scene")
    n = updates(browser)
    el(browser, "per-axis").click()
    sy = el(browser, "sigma-y-number")
    sy.clear()
    sy.send_keys("1.5")
    sx = float(el(browser, "sigma-number").get_attribute("value"))
    wait_until(lambda: updates(browser) > n and idle(browser) and
               metric(browser, "achieved") == f"{sx:g}, 1.5", 120, "the per-axis result")
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=side]").click()
    assert el(browser, "frame-b").is_displayed() and not el(browser, "img-exact").is_displayed()
    devices = [o.get_attribute("value") for o in Select(el(browser, "device")).options]
    assert devices[0] == "cpu"
    if len(devices) > 1:  # a Vulkan device: its algorithms, and the blur runs there
        n = updates(browser)
        Select(el(browser, "device")).select_by_value(devices[1])
        names = [o.get_attribute("value") for o in Select(el(browser, "algorithm")).options]
        assert "fir-linear" in names and "fft" not in names
        wait_until(lambda: updates(browser) > n and idle(browser) and metric(browser, "device").startswith(devices[1]),
                   120, "the Vulkan result")
    shot(browser, "07_per_axis_side_by_side")
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not [e for e in errors if "broken.png" not in e["message"] and "/api/image" not in e["message"]], errors


def result_rect(driver):
    return driver.execute_script("return JSON.stringify(document.getElementById('img-result').getBoundingClientRect())")


def test_a_large_upload_tells_one_story_and_fits_the_window(browser, tmp_path):
    # A 1600x1000 image is previewed at half scale: every figure speaks of the user's sigma, the note
    # beside the result says what the preview ran, and plan, metrics, plot legend and shader agree
    # for auto; the image fits 1366x768 and 1920x1080 windows; an out-of-range sigma is an error at
    # its box and marks the results stale until the next one succeeds.
    source = tmp_path / "large.png"
    source.write_bytes(png(1600, 1000, 3, seed=9))
    Select(el(browser, "device")).select_by_value("cpu")
    Select(el(browser, "zoom")).select_by_value("0")  # fit
    Select(el(browser, "algorithm")).select_by_value("auto")
    browser.find_element(By.CSS_SELECTOR, "input[name=mode][value=split]").click()
    if el(browser, "per-axis").is_selected():
        el(browser, "per-axis").click()
    n = updates(browser)
    el(browser, "file").send_keys(str(source))
    wait_until(lambda: text(browser, "image-info").startswith("large.png") and updates(browser) > n and idle(browser),
               120, "the large upload's result")
    sigma = el(browser, "sigma-number")
    n = updates(browser)
    sigma.clear()
    sigma.send_keys("6")
    tolerance = el(browser, "tolerance")
    tolerance.clear()
    tolerance.send_keys("0.01")
    wait_until(lambda: updates(browser) > n and idle(browser) and "sigma 3 runs for your sigma 6" in text(browser, "preview-note"),
               120, lambda: f"the scaled preview's note (it says {text(browser, 'preview-note')!r})")
    assert "1/2 scale (800×500)" in text(browser, "preview-note")
    assert float(metric(browser, "effective-sigma")) == pytest.approx(6, abs=0.1)
    assert metric(browser, "achieved").startswith("6")
    algorithm = metric(browser, "algorithm")
    assert text(browser, "explain").startswith(f"plan: {algorithm},")
    wait_until(lambda: f">{algorithm}<" in el(browser, "plot-impulse").get_attribute("innerHTML"), 60,
               f"the plot legend of {algorithm}")
    method = {"kawase": "kawase", "dual-kawase": "dual-kawase"}.get(algorithm, "linear")
    assert Select(el(browser, "cg-method")).first_selected_option.get_attribute("value") == method
    assert "image values" in text(browser, "frame-diff") or "image values" in el(browser, "frame-diff").get_attribute("textContent")
    for name, (w, h) in {"1366x768": (1366, 768), "1920x1080": (1920, 1080)}.items():
        browser.set_window_size(w, h)
        wait_until(lambda: browser.execute_script(
            "const r = document.getElementById('img-result').getBoundingClientRect();"
            "return r.width > 100 && r.bottom <= innerHeight && r.right <= innerWidth && r.top >= 0"), 10,
            lambda: f"the whole image inside a {name} window (rect {result_rect(browser)}, "
                    f"window {browser.execute_script('return [innerWidth, innerHeight]')})")
        assert browser.execute_script(
            "const r = document.getElementById('preview-note').getBoundingClientRect(); return r.bottom <= innerHeight")
        shot(browser, f"08_large_upload_{name}")
    # Out of range: an error at the box, nothing sent, the results marked stale; then fixed.
    n = updates(browser)
    sigma.clear()
    sigma.send_keys("1e9")
    wait_until(lambda: "at most" in text(browser, "sigma-error") and "stale" in el(browser, "viewer").get_attribute("class"),
               10, "the sigma box's error and the stale mark")
    assert text(browser, "stale-note").startswith("stale: ")
    shot(browser, "09_sigma_out_of_range_stale")
    assert updates(browser) == n
    sigma.clear()
    sigma.send_keys("3")
    wait_until(lambda: updates(browser) > n and idle(browser) and "stale" not in el(browser, "viewer").get_attribute("class"),
               120, "a fresh result")
    assert text(browser, "sigma-error") == "" and text(browser, "stale-note") == ""
    browser.set_window_size(1500, 1300)
