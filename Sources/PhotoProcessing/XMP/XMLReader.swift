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

import CLibXML2
import Foundation

/// libxml2's pull parser (xmlTextReader) over bytes in memory: one node after another, in
/// time linear in the input, with namespaces resolved and attributes read in place.
///
/// Foundation's XMLParser sits on the same libxml2, but in its recovery mode and behind a
/// bridge that crashed the process on hostile packets (a processing instruction without
/// data: strlen(NULL); a prefix that is not UTF-8: a force-unwrapped nil), dropped the
/// text an entity stands for, and handed a 16 MiB packet to the push parser in one chunk,
/// which refuses more than 10 MB of look-ahead. The reader has none of that: no recovery,
/// no network, no DTD loaded, entities reported as references (`Node.Kind.entityReference`)
/// instead of substituted, errors to a handler of its own instead of stderr.
final class XMLReader {
    /// What a node is (xmlReaderTypes): the ones the XMP reader looks at, `other` for the rest.
    enum Kind: Equatable {
        case element, endElement, text, whitespace, entityReference, documentType, other
    }

    /// An error of the packet: libxml2's message and line.
    struct Failure: Error {
        let message: String
        let line: Int
    }

    private let reader: OpaquePointer
    /// The bytes, owned here: libxml2 reads them in place for the reader's whole life.
    private let buffer: UnsafeMutableRawBufferPointer
    private let errors = ErrorBox()

    /// Used by one thread at a time (not Sendable).
    init(_ data: Data) throws(Failure) {
        Self.initialized
        buffer = .allocate(byteCount: max(data.count, 1), alignment: 1)
        data.copyBytes(to: buffer)
        guard
            let reader = xmlReaderForMemory(
                buffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                Int32(data.count),
                nil,
                nil,
                pm_xml_reader_options()
            )
        else {
            buffer.deallocate()
            throw Failure(message: "libxml2 could not start a reader", line: 0)
        }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context else { return }
                Unmanaged<ErrorBox>.fromOpaque(context).takeUnretainedValue().record(error)
            },
            Unmanaged.passUnretained(errors).toOpaque()
        )
    }

    deinit {
        xmlFreeTextReader(reader)
        buffer.deallocate()
    }

    /// libxml2's own set-up, once per process (its documentation asks for it before
    /// threads parse at the same time).
    private static let initialized: Void = { xmlInitParser() }()

    /// Moves to the next node; false at the end. A packet that is not well-formed (or not
    /// in its encoding) throws the first error libxml2 met.
    func next() throws(Failure) -> Bool {
        switch xmlTextReaderRead(reader) {
        case 1: return true
        case 0: return false
        default:
            throw errors.first
                ?? Failure(message: "not well-formed", line: Int(xmlTextReaderGetParserLineNumber(reader)))
        }
    }

    var kind: Kind {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue): .element
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue): .endElement
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue): .text
        case Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            .whitespace
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue): .entityReference
        case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue): .documentType
        default: .other
        }
    }

    /// Of the current node (or attribute).
    var localName: String { Self.string(xmlTextReaderConstLocalName(reader)) ?? "" }
    var namespaceURI: String? { Self.string(xmlTextReaderConstNamespaceUri(reader)) }
    var value: String { Self.string(xmlTextReaderConstValue(reader)) ?? "" }
    /// The `xml:lang` in scope.
    var language: String? { Self.string(xmlTextReaderConstXmlLang(reader)) }
    var depth: Int { Int(xmlTextReaderDepth(reader)) }
    /// `<a/>`: an element with no end node of its own.
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// Whether the current node is `local` in `namespace`, compared in libxml2's own
    /// buffers (no string is made: the reader's hot path on a packet of half a million items).
    func isNamed(_ local: StaticString, in namespace: StaticString) -> Bool {
        guard let name = xmlTextReaderConstLocalName(reader), let uri = xmlTextReaderConstNamespaceUri(reader) else {
            return false
        }
        return xmlStrEqual(name, local.utf8Start) == 1 && xmlStrEqual(uri, namespace.utf8Start) == 1
    }

    /// The current element's attributes, namespace declarations left out.
    var attributes: [(localName: String, namespaceURI: String?, value: String)] {
        var found: [(String, String?, String)] = []
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            if xmlTextReaderIsNamespaceDecl(reader) == 1 { continue }
            found.append((localName, namespaceURI, value))
        }
        xmlTextReaderMoveToElement(reader)
        return found
    }

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String? {
        text.map { String(cString: $0) }
    }

    /// The first error the handler was given.
    private final class ErrorBox {
        var first: Failure?

        func record(_ error: UnsafeMutablePointer<xmlError>?) {
            guard first == nil, let error else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
            first = Failure(
                message: message.trimmingCharacters(in: .whitespacesAndNewlines),
                line: Int(error.pointee.line)
            )
        }
    }
}
