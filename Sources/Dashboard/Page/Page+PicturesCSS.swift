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
    /// The pictures pages, beside the dashboard's own style: a grid of thumbnails that
    /// reflows to two columns on a phone, the photo's panel beside the grid on a wide
    /// screen and under it on a narrow one, groups side by side when there is room.
    static let picturesCSS = #"""
        .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
        .filters label { display: flex; flex-direction: column; font-size: .875rem; color: var(--muted); gap: .15rem; }
        .filters input, .filters select { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line);
                                          border-radius: .35rem; padding: .3rem .45rem; min-height: 2.25rem; max-width: 100%; }
        .filters input[type="search"] { min-width: 14rem; }
        .summary { color: var(--muted); }
        .library { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
        @media (min-width: 60rem) { .library:has(.panel:not([hidden])) { grid-template-columns: minmax(0, 1fr) 22rem; } }
        .grid { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem;
                grid-template-columns: repeat(auto-fill, minmax(8.5rem, 1fr)); }
        .tile { display: flex; flex-direction: column; align-items: stretch; width: 100%; padding: .3rem; gap: .25rem;
                border: 1px solid var(--line); background: var(--bg); color: var(--fg); text-align: left; }
        .tile:hover { background: var(--card); color: var(--fg); }
        .tile[aria-pressed="true"] { border: 2px solid var(--accent); }
        .frame { aspect-ratio: 1; display: flex; align-items: center; justify-content: center; background: var(--card);
                 border-radius: .25rem; overflow: hidden; }
        .frame img { max-width: 100%; max-height: 100%; object-fit: contain; display: block; }
        .frame .missing { color: var(--muted); font-size: .8rem; padding: .5rem; text-align: center; }
        .name { font-size: .8rem; word-break: break-all; line-height: 1.25; }
        .panel { background: var(--bg); border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; margin: 0;
                 align-self: start; }
        .panel-head { display: flex; gap: .5rem; justify-content: space-between; align-items: flex-start; }
        .panel-head h2 { margin: .25rem 0; word-break: break-all; font-size: 1rem; }
        #panel-image { display: block; max-width: 100%; margin: .5rem auto; border-radius: .25rem; }
        .facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .2rem .75rem; margin: .5rem 0; font-size: .9rem; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; word-break: break-word; }
        .text { white-space: pre-wrap; word-break: break-word; font-size: .85rem; background: var(--card); padding: .5rem;
                border-radius: .35rem; max-height: 16rem; overflow: auto; }
        .columns { display: grid; gap: 0 1rem; grid-template-columns: minmax(0, 1fr); }
        @media (min-width: 60rem) { .columns { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
        .groups { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: .75rem; }
        .group { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem; background: var(--bg); }
        .group h3 { font-size: .95rem; margin: 0 0 .4rem; }
        .members { list-style: none; padding: 0; margin: 0; display: grid; gap: .5rem;
                   grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); }
        .member figure { margin: 0; }
        .member figcaption { font-size: .8rem; word-break: break-all; line-height: 1.3; margin-top: .2rem; }
        .member.best .frame { outline: 3px solid var(--ok); outline-offset: -3px; }
        .badge { display: inline-block; font-size: .75rem; font-weight: 600; color: var(--ok); }
        """#
}
