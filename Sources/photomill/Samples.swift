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
import Foundation
import PhotomillCore
import Samples

extension Photomill {
    struct Samples: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write realistic sample photos (deterministic for a seed).",
            discussion: """
                Writes JPEG, PNG, TIFF and HEIC photos with EXIF (cameras, dates, GPS, all \
                eight orientations), pages of printed text for OCR and, from ten files on, a \
                few broken files, plus samples.json listing what each file holds. Refuses to \
                replace a file of the folder (exit 73) unless --force.
                """
        )

        @Option(help: "How many files to write.")
        var count: Int = 40

        @Option(help: "Seed of the generator: the same seed writes the same files.")
        var seed: UInt64 = 1

        @Option(
            help: ArgumentHelp(
                "Make every photo a JPEG of this size, e.g. 4000x3000 (for benchmarks).",
                valueName: "WIDTHxHEIGHT"
            )
        )
        var photoSize: String?

        @Flag(help: "Replace files of the folder that have the names of samples.")
        var force = false

        @Argument(help: "Folder to write into (created if missing).")
        var directory: String

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be positive") }
            if photoSize != nil && parsedPhotoSize == nil {
                throw ValidationError("--photo-size must look like 4000x3000 (each side 16…20000), not '\(photoSize!)'")
            }
        }

        var parsedPhotoSize: (width: Int, height: Int)? {
            guard let parts = photoSize?.lowercased().split(separator: "x"), parts.count == 2,
                let width = Int(parts[0]), let height = Int(parts[1]),
                (16...20000).contains(width), (16...20000).contains(height)
            else { return nil }
            return (width, height)
        }

        func run() throws {
            let folder = URL(fileURLWithPath: directory)
            let generator = SampleGenerator(seed: seed, photoSize: parsedPhotoSize)
            let names = generator.plan(count: count).map(\.file) + [SampleManifest.fileName]
            let taken = names.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
            if !force && !taken.isEmpty {
                let listed =
                    taken.prefix(3).joined(separator: ", ") + (taken.count > 3 ? " and \(taken.count - 3) more" : "")
                printError(
                    "photomill samples: \(folder.path) already holds \(listed), which samples would replace; choose an empty folder, or pass --force to replace them"
                )
                throw ExitCode.cannotCreate
            }
            let start = MonotonicInstant.now()
            // A progress line only for a person watching; logs and pipes get the summary.
            let showProgress = isatty(STDERR_FILENO) != 0
            let specs: [SampleSpec]
            do {
                specs = try generator.write(count: count, to: folder) { done, total in
                    guard showProgress else { return }
                    FileHandle.standardError.write(Data("\rwriting samples: \(done)/\(total)".utf8))
                }
            } catch {
                if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
                printError("photomill samples: \(error)")
                throw ExitCode.cannotCreate
            }
            if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            let broken = specs.filter { $0.broken != nil }.count
            let seconds = MonotonicInstant.now() - start
            print(
                "wrote \(specs.count) files (\(broken) broken) to \(folder.path) in \(String(format: "%.1f", seconds))s"
            )
        }
    }
}
