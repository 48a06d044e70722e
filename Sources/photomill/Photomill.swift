import ArgumentParser

struct Photomill: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photomill",
        abstract: "Hashes, metadata, thumbnails and OCR text for large photo collections.",
        version: "0.1.0",
        subcommands: [Inspect.self, Samples.self])
}
