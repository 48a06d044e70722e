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

@testable import PhotoProcessing

/// XMP packets an attacker writes: as large as a sidecar may be, full of entities, or
/// mutated at random. Each is read in time linear in its size, or refused with a reason;
/// none is read in part without a word.
@Suite("XMP, hostile")
struct XMPHostileTests {
    static let header = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="3">

        """
    static let footer = "</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>\n"

    /// A sidecar of `XMPSidecar.maxBytes` (16 MiB), nearly all keywords: `count` of them,
    /// each different, padded with a title of spaces to the exact size.
    static func keywordPacket(bytes size: Int) -> (packet: Data, count: Int) {
        var body = "<dc:subject><rdf:Bag>\n"
        var count = 0
        let closing =
            "</rdf:Bag></dc:subject>\n<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">T</rdf:li></rdf:Alt></dc:title>\n"
        let fixed = header.utf8.count + footer.utf8.count + closing.utf8.count
        while true {
            let item = "<rdf:li>keyword \(count)</rdf:li>\n"
            guard fixed + body.utf8.count + item.utf8.count + 64 <= size else { break }
            body += item
            count += 1
        }
        let padding = String(repeating: " ", count: size - fixed - body.utf8.count)
        let packet = Data((header + body + closing + padding + footer).utf8)
        return (packet, count)
    }

    // Timed, so the bound is generous: the figure that matters is photomill-bench's
    // `xmp` part in release mode (docs/benchmarks.md: 16 MiB in about 0.5 s). Before
    // the fix this size took more than 10 minutes; 40,000 keywords (0.9 MB) took 23 s.
    @Test("a 16 MiB sidecar of keywords is read whole, in time linear in its size")
    func largestSidecarInLinearTime() throws {
        let (packet, count) = Self.keywordPacket(bytes: XMPSidecar.maxBytes)
        #expect(packet.count == XMPSidecar.maxBytes)
        #expect(count > 500_000)
        let started = ContinuousClock.now
        let fields = try XMPReader.read(packet)
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        #expect(fields.keywords?.count == count)
        #expect(fields.keywords?.last == "keyword \(count - 1)")
        #expect(fields.rating == 3)
        #expect(fields.title == "T")
        print(
            "xmp: \(packet.count) bytes, \(count) keywords read in \(String(format: "%.2f", seconds)) s (\(Self.buildMode) build)"
        )
        #expect(seconds < Self.boundSeconds, "\(seconds) s for 16 MiB")
    }

    #if DEBUG
    static let buildMode = "debug"
    /// Debug code is ~5-10 times slower than release and the machine is shared.
    static let boundSeconds = 20.0
    #else
    static let buildMode = "release"
    static let boundSeconds = 2.0
    #endif

    @Test("a DOCTYPE with entities is refused naming why; predefined entities and character references read")
    func entities() throws {
        let custom = """
            <?xml version="1.0"?>
            <!DOCTYPE x:xmpmeta [<!ENTITY who "the Harbour Master">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Boats of &who; at dawn</dc:title></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        do {
            let fields = try XMPReader.read(Data(custom.utf8))
            Issue.record("read as \(String(describing: fields.title))")
        } catch {
            #expect(error.description.contains("DOCTYPE"))
        }
        // The same behind comments and processing instructions, in UTF-16 with a BOM.
        let hidden =
            "<?xpacket begin=\"\"?><!-- a > b --><?pi x?>\n"
            + custom.split(separator: "\n").dropFirst().joined(separator: "\n")
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(hidden.data(using: .utf16LittleEndian)!)
        #expect(throws: XMPError.self) { try XMPReader.read(utf16) }
        #expect(throws: XMPError.self) { try XMPReader.read(Data(hidden.utf8)) }

        let predefined = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Fish &amp; chips &lt;3 &#x263A; &#233;t&#xE9;</dc:title></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        #expect(try XMPReader.read(Data(predefined.utf8)).title == "Fish & chips <3 \u{263A} \u{E9}t\u{E9}")
        // "<!DOCTYPE" in a comment or in the text is no declaration.
        let inText = """
            <!-- <!DOCTYPE x> --><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>&lt;!DOCTYPE</dc:title></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        #expect(try XMPReader.read(Data(inText.utf8)).title == "<!DOCTYPE")
    }

    /// Found by the mutations below: a prefix with a byte that is not UTF-8 made Foundation's
    /// parser trap (a force-unwrapped name) and took the process with it.
    @Test("a packet that is not UTF-8 is refused, not a crash")
    func notUTF8() throws {
        var packet = Array(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
                .utf8
        )
        packet +=
            Array(#"<rdf:Description xmlns:e"#.utf8) + [0xF8]
            + Array(#"if="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="34,47.847N"/>"#.utf8)
        packet += Array("</rdf:RDF></x:xmpmeta>".utf8)
        do {
            _ = try XMPReader.read(Data(packet))
            Issue.record("read")
        } catch {
            #expect(error.description.contains("UTF-8"))
        }
        // Well-formed UTF-16 reads (XMP allows it).
        let text =
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4"/></rdf:RDF></x:xmpmeta>"#
        var utf16 = Data([0xFE, 0xFF])
        utf16.append(text.data(using: .utf16BigEndian)!)
        #expect(try XMPReader.read(utf16).rating == 4)
    }

    @Test("mutated packets: each is read or refused with an XMPError, and what is read is in range")
    func mutations() {
        var mutator = XMPMutator(seed: 29)
        for _ in 0..<1_500 {
            XMPMutator.check(mutator.next())
        }
    }

    /// The long run (scripts/fuzz.sh xmp SECONDS): `XMP_FUZZ_SECONDS=N`, seed after seed.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["XMP_FUZZ_SECONDS"] != nil))
    func fuzzForAWhile() {
        let environment = ProcessInfo.processInfo.environment
        let deadline = Date().addingTimeInterval(environment["XMP_FUZZ_SECONDS"].flatMap(Double.init) ?? 0)
        var seed = environment["XMP_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64(Date().timeIntervalSince1970)
        var inputs = 0
        var seeds = 0
        while Date() < deadline {
            FileHandle.standardError.write(Data("xmp fuzz: seed \(seed)\n".utf8))
            var mutator = XMPMutator(seed: seed)
            for _ in 0..<2_000 {
                XMPMutator.check(mutator.next())
                inputs += 1
            }
            seed &+= 1
            seeds += 1
        }
        print("xmp fuzz: \(inputs) packets from \(seeds) seeds")
        #expect(inputs > 0)
    }
}

/// Packets made from a few real shapes by byte flips, cuts, repeats and inserted markup.
struct XMPMutator {
    private var random: SplitMix64
    static let seeds: [String] = [
        XMPHostileTests.header + "<dc:subject><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></dc:subject>"
            + "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Title</rdf:li></rdf:Alt></dc:title>"
            + XMPHostileTests.footer,
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
          exif:GPSLatitude="34,47.847N" exif:GPSLongitude="134,45.878E" exif:DateTimeOriginal="2018-09-10T12:16:13" xmp:Label="Red"/>
        </rdf:RDF></x:xmpmeta>
        """,
    ]
    static let fragments = [
        "<rdf:li>", "</rdf:li>", "&amp;", "&#x0;", "&#65;", "&undeclared;", "<![CDATA[x]]>",
        "<!DOCTYPE x [<!ENTITY e \"eee\">]>",
        "<!--", "-->", "<?pi?>", "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"", "<dc:title>", "</dc:title>",
        "\u{FEFF}",
        "xml:lang=\"x-default\"", String(repeating: "<a>", count: 300), "\"", "'", ">", "<", "\0", "\u{10FFFF}",
    ]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }

    mutating func next() -> Data {
        var bytes = Array(Self.seeds[below(Self.seeds.count)].utf8)
        for _ in 0...below(4) {
            let at = below(bytes.count + 1)
            switch below(5) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= UInt8(1 << below(8))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + below(40)))
            case 2: bytes.insert(contentsOf: Array(Self.fragments[below(Self.fragments.count)].utf8), at: at)
            case 3:
                let end = min(bytes.count, at + below(200))
                bytes.insert(contentsOf: Array(bytes[at..<end]), at: at)
            default: bytes.removeSubrange(at...)
            }
        }
        return Data(bytes)
    }

    /// `XMP_FUZZ_LOG=1`: each packet goes to stderr (base64) before it is read, so a crash
    /// leaves its input last.
    static let log = ProcessInfo.processInfo.environment["XMP_FUZZ_LOG"] == "1"

    static func check(_ packet: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        if log { FileHandle.standardError.write(Data("xmp packet: \(packet.base64EncodedString())\n".utf8)) }
        do {
            let fields = try XMPReader.read(packet)
            let context = Comment(rawValue: String(decoding: packet, as: UTF8.self))
            #expect(fields.rating.map { (-1...5).contains($0) } ?? true, context, sourceLocation: sourceLocation)
            #expect(fields.gpsLatitude.map { abs($0) <= 90 } ?? true, context, sourceLocation: sourceLocation)
            #expect(fields.gpsLongitude.map { abs($0) <= 180 } ?? true, context, sourceLocation: sourceLocation)
            #expect(
                (fields.gpsLatitude == nil) == (fields.gpsLongitude == nil),
                context,
                sourceLocation: sourceLocation
            )
            if let keywords = fields.keywords {
                #expect(
                    Set(keywords).count == keywords.count && !keywords.contains(""),
                    context,
                    sourceLocation: sourceLocation
                )
            }
        } catch {
            #expect(!error.description.isEmpty, sourceLocation: sourceLocation)
        }
    }
}
