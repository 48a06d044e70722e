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

import ArgumentParser
import Catalog
import Foundation
import PhotomillCore

extension Photomill {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Find photos by their OCR text (SQLite FTS5), title and keywords, camera, date, place, type and rating.",
            discussion: """
                Every word of TEXT must appear in the photo's recognised text (any order, any \
                case; a word ending in * matches as a prefix), or every word in its title, \
                description and keywords (from its XMP sidecar or its own XMP). Dates are the camera's local time: \
                --from 2019-07-01 --to 2019-07-31 includes both days.
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Argument(help: "Words of the recognised text.")
        var text: [String] = []

        @Option(help: ArgumentHelp("Part of the camera's make or model, any case.", valueName: "S"))
        var camera: String?

        @Option(help: ArgumentHelp("Taken on or after: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.", valueName: "DATE"))
        var from: String?

        @Option(help: ArgumentHelp("Taken on or before: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.", valueName: "DATE"))
        var to: String?

        // Unconditional: a southern latitude starts with "-", which is a value here, not a flag.
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Within KM kilometres of a place, e.g. -33.86,151.21,5.", valueName: "LAT,LON,KM")
        )
        var near: String?

        @Option(
            name: .customLong("type"),
            help: ArgumentHelp("Only files of this type: photo, raw or video.", valueName: "TYPE")
        )
        var mediaType: String?

        @Option(help: ArgumentHelp("Only photos with this keyword (whole, any case).", valueName: "WORD"))
        var keyword: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Only photos rated at least N (-1 rejected ... 5).", valueName: "N")
        )
        var rating: Int?

        @Option(
            help: ArgumentHelp(
                "Photos that look like FILE (in the catalog or not: it is processed here), nearest first.",
                valueName: "FILE"
            )
        )
        var like: String?

        @Option(
            help: ArgumentHelp(
                "With --like: bits the hashes may differ in, \(Catalog.similarDistances.lowerBound)-\(Catalog.similarDistances.upperBound).",
                valueName: "N"
            )
        )
        var distance: Int?

        @Flag(help: "Print JSON Lines: one object per photo.")
        var json = false

        func validate() throws {
            if like != nil || distance != nil { return try validateLike() }
            let words = text.flatMap { $0.split(whereSeparator: \.isWhitespace) }
            guard
                !words.isEmpty || camera != nil || from != nil || to != nil || near != nil
                    || mediaType != nil || keyword != nil || rating != nil
            else {
                throw ValidationError(
                    "give TEXT to look for, or at least one of --camera, --from, --to, --near, --type, --keyword, --rating"
                )
            }
            if let mediaType, MediaType(rawValue: mediaType) == nil {
                throw ValidationError("--type must be photo, raw or video, not '\(mediaType)'")
            }
            if let keyword, keyword.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--keyword must not be empty")
            }
            if let rating, !(-1...5).contains(rating) {
                throw ValidationError("--rating must be between -1 and 5, not \(rating)")
            }
            if let camera, camera.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--camera must not be empty")
            }
            if let from { try Self.checkDate(from, flag: "--from") }
            if let to { try Self.checkDate(to, flag: "--to") }
            if let from, let to, from.prefix(to.count) > to {
                throw ValidationError("--from \(from) is after --to \(to)")
            }
            if let near { _ = try Self.parseNear(near) }
        }

        func run() throws {
            if let like { return try runLike(like) }
            var query = PhotoQuery()
            query.words = text.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
            query.camera = camera
            query.from = from
            query.to = to
            query.near = try near.map(Self.parseNear)
            query.mediaType = mediaType.flatMap(MediaType.init(rawValue:))
            query.keyword = keyword
            query.minimumRating = rating
            let hits = try catalog.open(.readOnly).search(query)
            var out = LineBuffer()
            defer { out.flush() }
            let lines = JSONLines()
            for hit in hits {
                if json {
                    out.append(lines.line(hit))
                    continue
                }
                var facts: [String] = []
                if let date = hit.dateTaken { facts.append(date) }
                let camera = [hit.cameraMake, hit.cameraModel].compactMap { $0 }.joined(separator: " ")
                if !camera.isEmpty { facts.append(camera) }
                if let latitude = hit.gpsLatitude, let longitude = hit.gpsLongitude {
                    facts.append(String(format: "%.5f,%.5f", latitude, longitude))
                }
                if let distance = hit.distanceKm { facts.append(String(format: "%.1f km", distance)) }
                if let mediaType = hit.mediaType, mediaType != .photo { facts.append(mediaType.rawValue) }
                if let title = hit.title { facts.append("\"\(title)\"") }
                if let rating = hit.rating { facts.append("rated \(rating)") }
                if let livePhoto = hit.livePhoto {
                    facts.append("Live Photo with \((livePhoto as NSString).lastPathComponent)")
                }
                out.append(hit.path + (facts.isEmpty ? "" : "  (" + facts.joined(separator: " · ") + ")"))
                if let snippet = hit.snippet { out.append("  " + snippet.replacingOccurrences(of: "\n", with: " ")) }
            }
            if !json { out.append("\(hits.count) photos") }
        }

        static func checkDate(_ text: String, flag: String) throws {
            do throws(PhotoQuery.Invalid) { try PhotoQuery.checkDate(text, name: flag) } catch {
                throw ValidationError(error.message)
            }
        }

        static func parseNear(_ text: String) throws -> (latitude: Double, longitude: Double, kilometres: Double) {
            do throws(PhotoQuery.Invalid) { return try PhotoQuery.parseNear(text, name: "--near") } catch {
                throw ValidationError(error.message)
            }
        }
    }
}
