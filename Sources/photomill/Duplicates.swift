import ArgumentParser
import Catalog
import Foundation

extension Photomill {
    struct Duplicates: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List groups of photos with the same content (MD5), largest files first.")

        @OptionGroup var catalog: CatalogFlags

        @Flag(help: "Print JSON Lines: one object per group.")
        var json = false

        func run() throws {
            let groups = try catalog.open(.readOnly).duplicates()
            var redundant = 0, bytes: Int64 = 0
            var out = LineBuffer()
            defer { out.flush() }
            let lines = JSONLines()
            for group in groups {
                redundant += group.paths.count - 1
                bytes += group.size * Int64(group.paths.count - 1)
                if json { out.append(lines.line(group)); continue }
                out.append("\(group.md5)  \(group.paths.count) copies of \(group.size) bytes")
                for path in group.paths { out.append("  " + path) }
            }
            if !json { out.append("\(groups.count) groups; \(redundant) redundant files, \(bytes) bytes") }
        }
    }
}
