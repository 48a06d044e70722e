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

extension Page {
    /// What every page's script starts with: the token, when the server wants one, from the
    /// address's #token=… (never sent to the server in the URL, and removed from it) or the
    /// page's form, kept in this tab only; `api` for the JSON API; `handle` for its failures.
    /// The page has `#connection` and the form `tokenForm`.
    static let apiScript = #"""
        const $ = (selector) => document.querySelector(selector);
        let token = sessionStorage.getItem("photomill-token") || "";

        (function takeTokenFromAddress() {
          const match = location.hash.match(/token=([^&]+)/);
          if (!match) return;
          token = decodeURIComponent(match[1]);
          sessionStorage.setItem("photomill-token", token);
          history.replaceState(null, "", location.pathname + location.search);
        })();

        class Unauthorized extends Error {}

        function authorization() { return token ? { "Authorization": "Bearer " + token } : {}; }

        async function api(path, body) {
          const headers = authorization();
          const options = { headers, cache: "no-store" };
          if (body !== undefined) {
            options.method = "POST";
            headers["Content-Type"] = "application/json";
            options.body = JSON.stringify(body);
          }
          const response = await fetch("/api/v1/" + path, options);
          if (response.status === 401) throw new Unauthorized();
          const answer = await response.json();
          if (!response.ok) throw new Error(answer.error || response.statusText);
          return answer;
        }

        function showConnection(text) { $("#connection").textContent = text; }

        function handle(error) {
          if (error instanceof Unauthorized) {
            $("#token-form").hidden = false;
            showConnection("The coordinator wants its token.");
          } else {
            showConnection("Cannot reach the coordinator: " + error.message);
          }
        }

        /// Once a token is given in the form, `refresh()` again.
        function whenTokenGiven(refresh) {
          $("#token-form").addEventListener("submit", (event) => {
            event.preventDefault();
            token = $("#token").value.trim();
            sessionStorage.setItem("photomill-token", token);
            $("#token-form").hidden = true;
            refresh().catch(handle);
          });
        }
        """#

    /// The form `apiScript` shows when the server wants a token.
    static let tokenForm = #"""
        <form id="token-form" class="notice" hidden>
          <label for="token">This dashboard needs the coordinator's token (the file given to <code>--http-token-file</code>):</label>
          <input id="token" name="token" type="password" autocomplete="off" required>
          <button type="submit">Use token</button>
        </form>
        """#

    /// The links between the pages; `current` is the path of this one.
    static func navigation(current: String) -> String {
        let pages = [("/", "Work"), ("/library", "Library"), ("/duplicates", "Duplicates")]
        let links = pages.map { path, title in
            "<li><a href=\"\(path)\"\(path == current ? " aria-current=\"page\"" : "")>\(title)</a></li>"
        }
        return "<nav aria-label=\"Pages\"><ul class=\"pages\">" + links.joined() + "</ul></nav>"
    }
}
