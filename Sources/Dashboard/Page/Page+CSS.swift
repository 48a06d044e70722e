extension Page {
    /// One column on a phone, tables scrolling sideways inside their section; focus always
    /// visible; the system's light or dark scheme.
    static let css = #"""
    :root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b636d; --bg: #ffffff; --card: #f4f6f8; --line: #d5dae0;
            --accent: #0b5cad; --bad: #b3261e; --ok: #1e7b34; --hash: #0b5cad; --metadata: #8a4baf; --thumbnail: #b35c00; --ocr: #1e7b34; }
    @media (prefers-color-scheme: dark) {
      :root { --fg: #e6e9ed; --muted: #a3acb7; --bg: #14171b; --card: #1e2227; --line: #343a42;
              --accent: #6cb0ff; --bad: #ff8a80; --ok: #7bd88f; --hash: #6cb0ff; --metadata: #d3a6f5; --thumbnail: #ffb86b; --ocr: #7bd88f; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
    header, main { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
    header { padding-top: 1rem; }
    h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
    h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
    section { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .25rem 1rem 1rem; margin: 1rem 0; }
    #summary { margin: 0; color: var(--muted); }
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
    .kind-hash { stroke: var(--hash); background: var(--hash); }
    .kind-metadata { stroke: var(--metadata); background: var(--metadata); }
    .kind-thumbnail { stroke: var(--thumbnail); background: var(--thumbnail); }
    .kind-ocr { stroke: var(--ocr); background: var(--ocr); }
    @media (max-width: 40rem) {
      body { font-size: 15px; }
      header, main { padding: 0 .5rem; }
      section { padding: .25rem .5rem .75rem; }
      th, td { padding: .3rem .35rem; }
    }
    """#
}
