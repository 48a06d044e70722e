import ArgumentParser
import Foundation
import PhotoProcessing

extension Photomill {
    struct Samples: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write realistic sample photos (deterministic for a seed).")

        @Option(help: "How many files to write.")
        var count: Int = 40

        @Option(help: "Seed of the generator: the same seed writes the same files.")
        var seed: UInt64 = 1

        @Argument(help: "Folder to write into (created if missing).")
        var directory: String

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be positive") }
        }

        func run() throws {
            throw ExitCode(1)
        }
    }
}
