import Foundation
import MillProtocol
import PhotoProcessing
import SwiftProtobuf

/// Runs one JOB on a slot thread and builds its RESULT. Owns the thread's
/// `PhotoProcessor` (and so its tesseract engine).
final class JobRunner {
    private let processor = PhotoProcessor()
    private let configuration: WorkerConfiguration
    /// The roots with symlinks resolved, as the paths they are compared with.
    private let roots: [String]

    init(configuration: WorkerConfiguration) {
        self.configuration = configuration
        roots = configuration.pathRoots.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
    }

    func run(_ job: Photomill_V1_Job, blobs: [Data]) -> (Photomill_V1_Result, blobs: [Data]) {
        FaultInjection.beforeJob(path: job.path)
        let kinds = Set(job.kinds.compactMap { Kind(rawValue: $0.name) })
        processor.options = Self.options(job.parameters)
        var outcome = PhotoResult(path: job.path)

        if job.fileInBlobs {
            var bytes = Data(capacity: blobs.reduce(0) { $0 + $1.count })
            for blob in blobs { bytes.append(blob) }
            outcome.fileSize = bytes.count
            bytes.withUnsafeBytes { processor.process($0, path: job.path, kinds: kinds, into: &outcome) }
        } else {
            switch localPath(for: job) {
            case .success(let path):
                outcome = processor.process(path: path, kinds: kinds)
            case .failure(let error):
                for kind in kinds { outcome.errors[kind] = error }
            }
        }
        return Self.message(for: job, outcome: outcome, options: processor.options)
    }

    /// The job's path on this host, checked against the worker's roots and against the
    /// size and mtime the coordinator scanned (a file changed since then would give
    /// results for content the catalog does not describe).
    private func localPath(for job: Photomill_V1_Job) -> Result<String, ProcessingError> {
        var path = job.path
        // Component-wise: /volume1/photos maps /volume1/photos/a.jpg, not /volume1/photos2/a.jpg.
        for (from, to) in configuration.pathMap where path == from || path.hasPrefix(from.hasSuffix("/") ? from : from + "/") {
            path = to + path.dropFirst(from.count)
            break
        }
        // Whatever a JOB says, nothing outside the roots is opened (symlinks resolved first).
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        guard roots.contains(where: { $0 == "/" || resolved == $0 || resolved.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            let roots = configuration.pathRoots.isEmpty ? "none: it takes files as bytes only" : configuration.pathRoots.joined(separator: ", ")
            return .failure(ProcessingError(.unreadable, "\(job.path): outside this worker's roots (\(roots))"))
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .failure(ProcessingError(.unreadable, "\(job.path): cannot read: \(String(cString: strerror(errno)))"))
        }
        let mtimeNs = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        if UInt64(info.st_size) != job.fileSize || mtimeNs != job.fileMtimeNs {
            return .failure(ProcessingError(.changedSinceScan, "\(job.path): changed since it was scanned (size \(job.fileSize) → \(info.st_size)); it will be processed again at the next scan"))
        }
        return .success(path)
    }

    static func options(_ parameters: Photomill_V1_ProcessingParameters) -> ProcessingOptions {
        var options = ProcessingOptions()
        if parameters.thumbnailSize > 0 { options.thumbnailSize = Int(parameters.thumbnailSize) }
        if parameters.thumbnailQuality > 0 { options.thumbnailQuality = Int(parameters.thumbnailQuality) }
        if !parameters.ocrLanguage.isEmpty { options.ocrLanguage = parameters.ocrLanguage }
        if parameters.ocrMaxSide > 0 { options.ocrMaxSide = Int(parameters.ocrMaxSide) }
        if parameters.pixelLimit > 0 { options.pixelLimit = Int(clamping: parameters.pixelLimit) }
        return options
    }

    static func message(for job: Photomill_V1_Job, outcome: PhotoResult,
                        options: ProcessingOptions) -> (Photomill_V1_Result, blobs: [Data]) {
        var result = Photomill_V1_Result()
        result.jobID = job.jobID
        result.leaseToken = job.leaseToken
        var blobs: [Data] = []
        for wireKind in job.kinds {
            guard let kind = Kind(rawValue: wireKind.name) else { continue }
            var entry = Photomill_V1_KindResult()
            entry.kind = wireKind
            entry.recipe = options.recipe(for: kind)
            if let error = outcome.errors[kind] {
                entry.failure = .with {
                    $0.errorClass = error.errorClass.rawValue
                    $0.message = error.message.truncated(toUTF8Bytes: FieldBounds.errorMessageBytes.upperBound)
                    $0.retryable = error.errorClass.isRetryable
                }
            } else {
                switch kind {
                case .hash:
                    guard let hashes = outcome.hashes else { continue }
                    entry.hashes = .with {
                        $0.md5 = hashes.md5
                        $0.sha256 = hashes.sha256
                        $0.fileSize = UInt64(outcome.fileSize ?? 0)
                    }
                case .metadata:
                    guard let metadata = outcome.metadata else { continue }
                    entry.metadata = Photomill_V1_Metadata(metadata)
                case .thumbnail:
                    guard let thumbnail = outcome.thumbnail else { continue }
                    entry.thumbnail = .with {
                        $0.width = UInt32(thumbnail.width)
                        $0.height = UInt32(thumbnail.height)
                        $0.blobIndex = UInt32(blobs.count)
                    }
                    blobs.append(Data(thumbnail.jpeg))
                case .ocr:
                    guard let text = outcome.text else { continue }
                    entry.ocr = .with {
                        $0.text = text.text.truncated(toUTF8Bytes: FieldBounds.ocrTextBytes.upperBound)
                        $0.confidence = text.confidence
                        $0.language = text.language
                        $0.rotation = UInt32(text.rotation)
                    }
                }
            }
            result.results.append(entry)
        }
        return (result, blobs)
    }
}

extension Photomill_V1_Metadata {
    /// The wire form of `m`, keeping only values inside the protocol's bounds
    /// (`FieldBounds`): a coordinator drops a whole RESULT with one field out of bounds,
    /// so one camera's nonsense must not cost the photo its other results.
    init(_ m: PhotoMetadata) {
        self.init()
        func text(_ value: String?) -> String? {
            guard let value, FieldBounds.metadataTextBytes.contains(value.utf8.count) else { return nil }
            return value
        }
        func within<T: Comparable>(_ value: T?, _ bounds: ClosedRange<T>) -> T? {
            guard let value, bounds.contains(value) else { return nil }
            return value
        }
        if let v = text(m.dateTaken) { dateTaken = v }
        if let v = text(m.fileModificationDate) { fileModificationDate = v }
        if let v = within(m.pixelWidth.map(Int64.init), FieldBounds.pixelSide) { pixelWidth = v }
        if let v = within(m.pixelHeight.map(Int64.init), FieldBounds.pixelSide) { pixelHeight = v }
        if let v = text(m.cameraMake) { cameraMake = v }
        if let v = text(m.cameraModel) { cameraModel = v }
        if let v = within(m.orientation.map(Int32.init), FieldBounds.orientation) { orientation = v }
        if let lat = within(m.gpsLatitude, FieldBounds.latitude), let lon = within(m.gpsLongitude, FieldBounds.longitude) {
            gpsLatitude = lat
            gpsLongitude = lon
        }
        if let v = within(m.aperture, FieldBounds.aperture) { aperture = v }
        if let v = within(m.shutterSpeed, FieldBounds.shutterSpeed) { shutterSpeed = v }
        if let v = within(m.iso.map(Int64.init), FieldBounds.iso) { iso = v }
        if let v = within(m.focalLength, FieldBounds.focalLength) { focalLength = v }
        if let v = text(m.lensModel) { lensModel = v }
    }
}

extension String {
    /// At most `bytes` bytes of UTF-8, cut at a character boundary.
    func truncated(toUTF8Bytes bytes: Int) -> String {
        guard utf8.count > bytes else { return self }
        var end = index(startIndex, offsetBy: 0)
        var count = 0
        for character in self {
            let size = character.utf8.count
            if count + size > bytes { break }
            count += size
            end = index(after: end)
        }
        return String(self[..<end])
    }
}
