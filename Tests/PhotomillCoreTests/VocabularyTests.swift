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
import PhotomillTestSupport
import Testing

@Suite("Vocabulary")
struct VocabularyTests {
    /// The names PROTOCOL.md ("Error classes") and docs/processing.md give the classes, typed
    /// out here rather than taken from the code: the catalog stores them and foreign workers
    /// send them. The first round's two names that contradicted the spec still read.
    @Test("error classes keep their stored names, and an unknown name survives")
    func errorClassNames() throws {
        let documented = [
            "unreadable", "empty", "not-an-image", "unsupported-format", "too-large", "corrupt", "ocr-failed",
            "file-changed", "timeout", "lease-expired", "worker-lost", "interrupted", "protocol", "shutting-down",
        ]
        #expect(ErrorClass.known.map(\.rawValue) == documented)
        for name in documented { #expect(ErrorClass(rawValue: name).rawValue == name) }
        #expect(ErrorClass(rawValue: "deadline-exceeded") == .other("deadline-exceeded"))
        #expect(ErrorClass(rawValue: "worker-crashed") == .workerLost)
        #expect(ErrorClass(rawValue: "changed-since-scan") == .fileChanged)
        #expect(ErrorClass(rawValue: "corrupt") == .corrupt)
        // Only I/O trouble and a changed file are worth another attempt (PROTOCOL.md).
        #expect(ErrorClass.known.filter(\.isRetryable) == [.unreadable, .ocrFailed, .fileChanged])
        let json = try JSONEncoder().encode([ErrorClass.notAnImage, .other("foreign-class")])
        #expect(String(decoding: json, as: UTF8.self) == #"["not-an-image","foreign-class"]"#)
        #expect(try JSONDecoder().decode([ErrorClass].self, from: json) == [.notAnImage, .other("foreign-class")])
    }

    @Test("kinds parse from --kinds lists and sort in processing order")
    func kinds() {
        #expect((try? Kind.parseList(" OCR, hash ").get()) == [.ocr, .hash])
        #expect(Kind.list([.ocr, .thumbnail, .hash]) == "hash,thumbnail,ocr")
        guard case .failure(let error) = Kind.parseList("hash,exif") else {
            Issue.record("an unknown kind was accepted")
            return
        }
        #expect(error.description == "unknown kind 'exif'; the kinds are hash, metadata, thumbnail, ocr, similarity")
        #expect(Kind.allCases.sorted() == [.hash, .metadata, .thumbnail, .ocr, .similarity])
        #expect(Kind.allCases.filter(\.decodesPixels) == [.thumbnail, .ocr, .similarity])
    }

    /// The descriptors against the order of work and the deadlines docs/architecture.md and
    /// docs/operations.md give, typed out here.
    @Test("each kind's descriptor: its index is its place, its tier, deadline and needs")
    func descriptors() {
        #expect(Kind.allCases.map(\.descriptor.index) == [0, 1, 2, 3, 4])
        #expect(Kind.allCases.map(\.tier) == [0, 0, 1, 2, 1] && Kind.tiers == 0...2)
        #expect(Kind.allCases.map(\.descriptor.wireValue) == [1, 2, 3, 4, 5])
        #expect(Kind.defaultDeadlines == [.hash: 60, .metadata: 60, .thumbnail: 120, .ocr: 300, .similarity: 120])
        #expect(Kind.allCases.filter(\.needsLanguage) == [.ocr])
        #expect(MediaType.video.kinds(of: Set(Kind.allCases)) == [.hash, .metadata, .thumbnail, .similarity])
        // A job's lease: its longest kind's deadline, else PROTOCOL.md's 60 s.
        #expect(Kind.jobDeadline([60, 300, 120]) == 300 && Kind.jobDeadline([]) == 60)
    }

    /// docs/catalog.md's examples of recipes.
    @Test("recipes name the code version and the parameters that shape each kind")
    func recipes() {
        var parameters = ProcessingParameters()
        parameters.thumbnailSize = 320
        parameters.ocrLanguage = "eng+deu"
        #expect(parameters.recipe(for: .hash) == "hash/1")
        #expect(parameters.recipe(for: .metadata) == "metadata/2")
        #expect(parameters.recipe(for: .thumbnail) == "thumbnail/2 size=320 q=80")
        #expect(parameters.recipe(for: .ocr) == "ocr/2 lang=eng+deu side=4096 min=80")
        #expect(parameters.recipes[.thumbnail] == "thumbnail/2 size=320 q=80")
        #expect(parameters.recipe(for: .similarity) == "similarity/3 side=320")
    }

    /// PROTOCOL.md, "Recipes": how `reprocess --outdated` judges a result, a foreign
    /// worker's included. Each line is a case the text decides.
    @Test(
        "a result is outdated by an older version or another shaping parameter, not by a foreign worker's own keys",
        arguments: [
            // stored, current, outdated
            ("hash/1", "hash/1", false),
            ("hash/1 impl=pyworker-0.1", "hash/1", false),  // a foreign worker's extra key
            ("metadata/1", "metadata/2", true),  // an older definition
            ("metadata/3", "metadata/2", false),  // a newer worker's
            ("thumbnail/2 q=80 size=256", "thumbnail/2 size=256 q=80", false),  // any order
            ("thumbnail/2 size=320 q=80", "thumbnail/2 size=256 q=80", true),  // another size
            ("thumbnail/2 size=256", "thumbnail/2 size=256 q=80", true),  // a parameter missing
            ("ocr/2 lang=eng side=4096 min=80 engine=lstm", "ocr/2 lang=eng side=4096 min=80", false),
            ("hash/1", "metadata/2", true),  // another kind's
            ("a recipe of my own", "hash/1", true),  // unreadable
            ("", "hash/1", true),
        ]
    )
    func recipeJudgement(stored: String, current: String, outdated: Bool) {
        #expect(Recipe.isOutdated(stored, current: current) == outdated)
    }

    @Test("recipes parse as KIND/VERSION and KEY=VALUE words")
    func recipeParsing() throws {
        let recipe = try #require(Recipe("ocr/2 lang=eng+deu side=4096  min=80"))
        #expect(
            recipe == Recipe(kind: "ocr", version: 2, parameters: ["lang": "eng+deu", "side": "4096", "min": "80"])
        )
        for bad in ["", "hash", "hash/", "/1", "hash/x", "hash/-1", "hash/1 size", "hash/1 =3", "hash/1/2"] {
            #expect(Recipe(bad) == nil, "\(bad)")
        }
        #expect(Recipe.isOutdated(nil, current: "hash/1"))
        // Every recipe photomill itself writes parses, and is current against itself.
        for recipe in ProcessingParameters().recipes.values {
            #expect(Recipe(recipe) != nil && !Recipe.isOutdated(recipe, current: recipe), "\(recipe)")
        }
    }

    @Test(
        "a path lies under a root component-wise",
        arguments: [
            ("/photos/a.jpg", "/photos", true), ("/photos/a.jpg", "/photos/", true), ("/photos", "/photos", true),
            ("/photos2/a.jpg", "/photos", false), ("/phot", "/photos", false), ("/any/where.jpg", "/", true),
        ]
    )
    func pathUnderRoot(path: String, root: String, under: Bool) {
        #expect(path.isPath(under: root) == under)
    }

    @Test("a path prefix is replaced only on a component boundary")
    func pathPrefix() {
        #expect(
            "/volume1/photos/2019/a.jpg".replacingPathPrefix("/volume1/photos", with: "/mnt/photos")
                == "/mnt/photos/2019/a.jpg"
        )
        #expect("/volume1/photos".replacingPathPrefix("/volume1/photos", with: "/mnt/photos") == "/mnt/photos")
        #expect("/volume1/photos2/a.jpg".replacingPathPrefix("/volume1/photos", with: "/mnt/photos") == nil)
    }

    /// Compared with GNU stat's own reading of the same file (`%s`, `%Y` and `%y`).
    @Test("a file's stamp is its size and nanosecond mtime, as stat(1) reads them")
    func fileStamp() throws {
        let url = temporaryFile("stamp")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 7, count: 1234).write(to: url)
        try Tool.output("touch", ["-d", "2019-07-14 18:03:22.123456789 UTC", url.path])
        let stamp = try FileStamp.of(url.path)
        #expect(stamp == FileStamp(size: 1234, mtimeNs: 1_563_127_402_123_456_789))
        #expect(
            stamp.changedMessage(path: "/p/a.jpg", now: FileStamp(size: 99, mtimeNs: 0))
                == "/p/a.jpg: changed since it was scanned (size 1234 → 99); the coordinator scans it again and processes it anew"
        )
        #expect(throws: FileStampError.self) { try FileStamp.of(url.path + ".missing") }
    }
}

/// The perceptual hash's spellings and distances, by hand.
@Suite struct PerceptualHashVocabularyTests {
    @Test func hexChunksAndDistancesByHand() {
        let hash = PerceptualHash(0x8000_0000_0000_00FF)
        #expect(hash.hex == "80000000000000ff")
        #expect(PerceptualHash(0xFF).hex == "00000000000000ff", "16 digits, zero-padded")
        #expect(PerceptualHash(hex: "80000000000000FF") == hash)
        #expect(PerceptualHash(hex: "8000000000000") == nil && PerceptualHash(hex: "80000000000000fg") == nil)
        #expect(hash.chunks == [0x8000, 0, 0, 0x00FF])
        // The catalog's INTEGER: bit 63 set is a negative number, and back.
        #expect(hash.bitPattern == -9_223_372_036_854_775_553)
        #expect(PerceptualHash(bitPattern: hash.bitPattern) == hash)
        // 0x80…ff vs 0: 1 + 8 bits; vs 0x80…0f: the four bits of f0.
        #expect(hash.distance(to: PerceptualHash(0)) == 9)
        #expect(hash.distance(to: PerceptualHash(0x8000_0000_0000_000F)) == 4)
        #expect(PerceptualHash(0).distance(to: PerceptualHash(.max)) == 64)
    }
}
