import Foundation
import KBCore

/// Script classes used by the search tokenizer (see docs/search.md, "Script classes").
package enum SearchScalarClass: UInt8 {
    case other = 0
    case han, kana, hangul
    case upper, lower, digit, underscore
    /// A non-ASCII letter or combining mark that belongs to a word.
    case letter
    case dot
}

package enum SearchScalars {
    /// Properties of the scalars below U+10000, one byte each, computed once from `classify`,
    /// `isInert`, `startsSegment` and `simpleMapping`: the class in the low four bits, then
    /// `inertBit`, `segmentBit` and `simpleBit`. The tokenizer's hot loops read this instead of
    /// the range checks.
    static let properties: [UInt8] = (0..<0x10000).map { v in
        let v = UInt32(v)
        var p = classify(v).rawValue
        if isInert(v) { p |= inertBit }
        if startsSegment(v) { p |= segmentBit }
        if simpleMapping(v) != nil { p |= simpleBit }
        return p
    }
    static let inertBit: UInt8 = 0x10, segmentBit: UInt8 = 0x20, simpleBit: UInt8 = 0x40, classMask: UInt8 = 0x0F

    /// `properties` for any scalar (computed for scalars from U+10000 on).
    @inline(__always)
    static func properties(_ v: UInt32, _ table: UnsafePointer<UInt8>) -> UInt8 {
        v < 0x10000 ? table[Int(v)] : astralProperties(v)
    }

    @inline(never)
    static func astralProperties(_ v: UInt32) -> UInt8 {
        var p = classify(v).rawValue
        if isInert(v) { p |= inertBit }
        if startsSegment(v) { p |= segmentBit }
        return p
    }

    @inline(__always)
    package static func classify(_ v: UInt32) -> SearchScalarClass {
        if v < 0x80 {
            if v >= 0x61 { return v <= 0x7A ? .lower : .other }
            if v >= 0x41 { return v <= 0x5A ? .upper : (v == 0x5F ? .underscore : .other) }
            if v >= 0x30 { return v <= 0x39 ? .digit : .other }
            return v == 0x2E ? .dot : .other
        }
        switch v {
        case 0x3005, 0x3007, 0x3021...0x3029, 0x3038...0x303B, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xF900...0xFAFF, 0x20000...0x323AF:
            return .han
        case 0x3041...0x3096, 0x3099...0x309F, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF,
             0xFF66...0xFF9F, 0x1B000...0x1B16F:
            return .kana
        case 0x1100...0x11FF, 0x3131...0x318E, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF,
             0xFFA0...0xFFDC:
            return .hangul
        case 0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x02AF, 0x0300...0x036F, 0x0370...0x03FF,
             0x0400...0x052F, 0x1E00...0x1EFF:
            return .letter
        default:
            return .other
        }
    }

    /// Scalars that NFKC leaves unchanged and that never combine with the scalar before them
    /// (canonical combining class 0, NFKC_QC = Yes, not the second half of a composition).
    /// Text can be normalised piecewise between such scalars.
    @inline(__always)
    static func isInert(_ v: UInt32) -> Bool {
        if v < 0xA0 { return true }
        switch v {
        case 0x3001...0x3029, 0x3030...0x3035, 0x3037, 0x303B...0x303F, 0x3041...0x3096,
             0x309D...0x309E, 0x30A0...0x30FE, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        case 0x00A1...0x00A7, 0x00A9, 0x00AB...0x00AE, 0x00B0...0x00B1, 0x00B6...0x00B7, 0x00BB,
             0x00BF...0x0131, 0x0134...0x013E, 0x0141...0x0148, 0x014A...0x017E, 0x0180...0x01C3,
             0x01CD...0x01F0, 0x01F4...0x02AF, 0x02B9...0x02D7, 0x02DE...0x02DF, 0x02E5...0x02FF,
             0x034F, 0x0370...0x0373, 0x0375...0x0377, 0x037B...0x037D, 0x037F, 0x0386,
             0x0388...0x038A, 0x038C, 0x038E...0x03A1, 0x03A3...0x03CF, 0x03D7...0x03EF, 0x03F3,
             0x03F6...0x03F8, 0x03FA...0x0482, 0x0488...0x052F, 0x1100...0x1160, 0x1176...0x11A7,
             0x11C3...0x11FF, 0x1E00...0x1E99, 0x1E9C...0x1EFF, 0x200B...0x2010, 0x2012...0x2016,
             0x2018...0x2023, 0x2027...0x202E, 0x2030...0x2032, 0x2035, 0x2038...0x203B, 0x203D,
             0x203F...0x2046, 0x204A...0x2056, 0x2058...0x205E, 0x2060...0x2064, 0x2066...0x206F:
            return true
        default:
            return false
        }
    }

    /// Scalars before which text can be cut for piecewise NFKC: inert scalars, and scalars
    /// (ccc 0, not the second half of a composition) whose NFKD form starts with such a starter
    /// (full-width forms, ①, ㍿, ﬁ, half-width katakana except the voiced marks, …).
    @inline(__always)
    static func startsSegment(_ v: UInt32) -> Bool {
        if isInert(v) { return true }
        switch v {
        case 0x00A0, 0x00A8, 0x00AA, 0x00AF, 0x00B2...0x00B5, 0x00B8...0x00BA, 0x00BC...0x00BE,
             0x0132...0x0133, 0x013F...0x0140, 0x0149, 0x017F, 0x01C4...0x01CC, 0x01F1...0x01F3,
             0x2000...0x200A, 0x2011, 0x2017, 0x2024...0x2026, 0x202F, 0x2033...0x2034, 0x2036...0x2037,
             0x203C, 0x203E, 0x2047...0x2049, 0x2057, 0x205F, 0x2150...0x217F, 0x2189, 0x2460...0x24EA,
             0x3000, 0x3036, 0x3038...0x303A, 0x309B...0x309C, 0x309F, 0x30FF, 0x3131...0x3132, 0x3134,
             0x3137...0x3139, 0x3140...0x314E, 0x3164...0x318E, 0x3200...0x321E, 0x3220...0x3247,
             0x3250...0x327E, 0x3280...0x33FF, 0xF900...0xFA0D, 0xFA10, 0xFA12, 0xFA15...0xFA1E, 0xFA20,
             0xFA22, 0xFA25...0xFA26, 0xFA2A...0xFA6D, 0xFA70...0xFAD9, 0xFB00...0xFB06, 0xFF01...0xFF9D,
             0xFFA0...0xFFA2, 0xFFA4, 0xFFA7...0xFFA9, 0xFFB0...0xFFBE, 0xFFE0...0xFFE6, 0xFFE8...0xFFEE:
            return true
        default:
            return false
        }
    }

    /// Single scalars whose NFKC form is one ASCII scalar, mapped without calling the normaliser:
    /// full-width ASCII (U+FF01–U+FF5E), the ideographic space and the no-break space.
    @inline(__always)
    static func simpleMapping(_ v: UInt32) -> UInt32? {
        if v >= 0xFF01 && v <= 0xFF5E { return v - 0xFEE0 }
        if v == 0x3000 || v == 0x00A0 { return 0x20 }
        return nil
    }

    /// NFKC of a short piece of text. Foundation's compatibility composition does not recompose
    /// half-width voiced marks (ｶﾞ → カ + U+3099), so this is NFKD followed by NFC.
    static func nfkc<C: Sequence>(_ scalars: C) -> [UInt32] where C.Element == UInt32 {
        var s = String.UnicodeScalarView()
        for v in scalars { if let u = Unicode.Scalar(v) { s.append(u) } }
        let normalized = String(s).decomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
        return normalized.unicodeScalars.map { $0.value }
    }

    /// Appends the lower-case UTF-8 form of a (normalised) scalar.
    @inline(__always)
    static func appendLowercasedUTF8(_ v: UInt32, to bytes: inout [UInt8]) {
        if v < 0x80 {
            bytes.append(UInt8(v >= 0x41 && v <= 0x5A ? v + 32 : v))
            return
        }
        if let u = Unicode.Scalar(v) {
            let lower = u.properties.lowercaseMapping
            if lower.unicodeScalars.count == 1, lower.unicodeScalars.first!.value == v {
                appendUTF8(v, to: &bytes)
            } else {
                bytes.append(contentsOf: lower.utf8)
            }
        }
    }

    @inline(__always)
    static func appendUTF8(_ v: UInt32, to bytes: inout [UInt8]) {
        if v < 0x80 {
            bytes.append(UInt8(v))
        } else if v < 0x800 {
            bytes.append(UInt8(0xC0 | (v >> 6)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        } else if v < 0x10000 {
            bytes.append(UInt8(0xE0 | (v >> 12)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        } else {
            bytes.append(UInt8(0xF0 | (v >> 18)))
            bytes.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    /// FNV-1a, 32 bit, over bytes.
    @inline(__always)
    static func fnv1a32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var h: UInt32 = 2166136261
        for b in bytes { h = (h ^ UInt32(b)) &* 16777619 }
        return h
    }
}
