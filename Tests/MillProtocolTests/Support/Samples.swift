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
import SwiftProtobuf

/// One valid message of every command, with every field set, so that round trips and
/// mutations start from something a real peer would send.
enum Samples {
    static let ready = Photomill_V1_Ready.with {
        $0.workerID = "worker-nas-4711"
        $0.host = "nas.local"
        $0.softwareVersion = "0.1.0"
        $0.protocolVersion = MillWire.protocolVersion
        $0.slots = 4
        $0.kinds = Photomill_V1_Kind.known
        $0.ocrLanguages = ["eng", "deu"]
        $0.pathRoots = ["/photos", "/mnt/nas/Pictures"]
        $0.heartbeatIntervalMs = MillWire.defaultHeartbeatIntervalMs
    }

    static let job = Photomill_V1_Job.with {
        $0.jobID = "j-000001"
        $0.photoID = 42
        $0.path = "/photos/2024/IMG_0001.jpg"
        $0.fileSize = UInt64(fileBytes.count)
        $0.fileMtimeNs = 1_716_000_000_123_456_789
        $0.kinds = [.hash, .metadata, .thumbnail, .ocr]
        $0.leaseToken = "lease-7f3a9c"
        $0.deadlines = $0.kinds.map { kind in
            .with {
                $0.kind = kind
                $0.deadlineMs = 30_000
            }
        }
        $0.parameters = .with {
            $0.thumbnailSize = 256
            $0.thumbnailQuality = 80
            $0.ocrLanguage = "eng+deu"
            $0.ocrMaxSide = 4_096
            $0.pixelLimit = 200_000_000
        }
        $0.fileInBlobs = false
    }

    /// Stands in for a photo's bytes; two blob frames' worth with a small limit.
    static let fileBytes = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    static let thumbnailJPEG = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xD9])

    static let jobWithFileBlobs: MillMessage = {
        var body = job
        body.fileInBlobs = true
        return .job(body, blobs: [fileBytes.prefix(200), fileBytes.dropFirst(200)])
    }()

    static let metadata = Photomill_V1_Metadata.with {
        $0.dateTaken = "2008-05-30T15:56:01+02:00"
        $0.fileModificationDate = "2026-11-22T01:14:00Z"
        $0.pixelWidth = 4_000
        $0.pixelHeight = 3_000
        $0.cameraMake = "Canon"
        $0.cameraModel = "Canon EOS 40D"
        $0.orientation = 1
        $0.gpsLatitude = 43.467
        $0.gpsLongitude = -11.885
        $0.aperture = 7.1
        $0.shutterSpeed = 1.0 / 160
        $0.iso = 100
        $0.focalLength = 135
        $0.lensModel = "EF-S 18-200mm"
    }

    static let result = Photomill_V1_Result.with {
        $0.jobID = job.jobID
        $0.leaseToken = job.leaseToken
        $0.results = [
            .with {
                $0.kind = .hash
                $0.recipe = "photomill 0.1.0 hash"
                $0.hashes = .with {
                    $0.md5 = "d41d8cd98f00b204e9800998ecf8427e"
                    $0.sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                    $0.fileSize = job.fileSize
                }
            },
            .with {
                $0.kind = .metadata
                $0.recipe = "photomill 0.1.0 metadata"
                $0.metadata = metadata
            },
            .with {
                $0.kind = .thumbnail
                $0.recipe = "photomill 0.1.0 thumbnail size=256 quality=80"
                $0.thumbnail = .with {
                    $0.width = 256
                    $0.height = 192
                    $0.blobIndex = 0
                }
            },
            .with {
                $0.kind = .ocr
                $0.recipe = "photomill 0.1.0 ocr eng+deu max=4096"
                $0.ocr = .with {
                    $0.text = "Grüße aus\nBerlin"
                    $0.confidence = 91.5
                    $0.language = "eng+deu"
                    $0.rotation = 90
                }
            },
        ]
    }

    /// One kind failed, the others did not: outcomes are per kind.
    static let resultWithFailure = Photomill_V1_Result.with {
        $0.jobID = "j-000002"
        $0.leaseToken = "lease-0001"
        $0.results = [
            .with {
                $0.kind = .thumbnail
                $0.failure = .with {
                    $0.errorClass = "corrupt"
                    $0.message = "/photos/x.jpg: premature end of JPEG"
                    $0.retryable = false
                }
            },
            .with {
                $0.kind = .metadata
                $0.recipe = "photomill 0.1.0 metadata"
                $0.metadata = .init()
            },
        ]
    }

    static let extend = Photomill_V1_Extend.with {
        $0.jobID = job.jobID
        $0.leaseToken = job.leaseToken
        $0.kinds = [.ocr]
        $0.extraMs = 60_000
    }

    static let fail = Photomill_V1_Fail.with {
        $0.jobID = job.jobID
        $0.leaseToken = job.leaseToken
        $0.errorClass = "unreadable"
        $0.message = "/photos/2024/IMG_0001.jpg: Permission denied"
        $0.retryable = true
    }

    static let ack = Photomill_V1_Ack.with {
        $0.committed = ["j-000001", "j-000003"]
        $0.discarded = ["j-000002"]
    }

    /// Two JOBs, as a coordinator batches them for a worker that reads the files itself.
    static let jobs = Photomill_V1_Jobs.with {
        var second = job
        second.jobID = "j-000002"
        second.photoID = 43
        second.path = "/photos/2024/IMG_0002.jpg"
        second.leaseToken = "lease-7f3a9d"
        $0.jobs = [job, second]
    }

    /// Three outcomes of three jobs: a RESULT with a thumbnail (its blob frame), one
    /// without, and a FAIL.
    static let results = Photomill_V1_Results.with {
        $0.results = [result, resultWithFailure]
        $0.fails = [
            .with {
                $0.jobID = "j-000003"
                $0.leaseToken = "lease-0002"
                $0.errorClass = "file-changed"
                $0.message = "/photos/2024/IMG_0003.jpg: 12 bytes now, 10 scanned"
                $0.retryable = true
            }
        ]
    }

    static let disconnect = Photomill_V1_Disconnect.with { $0.reason = "coordinator shutting down" }

    /// Every command at least once, blobs included.
    static let all: [MillMessage] = [
        .ready(ready),
        .job(job, blobs: []),
        jobWithFileBlobs,
        .extend(extend),
        .result(result, blobs: [thumbnailJPEG]),
        .result(resultWithFailure, blobs: []),
        .fail(fail),
        .ack(ack),
        .heartbeat(),
        .disconnect(disconnect),
        .jobs(jobs),
        .results(results, blobs: [thumbnailJPEG]),
    ]
}
