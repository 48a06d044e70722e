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

/// The EXIF values a sample carries, in the units readers report them in.
/// A nil field is not written at all.
public struct ExifFields: Sendable, Hashable, Codable {
    public var make: String?
    public var model: String?
    public var lensModel: String?
    /// EXIF form, "YYYY:MM:DD HH:MM:SS", local time. Also written as IFD0 DateTime.
    public var dateTimeOriginal: String?
    /// "+02:00"; the offset of `dateTimeOriginal` from UTC.
    public var offsetTimeOriginal: String?
    /// 1…8, as in EXIF/TIFF.
    public var orientation: Int?
    /// Signed decimal degrees: north and east positive. GPS is written only when both
    /// coordinates are set.
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?
    public var fNumber: Double?
    /// Seconds.
    public var exposureTime: Double?
    public var iso: Int?
    /// Millimetres.
    public var focalLength: Double?

    public init() {}

    public var isEmpty: Bool { self == ExifFields() }
}
