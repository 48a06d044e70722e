import ArgumentParser
import PhotomillCore

struct Photomill: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photomill",
        abstract: "Hashes, metadata, thumbnails and OCR text for large photo collections.",
        version: PhotomillVersion.number,
        subcommands: [Run.self, Status.self, Failed.self, Retry.self, Reprocess.self, PauseCommand.self, ResumeCommand.self,
                      Prioritize.self, Search.self, Duplicates.self, Export.self, CoordinatorCommand.self, WorkerCommand.self,
                      Inspect.self, Samples.self, Keys.self])
}

extension Photomill {
    /// `AsyncParsableCommand.main()`. Called from main.swift's top-level code, `main()`
    /// resolves to ParsableCommand's synchronous one (which refuses an async command tree,
    /// and whose `run()` is the one that prints help); from an async function, to this one.
    static func start() async {
        await main()
    }
}
