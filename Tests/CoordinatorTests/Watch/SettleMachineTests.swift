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

/// Settling, event by event on a manual clock: the file the machine hands over, and when,
/// follow from the rules in `SettleMachine`'s comment (times worked out by hand below).
@Suite struct SettleMachineTests {
    /// The machine and a stand-in file system: `looks` answers each look from `files`.
    struct Rig {
        var machine: SettleMachine
        var now = MonotonicInstant(nanoseconds: 5_000_000_000_000)
        var files: [String: SettleStamp] = [:]
        var handed: [SettleMachine.Action] = []
        var looks = 0

        init(window: Double = 2, bound: Double? = nil, capacity: Int = 100) {
            machine = SettleMachine(configuration: .init(window: window, bound: bound, capacity: capacity))
        }

        mutating func event(_ path: String, _ hint: SettleMachine.Hint) {
            handed += machine.changed(path, hint, at: now)
        }

        /// Moves time on in steps of 0.1 s, ticking and answering looks as the watcher's loop does.
        mutating func run(for seconds: Double) {
            let end = now + seconds
            while now < end {
                tick()
                now += 0.1
            }
        }

        mutating func tick() {
            for action in machine.tick(at: now) {
                guard case .look(let paths) = action else {
                    handed.append(action)
                    continue
                }
                for path in paths {
                    looks += 1
                    handed += machine.observed(path, files[path], at: now)
                }
            }
        }

        /// Writes to a file: a new size, mtime and ctime, and the event.
        mutating func write(_ path: String, size: Int64) {
            let ns = now.nanoseconds
            files[path] = SettleStamp(size: size, mtimeNs: ns, ctimeNs: ns)
            event(path, .written)
        }

        var settled: [String] {
            handed.flatMap { action -> [String] in if case .settled(let p) = action { p } else { [] } }
        }
        var unsettled: [String] {
            handed.flatMap { action -> [String] in if case .unsettled(let p) = action { p } else { [] } }
        }
    }

    @Test func aCopyIsHandedOverOneWindowAfterItCloses() {
        var rig = Rig(window: 2)
        let start = rig.now
        rig.event("/p/a.jpg", .touched)  // IN_CREATE
        for step in 0..<10 {  // 1 s of writes
            rig.write("/p/a.jpg", size: Int64(step + 1) * 1000)
            rig.run(for: 0.1)
        }
        #expect(rig.settled.isEmpty)
        rig.event("/p/a.jpg", .closedAfterWrite)
        let closed = rig.now
        rig.run(for: 1.9)
        #expect(rig.settled.isEmpty, "not before a whole window after the close")
        rig.run(for: 0.2)
        #expect(rig.settled == ["/p/a.jpg"])
        // Looked at when first seen, once more a window later (writes), at the close, and a window after it.
        #expect(rig.looks <= 4)
        #expect(rig.now - closed >= 2 && rig.now - closed < 2.2)
        #expect(rig.now - start < 3.4)
        #expect(rig.machine.count == 0 && rig.machine.nextDeadline == nil)
    }

    @Test func aFileWrittenSlowlyWaitsUntilItStopsAndIsHandedOverOnce() {
        var rig = Rig(window: 2)
        rig.event("/p/slow.jpg", .touched)
        for second in 0..<30 {  // a write a second for 30 s, one writer
            rig.write("/p/slow.jpg", size: Int64(second + 1) * 100_000)
            rig.run(for: 1)
        }
        #expect(rig.handed.isEmpty)
        rig.event("/p/slow.jpg", .closedAfterWrite)
        rig.run(for: 5)
        #expect(rig.settled == ["/p/slow.jpg"])
        #expect(rig.handed.count == 1)
        // A look a window at most while it grew: ~15 in 30 s, not one per write event.
        #expect(rig.looks <= 18)
    }

    @Test func anOpenWriterKeepsItWaitingEvenWhenTheBytesStandStill() {
        var rig = Rig(window: 2, bound: 60)
        rig.write("/p/held.mov", size: 10)
        rig.run(for: 10)  // writer open, idle: size and times still
        #expect(rig.handed.isEmpty, "a writer holds it")
        rig.event("/p/held.mov", .closedAfterWrite)
        rig.run(for: 2.2)
        #expect(rig.settled == ["/p/held.mov"])
    }

    @Test func withoutAnyWriterTheStampAloneDecides() {
        var rig = Rig(window: 2)
        rig.files["/p/linked.jpg"] = SettleStamp(size: 5, mtimeNs: 1, ctimeNs: 1)
        rig.event("/p/linked.jpg", .touched)  // a hard link, a rename, a scan's find: no write seen
        rig.run(for: 1.95)
        #expect(rig.settled.isEmpty)
        rig.run(for: 0.1)
        #expect(rig.settled == ["/p/linked.jpg"])
    }

    @Test func aChangeOfTheChangeTimeAloneRestartsTheWindow() {
        var rig = Rig(window: 2)
        rig.files["/p/t.jpg"] = SettleStamp(size: 5, mtimeNs: 1, ctimeNs: 1)
        rig.event("/p/t.jpg", .touched)
        rig.run(for: 1.5)
        // Rewritten elsewhere with its mtime put back: only ctime moves (no event reached us).
        rig.files["/p/t.jpg"] = SettleStamp(size: 5, mtimeNs: 1, ctimeNs: 99)
        rig.run(for: 1)
        #expect(rig.settled.isEmpty, "the look at 2 s saw another ctime")
        rig.run(for: 2)
        #expect(rig.settled == ["/p/t.jpg"])
    }

    @Test func aFileStillChangingAfterTheBoundIsHandedOverUnsettledAndTrackedAfresh() {
        var rig = Rig(window: 2, bound: 20)
        for second in 0..<45 {
            rig.write("/p/log.mov", size: Int64(second + 1))
            rig.run(for: 1)
        }
        // First change at 0: handed over at the first look at or after 20 s, then at or after 40 s.
        #expect(rig.unsettled == ["/p/log.mov", "/p/log.mov"])
        #expect(rig.settled.isEmpty)
    }

    @Test func goneFilesVanishRenamesFollowAndFoldersAreForgottenWhole() {
        var rig = Rig(window: 2)
        rig.files["/p/a/1.jpg"] = SettleStamp(size: 1, mtimeNs: 1, ctimeNs: 1)
        rig.files["/p/a/2.jpg"] = SettleStamp(size: 1, mtimeNs: 1, ctimeNs: 1)
        rig.event("/p/a/1.jpg", .touched)
        rig.event("/p/a/2.jpg", .touched)
        rig.event("/p/gone.jpg", .touched)
        rig.run(for: 0.5)
        #expect(rig.handed == [.vanished(["/p/gone.jpg"])])
        // The folder is renamed while its files settle: they settle under their new paths.
        rig.machine.renamed(from: "/p/a", to: "/p/b")
        rig.files["/p/b/1.jpg"] = rig.files.removeValue(forKey: "/p/a/1.jpg")
        rig.files["/p/b/2.jpg"] = rig.files.removeValue(forKey: "/p/a/2.jpg")
        rig.run(for: 4.5)
        #expect(Set(rig.settled) == ["/p/b/1.jpg", "/p/b/2.jpg"])
        rig.event("/p/c/x.jpg", .touched)
        rig.event("/p/cc.jpg", .touched)
        rig.machine.forget("/p/c")
        #expect(rig.machine.isTracked("/p/cc.jpg") && !rig.machine.isTracked("/p/c/x.jpg"))
    }

    @Test func pastItsCapacityTheMachineForgetsAllAndAsksForAFullScan() {
        var rig = Rig(window: 2, capacity: 3)
        for index in 0..<3 { rig.event("/p/\(index).jpg", .touched) }
        #expect(rig.machine.count == 3 && rig.handed.isEmpty)
        rig.event("/p/3.jpg", .touched)
        #expect(rig.handed == [.overflow])
        #expect(rig.machine.count == 0)
    }
}
