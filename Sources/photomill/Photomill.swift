import ArgumentParser
import PhotomillCore

struct Photomill: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photomill",
        abstract: "Hashes, metadata, thumbnails and OCR text for large photo collections.",
        version: PhotomillVersion.number,
        subcommands: [Run.self, Status.self, Failed.self, Retry.self, Reprocess.self, Search.self, Duplicates.self, Export.self,
                      CoordinatorCommand.self, WorkerCommand.self, Inspect.self, Samples.self, Keys.self])
}
