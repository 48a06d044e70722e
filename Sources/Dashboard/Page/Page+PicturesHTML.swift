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

import Catalog

// The Library and Duplicates pages: plain HTML filled in by /pictures.js, which also draws
// the thumbnails (fetched with the token, so an <img src> alone would not do). Forms with
// labels, real buttons, one live region per list: usable from the keyboard and readable by
// a screen reader. Nothing on them deletes or changes a file.
extension Page {
    static let libraryHTML = page(
        title: "Library",
        path: "/library",
        body: #"""
              <section aria-labelledby="search-title">
                <h2 id="search-title">Library</h2>
                <form id="search" role="search" class="filters">
                  <label>Text <input name="text" type="search" placeholder="words in the picture, title or keywords"></label>
                  <label>Camera <input name="camera" type="text" placeholder="make or model"></label>
                  <label>From <input name="from" type="date"></label>
                  <label>To <input name="to" type="date"></label>
                  <label>Place <input name="near" type="text" placeholder="lat,lon,km" inputmode="decimal"></label>
                  <label>Type
                    <select name="type"><option value="">any</option><option>photo</option><option>raw</option><option>video</option></select>
                  </label>
                  <label>Rating at least
                    <select name="rating"><option value="">any</option><option value="-1">rejected</option><option>1</option><option>2</option>
                      <option>3</option><option>4</option><option>5</option></select>
                  </label>
                  <button type="submit">Search</button>
                </form>
                <p id="results-summary" class="summary" aria-live="polite"></p>
                <div class="library">
                  <ul id="grid" class="grid" aria-label="Photos found"></ul>
                  <section id="panel" class="panel" aria-labelledby="panel-title" tabindex="-1" hidden>
                    <div class="panel-head">
                      <h2 id="panel-title"></h2>
                      <button type="button" id="panel-close">Close</button>
                    </div>
                    <img id="panel-image" alt="">
                    <dl id="panel-facts" class="facts"></dl>
                    <h3>Recognised text</h3>
                    <pre id="panel-text" class="text"></pre>
                  </section>
                </div>
              </section>
            """#
    )

    static let duplicatesHTML = page(
        title: "Duplicates",
        path: "/duplicates",
        body: #"""
              <section aria-labelledby="duplicates-title">
                <h2 id="duplicates-title">Duplicates</h2>
                <p>Exact copies have the same bytes (MD5). Similar photos look alike: resized, re-saved,
                  converted, turned or slightly cropped copies (perceptual hash, <code>photomill similar</code>).
                  Nothing on this page deletes a file: the best copy is a suggestion.</p>
                <form id="distance-form" class="filters">
                  <label>Distance in bits
                    <input name="distance" type="number" min="\#(Catalog.similarDistances.lowerBound)"
                           max="\#(Catalog.similarDistances.upperBound)" value="\#(Catalog.defaultSimilarDistance)" required>
                  </label>
                  <button type="submit">Show</button>
                </form>
              </section>
              <div class="columns">
                <section aria-labelledby="exact-title">
                  <h2 id="exact-title">Exact copies</h2>
                  <p id="exact-summary" class="summary" aria-live="polite"></p>
                  <ol id="exact-groups" class="groups"></ol>
                </section>
                <section aria-labelledby="similar-title">
                  <h2 id="similar-title">Similar photos</h2>
                  <p id="similar-summary" class="summary" aria-live="polite"></p>
                  <ol id="similar-groups" class="groups"></ol>
                </section>
              </div>
            """#
    )

    /// A page around `body`, with the dashboard's header, navigation and token form.
    static func page(title: String, path: String, body: String) -> String {
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\#(title) · photomill</title>
        <link rel="stylesheet" href="/dashboard.css">
        <link rel="stylesheet" href="/pictures.css">
        <script src="/pictures.js" defer></script>
        </head>
        <body data-page="\#(title.lowercased())">
        <header>
          <h1>photomill</h1>
          \#(navigation(current: path))
          <p id="connection" class="connection" role="status"></p>
        </header>
        <noscript><p class="notice">This page needs JavaScript to read the catalog; the same answers are in <code>photomill search</code>, <code>duplicates</code> and <code>similar</code>.</p></noscript>
        <main>
        \#(tokenForm)
        \#(body)
        </main>
        </body>
        </html>
        """#
    }
}
