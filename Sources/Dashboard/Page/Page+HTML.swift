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

// The dashboard's page. Plain HTML: the figures are filled in by /dashboard.js from the
// API; with no script the page says so. Tables with captions and header cells, real
// buttons, one live region: readable by a screen reader and usable from the keyboard.
enum Page {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>photomill</title>
        <link rel="stylesheet" href="/dashboard.css">
        <script src="/dashboard.js" defer></script>
        </head>
        <body>
        <header>
          <h1>photomill</h1>
          \#(navigation(current: "/"))
          <p id="summary" aria-live="polite">Loading…</p>
          <p id="connection" class="connection" role="status"></p>
        </header>
        <noscript><p class="notice">This page needs JavaScript to read the coordinator's figures; the same figures are in <code>photomill status</code>.</p></noscript>
        <main>
          \#(tokenForm)

          <section aria-labelledby="work-title">
            <h2 id="work-title">Work</h2>
            <div class="scroll">
            <table id="kinds">
              <caption>Tasks per kind: progress, rate over the last minute and time left at that rate</caption>
              <thead><tr>
                <th scope="col">Kind</th><th scope="col">Progress</th><th scope="col" class="num">Done</th>
                <th scope="col" class="num">Failed</th><th scope="col" class="num">Pending</th><th scope="col" class="num">Leased</th>
                <th scope="col" class="num">Per second</th><th scope="col" class="num">ETA</th><th scope="col">Queue</th>
              </tr></thead>
              <tbody></tbody>
            </table>
            </div>
            <ul id="waiting" class="waiting"></ul>
          </section>

          <section aria-labelledby="library-title">
            <h2 id="library-title">Library</h2>
            <ul id="library" class="library"></ul>
            <p><button type="button" id="scan-now">Scan now</button> <span id="scan-note" role="status"></span></p>
            <div class="scroll">
            <table id="skipped">
              <caption>Files and folders the scans left out, per reason (<code>photomill skipped</code> lists them)</caption>
              <thead><tr><th scope="col">Reason</th><th scope="col" class="num">Files</th></tr></thead>
              <tbody></tbody>
            </table>
            </div>
          </section>

          <section aria-labelledby="chart-title">
            <h2 id="chart-title">Throughput, last hour</h2>
            <figure>
              <svg id="chart" role="img" aria-labelledby="chart-summary" viewBox="0 0 600 180" preserveAspectRatio="none"></svg>
              <figcaption id="chart-summary">Tasks finished per second, per kind, sampled since the dashboard started.</figcaption>
            </figure>
            <ul id="legend" class="legend"></ul>
          </section>

          <section aria-labelledby="workers-title">
            <h2 id="workers-title">Workers</h2>
            <div class="scroll">
            <table id="workers">
              <caption>Connected workers</caption>
              <thead><tr>
                <th scope="col">Host</th><th scope="col" class="num">Slots</th><th scope="col" class="num">Jobs in hand</th>
                <th scope="col" class="num">Done</th><th scope="col" class="num">Failed</th><th scope="col" class="num">Heartbeat age</th>
                <th scope="col">Worker</th>
              </tr></thead>
              <tbody></tbody>
            </table>
            </div>
          </section>

          <section aria-labelledby="failures-title">
            <h2 id="failures-title">Latest failures</h2>
            <div class="scroll">
            <table id="failures">
              <caption>The most recent failed tasks, newest first; Retry puts one back in the queue with a fresh attempt budget</caption>
              <thead><tr>
                <th scope="col">File</th><th scope="col">Kind</th><th scope="col">Class</th><th scope="col">Message</th>
                <th scope="col" class="num">Attempts</th><th scope="col">Action</th>
              </tr></thead>
              <tbody></tbody>
            </table>
            </div>
          </section>
        </main>
        </body>
        </html>
        """#
}
