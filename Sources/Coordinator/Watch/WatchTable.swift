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
import Foundation
import PhotomillCore

/// The folders the watcher watches, by watch descriptor and by path, within a budget of
/// watches: the scanner adds one for each folder before it lists it (so nothing created
/// in between is missed), the watcher renames and drops them as events say. A folder that
/// gets no watch — the budget is spent, or the kernel refuses — is *polled*: the scheduled
/// rescans look at it instead. Shared by the scanner's and the watcher's threads.
final class WatchTable: @unchecked Sendable {
    // @unchecked: every field but `inotify` and `limit` is guarded by `lock`.
    let inotify: Inotify
    /// The most watches this coordinator holds.
    let limit: Int
    private let lock = NSLock()
    private var folders: [Int32: String] = [:]
    private var watches: [String: Int32] = [:]
    /// Folders with no watch, and why (`LibraryWatch.PolledFolder`'s reasons).
    private var polled: [String: LibraryWatch.PolledFolder] = [:]
    private var refusals = 0

    init(inotify: Inotify, limit: Int) {
        self.inotify = inotify
        self.limit = limit
    }

    enum Outcome: Equatable {
        case watched
        /// No watch: the budget is spent.
        case overLimit
        /// The kernel refused it (ENOSPC: the user's limit, shared with other programs; EACCES…).
        case refused(String)
    }

    /// Watches `folder` (again: a watch of the same folder keeps its descriptor).
    func watch(_ folder: String) -> Outcome {
        lock.withLock {
            if watches[folder] == nil && watches.count >= limit {
                polled[folder] = LibraryWatch.PolledFolder(path: folder, reason: "watch-limit")
                return .overLimit
            }
            switch inotify.add(folder) {
            case .success(let watch):
                if let old = watches[folder], old != watch { folders[old] = nil }
                if let other = folders[watch], other != folder { watches[other] = nil }
                folders[watch] = folder
                watches[folder] = watch
                polled[folder] = nil
                return .watched
            case .failure(let error):
                refusals += 1
                let limited = error.code == ENOSPC
                polled[folder] = LibraryWatch.PolledFolder(
                    path: folder,
                    reason: limited ? "watch-limit" : "cannot-watch",
                    detail: limited ? nil : error.description
                )
                return limited ? .overLimit : .refused(error.description)
            }
        }
    }

    /// A folder under a network file system's mount: polled, never watched.
    func poll(_ folder: String, fileSystem: String) {
        lock.withLock {
            polled[folder] = LibraryWatch.PolledFolder(path: folder, reason: "network", detail: fileSystem)
        }
    }

    func folder(of watch: Int32) -> String? { lock.withLock { folders[watch] } }

    /// The kernel dropped a watch (`IN_IGNORED`: the folder was deleted, or unmounted).
    func dropped(_ watch: Int32) {
        lock.withLock {
            guard let folder = folders.removeValue(forKey: watch) else { return }
            if watches[folder] == watch { watches[folder] = nil }
        }
    }

    /// A folder renamed: its watches, and those below it, now name the new paths.
    func rename(from: String, to: String) {
        lock.withLock {
            for (folder, watch) in watches {
                guard let target = folder.replacingPathPrefix(from, with: to) else { continue }
                watches[folder] = nil
                watches[target] = watch
                folders[watch] = target
            }
            for (folder, entry) in polled {
                guard let target = folder.replacingPathPrefix(from, with: to) else { continue }
                polled[folder] = nil
                polled[target] = LibraryWatch.PolledFolder(path: target, reason: entry.reason, detail: entry.detail)
            }
        }
    }

    /// `folder` and those below it left the library (moved out, gone): their watches go.
    func unwatch(under folder: String) {
        let removed: [Int32] = lock.withLock {
            let gone = watches.filter { $0.key.isPath(under: folder) }
            for (path, watch) in gone {
                watches[path] = nil
                folders[watch] = nil
            }
            polled = polled.filter { !$0.key.isPath(under: folder) }
            return Array(gone.values)
        }
        for watch in removed { inotify.remove(watch) }
    }

    /// Forgets that folders under `folder` were polled (a full scan finds them again).
    func forgetPolled(under folder: String) {
        lock.withLock { polled = polled.filter { !$0.key.isPath(under: folder) } }
    }

    var watchedCount: Int { lock.withLock { watches.count } }

    /// The polled folders: how many, and the topmost of them (one whose parent is itself
    /// polled is covered by it), at most `limit`, by path.
    func polledFolders(limit: Int = 100) -> (count: Int, topmost: [LibraryWatch.PolledFolder]) {
        lock.withLock {
            let topmost = polled.values.filter { entry in
                let parent = (entry.path as NSString).deletingLastPathComponent
                return polled[parent] == nil
            }.sorted { $0.path < $1.path }
            return (polled.count, Array(topmost.prefix(limit)))
        }
    }
}
