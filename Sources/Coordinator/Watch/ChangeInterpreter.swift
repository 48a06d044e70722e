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

import Foundation
import PhotomillCore

/// What inotify's events mean for the library: a state machine without descriptors or
/// clocks (events and the time in, actions out), tested alone.
///
/// A file's writes, closes and attribute changes go to settling (`SettleMachine`); a
/// deleted file or folder, a new folder and one moved in from outside become paths for
/// the scanner to look at; a rename within the watched folders — `IN_MOVED_FROM` and
/// `IN_MOVED_TO` with one cookie, which the kernel queues one after the other but a read
/// may split — is one move (a folder of 1,000 photos: one move, not 1,000 new files). A
/// departure whose arrival has not come within `pairing` seconds left the watched
/// folders: its path is looked at (gone: missing) and, for a folder, its watches go. An
/// overflowed queue asks for a full scan. Paths `ignored` says (hidden names, excluded
/// ones, photomill's own files) produce nothing, and a move into or out of them is an
/// arrival or a departure.
struct ChangeInterpreter {
    enum Action: Sendable, Hashable {
        /// A change for settling.
        case settle(String, SettleMachine.Hint)
        /// `path` and what lies under it left: stop settling it.
        case forget(String)
        /// The scanner looks at these paths: gone ones become missing, folders are walked.
        case check([String])
        /// A rename within the watched folders (the catalog keeps the photos' results).
        case move(from: String, to: String, isFolder: Bool)
        /// A folder left the watched folders: its watches, and its subfolders', go.
        case unwatch(String)
        /// Events were lost: scan everything.
        case fullScan
    }

    private struct Departure {
        var path: String
        var isFolder: Bool
        var deadline: MonotonicInstant
    }

    /// Seconds an `IN_MOVED_FROM` waits for its `IN_MOVED_TO`.
    let pairing: Double
    let roots: Set<String>
    /// Paths that produce nothing (a folder when `isFolder`).
    let ignored: (String, Bool) -> Bool
    private var departures: [UInt32: Departure] = [:]

    init(roots: Set<String>, pairing: Double = 0.1, ignored: @escaping (String, Bool) -> Bool) {
        self.roots = roots
        self.pairing = pairing
        self.ignored = ignored
    }

    var nextDeadline: MonotonicInstant? { departures.values.map(\.deadline).min() }

    mutating func handle(_ event: WatchEvent, at now: MonotonicInstant) -> [Action] {
        let mask = event.mask
        if mask.contains(.overflow) { return [.fullScan] }
        if mask.contains(.ignored) { return [] }
        if event.name.isEmpty {
            // The watched folder itself: its parent reports it too, unless it is a root; an
            // unmount, though, only the folder sees (what was mounted there is gone).
            guard
                mask.contains(.unmount)
                    || (roots.contains(event.folder) && !mask.isDisjoint(with: [.deleteSelf, .moveSelf]))
            else { return [] }
            return [.forget(event.folder), .check([event.folder])]
        }
        let path = event.path
        let isFolder = mask.contains(.isFolder)
        if mask.contains(.movedFrom) {
            guard !ignored(path, isFolder) else { return [] }
            departures[event.cookie] = Departure(path: path, isFolder: isFolder, deadline: now + pairing)
            return []
        }
        if mask.contains(.movedTo) {
            let departure = departures.removeValue(forKey: event.cookie)
            switch (departure, ignored(path, isFolder)) {
            case (let from?, false): return [.move(from: from.path, to: path, isFolder: isFolder)]
            case (let from?, true): return left(from)
            case (nil, false): return isFolder ? [.check([path])] : [.settle(path, .touched)]
            case (nil, true): return []
            }
        }
        guard !ignored(path, isFolder) else { return [] }
        if mask.contains(.delete) { return [.forget(path), .check([path])] }
        if isFolder {
            // A new folder (its files may have come before its watch), or one whose permissions changed.
            return mask.isDisjoint(with: [.create, .attrib]) ? [] : [.check([path])]
        }
        if mask.contains(.closeWrite) { return [.settle(path, .closedAfterWrite)] }
        if mask.contains(.modify) { return [.settle(path, .written)] }
        if !mask.isDisjoint(with: [.create, .attrib]) { return [.settle(path, .touched)] }
        return []
    }

    /// Departures whose arrival did not come: they left the watched folders.
    mutating func tick(at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        for (cookie, departure) in departures where departure.deadline <= now {
            departures[cookie] = nil
            actions += left(departure)
        }
        return actions
    }

    private func left(_ departure: Departure) -> [Action] {
        (departure.isFolder ? [.unwatch(departure.path)] : []) + [.forget(departure.path), .check([departure.path])]
    }
}
