/// Guesses an entry's language from the mix of scripts in its prose.
///
/// Kana anywhere (beyond a stray character) means Japanese; Hangul at least as frequent as Han
/// means Korean; otherwise Han means Chinese (Traditional when characters that exist only in
/// Traditional Chinese outnumber the Simplified-only ones); no CJK to speak of means English.
public enum LanguageDetector {
    public struct Counts: Sendable, Equatable {
        public var han = 0
        public var kana = 0
        public var hangul = 0
        /// Runs of Latin letters (roughly, words).
        public var latinWords = 0
        public var traditionalOnly = 0
        public var simplifiedOnly = 0
    }

    /// Common characters written differently in the two Chinese scripts (characters shared by
    /// both lists are dropped from both).
    private static let traditionalList = Set("這們說對時會來個為學國過後發開關還體點頭見問題應該實現與將從無裡麼邊讓設計圖顯畫請檢視顏導覽頁標狀態")
    private static let simplifiedList = Set("这们说对时会来个为学国过后发开关还体点头见问题应该实现与将从无里么边让设计图显画请检视颜导览页标状态")
    static let traditionalOnly = traditionalList.subtracting(simplifiedList)
    static let simplifiedOnly = simplifiedList.subtracting(traditionalList)

    public static func counts(_ text: String) -> Counts {
        var counts = Counts()
        var inLatinWord = false
        for character in text {
            guard let scalar = character.unicodeScalars.first else { continue }
            let isLatin = scalar.isASCII && scalar.properties.isAlphabetic
            if isLatin && !inLatinWord { counts.latinWords += 1 }
            inLatinWord = isLatin
            if CJKCharacter.isKana(scalar) {
                counts.kana += 1
            } else if CJKCharacter.isHangul(scalar) {
                counts.hangul += 1
            } else if CJKCharacter.isHan(scalar) {
                counts.han += 1
                if traditionalOnly.contains(character) { counts.traditionalOnly += 1 }
                if simplifiedOnly.contains(character) { counts.simplifiedOnly += 1 }
            }
        }
        return counts
    }

    /// The BCP 47 tag (`zh-Hans`, `zh-Hant`, `ko`, `ja`, `en`) for `text`, which should be the
    /// prose of the write-up (code is mostly Latin and would skew the count).
    public static func detect(_ text: String) -> String {
        detect(counts(text))
    }

    public static func detect(_ c: Counts) -> String {
        let cjk = c.han + c.kana + c.hangul
        // A few CJK characters quoted in English prose do not make it a CJK text.
        guard cjk > 0, cjk * 2 >= c.latinWords else { return "en" }
        if c.kana >= 3 && c.kana * 20 >= c.han + c.kana { return "ja" }
        if c.hangul > 0 && c.hangul >= c.han { return "ko" }
        if c.han > 0 {
            return c.traditionalOnly > c.simplifiedOnly ? "zh-Hant" : "zh-Hans"
        }
        return c.kana > 0 ? "ja" : "en"
    }
}
