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
    /// Each kind's colour in the chart and its legend (light, dark), by its
    /// `descriptor.index`: a new kind takes the next one, with no edit here.
    static let kindColours = [
        ("#0b5cad", "#6cb0ff"), ("#8a4baf", "#d3a6f5"), ("#b35c00", "#ffb86b"), ("#1e7b34", "#7bd88f"),
        ("#a8326e", "#ff8fc4"), ("#00768a", "#6fd6e8"), ("#6b6b00", "#e0e070"), ("#5b636d", "#a3acb7"),
    ]

    /// `--KIND: colour;` for every kind, light (`dark` false) or dark.
    static func kindVariables(dark: Bool) -> String {
        Kind.allCases.map { kind in
            let colours = kindColours[kind.descriptor.index % kindColours.count]
            return "--\(kind.rawValue): \(dark ? colours.1 : colours.0);"
        }.joined(separator: " ")
    }

    /// One column on a phone, tables scrolling sideways inside their section; focus always
    /// visible; the system's light or dark scheme.
    static let css = #"""
        :root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b636d; --bg: #ffffff; --card: #f4f6f8; --line: #d5dae0;
                --accent: #0b5cad; --bad: #b3261e; --ok: #1e7b34; \#(kindVariables(dark: false)) }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e6e9ed; --muted: #a3acb7; --bg: #14171b; --card: #1e2227; --line: #343a42;
                  --accent: #6cb0ff; --bad: #ff8a80; --ok: #7bd88f; \#(kindVariables(dark: true)) }
        }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
        header, main { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
        header { padding-top: 1rem; }
        h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
        section { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .25rem 1rem 1rem; margin: 1rem 0; }
        #summary { margin: 0; color: var(--muted); }
        .pages { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; margin: 0 0 .35rem; }
        .pages a { color: var(--accent); }
        .pages a[aria-current="page"] { color: var(--fg); font-weight: 600; text-decoration: none; }
        .connection { margin: .25rem 0 0; color: var(--bad); min-height: 1.45em; }
        .notice { background: var(--card); border: 1px solid var(--bad); border-radius: .5rem; padding: .75rem 1rem; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        caption { text-align: left; color: var(--muted); font-size: .875rem; padding-bottom: .25rem; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-weight: 600; white-space: nowrap; }
        .num { text-align: right; white-space: nowrap; }
        td.path { word-break: break-all; min-width: 12rem; }
        td.message { min-width: 14rem; }
        progress { width: 100%; min-width: 6rem; height: 1rem; accent-color: var(--accent); }
        button { font: inherit; padding: .35rem .8rem; border-radius: .35rem; border: 1px solid var(--accent); background: var(--bg);
                 color: var(--accent); cursor: pointer; min-height: 2.25rem; }
        button:hover { background: var(--accent); color: var(--bg); }
        button:disabled { opacity: .5; cursor: default; }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .paused { color: var(--bad); font-weight: 600; }
        .waiting { color: var(--muted); padding-left: 1.2rem; }
        .library { padding-left: 1.2rem; }
        figure { margin: 0; }
        svg { width: 100%; height: 12rem; background: var(--bg); border: 1px solid var(--line); border-radius: .35rem; }
        svg .grid { stroke: var(--line); stroke-width: 1; }
        svg text { fill: var(--muted); font-size: 11px; }
        figcaption { color: var(--muted); font-size: .875rem; margin-top: .25rem; }
        .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem; margin: .5rem 0 0; }
        .legend span { display: inline-block; width: 1rem; height: .25rem; margin-right: .35rem; vertical-align: middle; }
        \#(Kind.allCases.map { ".kind-\($0.rawValue) { stroke: var(--\($0.rawValue)); background: var(--\($0.rawValue)); }" }.joined(separator: "\n"))
        @media (max-width: 40rem) {
          body { font-size: 15px; }
          header, main { padding: 0 .5rem; }
          section { padding: .25rem .5rem .75rem; }
          th, td { padding: .3rem .35rem; }
        }
        """#
}
