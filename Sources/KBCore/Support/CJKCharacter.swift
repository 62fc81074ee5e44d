/// Script classes of CJK characters, shared by the parser, the linter and the renderer.
public enum CJKCharacter {
    public static func isHan(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F, 0x3005, 0x3007:
            return true
        default:
            return false
        }
    }

    public static func isKana(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3041...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F:
            return true
        default:
            return false
        }
    }

    public static func isHangul(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF:
            return true
        default:
            return false
        }
    }

    /// CJK punctuation: the CJK Symbols and Punctuation block (、。「」『』【】…) and the
    /// full-width forms of ASCII punctuation (，！？：；（）).
    public static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3000...0x3004, 0x3008...0x3011, 0x3014...0x301F, 0x30FB,
             0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65,
             0x2018, 0x2019, 0x201C, 0x201D, 0x2026, 0x2014:
            return true
        default:
            return false
        }
    }

    /// A CJK letter: Han, Kana or Hangul.
    public static func isLetter(_ s: Unicode.Scalar) -> Bool {
        isHan(s) || isKana(s) || isHangul(s)
    }

    /// Characters between which a line break is not a word space (Chinese, Japanese).
    public static func joinsWithoutSpace(_ s: Unicode.Scalar) -> Bool {
        isHan(s) || isKana(s) || (isPunctuation(s) && s.value != 0x2014 && s.value != 0x2018 && s.value != 0x201C)
    }
}
