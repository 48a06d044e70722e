//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PhotomillCore

extension Page {
    /// Polls the API (status and the library every 2 s, failures every 5 s, the chart every 10 s) and
    /// redraws. Text only through textContent: paths and messages are never markup. The
    /// token and the API calls are `apiScript`'s.
    static let script = #"""
        "use strict";
        const KINDS = [\#(Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))];
        \#(apiScript)

        function cell(row, text, className) {
          const td = document.createElement("td");
          td.textContent = text;
          if (className) td.className = className;
          row.appendChild(td);
          return td;
        }

        function duration(seconds) {
          if (seconds === undefined || seconds === null) return "?";
          seconds = Math.round(seconds);
          if (seconds < 60) return seconds + "s";
          if (seconds < 3600) return Math.floor(seconds / 60) + "m" + String(seconds % 60).padStart(2, "0") + "s";
          return Math.floor(seconds / 3600) + "h" + String(Math.floor(seconds % 3600 / 60)).padStart(2, "0") + "m";
        }

        const number = (n) => (n || 0).toLocaleString("en");

        function renderStatus(status) {
          const tasks = status.tasks || {}, rates = status.throughput || {}, paused = status.paused || {};
          const body = $("#kinds tbody");
          body.replaceChildren();
          for (const kind of KINDS) {
            const counts = tasks[kind];
            if (!counts) continue;
            const rate = rates[kind] || {}, total = counts.pending + counts.leased + counts.done + counts.failed;
            const row = document.createElement("tr");
            row.dataset.kind = kind;
            const name = document.createElement("th");
            name.scope = "row";
            name.textContent = kind;
            row.appendChild(name);
            const bar = document.createElement("progress");
            bar.max = Math.max(1, total);
            bar.value = counts.done + counts.failed;
            bar.setAttribute("aria-label", kind + ": " + (counts.done + counts.failed) + " of " + total + " finished");
            cell(row, "").appendChild(bar);
            cell(row, number(counts.done), "num done");
            cell(row, number(counts.failed), "num failed");
            cell(row, number(counts.pending), "num pending");
            cell(row, number(counts.leased), "num leased");
            cell(row, (rate.perSecond || 0).toFixed(2), "num rate");
            cell(row, duration(rate.etaSeconds), "num eta");
            const queue = cell(row, "", "queue");
            const button = document.createElement("button");
            button.type = "button";
            if (paused[kind]) {
              const note = document.createElement("span");
              note.className = "paused";
              note.textContent = "paused ";
              queue.appendChild(note);
              button.textContent = "Resume";
              button.setAttribute("aria-label", "Resume " + kind);
              button.addEventListener("click", () => act("resume", { kind }, button));
            } else {
              button.textContent = "Pause";
              button.setAttribute("aria-label", "Pause " + kind);
              button.addEventListener("click", () => act("pause", { kind }, button));
            }
            button.dataset.action = paused[kind] ? "resume" : "pause";
            queue.appendChild(button);
            body.appendChild(row);
          }
          const waiting = $("#waiting");
          waiting.replaceChildren();
          for (const [kind, reason] of Object.entries(status.waiting || {})) {
            const item = document.createElement("li");
            item.textContent = kind + " waits: " + reason;
            waiting.appendChild(item);
          }
          const workers = $("#workers tbody");
          workers.replaceChildren();
          for (const worker of (status.workers || []).filter((w) => w.state === "connected")) {
            const row = document.createElement("tr");
            row.dataset.worker = worker.id;
            cell(row, worker.host);
            cell(row, worker.slots, "num");
            cell(row, worker.inFlight, "num");
            cell(row, number(worker.done), "num");
            cell(row, number(worker.failed), "num");
            cell(row, worker.secondsSinceSeen.toFixed(1) + " s", "num");
            cell(row, worker.id);
            workers.appendChild(row);
          }
          // The ETA of the work that moves: a paused kind has none, and says so.
          let left = 0, eta = 0;
          for (const [kind, counts] of Object.entries(tasks)) {
            const remaining = counts.pending + counts.leased;
            left += remaining;
            if (remaining === 0 || paused[kind]) continue;
            const kindEta = (rates[kind] || {}).etaSeconds;
            eta = eta === null || kindEta === undefined || kindEta === null ? null : Math.max(eta, kindEta);
          }
          const stopped = KINDS.filter((kind) => paused[kind]);
          $("#summary").textContent = number(status.photos) + " photos · " + number(left) + " tasks to go" +
            (left > 0 ? " · ETA " + duration(eta) : "") + (stopped.length ? " · paused: " + stopped.join(", ") : "") +
            " · " + status.readAt;
        }

        function renderLibrary(library) {
          const list = $("#library");
          list.replaceChildren();
          const line = (text) => { const item = document.createElement("li"); item.textContent = text; list.appendChild(item); };
          if (!library.coordinatorRunning) line("No coordinator runs on this catalog.");
          else if (library.watching) {
            line("Watching " + number(library.watchedFolders) + " folders" +
              (library.polledFolders ? ", " + number(library.polledFolders) + " polled every " + duration(library.rescanIntervalSeconds) : "") +
              "; changes are processed " + library.settleSeconds + " s after they settle" +
              (library.settling ? " (" + number(library.settling) + " settling now)" : "") + ".");
          } else line("Not watching: the folders were scanned at start.");
          for (const polled of (library.polled || []).slice(0, 10)) {
            line("Polled: " + polled.path + " (" + (polled.reason === "network" ? "on " + (polled.detail || "a network file system")
              : polled.reason === "watch-limit" ? "past the watch limit of " + number(library.watchLimit) : polled.detail || polled.reason) + ")");
          }
          if (library.lastFullScan) {
            line("Last full scan: " + library.lastFullScan.startedAt + " (" + library.lastFullScan.reason + "), " +
              library.lastFullScan.seconds + " s" + (library.nextFullScanAt ? "; next " + library.nextFullScanAt : "") + ".");
          }
          if (library.scanning) line("Scanning: " + library.scanning + ".");
          if (library.scansWaiting) line(number(library.scansWaiting) + " rescans asked for, waiting.");
          const excluded = (library.exclude || []).map((p) => "--exclude " + p).concat(library.ignoreFiles || []);
          if (excluded.length || library.excludedPhotos) {
            line("Excluded: " + (excluded.length ? excluded.join(", ") + "; " : "") + number(library.excludedPhotos) + " photos left out.");
          }
          if (library.unsettledPhotos) line(number(library.unsettledPhotos) + " photos were processed while still changing.");
          const body = $("#skipped tbody");
          body.replaceChildren();
          for (const [reason, count] of Object.entries(library.skipped || {}).sort()) {
            const row = document.createElement("tr");
            row.dataset.reason = reason;
            cell(row, reason);
            cell(row, number(count), "num");
            body.appendChild(row);
          }
          if (body.children.length === 0) {
            const row = document.createElement("tr");
            cell(row, "Nothing skipped.").colSpan = 2;
            body.appendChild(row);
          }
        }

        function globEscape(path) { return path.replace(/[[*?]/g, (c) => "[" + c + "]"); }

        function renderFailures(failures) {
          const body = $("#failures tbody");
          body.replaceChildren();
          for (const failure of failures) {
            const row = document.createElement("tr");
            row.dataset.path = failure.path;
            row.dataset.kind = failure.kind;
            cell(row, failure.path, "path");
            cell(row, failure.kind);
            cell(row, failure.errorClass || "?");
            cell(row, failure.message || "", "message");
            cell(row, failure.attempts, "num");
            const button = document.createElement("button");
            button.type = "button";
            button.textContent = "Retry";
            button.setAttribute("aria-label", "Retry " + failure.kind + " of " + failure.path);
            button.addEventListener("click", () => act("retry", { kind: failure.kind, path: globEscape(failure.path) }, button));
            cell(row, "").appendChild(button);
            body.appendChild(row);
          }
          if (failures.length === 0) {
            const row = document.createElement("tr");
            cell(row, "No failed task.").colSpan = 6;
            body.appendChild(row);
          }
        }

        function renderChart(history) {
          const svg = $("#chart"), width = 600, height = 180, pad = 24;
          svg.replaceChildren();
          const points = history.points || [], interval = history.intervalSeconds || 10;
          const ns = "http://www.w3.org/2000/svg";
          let top = 0;
          for (const p of points) for (const k of KINDS) top = Math.max(top, (p.finished[k] || 0) / interval);
          top = top > 0 ? top * 1.1 : 1;
          // The last hour, or since the first sample when that is shorter (at least a minute).
          const now = Date.now() / 1000;
          const span = points.length ? Math.min(3600, Math.max(60, now - points[0].at + interval)) : 3600;
          const x = (at) => pad + (width - 2 * pad) * (1 - (now - at) / span);
          const y = (value) => height - pad - (height - 2 * pad) * value / top;
          for (const fraction of [0, 0.5, 1]) {
            const line = document.createElementNS(ns, "line");
            line.setAttribute("class", "grid");
            line.setAttribute("x1", pad); line.setAttribute("x2", width - pad);
            line.setAttribute("y1", y(top * fraction)); line.setAttribute("y2", y(top * fraction));
            svg.appendChild(line);
            const label = document.createElementNS(ns, "text");
            label.setAttribute("x", 2); label.setAttribute("y", y(top * fraction) - 2);
            label.textContent = (top * fraction).toFixed(top * fraction < 10 ? 1 : 0) + "/s";
            svg.appendChild(label);
          }
          const summary = [];
          for (const kind of KINDS) {
            const series = points.filter((p) => p.finished[kind] !== undefined);
            if (series.length === 0) continue;
            const line = document.createElementNS(ns, "polyline");
            line.setAttribute("class", "kind-" + kind);
            line.setAttribute("fill", "none");
            line.setAttribute("stroke-width", "2");
            line.setAttribute("points", series.map((p) => x(p.at).toFixed(1) + "," + y(p.finished[kind] / interval).toFixed(1)).join(" "));
            svg.appendChild(line);
            const latest = series[series.length - 1].finished[kind] / interval;
            summary.push(kind + " " + latest.toFixed(2) + "/s");
          }
          $("#chart-summary").textContent = summary.length
            ? "Tasks finished per second over the last hour, latest: " + summary.join(", ") + "."
            : "Tasks finished per second: the first samples come within " + interval + " seconds of the dashboard's start.";
          const legend = $("#legend");
          legend.replaceChildren();
          for (const kind of KINDS) {
            const item = document.createElement("li");
            const swatch = document.createElement("span");
            swatch.className = "kind-" + kind;
            item.append(swatch, kind);
            legend.appendChild(item);
          }
        }

        async function act(action, body, button) {
          button.disabled = true;
          try {
            await api(action, body);
            showConnection("");
            await Promise.all([refreshStatus(), refreshFailures()]);
          } catch (error) {
            handle(error);
          } finally {
            button.disabled = false;
          }
        }

        async function refreshStatus() { renderStatus(await api("status")); showConnection(""); }
        async function refreshFailures() { renderFailures(await api("failed?limit=20&order=newest")); }
        async function refreshChart() { renderChart(await api("throughput")); }
        async function refreshLibrary() { renderLibrary(await api("library")); }

        $("#scan-now").addEventListener("click", async () => {
          const button = $("#scan-now");
          button.disabled = true;
          try {
            const answer = await api("scan", {});
            $("#scan-note").textContent = "Asked for a full scan (request " + answer.request + ").";
            await refreshLibrary();
          } catch (error) {
            handle(error);
          } finally {
            button.disabled = false;
          }
        });

        function every(milliseconds, refresh) {
          const run = () => refresh().catch(handle).finally(() => setTimeout(run, milliseconds));
          run();
        }

        whenTokenGiven(() => refreshStatus().then(refreshFailures).then(refreshChart));

        every(2000, refreshStatus);
        every(5000, refreshFailures);
        every(10000, refreshChart);
        every(2000, refreshLibrary);
        """#
}
