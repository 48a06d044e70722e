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

/// The XMP reader on the largest sidecar photomill reads (`xmp` part): `photomill inspect
/// --kinds metadata` of one small photo with a 16 MiB sidecar of keywords, and without it;
/// the difference is the sidecar's reading (docs/processing.md). Best of `repeats` runs. The
/// text report, not `--json`: encoding half a million keywords as JSON is the report's cost
/// (0.35 s), which a worker never pays.
struct XMPBench {
    let photomill: String
    let repeats: Int

    struct Figures {
        var keywords: Int
        var bytes: Int
        var withSidecar: Double
        var without: Double
    }

    func run(in directory: URL) throws -> Figures {
        let folder = directory.appendingPathComponent("xmp")
        let samples = try Spawn.run([
            photomill, "samples", folder.path, "--count", "2", "--seed", "3", "--photo-size", "160x120",
        ])
        guard samples.status == 0 else { throw BenchError("photomill samples failed") }
        let photo = folder.appendingPathComponent("IMG_0001.jpg")
        let bare = folder.appendingPathComponent("IMG_0002.jpg")
        let (packet, keywords) = Self.keywordPacket(bytes: 16 << 20)
        try packet.write(to: URL(fileURLWithPath: photo.path + ".xmp"))
        func best(_ path: String) throws -> Double {
            var fastest = Double.infinity
            for _ in 0..<repeats {
                let run = try Spawn.run([photomill, "inspect", "--kinds", "metadata", path])
                guard run.status == 0 else { throw BenchError("inspect \(path) exited \(run.status)") }
                fastest = min(fastest, run.seconds)
            }
            return fastest
        }
        return Figures(
            keywords: keywords,
            bytes: packet.count,
            withSidecar: try best(photo.path),
            without: try best(bare.path)
        )
    }

    /// `size` bytes of XMP, nearly all `rdf:li` keywords, each different.
    static func keywordPacket(bytes size: Int) -> (Data, Int) {
        let head =
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + #"<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag>"# + "\n"
        let tail = "</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>\n"
        var body = ""
        var count = 0
        while true {
            let item = "<rdf:li>keyword \(count)</rdf:li>\n"
            guard head.utf8.count + body.utf8.count + item.utf8.count + tail.utf8.count <= size else { break }
            body += item
            count += 1
        }
        return (Data((head + body + tail).utf8), count)
    }
}
