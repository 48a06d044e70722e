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
import MillProtocol
import PhotomillCore
import SwiftProtobuf
import Testing

/// A valid sample with one field spoiled, and the field the violation must name.
struct FieldCase: Sendable, CustomTestStringConvertible {
    let field: String
    let message: MillMessage
    var testDescription: String { "\(message.command).\(field)" }

    static func ready(_ field: String, _ spoil: (inout Photomill_V1_Ready) -> Void) -> FieldCase {
        var body = Samples.ready
        spoil(&body)
        return FieldCase(field: field, message: .ready(body))
    }

    static func job(_ field: String, _ spoil: (inout Photomill_V1_Job) -> Void) -> FieldCase {
        var body = Samples.job
        spoil(&body)
        return FieldCase(field: field, message: .job(body, blobs: []))
    }

    static func result(_ field: String, _ spoil: (inout Photomill_V1_Result) -> Void) -> FieldCase {
        var body = Samples.result
        spoil(&body)
        return FieldCase(field: field, message: .result(body, blobs: [Samples.thumbnailJPEG]))
    }

    static func metadata(_ field: String, _ spoil: (inout Photomill_V1_Metadata) -> Void) -> FieldCase {
        result("results[1].metadata.\(field)") { spoil(&$0.results[1].metadata) }
    }
}

private let tooLongPath = "/" + String(repeating: "a", count: FieldBounds.pathBytes.upperBound)

@Suite("Field violations")
struct FieldViolationTests {
    static let readyCases: [FieldCase] = [
        .ready("worker_id") { $0.workerID = "" },
        .ready("worker_id") { $0.workerID = "worker one" },
        .ready("worker_id") { $0.workerID = String(repeating: "w", count: 129) },
        .ready("host") { $0.host = "" },
        .ready("software_version") { $0.softwareVersion = "0.1\n" },
        .ready("slots") { $0.slots = 0 },
        .ready("slots") { $0.slots = 1_025 },
        .ready("kinds") { $0.kinds = [] },
        .ready("kinds[1]") { $0.kinds = [.hash, .hash] },
        .ready("kinds[0]") { $0.kinds = [.unspecified] },
        .ready("kinds") {
            $0.kinds = [.UNRECOGNIZED(9)]
            $0.ocrLanguages = []
        },
        .ready("kinds[2]") {
            $0.kinds = [.hash, .UNRECOGNIZED(9), .UNRECOGNIZED(9)]
            $0.ocrLanguages = []
        },
        .ready("ocr_languages") { $0.ocrLanguages = [] },
        .ready("ocr_languages") { $0.kinds = [.hash] },
        .ready("ocr_languages[1]") { $0.ocrLanguages = ["eng", "en g"] },
        .ready("ocr_languages[1]") { $0.ocrLanguages = ["eng", "eng"] },
        .ready("path_roots[0]") { $0.pathRoots = ["photos"] },
        .ready("path_roots[0]") { $0.pathRoots = ["/photos\0/x"] },
        .ready("path_roots[0]") { $0.pathRoots = ["/photos/../etc"] },
        .ready("path_roots[0]") { $0.pathRoots = [tooLongPath] },
        .ready("path_roots") { $0.pathRoots = (0...64).map { "/r\($0)" } },
        .ready("heartbeat_interval_ms") { $0.heartbeatIntervalMs = 99 },
        .ready("heartbeat_interval_ms") { $0.heartbeatIntervalMs = 60_001 },
    ]

    static let jobCases: [FieldCase] = [
        .job("job_id") { $0.jobID = "" },
        .job("photo_id") { $0.photoID = 0 },
        .job("path") { $0.path = "IMG_0001.jpg" },
        .job("path") { $0.path = "" },
        .job("path") { $0.path = "/photos/a\0b.jpg" },
        .job("path") { $0.path = "/photos/./a.jpg" },
        .job("path") { $0.path = tooLongPath },
        .job("kinds") { $0.kinds = [] },
        .job("kinds[1]") { $0.kinds = [.ocr, .ocr] },
        .job("kinds[1]") { $0.kinds = [.hash, .UNRECOGNIZED(9)] },
        .job("lease_token") { $0.leaseToken = "" },
        .job("lease_token") { $0.leaseToken = "lease\u{7F}" },
        .job("deadlines") { $0.deadlines.removeLast() },
        .job("deadlines[4].kind") {
            $0.deadlines.append(
                .with {
                    $0.kind = .hash
                    $0.deadlineMs = 1_000
                }
            )
        },
        .job("deadlines[0].kind") { $0.kinds = [.metadata, .thumbnail, .ocr] },
        .job("deadlines[0].kind") { $0.deadlines[0].kind = .unspecified },
        .job("deadlines[0].deadline_ms") { $0.deadlines[0].deadlineMs = 0 },
        .job("deadlines[3].deadline_ms") { $0.deadlines[3].deadlineMs = 86_400_001 },
        .job("parameters") { $0.clearParameters() },
        .job("parameters.thumbnail_size") { $0.parameters.thumbnailSize = 0 },
        .job("parameters.thumbnail_size") { $0.parameters.thumbnailSize = 100_000 },
        .job("parameters.thumbnail_quality") { $0.parameters.thumbnailQuality = 101 },
        .job("parameters.ocr_max_side") { $0.parameters.ocrMaxSide = 0 },
        .job("parameters.pixel_limit") { $0.parameters.pixelLimit = 0 },
        .job("parameters.ocr_language") { $0.parameters.ocrLanguage = "" },
        .job("parameters.ocr_language") { $0.parameters.ocrLanguage = "eng+" },
        .job("parameters.ocr_language") { $0.parameters.ocrLanguage = "../../etc/passwd" },
        .job("sidecar_path") { $0.sidecarPath = "IMG_0001.jpg.xmp" },
        .job("sidecar_path") { $0.sidecarPath = "/photos/../IMG_0001.xmp" },
        .job("sidecar_path") {
            $0.sidecarPath = "/photos/a.xmp"
            $0.kinds = [.hash]
            $0.deadlines = [$0.deadlines[0]]
        },
        .job("sidecar_in_blobs") { $0.sidecarInBlobs = true },
        .job("sidecar_in_blobs") {
            $0.sidecarPath = "/photos/a.xmp"
            $0.sidecarInBlobs = true
        },
        .job("sidecar_error") { $0.sidecarError = "cannot read" },
        .job("sidecar_error") {
            $0.sidecarPath = "/photos/a.xmp"
            $0.sidecarError = "bad\0text"
        },
    ]

    static let resultCases: [FieldCase] = [
        .result("job_id") { $0.jobID = "" },
        .result("lease_token") { $0.leaseToken = String(repeating: "t", count: 200) },
        .result("results") { $0.results = [] },
        .result("results[1].kind") { $0.results[1].kind = .hash },
        .result("results[0].kind") { $0.results[0].kind = .UNRECOGNIZED(7) },
        .result("results[0].outcome") { $0.results[0].outcome = nil },
        .result("results[0].outcome") { $0.results[0].metadata = Samples.metadata },
        .result("results[0].recipe") { $0.results[0].recipe = "" },
        .result("results[0].recipe") { $0.results[0].recipe = "v1\0" },
        .result("results[0].hashes.md5") { $0.results[0].hashes.md5 = "D41D8CD98F00B204E9800998ECF8427E" },
        .result("results[0].hashes.md5") { $0.results[0].hashes.md5 = "d41d8cd9" },
        .result("results[0].hashes.sha256") { $0.results[0].hashes.sha256 = String(repeating: "g", count: 64) },
        .result("results[2].thumbnail.width") { $0.results[2].thumbnail.width = 0 },
        .result("results[2].thumbnail.height") { $0.results[2].thumbnail.height = 20_000 },
        .result("results[3].ocr.confidence") { $0.results[3].ocr.confidence = 100.5 },
        .result("results[3].ocr.confidence") { $0.results[3].ocr.confidence = .nan },
        .result("results[3].ocr.language") { $0.results[3].ocr.language = "" },
        .result("results[3].ocr.rotation") { $0.results[3].ocr.rotation = 45 },
        .result("results[3].ocr.text") {
            $0.results[3].ocr.text = String(repeating: "x", count: FieldBounds.ocrTextBytes.upperBound + 1)
        },
        .result("results[0].failure.error_class") {
            $0.results[0].failure = .with {
                $0.errorClass = "Not An Image"
                $0.message = "m"
            }
        },
        .result("results[0].failure.error_class") {
            $0.results[0].failure = .with {
                $0.errorClass = "-x"
                $0.message = "m"
            }
        },
        .result("results[0].failure.message") {
            $0.results[0].failure = .with {
                $0.errorClass = "corrupt"
                $0.message = ""
            }
        },
        .metadata("date_taken") { $0.dateTaken = String(repeating: "9", count: 1_025) },
        .metadata("camera_make") { $0.cameraMake = "Can\0on" },
        .metadata("pixel_width") { $0.pixelWidth = 0 },
        .metadata("pixel_height") { $0.pixelHeight = -3 },
        .metadata("orientation") { $0.orientation = 9 },
        .metadata("gps_latitude") { $0.gpsLatitude = 90.0001 },
        .metadata("gps_latitude") { $0.gpsLatitude = .nan },
        .metadata("gps_longitude") { $0.gpsLongitude = -180.5 },
        .metadata("gps_longitude") { $0.gpsLongitude = .infinity },
        .metadata("gps_latitude") { $0.clearGpsLongitude() },
        .metadata("aperture") { $0.aperture = 0 },
        .metadata("shutter_speed") { $0.shutterSpeed = -1 },
        .metadata("iso") { $0.iso = 0 },
        .metadata("focal_length") { $0.focalLength = .infinity },
        .metadata("media_type") { $0.mediaType = "movie" },
        .metadata("duration") { $0.duration = -1 },
        .metadata("duration") { $0.duration = .nan },
        .metadata("frame_rate") { $0.frameRate = 0 },
        .metadata("video_codec") { $0.videoCodec = "h26\04" },
        .metadata("title") { $0.title = String(repeating: "t", count: 1_025) },
        .metadata("description") { $0.description_p = String(repeating: "d", count: 16_385) },
        .metadata("keywords") { $0.keywords = (0...256).map { "k\($0)" } },
        .metadata("keywords[1]") { $0.keywords = ["sea", ""] },
        .metadata("rating") { $0.rating = 6 },
        .metadata("rating") { $0.rating = -2 },
    ]

    static let controlCases: [FieldCase] = [
        FieldCase(
            field: "kinds",
            message: .extend(
                .with {
                    $0 = Samples.extend
                    $0.kinds = []
                }
            )
        ),
        FieldCase(
            field: "extra_ms",
            message: .extend(
                .with {
                    $0 = Samples.extend
                    $0.extraMs = 0
                }
            )
        ),
        FieldCase(
            field: "job_id",
            message: .extend(
                .with {
                    $0 = Samples.extend
                    $0.jobID = ""
                }
            )
        ),
        FieldCase(
            field: "error_class",
            message: .fail(
                .with {
                    $0 = Samples.fail
                    $0.errorClass = ""
                }
            )
        ),
        FieldCase(
            field: "message",
            message: .fail(
                .with {
                    $0 = Samples.fail
                    $0.message = String(repeating: "m", count: 4_097)
                }
            )
        ),
        FieldCase(
            field: "lease_token",
            message: .fail(
                .with {
                    $0 = Samples.fail
                    $0.leaseToken = ""
                }
            )
        ),
        FieldCase(field: "committed+discarded", message: .ack(.init())),
        FieldCase(field: "committed+discarded[1]", message: .ack(.with { $0.committed = ["a", "a"] })),
        FieldCase(
            field: "committed+discarded[1]",
            message: .ack(
                .with {
                    $0.committed = ["a"]
                    $0.discarded = ["a"]
                }
            )
        ),
        FieldCase(field: "discarded[0]", message: .ack(.with { $0.discarded = ["j\t1"] })),
        FieldCase(
            field: "committed+discarded",
            message: .ack(
                .with {
                    $0.committed = (0...FieldBounds.ackEntries.upperBound).map { "j\($0)" }
                }
            )
        ),
        FieldCase(field: "reason", message: .disconnect(.with { $0.reason = String(repeating: "r", count: 1_025) })),
    ]

    @Test("the spoiled field is named", arguments: readyCases + jobCases + resultCases + controlCases)
    func invalidField(_ spoiled: FieldCase) throws {
        let found = try #require(violation(of: spoiled.message))
        #expect(found.reason == .invalidField)
        #expect(found.field == spoiled.field, "\(found)")
        #expect(found.command == spoiled.message.command)
    }

    @Test("optional metadata may be absent altogether")
    func emptyMetadata() {
        #expect(violation(of: .result(Samples.resultWithFailure, blobs: [])) == nil)
    }

    @Test("the bounds themselves are valid")
    func boundaries() {
        var ready = Samples.ready
        ready.slots = FieldBounds.slots.upperBound
        ready.heartbeatIntervalMs = FieldBounds.heartbeatIntervalMs.lowerBound
        ready.pathRoots = ["/"]
        ready.protocolVersion = 7  // a newer worker is still welcome,
        ready.kinds.append(.UNRECOGNIZED(9))  // and so is what it offers beyond the known kinds
        #expect(violation(of: .ready(ready)) == nil)

        var metadata = Samples.metadata
        metadata.gpsLatitude = -90
        metadata.gpsLongitude = 180
        metadata.orientation = 8
        var result = Samples.result
        result.results[1].metadata = metadata
        result.results[3].ocr.confidence = 0
        result.results[3].ocr.text = ""
        #expect(violation(of: .result(result, blobs: [Samples.thumbnailJPEG])) == nil)
    }
}
