import Catalog
import Foundation
import PhotomillCore

/// Writes the exports under a root folder, from the catalog alone:
/// `metadata/{md5}.plist` (binary plist), `thumbs/{md5}.jpg`, `manifest.plist`, and a
/// `CACHEDIR.TAG`, which keeps the scan (and backup tools that honour it) out.
/// Each file is written atomically (temporary file, then rename) and only when its
/// content differs from what is already there, so re-exporting is cheap and a reader
/// never sees a partial file.
public final class Exporter: Sendable {
    public let root: URL
    public let stripGPS: Bool
    let catalog: Catalog

    public struct Summary: Sendable, Hashable {
        public var photos = 0
        public var written = 0
        public var unchanged = 0
    }

    public init(catalog: Catalog, root: URL, stripGPS: Bool = false) throws(ExportError) {
        self.catalog = catalog
        self.root = root
        self.stripGPS = stripGPS
        for folder in ["metadata", "thumbs"] {
            let url = root.appendingPathComponent(folder)
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw ExportError(path: url.path, message: "cannot create the export folder: \(error.fileSystemReason); choose a folder this user may write")
            }
        }
        try Self.write(Data(CacheDirectoryTag.contents.utf8), to: root.appendingPathComponent(CacheDirectoryTag.name))
        removeLeftovers()
    }

    /// Exports the given photos (those with a content hash; others have nothing to name
    /// their files by yet).
    public func export(photoIds: [Int64]) throws -> Summary {
        var summary = Summary()
        for chunk in stride(from: 0, to: photoIds.count, by: 500).map({ Array(photoIds[$0..<min($0 + 500, photoIds.count)]) }) {
            try write(catalog.exportRecords(ids: chunk), into: &summary)
        }
        return summary
    }

    /// Exports every photo of the catalog, page by page, then the manifest.
    public func exportAll(progress: ((Int) -> Void)? = nil) throws -> Summary {
        var summary = Summary()
        var after: Int64 = 0
        while true {
            let page = try catalog.exportRecords(afterPhoto: after, limit: 500)
            guard let last = page.last else { break }
            try write(page, into: &summary)
            after = last.photoId
            progress?(summary.photos)
        }
        try writeManifest()
        return summary
    }

    private func write(_ records: [ExportRecord], into summary: inout Summary) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        for record in records {
            summary.photos += 1
            let plist = try encoder.encode(ExportedPhoto(record, stripGPS: stripGPS))
            let plistURL = root.appendingPathComponent("metadata/\(record.md5).plist")
            if try Self.write(plist, to: plistURL) { summary.written += 1 } else { summary.unchanged += 1 }
            if let jpeg = record.thumbnail {
                let thumbURL = root.appendingPathComponent("thumbs/\(record.md5).jpg")
                if try Self.write(jpeg, to: thumbURL) { summary.written += 1 } else { summary.unchanged += 1 }
            }
        }
    }

    /// `manifest.plist`: every exported photo with its source path.
    public func writeManifest() throws {
        let entries = try catalog.manifestEntries().map { ExportManifest.Entry(md5: $0.md5, path: $0.path, hasThumbnail: $0.hasThumbnail) }
        let manifest = ExportManifest(generatedAt: Date().formatted(.iso8601), gpsStripped: stripGPS, photos: entries)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try Self.write(try encoder.encode(manifest), to: root.appendingPathComponent("manifest.plist"))
    }
}

extension Exporter {
    /// Atomically and only when the bytes differ (`AtomicFile`); whether it wrote.
    @discardableResult
    static func write(_ data: Data, to url: URL) throws(ExportError) -> Bool {
        do {
            return try AtomicFile.write(data, to: url, onlyIfChanged: true)
        } catch {
            throw ExportError(path: error.path, message: error.message)
        }
    }
}

public struct ExportError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "export \(path): \(message)" }
}
