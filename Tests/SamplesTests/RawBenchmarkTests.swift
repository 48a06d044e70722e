import CVips
import Foundation
import PhotomillCore
import Testing
@testable import PhotoProcessing
@testable import Samples

/// Time and peak memory of `RawDecoder.picture` on a 45-megapixel RAW (8192×5464, a
/// Nikon Z7's or a Canon R5's sensor), one decode per process so that peak RSS is that
/// decode's. Skipped unless asked for:
///
///     swift build --build-tests
///     PHOTOMILL_RAW_BENCH=/tmp/rawbench swift test --skip-build --filter RawBenchmarkTests/generate
///     for f in preview raw; do
///       PHOTOMILL_RAW_BENCH=/tmp/rawbench PHOTOMILL_RAW_BENCH_FILE=$f swift test --skip-build --filter RawBenchmarkTests/decode
///     done
///
/// `preview.dng` carries a full-size JPEG preview (as cameras do), so a 256-pixel
/// thumbnail comes from it; `raw.dng` has none, so it takes LibRaw's half-size
/// rendering. Both are uncompressed (90 MB): a camera's compressed RAW reads fewer
/// bytes and spends more time decoding them, and a camera's preview JPEG is larger than
/// this one of four flat quadrants (1.2 MB). PHOTOMILL_RAW_BENCH_RUNS (5) sets the runs,
/// PHOTOMILL_RAW_BENCH_READ=read reads the file instead of mapping it.
struct RawBenchmarkTests {
    static let directory = ProcessInfo.processInfo.environment["PHOTOMILL_RAW_BENCH"]
    static let file = ProcessInfo.processInfo.environment["PHOTOMILL_RAW_BENCH_FILE"]

    @Test("Writes preview.dng and raw.dng, 8192×5464, into $PHOTOMILL_RAW_BENCH",
          .enabled(if: directory != nil, "PHOTOMILL_RAW_BENCH is not set"))
    func generate() throws {
        let directory = URL(fileURLWithPath: try #require(Self.directory))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try SyntheticDNG(width: 8192, height: 5464, orientation: 6, previews: [.init(longestSide: 8192)])
            .write(to: directory.appendingPathComponent("preview.dng"))
        try SyntheticDNG(width: 8192, height: 5464, orientation: 6)
            .write(to: directory.appendingPathComponent("raw.dng"))
    }

    @Test("Decodes $PHOTOMILL_RAW_BENCH/$PHOTOMILL_RAW_BENCH_FILE.dng to a 256-pixel JPEG, printing time and peak RSS",
          .enabled(if: directory != nil && file != nil, "PHOTOMILL_RAW_BENCH or PHOTOMILL_RAW_BENCH_FILE is not set"))
    func decode() throws {
        let path = URL(fileURLWithPath: try #require(Self.directory))
            .appendingPathComponent("\(try #require(Self.file)).dng").path
        let runs = Int(ProcessInfo.processInfo.environment["PHOTOMILL_RAW_BENCH_RUNS"] ?? "") ?? 5
        let before = Self.peakRSS()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: Self.readOptions)
            let picture = try bytes.withUnsafeBytes { buffer in
                try RawDecoder.picture(of: .memory(buffer), format: .dng, path: path, longestSide: 256, pixelLimit: 200_000_000)
            }
            let jpeg = try picture.encode { pm_vips_jpegsave($0, $1, $2, 80, 1) }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            #expect(max(picture.width, picture.height) == 256 && !jpeg.isEmpty)
        }
        let sorted = times.sorted()
        print(String(format: "RAW BENCH %@: %d runs, first %.3f s, median %.3f s, min %.3f s; peak RSS %d MB (%d MB before the first decode)",
                     path, runs, times[0], sorted[sorted.count / 2], sorted[0], Self.peakRSS() / 1024, before / 1024))
    }

    /// How the file is read: mapped (`.alwaysMapped`, the default), or with
    /// PHOTOMILL_RAW_BENCH_READ=read as `.mappedIfSafe`, which swift-corelibs-foundation
    /// reads whole into memory (the 90 MB show in peak RSS, and reading them in time).
    static let readOptions: Data.ReadingOptions =
        ProcessInfo.processInfo.environment["PHOTOMILL_RAW_BENCH_READ"] == "read" ? .mappedIfSafe : .alwaysMapped

    /// VmHWM of this process, in kB.
    static func peakRSS() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
    }
}
