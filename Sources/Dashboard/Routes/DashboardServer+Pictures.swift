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

import Catalog
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotomillCore

// The Library and Duplicates pages, and what they ask of the API (docs/operations.md, "The
// Library and Duplicates pages"): photos found by search, one photo's details, thumbnails,
// exact and similar groups. Reads only: nothing here changes the catalog or a file.
extension DashboardServer {
    /// Photos or groups listed at most, per call (`limit`, default 200 and 100).
    static let picturesLimit = 1...1_000

    /// The pages and their assets hold no data, so they need no token (as `addPage`).
    func addPicturePages(to router: Router<BasicRequestContext>) {
        router.get("library") { _, _ in Self.asset(Page.libraryHTML, type: "text/html; charset=utf-8") }
        router.get("duplicates") { _, _ in Self.asset(Page.duplicatesHTML, type: "text/html; charset=utf-8") }
        router.get("pictures.js") { _, _ in Self.asset(Page.picturesScript, type: "text/javascript; charset=utf-8") }
        router.get("pictures.css") { _, _ in Self.asset(Page.picturesCSS, type: "text/css; charset=utf-8") }
    }

    /// Their data, behind the token.
    func addPictures(to router: RouterGroup<BasicRequestContext>) {
        let api = router.group("api/v1")
        api.get("search") { request, _ in
            let parameters = request.uri.queryParameters
            let query: PhotoQuery
            do throws(PhotoQuery.Invalid) {
                query = try Self.photoQuery { parameters[Substring($0)].map(String.init) }
            } catch {
                return APIResponse.error(.badRequest, error.message)
            }
            return try await self.answer { APIResponse.encoded(SearchAnswer(photos: try self.reader.search(query))) }
        }
        api.get("photo") { request, _ in
            guard let path = request.uri.queryParameters["path"].map(String.init), !path.isEmpty else {
                return APIResponse.error(.badRequest, "give the photo's path: photo?path=/photos/a.jpg")
            }
            let details = try await self.catalogWork { try self.reader.photoDetails(path: path) }
            guard let details else { return APIResponse.error(.notFound, "no photo at \(path) in the catalog") }
            return APIResponse.json(details)
        }
        api.get("thumbnail") { request, _ in
            guard let path = request.uri.queryParameters["path"].map(String.init), !path.isEmpty else {
                return APIResponse.error(.badRequest, "give the photo's path: thumbnail?path=/photos/a.jpg")
            }
            let held = Self.entityTags(request.headers[.ifNoneMatch])
            let stored = try await self.catalogWork { try self.reader.thumbnail(path: path, unless: held) }
            return Self.thumbnailResponse(stored, path: path)
        }
        api.get("duplicates") { request, _ in
            let parameters = request.uri.queryParameters
            guard let distance = Int(parameters["distance"].map(String.init) ?? "\(Catalog.defaultSimilarDistance)"),
                Catalog.similarDistances.contains(distance)
            else {
                return APIResponse.error(
                    .badRequest,
                    "distance must be a number of bits from \(Catalog.similarDistances.lowerBound) to \(Catalog.similarDistances.upperBound)"
                )
            }
            guard let limit = Int(parameters["limit"].map(String.init) ?? "100"), Self.picturesLimit.contains(limit)
            else {
                return APIResponse.error(
                    .badRequest,
                    "limit must be a number from \(Self.picturesLimit.lowerBound) to \(Self.picturesLimit.upperBound)"
                )
            }
            return try await self.answer {
                let exact = try self.reader.duplicates()
                let similar = try self.reader.similarGroups(within: distance)
                return APIResponse.encoded(
                    DuplicatesAnswer(
                        distance: distance,
                        exactGroups: exact.count,
                        similarGroups: similar.count,
                        exact: Array(exact.prefix(limit)),
                        similar: Array(similar.prefix(limit))
                    )
                )
            }
        }
    }

    /// A search from the Library page's fields (those of `photomill search`): `text`,
    /// `camera`, `from`, `to`, `near` (LAT,LON,KM), `type`, `keyword`, `rating`, `limit`.
    /// None given lists every photo, by path, up to the limit.
    static func photoQuery(_ value: (String) -> String?) throws(PhotoQuery.Invalid) -> PhotoQuery {
        func given(_ name: String) -> String? {
            guard let text = value(name)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        var query = PhotoQuery()
        query.words = given("text").map { $0.split(whereSeparator: \.isWhitespace).map(String.init) } ?? []
        query.camera = given("camera")
        query.keyword = given("keyword")
        if let from = given("from") {
            try PhotoQuery.checkDate(from, name: "from")
            query.from = from
        }
        if let to = given("to") {
            try PhotoQuery.checkDate(to, name: "to")
            query.to = to
        }
        if let from = query.from, let to = query.to, from.prefix(to.count) > to {
            throw PhotoQuery.Invalid(message: "from \(from) is after to \(to)")
        }
        query.near = try given("near").map { text throws(PhotoQuery.Invalid) in
            try PhotoQuery.parseNear(text, name: "near")
        }
        if let type = given("type") {
            guard let mediaType = MediaType(rawValue: type) else {
                throw PhotoQuery.Invalid(message: "type must be photo, raw or video, not '\(type)'")
            }
            query.mediaType = mediaType
        }
        if let rating = given("rating") {
            guard let minimum = Int(rating), (-1...5).contains(minimum) else {
                throw PhotoQuery.Invalid(message: "rating must be a number from -1 to 5, not '\(rating)'")
            }
            query.minimumRating = minimum
        }
        let limit = given("limit") ?? "200"
        guard let count = Int(limit), picturesLimit.contains(count) else {
            throw PhotoQuery.Invalid(
                message: "limit must be a number from \(picturesLimit.lowerBound) to \(picturesLimit.upperBound)"
            )
        }
        query.limit = count
        return query
    }

    /// The tags of an `If-None-Match` (`"a", W/"b"`; a weak tag compares as its strong form).
    static func entityTags(_ header: String?) -> Set<String> {
        guard let header else { return [] }
        return Set(
            header.split(separator: ",").map { tag in
                let trimmed = tag.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
            }
        )
    }

    /// A thumbnail may be kept by the browser, but asked again each time (`no-cache`): a
    /// re-processed photo's changes at once, an unchanged one costs a 304 and no bytes.
    static func thumbnailResponse(_ stored: StoredThumbnail, path: String) -> Response {
        let caching = "private, no-cache"
        switch stored {
        case .none:
            return APIResponse.error(.notFound, "no thumbnail of \(path) in the catalog")
        case .unchanged(let tag):
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: caching])
        case .jpeg(let jpeg, let tag):
            return Response(
                status: .ok,
                headers: [
                    .contentType: "image/jpeg", .eTag: tag, .cacheControl: caching, .xContentTypeOptions: "nosniff",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg))
            )
        }
    }
}

/// `/api/v1/search`: the photos found, as `search --json` writes each.
struct SearchAnswer: Encodable {
    var photos: [PhotoHit]
}

/// `/api/v1/duplicates`: exact copies (as `duplicates --json`) and similar groups (as
/// `similar --json`), the largest first, each list cut at the limit.
struct DuplicatesAnswer: Encodable {
    var distance: Int
    var exactGroups: Int
    var similarGroups: Int
    var exact: [DuplicateGroup]
    var similar: [SimilarGroup]
}
