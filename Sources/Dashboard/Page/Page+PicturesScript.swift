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
    /// The Library and Duplicates pages' script (`document.body.dataset.page` says which).
    /// Thumbnails are fetched with the token, six at a time, and kept by the browser's
    /// cache, which asks again with the ETag (a 304 costs no bytes). Text only through
    /// textContent: paths, metadata and recognised text are never markup. The address keeps
    /// the search (`/library?camera=…`, `/duplicates?distance=…`), so a search can be
    /// linked and reloaded.
    static let picturesScript = #"""
        "use strict";
        \#(apiScript)

        const fileName = (path) => path.slice(path.lastIndexOf("/") + 1);
        const bytes = (n) => n >= 1048576 ? (n / 1048576).toFixed(1) + " MB" : Math.max(1, Math.round(n / 1024)) + " KB";

        // Thumbnails: at most six requests at a time.
        const waiting = [];
        let fetching = 0;

        function frame(path) {
          const box = document.createElement("div");
          box.className = "frame";
          const img = document.createElement("img");
          img.alt = fileName(path);
          img.dataset.path = path;
          box.appendChild(img);
          waiting.push(img);
          pump();
          return box;
        }

        function pump() {
          while (fetching < 6 && waiting.length) {
            const img = waiting.shift();
            fetching++;
            loadThumbnail(img).catch(handle).finally(() => { fetching--; pump(); });
          }
        }

        async function loadThumbnail(img) {
          const response = await fetch("/api/v1/thumbnail?path=" + encodeURIComponent(img.dataset.path), { headers: authorization() });
          if (response.status === 401) throw new Unauthorized();
          if (!response.ok) {
            const note = document.createElement("span");
            note.className = "missing";
            note.textContent = "no thumbnail";
            img.replaceWith(note);
            return;
          }
          img.src = URL.createObjectURL(await response.blob());
          await img.decode().catch(() => {});
          img.dataset.loaded = "true";
        }

        /// Drops the thumbnails of a list about to be drawn again.
        function forget(list) {
          waiting.length = 0;
          for (const img of list.querySelectorAll("img[src^='blob:']")) URL.revokeObjectURL(img.src);
          list.replaceChildren();
        }

        // MARK: Library

        function searchParameters() {
          const parameters = new URLSearchParams();
          for (const [name, value] of new FormData($("#search"))) {
            if (String(value).trim()) parameters.set(name, String(value).trim());
          }
          return parameters;
        }

        const LIMIT = 200;

        async function search() {
          const parameters = searchParameters();
          history.replaceState(null, "", "/library" + (parameters.toString() ? "?" + parameters : ""));
          parameters.set("limit", String(LIMIT));
          $("#results-summary").textContent = "Searching…";
          // URLSearchParams writes a space as "+", which the server reads as itself: "%20".
          const answer = await api("search?" + parameters.toString().replaceAll("+", "%20"));
          showConnection("");
          const grid = $("#grid");
          forget(grid);
          for (const photo of answer.photos) {
            const tile = document.createElement("button");
            tile.type = "button";
            tile.className = "tile";
            tile.dataset.path = photo.path;
            tile.setAttribute("aria-pressed", "false");
            const name = document.createElement("span");
            name.className = "name";
            name.textContent = fileName(photo.path);
            tile.append(frame(photo.path), name);
            tile.addEventListener("click", () => openPanel(photo.path, tile).catch(handle));
            const item = document.createElement("li");
            item.appendChild(tile);
            grid.appendChild(item);
          }
          const count = answer.photos.length;
          $("#results-summary").textContent = count === 0 ? "No photo found."
            : count >= LIMIT ? "The first " + LIMIT + " photos found; narrow the search for the others."
            : count + (count === 1 ? " photo found." : " photos found.");
        }

        function facts(photo) {
          const m = photo.metadata || {}, rows = [];
          const add = (name, value) => { if (value !== undefined && value !== null && value !== "") rows.push([name, String(value)]); };
          add("Path", photo.path);
          add("Size", bytes(photo.size) + " (" + photo.size.toLocaleString("en") + " bytes)");
          add("Type", [m.mediaType, photo.format].filter(Boolean).join(", "));
          if (m.pixelWidth && m.pixelHeight) add("Pixels", m.pixelWidth + " × " + m.pixelHeight);
          add("Taken", m.dateTaken);
          add("Modified", m.fileModificationDate);
          add("Camera", [m.cameraMake, m.cameraModel].filter(Boolean).join(" "));
          add("Lens", m.lensModel);
          const exposure = [];
          if (m.aperture) exposure.push("f/" + m.aperture.toFixed(1));
          if (m.shutterSpeed) exposure.push(m.shutterSpeed < 1 ? "1/" + Math.round(1 / m.shutterSpeed) + " s" : m.shutterSpeed + " s");
          if (m.iso) exposure.push("ISO " + m.iso);
          if (m.focalLength) exposure.push(m.focalLength + " mm");
          add("Exposure", exposure.join(" · "));
          if (m.gpsLatitude !== undefined && m.gpsLongitude !== undefined) add("Place", m.gpsLatitude.toFixed(5) + ", " + m.gpsLongitude.toFixed(5));
          add("Orientation", m.orientation);
          if (m.duration) add("Duration", m.duration.toFixed(1) + " s");
          add("Codec", m.videoCodec);
          add("Title", m.title);
          add("Description", m.description);
          add("Keywords", (m.keywords || []).join(", "));
          add("Rating", m.rating);
          add("Label", m.label);
          add("Sidecar", photo.sidecarPath);
          add("Live Photo with", photo.livePhoto);
          add("MD5", photo.md5);
          add("Perceptual hash", photo.perceptualHash);
          if (photo.missingAt) add("Missing since", new Date(photo.missingAt * 1000).toISOString());
          return rows;
        }

        let opener = null;

        async function openPanel(path, tile) {
          const photo = await api("photo?path=" + encodeURIComponent(path));
          for (const other of document.querySelectorAll(".tile[aria-pressed='true']")) other.setAttribute("aria-pressed", "false");
          tile.setAttribute("aria-pressed", "true");
          opener = tile;
          const panel = $("#panel");
          panel.dataset.path = photo.path;
          $("#panel-title").textContent = fileName(photo.path);
          const image = $("#panel-image"), shown = tile.querySelector("img[data-loaded]");
          image.hidden = !shown;
          if (shown) {
            image.src = shown.src;
            image.alt = "Thumbnail of " + fileName(photo.path);
          }
          const list = $("#panel-facts");
          list.replaceChildren();
          for (const [name, value] of facts(photo)) {
            const term = document.createElement("dt"), detail = document.createElement("dd");
            term.textContent = name;
            detail.textContent = value;
            list.append(term, detail);
          }
          $("#panel-text").textContent = photo.ocrText || "(none)";
          panel.hidden = false;
          panel.focus();
        }

        function closePanel() {
          $("#panel").hidden = true;
          if (opener) opener.focus();
        }

        // MARK: Duplicates

        function member(path, caption, best) {
          const item = document.createElement("li");
          item.className = "member" + (best ? " best" : "");
          item.dataset.path = path;
          const figure = document.createElement("figure");
          const text = document.createElement("figcaption");
          if (best) {
            const badge = document.createElement("span");
            badge.className = "badge";
            badge.textContent = "suggested best copy ";
            text.appendChild(badge);
          }
          text.append(caption);
          figure.append(frame(path), text);
          item.appendChild(figure);
          return item;
        }

        function group(title, members, data) {
          const item = document.createElement("li");
          item.className = "group";
          Object.assign(item.dataset, data);
          const heading = document.createElement("h3");
          heading.textContent = title;
          const list = document.createElement("ul");
          list.className = "members";
          list.append(...members);
          item.append(heading, list);
          return item;
        }

        function summary(count, shown, noun) {
          if (count === 0) return "None.";
          return count + " " + noun + (count === 1 ? "" : "s") + (shown < count ? ", the largest " + shown + " shown." : ".");
        }

        async function showDuplicates() {
          const distance = $("#distance-form").elements.distance.value;
          history.replaceState(null, "", "/duplicates?distance=" + encodeURIComponent(distance));
          const answer = await api("duplicates?distance=" + encodeURIComponent(distance));
          showConnection("");
          const exact = $("#exact-groups"), similar = $("#similar-groups");
          forget(exact);
          forget(similar);
          for (const copies of answer.exact) {
            const links = new Map();
            for (const link of copies.hardLinks || []) for (const path of link.slice(1)) links.set(path, link[0]);
            exact.appendChild(group(copies.copies + " copies of " + bytes(copies.size), copies.paths.map((path) =>
              member(path, fileName(path) + (links.has(path) ? " (hard link of " + fileName(links.get(path)) + ")" : ""), false)),
              { md5: copies.md5 }));
          }
          for (const alike of answer.similar) {
            const best = alike.photos[0];
            similar.appendChild(group(alike.photos.length + " alike; keep " + fileName(best.path), alike.photos.map((photo) => {
              const parts = [fileName(photo.path)];
              if (photo.pixelWidth && photo.pixelHeight) parts.push(photo.pixelWidth + "×" + photo.pixelHeight);
              parts.push(bytes(photo.size));
              if (photo.date) parts.push(photo.date);
              if (!photo.best) parts.push("distance " + photo.distance);
              if (photo.exactCopyOf) parts.push("exact copy of " + fileName(photo.exactCopyOf));
              return member(photo.path, parts.join(" · "), photo.best === true);
            }), { best: best.path }));
          }
          $("#exact-summary").textContent = summary(answer.exactGroups, answer.exact.length, "group");
          $("#similar-summary").textContent = summary(answer.similarGroups, answer.similar.length, "group") +
            " Distance " + answer.distance + " bits.";
        }

        // MARK: Start

        if (document.body.dataset.page === "library") {
          const given = new URLSearchParams(location.search);
          for (const [name, value] of given) if ($("#search").elements[name]) $("#search").elements[name].value = value;
          $("#search").addEventListener("submit", (event) => { event.preventDefault(); search().catch(handle); });
          $("#panel-close").addEventListener("click", closePanel);
          $("#panel").addEventListener("keydown", (event) => { if (event.key === "Escape") closePanel(); });
          whenTokenGiven(search);
          search().catch(handle);
        } else {
          const given = new URLSearchParams(location.search).get("distance");
          if (given) $("#distance-form").elements.distance.value = given;
          $("#distance-form").addEventListener("submit", (event) => { event.preventDefault(); showDuplicates().catch(handle); });
          whenTokenGiven(showDuplicates);
          showDuplicates().catch(handle);
        }
        """#
}
