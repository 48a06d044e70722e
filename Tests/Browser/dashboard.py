#!/usr/bin/env python3
##===----------------------------------------------------------------------===##
#
# This source file is part of the photomill open source project
#
# Copyright (c) 2026 the photomill authors
# Licensed under Apache License v2.0
#
# See LICENSE for license information
#
# SPDX-License-Identifier: Apache-2.0
#
##===----------------------------------------------------------------------===##

"""The dashboard in a real browser, during a real run (issue 15; docs/operations.md).

    dashboard.py --photomill .build/debug/photomill --scenario live|token|metrics|pictures [--screenshot FILE]

Each scenario starts `photomill coordinator` with its HTTP server and a `photomill worker`
as separate processes over a generated library, drives headless Chromium (Debian's
`chromium`, through Playwright for Python) or plain HTTP against it, and reads the
catalog with Python's sqlite3 as the independent reference:
  live    the counts move; pausing thumbnails from the page keeps their count still while
          the others go on, and resuming (from the keyboard) lets them finish; the Retry
          button of a failure requeues that task; the page fits a phone's width; a Host
          that is not loopback is refused (DNS rebinding).
  token   on a non-loopback address with --http-token-file: without the token the page
          shows no figure and the API answers 401; with #token=… it works.
  metrics /metrics passes `promtool check metrics`, and its figures equal the catalog's
          (tasks by kind and state, results by kind and outcome, bytes sent to a worker
          fed bytes = the photos' sizes from os.path.getsize).
  pictures the Library page: a search by camera shows exactly the catalog's photos of that
          camera, each tile with the thumbnail the catalog holds (the bytes' MD5); a tile
          opens its panel from the keyboard, Escape closes it; thumbnails answer 304 to
          their ETag. The Duplicates page: the exact copy and the similar group (a sample,
          its copy halved and re-saved at quality 40 by the vips command) with their
          members, the largest picture (Pillow's size) marked as the best copy, the groups
          those of the stored hashes within 6 bits (counted here). Both fit a phone.
          --screenshot FOLDER writes library.png and duplicates.png there.
Exit status 0 when the scenario passed; otherwise the reason is printed.
"""

import argparse
import hashlib
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

CHROMIUM = "/usr/bin/chromium"


# The conformance kit's checks and processes (started with an empty signal mask, logged
# to files in the scenario's folder).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Conformance"))
from run import Failed, Process, expect  # noqa: E402


def eventually(seconds, condition, message):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    expect(condition(), message)


class Cluster:
    """A library of `photomill samples`, a coordinator with HTTP, and workers."""

    def __init__(self, photomill, folder, count, http_args, kinds=None, prepare=None):
        self.photomill, self.folder = photomill, folder
        self.photos = os.path.join(folder, "photos")
        self.catalog = os.path.join(folder, "catalog.sqlite")
        subprocess.run([photomill, "samples", self.photos, "--count", str(count), "--seed", "15"],
                       check=True, capture_output=True)
        if prepare:
            prepare(self.photos)
        self.endpoint = "ipc://" + os.path.join(folder, "coordinator.sock")
        self.kinds = kinds
        kind_args = ["--kinds", kinds] if kinds else []
        self.coordinator = Process("coordinator", [photomill, "coordinator", "--bind", self.endpoint, "--catalog", self.catalog,
                                                   "--no-exports", *kind_args, *http_args, self.photos], log_dir=folder)
        self.workers = []

    def http_port(self):
        """The dashboard's port, read back from the coordinator's "dashboard listening" line
        (its `http.url`): asked for as port 0, it is one the kernel chose."""
        found = []

        def listening():
            for line in self.coordinator.text().splitlines():
                match = re.search(r"http\.url=http://[^ ]*:(\d+)/", line)
                if match and line.endswith("dashboard listening"):
                    found.append(int(match.group(1)))
                    return True
            return False
        eventually(60, listening, "the dashboard never said where it listens:\n" + self.coordinator.text()[-2000:])
        return found[0]

    def worker(self, *extra):
        kind_args = ["--kinds", self.kinds] if self.kinds else []
        process = Process("worker%d" % len(self.workers), [self.photomill, "worker", "--connect", self.endpoint, "--slots", "1",
                                                           *kind_args, *extra], log_dir=self.folder)
        self.workers.append(process)

    def rows(self, sql, *arguments):
        connection = sqlite3.connect("file:%s?mode=ro" % self.catalog, uri=True, timeout=10)
        try:
            return connection.execute(sql, arguments).fetchall()
        finally:
            connection.close()

    def unfinished(self, kinds=("hash", "metadata", "thumbnail", "ocr", "similarity")):
        marks = ",".join("?" * len(kinds))
        return self.rows("SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased') AND kind IN (%s)" % marks, *kinds)[0][0]

    def stop(self):
        for process in self.workers + [self.coordinator]:
            process.signal(signal.SIGTERM)
            process.wait(30)


def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def scrape(url):
    """/metrics: its status, its text and its samples by (name, labels)."""
    status, text = get(url + "metrics")
    samples = {}
    for line in text.splitlines():
        match = re.match(r"^([a-z_]+)(\{[^}]*\})? (\S+)$", line)
        if match:
            samples[(match.group(1), match.group(2) or "")] = float(match.group(3))
    return status, text, samples


def wait_listening(url, cluster):
    def up():
        try:
            return get(url)[0] in (200, 401)
        except OSError:
            return False
    eventually(60, up, "the dashboard never answered at %s:\n%s" % (url, cluster.coordinator.text()[-2000:]))


def done(page, kind):
    text = page.locator('#kinds tr[data-kind="%s"] .done' % kind).text_content(timeout=30_000)
    return int(text.replace(",", ""))


def browser():
    from playwright.sync_api import sync_playwright
    playwright = sync_playwright().start()
    return playwright, playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


def live(photomill, folder, screenshot):
    cluster = Cluster(photomill, folder, 21, ["--http", "127.0.0.1:0"])
    port = cluster.http_port()
    url = "http://127.0.0.1:%d/" % port
    playwright, chromium = browser()
    try:
        wait_listening(url, cluster)
        page = chromium.new_page(viewport={"width": 1280, "height": 960})
        page.goto(url)
        page.wait_for_selector('#kinds tr[data-kind="thumbnail"] button', timeout=30_000)
        # Pause thumbnails from the page before any worker is there.
        page.click('#kinds tr[data-kind="thumbnail"] button[data-action="pause"]')
        page.wait_for_selector('#kinds tr[data-kind="thumbnail"] button[data-action="resume"]', timeout=15_000)
        expect(cluster.rows("SELECT kind FROM pauses") == [("thumbnail",)], "the Pause button wrote the pause")
        # The coordinator reads operators' changes twice a second: the worker comes once it
        # has said it applied the pause.
        eventually(30, lambda: "kinds.paused=thumbnail" in cluster.coordinator.text(), "the coordinator never applied the pause")
        cluster.worker("--root", cluster.photos)
        # The counts move: the other kinds finish while thumbnails stay at 0.
        first = done(page, "hash")
        eventually(120, lambda: done(page, "hash") > first, "the hash count never moved on the page")
        eventually(180, lambda: cluster.unfinished(("hash", "metadata", "ocr")) == 0,
                   "hash, metadata and OCR never finished with thumbnails paused")
        page.wait_for_timeout(2500)          # two of the page's refreshes
        expect(done(page, "thumbnail") == 0, "a paused kind's count moved")
        expect(done(page, "ocr") == cluster.rows("SELECT COUNT(*) FROM tasks WHERE kind = 'ocr' AND state = 'done'")[0][0],
               "the page's OCR count is the catalog's")
        expect(page.locator('#kinds tr[data-kind="thumbnail"] .paused').count() == 1, "the row says paused")
        if screenshot:
            # Once the failures' table (refreshed every 5 s) lists every failure so far.
            failed = cluster.rows("SELECT COUNT(*) FROM tasks WHERE state = 'failed'")[0][0]
            eventually(15, lambda: page.locator("#failures tbody tr").count() == min(failed, 20), "the failures never showed")
            eventually(30, lambda: page.locator("#chart polyline").count() > 0, "the chart never drew")
            page.screenshot(path=screenshot, full_page=True)
        # Resume from the keyboard: focus the button, press Enter.
        page.focus('#kinds tr[data-kind="thumbnail"] button[data-action="resume"]')
        page.keyboard.press("Enter")
        eventually(120, lambda: cluster.unfinished(("thumbnail",)) == 0, "thumbnails never finished after resume")
        expect(cluster.rows("SELECT COUNT(*) FROM pauses")[0][0] == 0, "resume removed the pause")
        eventually(10, lambda: done(page, "thumbnail") + int(page.locator('#kinds tr[data-kind="thumbnail"] .failed').text_content())
                   == cluster.rows("SELECT COUNT(*) FROM tasks WHERE kind = 'thumbnail'")[0][0],
                   "the page shows every thumbnail finished")

        # Retry a failure from its row: the task goes back in the queue (a new attempt follows).
        failures = cluster.rows("SELECT p.path, t.kind, t.attempts FROM tasks t JOIN photos p ON p.id = t.photoId "
                                "WHERE t.state = 'failed' ORDER BY p.path, t.kind")
        expect(failures, "the samples' broken files left failures")
        path, kind, attempts_before = failures[0]
        row = page.locator('#failures tr[data-path="%s"][data-kind="%s"]' % (path, kind))
        row.wait_for(timeout=15_000)
        # Counted before the click: a retried empty file's hash is done within 0.1 s.
        count = "SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = ? AND a.kind = ?"
        before = cluster.rows(count, path, kind)[0][0]
        row.locator("button").click()
        eventually(15, lambda: cluster.rows("SELECT COUNT(*) FROM requeues WHERE command = 'retry'")[0][0] == 1,
                   "the Retry button wrote no requeue")
        eventually(60, lambda: cluster.rows(count, path, kind)[0][0] > before, "the retried task was never attempted again")

        # The library: what is watched, what was skipped per reason (the catalog's counts), and
        # Scan now, which asks the coordinator for a full scan through the catalog.
        eventually(15, lambda: "Watching" in page.locator("#library").text_content(), "the library section never said what is watched")
        for reason, count in cluster.rows("SELECT reason, COUNT(*) FROM skipped_files GROUP BY reason"):
            cell = page.locator('#skipped tr[data-reason="%s"] td.num' % reason)
            eventually(10, lambda: cell.count() == 1 and cell.text_content() == "{:,}".format(count),
                       "the page's skipped %s is not the catalog's %d" % (reason, count))
        page.click("#scan-now")
        eventually(30, lambda: cluster.rows("SELECT COUNT(*) FROM scan_requests WHERE origin = 'api' AND finishedAt IS NOT NULL")[0][0] == 1,
                   "Scan now asked for no scan, or the coordinator never did it")
        expect("request" in page.locator("#scan-note").text_content(), "the page says the scan was asked for")

        # A phone: the page is no wider than the screen (tables scroll inside their sections).
        fits_a_phone(chromium, url, '#kinds tr[data-kind="hash"]')

        # DNS rebinding: a request naming another host is refused on loopback.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/v1/status", headers={"Host": "rebind.example:%d" % port})
        expect(connection.getresponse().status == 421, "a foreign Host was served")
    finally:
        chromium.close()
        playwright.stop()
        cluster.stop()


def non_loopback_address():
    """This host's address on its first non-loopback interface, if it has one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))          # TEST-NET-1: nothing is sent
            address = probe.getsockname()[0]
            return None if address.startswith("127.") else address
    except OSError:
        return None


def token(photomill, folder, screenshot):
    secret = "dashboard-token-%d" % os.getpid()
    token_file = os.path.join(folder, "token")
    with open(token_file, "w") as handle:
        handle.write(secret + "\n")
    os.chmod(token_file, 0o600)
    cluster = Cluster(photomill, folder, 4, ["--http", "0.0.0.0:0", "--http-token-file", token_file])
    host = non_loopback_address() or "127.0.0.1"
    url = "http://%s:%d/" % (host, cluster.http_port())
    playwright, chromium = browser()
    try:
        wait_listening(url, cluster)
        expect(get(url + "api/v1/status")[0] == 401, "the API answered without the token")
        expect(get(url + "metrics")[0] == 401, "/metrics answered without the token")
        # The scan runs beside the dashboard: ask until it has catalogued the 4 photos.
        def scanned():
            status, body = get(url + "api/v1/status", {"Authorization": "Bearer " + secret})
            return status == 200 and json.loads(body)["photos"] == 4
        eventually(30, scanned, "the API with the token never answered 200 with the 4 photos")

        refused = chromium.new_page()
        refused.goto(url)
        refused.wait_for_selector("#token-form:not([hidden])", timeout=30_000)
        expect(refused.locator("#kinds tbody tr").count() == 0, "figures shown without the token")
        expect("token" in refused.locator("#connection").text_content(), "the page says it wants the token")

        allowed = chromium.new_page()
        allowed.goto(url + "#token=" + secret)
        allowed.wait_for_selector('#kinds tr[data-kind="hash"]', timeout=30_000)
        expect("token" not in allowed.url, "the token stays out of the address bar")
        allowed.click('#kinds tr[data-kind="ocr"] button[data-action="pause"]')
        allowed.wait_for_selector('#kinds tr[data-kind="ocr"] button[data-action="resume"]', timeout=15_000)
        expect(cluster.rows("SELECT kind FROM pauses") == [("ocr",)], "an action with the token")
        print("token scenario reached the dashboard at %s" % url)
    finally:
        chromium.close()
        playwright.stop()
        cluster.stop()


def metrics(photomill, folder, screenshot):
    # Hash only, to a worker fed bytes: every photo is sent once, whole.
    cluster = Cluster(photomill, folder, 12, ["--http", "127.0.0.1:0"], kinds="hash")
    url = "http://127.0.0.1:%d/" % cluster.http_port()
    try:
        wait_listening(url, cluster)
        cluster.worker()
        # All 12 samples in the catalog first: files younger than the settle window (2 s) are
        # recorded once they have settled, after the first scan's.
        eventually(120, lambda: cluster.rows("SELECT COUNT(*) FROM photos")[0][0] == 12 and cluster.unfinished() == 0,
                   "the run never finished")
        # The coordinator publishes its counts four times a second: read once they show
        # the catalog's final counts.
        final = {(kind, state): count for kind, state, count in cluster.rows("SELECT kind, state, COUNT(*) FROM tasks GROUP BY kind, state")}
        scan_failed = cluster.rows("SELECT COUNT(*) FROM tasks WHERE kind = 'hash' AND state = 'failed' AND attempts = 0")[0][0]
        expect(scan_failed == 2, "the samples' text and empty .jpg fail at the scan: %d" % scan_failed)
        # The task counts come from the catalog, the worker gauges from the scheduler's own
        # observation (also four times a second, apart): wait for both.
        def settled():
            samples = scrape(url)[2]
            return samples.get(("photomill_workers_connected", "")) == 1 and all(
                samples.get(("photomill_tasks", '{kind="%s",state="%s"}' % key)) == count for key, count in final.items())
        eventually(30, settled, "/metrics never showed the run's end")
        status, text, samples = scrape(url)
        expect(status == 200, "/metrics: %d" % status)
        checked = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
        expect(checked.returncode == 0, "promtool check metrics: %s%s" % (checked.stdout, checked.stderr))
        for kind, state, count in cluster.rows("SELECT kind, state, COUNT(*) FROM tasks GROUP BY kind, state"):
            got = samples.get(("photomill_tasks", '{kind="%s",state="%s"}' % (kind, state)))
            expect(got == count, "photomill_tasks %s %s: %s, the catalog has %d" % (kind, state, got, count))
        outcome_of = {"done": "done", "failed": "failed", "retry": "failed", "stale": "stale"}
        expected = {}
        for outcome, count in cluster.rows("SELECT outcome, COUNT(*) FROM attempts WHERE kind = 'hash' GROUP BY outcome"):
            if outcome in outcome_of:
                expected[outcome_of[outcome]] = expected.get(outcome_of[outcome], 0) + count
        for outcome in ("done", "failed", "stale"):
            got = samples.get(("photomill_results_total", '{kind="hash",outcome="%s"}' % outcome), 0)
            expect(got == expected.get(outcome, 0), "results %s: %s, attempts say %s" % (outcome, got, expected.get(outcome, 0)))
        # Every photo that reached the worker, once, whole: not the text and empty .jpg the
        # scan failed by their content (no attempt), which no worker is sent.
        sent_paths = cluster.rows("SELECT path FROM photos WHERE id IN (SELECT photoId FROM attempts)")
        expect(len(sent_paths) == final.get(("hash", "done"), 0) + final.get(("hash", "failed"), 0) - scan_failed,
               "photos with an attempt: %d" % len(sent_paths))
        sizes = sum(os.path.getsize(path) for (path,) in sent_paths)
        sent = samples.get(("photomill_file_bytes_sent_total", ""))
        expect(sent == sizes, "bytes sent %s, the sizes of the photos sent add up to %d" % (sent, sizes))
        expect(samples.get(("photomill_workers_connected", "")) == 1, "one worker connected")
        expect(samples.get(("photomill_processing_seconds_count", '{kind="hash"}'), 0) == expected.get("done", 0) + expected.get("failed", 0),
               "one processing time per hash result")
        print("metrics: %d samples, promtool passed" % len(samples))
    finally:
        cluster.stop()


def near_duplicates(photos):
    """A sample's exact copy, and two near-duplicates made by the vips command."""
    source = os.path.join(photos, "IMG_0001.jpg")
    subprocess.run(["cp", source, os.path.join(photos, "copy-of-0001.jpg")], check=True)
    subprocess.run(["vips", "resize", source, os.path.join(photos, "half-of-0001.jpg"), "0.5"], check=True)
    subprocess.run(["vips", "copy", source, os.path.join(photos, "q40-of-0001.jpg[Q=40]")], check=True)


def similar_groups(cluster, distance):
    """The stored hashes grouped as `similar` groups them (linked by steps within
    `distance`), counted here: a set of path sets."""
    hashes = {path: value & (1 << 64) - 1 for path, value in cluster.rows(
        "SELECT p.path, s.hash FROM similarity s JOIN photos p ON p.id = s.photoId WHERE p.missingAt IS NULL")}
    parent = {path: path for path in hashes}

    def find(path):
        while parent[path] != path:
            path = parent[path]
        return path
    paths = sorted(hashes)
    for i, a in enumerate(paths):
        for b in paths[i + 1:]:
            if bin(hashes[a] ^ hashes[b]).count("1") <= distance:
                parent[find(a)] = find(b)
    groups = {}
    for path in paths:
        groups.setdefault(find(path), set()).add(path)
    return {frozenset(group) for group in groups.values() if len(group) > 1}


def fits_a_phone(chromium, url, ready):
    phone = chromium.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(url)
    phone.wait_for_selector(ready, timeout=30_000)
    overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    expect(overflow <= 0, "%s is %d px wider than a phone's screen" % (url, overflow))
    phone.close()


def pictures(photomill, folder, screenshot):
    cluster = Cluster(photomill, folder, 12, ["--http", "127.0.0.1:0"], prepare=near_duplicates)
    port = cluster.http_port()
    url = "http://127.0.0.1:%d/" % port
    playwright, chromium = browser()
    try:
        wait_listening(url, cluster)
        cluster.worker("--root", cluster.photos)
        eventually(240, lambda: cluster.rows("SELECT COUNT(*) FROM photos")[0][0] > 0 and cluster.unfinished() == 0,
                   "the run never finished")
        page = chromium.new_page(viewport={"width": 1280, "height": 960})

        # Library: a search by camera shows the catalog's photos of that camera, each with its own thumbnail.
        (model, count), = cluster.rows("SELECT cameraModel, COUNT(*) FROM metadata WHERE cameraModel IS NOT NULL "
                                       "GROUP BY cameraModel ORDER BY 2 DESC, 1 LIMIT 1")
        expected = [path for (path,) in cluster.rows(
            "SELECT p.path FROM photos p JOIN metadata m ON m.photoId = p.id WHERE p.missingAt IS NULL AND "
            "instr(lower(coalesce(m.cameraMake, '') || ' ' || coalesce(m.cameraModel, '')), lower(?)) > 0 ORDER BY p.path", model)]
        expect(len(expected) >= 2, "the samples have several photos of %s" % model)
        page.goto(url + "library")
        page.wait_for_selector("#results-summary:has-text('found')", timeout=30_000)
        page.fill("#search input[name=camera]", model)
        page.press("#search input[name=camera]", "Enter")
        eventually(30, lambda: page.locator("#grid .tile").count() == len(expected)
                   and page.locator("#grid img[data-loaded]").count() == len(expected),
                   "the grid never showed the %d photos of %s with their thumbnails" % (len(expected), model))
        shown = page.eval_on_selector_all("#grid .tile", "tiles => tiles.map(t => t.dataset.path)")
        expect(shown == expected, "the grid shows %s, the catalog has %s" % (shown, expected))
        # Each tile shows a decoded picture of its stored thumbnail's size (a picture the
        # page's policy blocked would be 0 × 0), served as the catalog's bytes.
        tiles = page.eval_on_selector_all("#grid img[data-loaded]",
                                          "images => images.map(img => [img.dataset.path, img.naturalWidth, img.naturalHeight])")
        for path, width, height in tiles:
            (stored_width, stored_height, stored), = cluster.rows(
                "SELECT th.width, th.height, th.jpeg FROM thumbnails th JOIN photos p ON p.id = th.photoId WHERE p.path = ?", path)
            expect((width, height) == (stored_width, stored_height),
                   "the tile of %s shows %dx%d, its thumbnail is %dx%d" % (path, width, height, stored_width, stored_height))
            with urllib.request.urlopen(url + "api/v1/thumbnail?path=" + urllib.parse.quote(path), timeout=10) as response:
                expect(hashlib.md5(response.read()).hexdigest() == hashlib.md5(stored).hexdigest(), "the tile of %s is another picture" % path)

        # The keyboard: Enter on a tile opens its panel, Escape closes it and gives the focus back.
        first = page.locator("#grid .tile").first
        first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#panel:not([hidden])", timeout=15_000)
        expect(page.locator("#panel").get_attribute("data-path") == expected[0], "the panel is the tile's photo")
        expect(model in page.locator("#panel-facts").text_content(), "the panel shows the camera")
        (md5,), = cluster.rows("SELECT md5 FROM photos WHERE path = ?", expected[0])
        expect(md5 in page.locator("#panel-facts").text_content(), "the panel shows the MD5")
        if screenshot:
            os.makedirs(screenshot, exist_ok=True)
            page.screenshot(path=os.path.join(screenshot, "library.png"), full_page=True)
        page.keyboard.press("Escape")
        page.wait_for_selector("#panel[hidden]", state="attached", timeout=15_000)
        expect(page.evaluate("document.activeElement.dataset.path") == expected[0], "the focus is back on the tile")

        # Thumbnails are cached by ETag: the same request again answers 304 without the bytes.
        thumbnail = url + "api/v1/thumbnail?path=" + urllib.parse.quote(expected[0])
        with urllib.request.urlopen(thumbnail, timeout=10) as response:
            tag, caching = response.headers["ETag"], response.headers["Cache-Control"]
            expect(response.status == 200 and response.headers["Content-Type"] == "image/jpeg" and tag, "a thumbnail with its tag")
        expect("no-cache" in caching, "thumbnails are revalidated: %s" % caching)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", urllib.parse.urlparse(thumbnail).path + "?" + urllib.parse.urlparse(thumbnail).query,
                           headers={"If-None-Match": tag})
        answer = connection.getresponse()
        expect(answer.status == 304 and answer.read() == b"", "If-None-Match with its tag: %d" % answer.status)

        # Duplicates: the exact copy, and the similar group with its members and its best copy.
        page.goto(url + "duplicates")
        page.wait_for_selector("#similar-groups .group", timeout=30_000)
        source = os.path.join(cluster.photos, "IMG_0001.jpg")
        made = {source} | {os.path.join(cluster.photos, name) for name in ("copy-of-0001.jpg", "half-of-0001.jpg", "q40-of-0001.jpg")}
        groups = page.eval_on_selector_all("#similar-groups .group",
                                           "groups => groups.map(g => Array.from(g.querySelectorAll('.member')).map(m => m.dataset.path))")
        expect({frozenset(group) for group in groups} == similar_groups(cluster, 6),
               "the page's groups are the stored hashes' within 6 bits: %s" % groups)
        ours = [group for group in groups if source in group]
        expect(len(ours) == 1 and made <= set(ours[0]), "the sample and its copies are one group: %s" % groups)
        from PIL import Image
        pixels = {path: Image.open(path).size[0] * Image.open(path).size[1] for path in ours[0]}
        best = page.locator("#similar-groups .group:has(.member[data-path='%s']) .member.best" % source)
        eventually(10, lambda: best.count() == 1, "one best copy is marked")
        expect(pixels[best.get_attribute("data-path")] == max(pixels.values()), "the best copy is the largest picture")
        group = page.locator("#similar-groups .group:has(.member[data-path='%s'])" % source)
        eventually(30, lambda: group.locator("img[data-loaded]").count() == len(ours[0]), "the group's thumbnails never showed")
        exact = page.eval_on_selector_all("#exact-groups .group", "groups => groups.map(g => Array.from(g.querySelectorAll('.member')).map(m => m.dataset.path))")
        expect([source, os.path.join(cluster.photos, "copy-of-0001.jpg")] in [sorted(group) for group in exact],
               "the exact copy is listed: %s" % exact)
        expect(page.locator("button:has-text('Delete'), a:has-text('Delete')").count() == 0, "nothing here deletes")
        if screenshot:
            eventually(30, lambda: page.locator("#duplicates-title").count() == 1 and
                       page.locator(".frame img:not([data-loaded])").count() == 0, "every thumbnail drew")
            page.screenshot(path=os.path.join(screenshot, "duplicates.png"), full_page=True)

        fits_a_phone(chromium, url + "library", "#grid .tile")
        fits_a_phone(chromium, url + "duplicates", "#similar-groups .group")
    finally:
        chromium.close()
        playwright.stop()
        cluster.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--photomill", required=True)
    parser.add_argument("--scenario", required=True, choices=["live", "token", "metrics", "pictures"])
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="photomill-dashboard-")
    try:
        {"live": live, "token": token, "metrics": metrics, "pictures": pictures}[args.scenario](args.photomill, folder, args.screenshot)
    except Failed as failure:
        print("FAILED (%s): %s\nlogs in %s" % (args.scenario, failure, folder))
        return 1
    print("passed: %s" % args.scenario)
    subprocess.run(["rm", "-rf", folder])
    return 0


if __name__ == "__main__":
    sys.exit(main())
