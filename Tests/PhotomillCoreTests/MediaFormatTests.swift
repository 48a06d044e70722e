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

/// Recognition by content, checked against exiftool's FileType on files that ffmpeg,
/// vips and heif-enc make here, on the RAW files of ../shared/corpus/formats, and on
/// files that only look like media.
@Suite("Media formats")
struct MediaFormatTests {
    /// What exiftool calls each of our formats (its `FileType`), typed out from exiftool's
    /// documentation rather than derived from our names.
    static let exiftoolFileType: [String: MediaFormat] = [
        "JPEG": .jpeg, "PNG": .png, "GIF": .gif, "TIFF": .tiff, "WEBP": .webp, "BMP": .bmp,
        "HEIC": .heic, "HEIF": .heif, "AVIF": .avif, "JXL": .jxl,
        "CR2": .cr2, "CR3": .cr3, "CRW": .crw, "NEF": .nef, "NRW": .nrw, "ARW": .arw, "SR2": .sr2,
        "DNG": .dng, "RAF": .raf, "ORF": .orf, "RW2": .rw2, "PEF": .pef, "SRW": .srw,
        "MRW": .mrw, "X3F": .x3f, "IIQ": .iiq, "3FR": .threeFR, "RAW": .kyoceraRaw,
        "JXL Codestream": .jxl, "Extended WEBP": .webp,
        "MOV": .mov, "MP4": .mp4, "M4V": .m4v, "3GP": .threeGP, "AVI": .avi, "MKV": .mkv, "WEBM": .webm,
        "M2TS": .mts, "M2T": .mts,
    ]

    /// How each file is made: programs and their arguments, run in turn, `OUT` standing for
    /// the file, `INPUT.png` and `INPUT.tif` for inputs made first.
    static let recipes: [(name: String, steps: [(tool: String, arguments: [String])])] = {
        let video = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=0.5"]
        let still = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1"]
        func ffmpeg(_ name: String, _ arguments: [String]) -> (String, [(String, [String])]) {
            (name, [("ffmpeg", arguments + ["OUT"])])
        }
        /// A TIFF that names a camera maker; exiftool's FileType for it then comes from
        /// the extension, and so does photomill's when the first directory has no SubIFDs.
        func tiffFrom(_ make: String, _ name: String) -> (String, [(String, [String])]) {
            (
                name,
                [
                    ("cp", ["INPUT.tif", "OUT.tif"]),
                    ("exiftool", ["-q", "-overwrite_original", "-Make=\(make)", "OUT.tif"]),
                    ("mv", ["OUT.tif", "OUT"]),
                ]
            )
        }
        return [
            ffmpeg("a.mov", video + ["-c:v", "mpeg4"]),
            ffmpeg("a.mp4", video + ["-c:v", "mpeg4"]),
            ffmpeg("a.m4v", video + ["-c:v", "mpeg4", "-f", "ipod"]),
            ffmpeg("a.3gp", video + ["-c:v", "mpeg4"]),
            ffmpeg("a.avi", video + ["-c:v", "mpeg4"]),
            ffmpeg("a.mkv", video + ["-c:v", "mpeg4"]),
            ffmpeg("a.webm", video + ["-c:v", "libvpx"]),
            ffmpeg("a.ts", video + ["-c:v", "mpeg2video", "-f", "mpegts"]),
            ffmpeg("a.mts", video + ["-c:v", "mpeg2video", "-f", "mpegts", "-mpegts_m2ts_mode", "1"]),
            ffmpeg("a.jpg", still),
            ffmpeg("a.png", still),
            ffmpeg("a.gif", still),
            ffmpeg("a.bmp", still),
            ffmpeg("a.tif", still),
            ffmpeg("a.webp", still + ["-c:v", "libwebp"]),
            ("a.heic", [("heif-enc", ["-q", "50", "-o", "OUT", "INPUT.png"])]),
            // JPEG XL: a bare codestream, and the container exiftool wraps it in to add EXIF.
            ("a.jxl", [("cjxl", ["INPUT.png", "OUT"])]),
            (
                "b.jxl",
                [
                    ("cjxl", ["INPUT.png", "OUT"]),
                    ("exiftool", ["-q", "-m", "-overwrite_original", "-EXIF:Make=Test", "OUT"]),
                ]
            ),
            // A PNG whose EXIF exiftool puts in an eXIf chunk.
            (
                "b.png",
                [("cp", ["INPUT.png", "OUT"]), ("exiftool", ["-q", "-overwrite_original", "-EXIF:Make=Test", "OUT"])]
            ),
            tiffFrom("NIKON CORPORATION", "a.nrw"),
            tiffFrom("SONY", "a.arw"),
            tiffFrom("PENTAX", "a.pef"),
            tiffFrom("SAMSUNG", "a.srw"),
            tiffFrom("OLYMPUS IMAGING CORP.", "a.orf"),
            tiffFrom("Phase One", "a.iiq"),
            tiffFrom("Hasselblad", "a.3fr"),
        ]
    }()

    @Test("files made by ffmpeg, heif-enc, cjxl and exiftool are what exiftool says they are")
    func madeByTools() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("INPUT.png").path
        let inputTIFF = folder.appendingPathComponent("INPUT.tif").path
        try Tool.output("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1", input])
        try Tool.output(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1", inputTIFF]
        )
        var checked = 0
        for recipe in Self.recipes {
            let out = folder.appendingPathComponent(recipe.name).path
            for step in recipe.steps {
                let arguments = step.arguments.map {
                    $0.replacingOccurrences(of: "OUT", with: out).replacingOccurrences(of: "INPUT.png", with: input)
                        .replacingOccurrences(of: "INPUT.tif", with: inputTIFF)
                }
                try Tool.output(step.tool, arguments)
            }
            let fileType = try ExifTool.value("FileType", of: out, printed: true)
            let expected = try #require(Self.exiftoolFileType[fileType], "\(recipe.name): exiftool says \(fileType)")
            let head = try headOf(out)
            let ext = (recipe.name as NSString).pathExtension
            if ["nrw", "arw", "pef", "srw", "orf", "iiq", "3fr"].contains(ext) {
                // A TIFF that only names a maker: RAW by its extension, as exiftool has it,
                // and a TIFF under any other name (a scanner's TIFF may name its maker).
                #expect(
                    MediaFormat(sniffing: head, fileExtension: ext.uppercased()) == expected,
                    "\(recipe.name): exiftool says \(fileType)"
                )
                #expect(MediaFormat(sniffing: head, fileExtension: "tif") == .tiff, "\(recipe.name)")
            } else {
                // Recognised from the content alone: the name is hidden from the sniffer.
                #expect(MediaFormat(sniffing: head) == expected, "\(recipe.name): exiftool says \(fileType)")
                #expect(FileRecognition.of(head: head, fileExtension: "bin") == .media(expected))
            }
            checked += 1
        }
        #expect(checked == Self.recipes.count)
    }

    @Test("Kyocera's RAW and Phase One's IIQ by their own signatures")
    func signatures() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Kyocera/Contax N Digital: a 156-byte big-endian header whose strings are stored
        // reversed, "KYOCERA" at 0x19 (exiftool's KyoceraRaw table).
        var kyocera = [UInt8](repeating: 0, count: 156)
        kyocera.replaceSubrange(0x0C..<0x18, with: Array("N Digital   ".utf8.reversed()))
        kyocera.replaceSubrange(0x19..<0x20, with: Array("KYOCERA".utf8.reversed()))
        let raw = folder.appendingPathComponent("a.raw")
        try Data(kyocera).write(to: raw)
        #expect(try Tool.output("exiftool", ["-s3", "-FileType", "-Make", raw.path]) == "RAW\nKYOCERA\n")
        #expect(MediaFormat(sniffing: kyocera) == .kyoceraRaw)
        // Phase One: a TIFF header, then Phase One's block ("IIII") at byte 8.
        var iiq: [UInt8] = [0x49, 0x49, 0x2A, 0, 16, 0, 0, 0] + Array("IIII".utf8) + [1, 0, 0, 0]
        iiq += [1, 0, 0x0F, 0x01, 2, 0, 10, 0, 0, 0, 34, 0, 0, 0, 0, 0, 0, 0] + Array("Phase One\0".utf8)
        let file = folder.appendingPathComponent("a.iiq")
        try Data(iiq).write(to: file)
        #expect(try Tool.output("exiftool", ["-s3", "-FileType", file.path]) == "IIQ\n")
        #expect(MediaFormat(sniffing: iiq) == .iiq)
    }

    @Test(
        "the RAW, HEIC, JPEG XL and video files of ../shared/corpus/formats and formats2",
        .enabled(if: Corpus.isAvailable, Corpus.skipMessage),
        arguments: ["manifest-formats.json", "manifest-formats2.json"]
    )
    func corpusFormats(manifestName: String) throws {
        let manifestURL = Corpus.root.appendingPathComponent(manifestName)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as! [String: Any]
        for file in manifest["files"] as! [[String: Any]] {
            let path = file["path"] as! String
            let fileType = (file["exiftool"] as! [String: Any])["FileType"] as! String
            let url = Corpus.root.appendingPathComponent(path)
            let head = try headOf(url.path)
            let recognised = FileRecognition.of(head: head, fileExtension: url.pathExtension)
            if fileType == "XMP" {
                #expect(recognised == .sidecar, "\(path)")
            } else {
                let expected = try #require(Self.exiftoolFileType[fileType], "\(path): \(fileType)")
                // NEF and ARW share their TIFF layout with NRW and SR2; the extension settles
                // only that, so the RAW files are sniffed without it as well.
                #expect(MediaFormat(sniffing: head) == expected, "\(path)")
                #expect(recognised == .media(expected), "\(path)")
            }
        }
    }

    @Test("files that only look like media are not media")
    func impostors() {
        func recognise(_ text: String, _ ext: String) -> FileRecognition {
            FileRecognition.of(head: Array(text.utf8), fileExtension: ext)
        }
        // A text file whose first bytes are "BM" (the issue's example).
        #expect(recognise("BMW service history\n2019: brakes\n2021: tyres, oil\n", "bmp") == .other)
        #expect(recognise("", "jpg") == .other)
        #expect(recognise("hello, world\n", "jpg") == .other)
        #expect(recognise("%PDF-1.7\n%\u{e2}\u{e3}\u{cf}\u{d3}\n1 0 obj\n", "pdf") == .other)
        // An MP4-like box that is not ftyp/moov and brands nobody uses.
        #expect(
            FileRecognition.of(head: [0, 0, 0, 16] + Array("ftypzzzz".utf8) + [0, 0, 0, 0], fileExtension: "mp4")
                == .other
        )
        // XMP is a sidecar only with its extension; an .xmp that is not XMP is nothing.
        let xmp = #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>"#
        #expect(recognise(xmp, "xmp") == .sidecar)
        #expect(recognise(xmp, "XMP") == .sidecar)
        #expect(recognise(xmp, "txt") == .other)
        #expect(recognise("not xml at all", "xmp") == .other)
        // A real BMP header (Windows 3 DIB, 40 bytes) is a BMP whatever its name.
        var bmp: [UInt8] = Array("BM".utf8) + le32(70) + le32(0) + le32(54) + le32(40) + le32(2) + le32(2)
        bmp +=
            [1, 0, 24, 0] + le32(0) + le32(16) + le32(0) + le32(0) + le32(0) + le32(0)
            + [UInt8](repeating: 0, count: 16)
        #expect(FileRecognition.of(head: bmp, fileExtension: "txt") == .media(.bmp))
    }

    @Test("sidecar names: NAME.EXT.xmp and NAME.xmp")
    func sidecarNames() {
        #expect(
            XMPSidecar.names(forPhotoNamed: "IMG_1.CR2") == [
                "IMG_1.CR2.xmp", "IMG_1.CR2.XMP", "IMG_1.xmp", "IMG_1.XMP",
            ]
        )
    }

    @Test("videos have no OCR task; their similarity comes from the poster frame")
    func kindsByType() {
        let all = Set(Kind.allCases)
        #expect(MediaType.video.kinds(of: all) == [.hash, .metadata, .thumbnail, .similarity])
        #expect(MediaType.raw.kinds(of: all) == all)
        #expect(MediaType.photo.kinds(of: all) == all)
    }

    // MARK: - Support

    private func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    private func headOf(_ path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return [UInt8](try handle.read(upToCount: MediaFormat.headLength) ?? Data())
    }
}
