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
import Testing

@testable import Coordinator

/// inotify's events as the kernel sends them for what people do (the sequences inotify(7)
/// describes for a copy, a rename, a delete and a new folder), and what they mean; the
/// real kernel's are met in Tests/IntegrationTests/LivingLibraryTests.
@Suite struct ChangeInterpreterTests {
    typealias Mask = WatchEvent.Mask

    var clock = MonotonicInstant(nanoseconds: 7_000_000_000_000)
    var interpreter = ChangeInterpreter(roots: ["/lib"]) { path, _ in
        (path as NSString).lastPathComponent.hasPrefix(".") || path.hasSuffix(".tmp")
    }

    mutating func feed(_ folder: String, _ name: String, _ mask: Mask, cookie: UInt32 = 0) -> [ChangeInterpreter.Action]
    {
        interpreter.handle(WatchEvent(folder: folder, name: name, mask: mask, cookie: cookie), at: clock)
    }

    @Test mutating func aCopyIsCreatedWrittenAndClosed() {
        #expect(feed("/lib/a", "x.jpg", .create) == [.settle("/lib/a/x.jpg", .touched)])
        #expect(feed("/lib/a", "x.jpg", .modify) == [.settle("/lib/a/x.jpg", .written)])
        #expect(feed("/lib/a", "x.jpg", .closeWrite) == [.settle("/lib/a/x.jpg", .closedAfterWrite)])
        #expect(feed("/lib/a", "x.jpg", .attrib) == [.settle("/lib/a/x.jpg", .touched)])
        #expect(feed("/lib/a", "x.jpg", .delete) == [.forget("/lib/a/x.jpg"), .check(["/lib/a/x.jpg"])])
    }

    @Test mutating func aRenameIsOneMoveEvenWhenItsTwoEventsArriveApart() {
        #expect(feed("/lib/a", "old", [.movedFrom, .isFolder], cookie: 7).isEmpty)
        clock += 0.05
        #expect(interpreter.tick(at: clock).isEmpty)
        #expect(
            feed("/lib/b", "new", [.movedTo, .isFolder], cookie: 7) == [
                .move(from: "/lib/a/old", to: "/lib/b/new", isFolder: true)
            ]
        )
        #expect(interpreter.nextDeadline == nil)
        #expect(feed("/lib/a", "p.jpg", .movedFrom, cookie: 8).isEmpty)
        #expect(
            feed("/lib/a", "q.jpg", .movedTo, cookie: 8) == [
                .move(from: "/lib/a/p.jpg", to: "/lib/a/q.jpg", isFolder: false)
            ]
        )
    }

    @Test mutating func aDepartureWithoutArrivalLeftAndAnArrivalWithoutDepartureCameIn() {
        #expect(feed("/lib/a", "trip", [.movedFrom, .isFolder], cookie: 9).isEmpty)
        #expect(interpreter.nextDeadline == clock + 0.1)
        clock += 0.1
        #expect(
            interpreter.tick(at: clock) == [.unwatch("/lib/a/trip"), .forget("/lib/a/trip"), .check(["/lib/a/trip"])]
        )
        #expect(feed("/lib/a", "in", [.movedTo, .isFolder], cookie: 10) == [.check(["/lib/a/in"])])
        #expect(feed("/lib/a", "in.jpg", .movedTo, cookie: 11) == [.settle("/lib/a/in.jpg", .touched)])
    }

    @Test mutating func movesIntoAndOutOfIgnoredNamesAreArrivalsAndDepartures() {
        // rsync writes .IMG.jpg.XXXX, then renames it: the photo arrives.
        #expect(feed("/lib/a", ".IMG.jpg.Ab12", .create).isEmpty)
        #expect(feed("/lib/a", ".IMG.jpg.Ab12", .movedFrom, cookie: 3).isEmpty)
        #expect(feed("/lib/a", "IMG.jpg", .movedTo, cookie: 3) == [.settle("/lib/a/IMG.jpg", .touched)])
        // A photo renamed to an excluded name leaves.
        #expect(feed("/lib/a", "b.jpg", .movedFrom, cookie: 4).isEmpty)
        #expect(
            feed("/lib/a", "b.jpg.tmp", .movedTo, cookie: 4) == [.forget("/lib/a/b.jpg"), .check(["/lib/a/b.jpg"])]
        )
        #expect(feed("/lib/a", "c.tmp", .closeWrite).isEmpty)
    }

    @Test mutating func foldersQueueOverflowAndRoots() {
        #expect(feed("/lib", "new", [.create, .isFolder]) == [.check(["/lib/new"])])
        #expect(feed("/lib", "gone", [.delete, .isFolder]) == [.forget("/lib/gone"), .check(["/lib/gone"])])
        #expect(feed("/lib/gone", "", .deleteSelf).isEmpty, "its parent said so")
        #expect(feed("/lib", "", .moveSelf) == [.forget("/lib"), .check(["/lib"])], "a root has no parent watched")
        #expect(feed("", "", .overflow) == [.fullScan])
        #expect(feed("/lib/a", "", .ignored).isEmpty)
    }
}
