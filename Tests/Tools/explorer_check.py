#!/usr/bin/python3
"""Drives explorer pages (lifespec explore / generate's explorer.html) in headless Chromium.

    explorer_check.py MANIFEST.json RESULTS.json [SCREENSHOT-DIR]

MANIFEST: {"pages": [{"id", "path", "seed", "walks", "maxEvents", "logs": [TEXT, ...]}]}.
For each page, in one browser session: seeded random walks clicking enabled event buttons, with
the page's configuration, log and disabled buttons after every click; a click on a disabled
button; `#events=` replays; the zh-Hans switch; the pasted-log check of each log; every request
the page made. RESULTS holds what the page showed: the Swift test (ExplorerBrowserTests) judges it
against the engine (what `lifespec simulate --json` and `lifespec check-trace` give).
Exit status 0 when it could drive the pages (the verdicts are the caller's), 2 when the browser
cannot start.
"""

import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

SNAPSHOT = """
var root = document.getElementById('lifespec-explorer');
var buttons = Array.from(document.querySelectorAll('button[data-event]'));
return {
  ready: root.getAttribute('data-ready') === 'true',
  configuration: root.getAttribute('data-configuration'),
  embedded: root.getAttribute('data-embedded') === 'true',
  log: Array.from(document.querySelectorAll('ol#lifespec-log > li[data-name]')).map(function (li) { return li.getAttribute('data-name'); }),
  enabled: buttons.filter(function (b) { return !b.disabled; }).map(function (b) { return b.getAttribute('data-event'); }),
  disabled: buttons.filter(function (b) { return b.disabled; }).map(function (b) { return b.getAttribute('data-event'); }),
  hash: location.hash
};
"""

# One seeded walk in one call (a WebDriver round trip per click cost most of the run): reset,
# then up to MAX clicks on enabled event buttons chosen by the seed, after a click on a disabled
# one (which must change nothing); a snapshot after every click.
WALK = """
var seed = arguments[0] >>> 0, max = arguments[1];
function random() {  // mulberry32
  seed = (seed + 0x6D2B79F5) >>> 0;
  var t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function pick(list) { return list[Math.floor(random() * list.length)]; }
function snapshot() {""" + SNAPSHOT + """}
function click(id) {
  Array.from(document.querySelectorAll('button[data-event]')).filter(function (b) { return b.getAttribute('data-event') === id; })[0].click();
  return snapshot();
}
document.getElementById('lifespec-reset').click();
var now = snapshot(), steps = [Object.assign({event: null}, now)], refused = null;
var count = 1 + Math.floor(random() * max);
for (var i = 0; i < count && now.enabled.length; i++) {
  if (refused === null && now.disabled.length) {
    var off = pick(now.disabled), after = click(off);
    refused = {event: off, unchanged: after.configuration === now.configuration && JSON.stringify(after.log) === JSON.stringify(now.log)};
  }
  var event = pick(now.enabled);
  now = click(event);
  steps.push(Object.assign({event: event}, now));
}
return {steps: steps, refused: refused};
"""

CHECK = """
var input = document.getElementById('lifespec-trace-input');
input.value = arguments[0];
var button = document.getElementById('lifespec-check-trace');
if (button.disabled) return {disabled: true};
button.click();
var result = document.getElementById('lifespec-trace-result');
var line = result.getAttribute('data-line');
return {disabled: false, conforms: result.getAttribute('data-conforms'), line: line === null ? null : Number(line), text: result.textContent};
"""

LOCALE = """
var button = document.querySelector('[data-locale="' + arguments[0] + '"]');
if (!button) return null;
button.click();
var events = Array.from(document.querySelectorAll('button[data-event]')).map(function (b) { return b.textContent; });
return {title: document.getElementById('lifespec-title').textContent, lang: document.documentElement.lang,
        heading: document.querySelector('h2[data-text="events"]').textContent, events: events.slice(0, 3)};
"""

# Every walkthrough run to its end ("Run to the end"): where the page ends and its log.
SCENARIOS = """
var found = [];
Array.from(document.querySelectorAll('button[data-scenario-run]')).forEach(function (button) {
  button.click();
  var now = (function () {""" + SNAPSHOT + """})();
  found.push({scenario: button.getAttribute('data-scenario-run'), configuration: now.configuration, log: now.log, hash: now.hash});
});
return found;
"""

# A system's folded events (those its own transitions raise): which buttons each fold holds, and whether it starts open.
RAISED = """
return Array.from(document.querySelectorAll('details.raised')).map(function (details) {
  return {part: details.getAttribute('data-part'), open: details.open,
          events: Array.from(details.querySelectorAll('button[data-event]')).map(function (b) { return b.getAttribute('data-event'); })};
});
"""

RESOURCES = """
return {resources: performance.getEntriesByType('resource').map(function (r) { return r.name; }),
        csp: (document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {content: null}).content};
"""


def browser():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--disable-extensions", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-default-apps", "--disable-sync"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def requests(driver, page_url):
    """URLs the page asked for, from Chrome's performance log, other than the page file itself."""
    found = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") != "Network.requestWillBeSent":
            continue
        url = message["params"]["request"]["url"]
        if url.split("#")[0] != page_url:
            found.append(url)
    return found


def open_page(driver, url):
    driver.get("about:blank")
    driver.get(url)
    return driver.execute_script(SNAPSHOT)


def run_page(driver, page, screenshots):
    url = "file://" + page["path"]
    result = {"id": page["id"], "walks": [], "replays": [], "checks": [], "errors": []}
    start = open_page(driver, url)
    result["start"] = start
    if not start["ready"]:
        result["errors"].append("the page did not start: " + json.dumps(driver.get_log("browser")))
        return result
    result["raised"] = driver.execute_script(RAISED)
    if screenshots:
        driver.save_screenshot(f"{screenshots}/{page['id']}.png")
    for walk in range(page["walks"]):
        result["walks"].append(driver.execute_script(WALK, page["seed"] * 1000 + walk, page["maxEvents"]))
    # `#events=` reproduces a session: the last walks' hashes, opened afresh.
    for walk in result["walks"][-3:]:
        last = walk["steps"][-1]
        replayed = open_page(driver, url + last["hash"])
        result["replays"].append({"hash": last["hash"], "expected": last["configuration"],
                                  "expectedLog": last["log"], "configuration": replayed["configuration"],
                                  "log": replayed["log"]})
    result["scenarios"] = driver.execute_script(SCENARIOS)
    for text in page["logs"]:
        result["checks"].append(driver.execute_script(CHECK, text))
    result["zh"] = driver.execute_script(LOCALE, "zh-Hans")
    result["en"] = driver.execute_script(LOCALE, "en")
    result["resources"] = driver.execute_script(RESOURCES)
    result["requests"] = requests(driver, url)
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    result["errors"] += [entry["message"] for entry in errors]
    return result


def main():
    manifest = json.load(open(sys.argv[1], encoding="utf-8"))
    screenshots = sys.argv[3] if len(sys.argv) > 3 else None
    try:
        driver = browser()
    except Exception as error:  # noqa: BLE001 - any failure to start is reported the same way
        print(f"cannot start Chromium: {error}", file=sys.stderr)
        return 2
    try:
        results = [run_page(driver, page, screenshots) for page in manifest["pages"]]
    finally:
        driver.quit()
    json.dump({"pages": results}, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
