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
        "MOV": .mov, "MP4": .mp4, "M4V": .m4v, "3GP": .threeGP, "AVI": .avi, "MKV": .mkv, "WEBM": .webm,
        "M2TS": .mts, "M2T": .mts,
    ]

    /// How each file is made: a program and its arguments, `OUT` standing for the file.
    static let recipes: [(name: String, tool: String, arguments: [String])] = {
        let video = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=0.5"]
        let still = ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1"]
        return [
            ("a.mov", "ffmpeg", video + ["-c:v", "mpeg4", "OUT"]),
            ("a.mp4", "ffmpeg", video + ["-c:v", "mpeg4", "OUT"]),
            ("a.m4v", "ffmpeg", video + ["-c:v", "mpeg4", "-f", "ipod", "OUT"]),
            ("a.3gp", "ffmpeg", video + ["-c:v", "mpeg4", "OUT"]),
            ("a.avi", "ffmpeg", video + ["-c:v", "mpeg4", "OUT"]),
            ("a.mkv", "ffmpeg", video + ["-c:v", "mpeg4", "OUT"]),
            ("a.webm", "ffmpeg", video + ["-c:v", "libvpx", "OUT"]),
            ("a.ts", "ffmpeg", video + ["-c:v", "mpeg2video", "-f", "mpegts", "OUT"]),
            ("a.mts", "ffmpeg", video + ["-c:v", "mpeg2video", "-f", "mpegts", "-mpegts_m2ts_mode", "1", "OUT"]),
            ("a.jpg", "ffmpeg", still + ["OUT"]),
            ("a.png", "ffmpeg", still + ["OUT"]),
            ("a.gif", "ffmpeg", still + ["OUT"]),
            ("a.bmp", "ffmpeg", still + ["OUT"]),
            ("a.tif", "ffmpeg", still + ["OUT"]),
            ("a.webp", "ffmpeg", still + ["-c:v", "libwebp", "OUT"]),
            ("a.heic", "heif-enc", ["-q", "50", "-o", "OUT", "INPUT.png"]),
        ]
    }()

    @Test("files made by ffmpeg and heif-enc are what exiftool says they are")
    func madeByTools() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("INPUT.png").path
        try Tool.output("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1", input])
        var checked = 0
        for recipe in Self.recipes {
            let out = folder.appendingPathComponent(recipe.name).path
            let arguments = recipe.arguments.map { $0 == "OUT" ? out : $0 == "INPUT.png" ? input : $0 }
            try Tool.output(recipe.tool, arguments)
            let fileType = try ExifTool.value("FileType", of: out, printed: true)
            let expected = try #require(Self.exiftoolFileType[fileType], "\(recipe.name): exiftool says \(fileType)")
            let head = try headOf(out)
            // Recognised from the content alone: the name is hidden from the sniffer.
            #expect(MediaFormat(sniffing: head) == expected, "\(recipe.name): exiftool says \(fileType)")
            #expect(FileRecognition.of(head: head, fileExtension: "bin") == .media(expected))
            checked += 1
        }
        #expect(checked == Self.recipes.count)
    }

    @Test("the RAW, HEIC and video files of ../shared/corpus/formats", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func corpusFormats() throws {
        let manifestURL = Corpus.root.appendingPathComponent("manifest-formats.json")
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
        #expect(FileRecognition.of(head: [0, 0, 0, 16] + Array("ftypzzzz".utf8) + [0, 0, 0, 0], fileExtension: "mp4") == .other)
        // XMP is a sidecar only with its extension; an .xmp that is not XMP is nothing.
        let xmp = #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>"#
        #expect(recognise(xmp, "xmp") == .sidecar)
        #expect(recognise(xmp, "XMP") == .sidecar)
        #expect(recognise(xmp, "txt") == .other)
        #expect(recognise("not xml at all", "xmp") == .other)
        // A real BMP header (Windows 3 DIB, 40 bytes) is a BMP whatever its name.
        var bmp: [UInt8] = Array("BM".utf8) + le32(70) + le32(0) + le32(54) + le32(40) + le32(2) + le32(2)
        bmp += [1, 0, 24, 0] + le32(0) + le32(16) + le32(0) + le32(0) + le32(0) + le32(0) + [UInt8](repeating: 0, count: 16)
        #expect(FileRecognition.of(head: bmp, fileExtension: "txt") == .media(.bmp))
    }

    @Test("sidecar names: NAME.EXT.xmp and NAME.xmp")
    func sidecarNames() {
        #expect(XMPSidecar.names(forPhotoNamed: "IMG_1.CR2") == ["IMG_1.CR2.xmp", "IMG_1.CR2.XMP", "IMG_1.xmp", "IMG_1.XMP"])
    }

    @Test("videos have no OCR task")
    func kindsByType() {
        let all = Set(Kind.allCases)
        #expect(MediaType.video.kinds(of: all) == [.hash, .metadata, .thumbnail])
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
