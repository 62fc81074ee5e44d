import Foundation
import KBCore

/// Renders pickles and parse errors as cucumber-messages NDJSON lines:
/// `{"pickle": {...}}` and `{"parseError": {...}}`, keys sorted.
public enum PickleJSON {
    /// The JSON object of one pickle envelope.
    public static func object(_ pickle: Pickle) -> [String: Any] {
        var location: [String: Any] = ["line": pickle.location.line]
        if pickle.location.column > 0 { location["column"] = pickle.location.column }
        let body: [String: Any] = [
            "id": pickle.id,
            "uri": pickle.uri,
            "name": pickle.name,
            "language": pickle.language,
            "location": location,
            "astNodeIds": pickle.astNodeIds,
            "tags": pickle.tags.map { ["name": $0.name, "astNodeId": $0.astNodeId] },
            "steps": pickle.steps.map(stepObject),
        ]
        return ["pickle": body]
    }

    private static func stepObject(_ step: Pickle.Step) -> [String: Any] {
        var object: [String: Any] = [
            "id": step.id,
            "text": step.text,
            "type": step.type.rawValue,
            "astNodeIds": step.astNodeIds,
        ]
        var argument: [String: Any] = [:]
        if let table = step.dataTable {
            var tableObject: [String: Any] = [
                "rows": table.rows.map { ["cells": $0.map { ["value": $0] }] },
            ]
            if let index = table.argumentIndex { tableObject["argumentIndex"] = index }
            argument["dataTable"] = tableObject
        }
        if let doc = step.docString {
            var docObject: [String: Any] = ["content": doc.content]
            if let mediaType = doc.mediaType { docObject["mediaType"] = mediaType }
            if let index = doc.argumentIndex { docObject["argumentIndex"] = index }
            argument["docString"] = docObject
        }
        if !argument.isEmpty { object["argument"] = argument }
        return object
    }

    /// The JSON object of one parse error envelope; the column is left out for
    /// an end-of-file error, as cucumber does.
    public static func object(_ error: GherkinError) -> [String: Any] {
        var location: [String: Any] = ["line": error.line]
        if error.column > 0 { location["column"] = error.column }
        return ["parseError": [
            "message": error.message,
            "source": ["location": location, "uri": error.uri],
        ] as [String: Any]]
    }

    /// One NDJSON line for a pickle.
    public static func line(_ pickle: Pickle) -> String { serialize(object(pickle)) }

    /// One NDJSON line for a parse error.
    public static func line(_ error: GherkinError) -> String { serialize(object(error)) }

    /// Serializes a JSON object on one line with sorted keys and unescaped slashes.
    public static func serialize(_ object: Any) -> String {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
