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

import CLibRaw
import Foundation

/// The cameras this LibRaw lists as supported (`libraw_cameraList`), to tell a camera it
/// does not know from a file it cannot read (`RawDecoder.openFailure`).
enum LibRawCameras {
    /// "0.20.2" (LibRaw says "0.20.2-Release").
    static let version = String(cString: libraw_version()).replacingOccurrences(of: "-Release", with: "")

    /// Each entry's names, lowercased, with the make on every one: the list spells an
    /// entry "Canon EOS 350D / Digital Rebel XT / Kiss Digital N", the aliases without
    /// the make.
    private static let names: [[String]] = {
        guard let list = libraw_cameraList() else { return [] }
        return (0..<Int(libraw_cameraCount())).compactMap { index in
            guard let entry = list[index] else { return nil }
            let names = String(cString: entry).lowercased().components(separatedBy: " / ")
            guard let first = names.first, let make = first.split(separator: " ").first else { return nil }
            return [first] + names.dropFirst().map { "\(make) \($0)" }
        }
    }()

    /// Whether the camera is on the list. LibRaw has already cleaned make and model as
    /// it does for its list ("Canon", "EOS 350D DIGITAL"); the EXIF model may run on
    /// past the listed name, so a listed name followed by a space matches too: EOS 350D
    /// DIGITAL is the listed EOS 350D. (A model the list does not have but whose name
    /// extends a listed one is taken as listed: such a file is called damaged rather
    /// than unsupported.)
    static func lists(make: String, model: String) -> Bool {
        let camera = "\(make) \(model)".lowercased()
        return names.contains { entry in
            entry.contains { camera == $0 || camera.hasPrefix($0 + " ") }
        }
    }
}
