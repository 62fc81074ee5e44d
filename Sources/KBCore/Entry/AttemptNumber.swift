/// An attempt's number as written: `0`, `2`, `4-1` (also written `4.1`).
public struct AttemptNumber: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let parts: [Int]

    public init(_ parts: [Int]) { self.parts = parts }

    /// Parses `4`, `4-1`, `4.1`, `４-１` (full-width digits are folded).
    public init?(_ text: Substring) {
        var parts: [Int] = []
        var current: Int? = nil
        for scalar in text.unicodeScalars {
            var value = scalar.value
            if (0xFF10...0xFF19).contains(value) { value -= 0xFF10 - 0x30 }
            if (0x30...0x39).contains(value) {
                current = (current ?? 0) * 10 + Int(value - 0x30)
                if current! > 9999 { return nil }
            } else if scalar == "-" || scalar == "." || scalar == "‐" || scalar == "－" {
                guard let number = current else { return nil }
                parts.append(number)
                current = nil
            } else {
                return nil
            }
        }
        guard let last = current else { return nil }
        parts.append(last)
        self.parts = parts
    }

    /// Between the parts of a number as it is written back: `4-1`.
    package static let separator = "-"

    public var description: String {
        if parts.count == 1 { return String(parts[0]) }
        var text = ""
        for (i, part) in parts.enumerated() {
            if i > 0 { text += Self.separator }
            text += String(part)
        }
        return text
    }

    public static func < (lhs: AttemptNumber, rhs: AttemptNumber) -> Bool {
        lhs.parts.lexicographicallyPrecedes(rhs.parts)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let number = AttemptNumber(Substring(text)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad attempt number \(text)"))
        }
        self = number
    }
}
