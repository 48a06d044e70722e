import Foundation
import PhotomillCore

/// A line on stdout for people, escaped as all such text is (`PathBytes.display`).
func say(_ line: String) {
    print(PathBytes.display(line))
}

/// A message on stderr, escaped as all text for people is (`PathBytes.display`): one line.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((PathBytes.display(message) + "\n").utf8))
}

