# language: ko
기능: Linux Swift에서 .byWords를 쓸 수 없다
  swift-corelibs-foundation의 .byWords와 .bySentences가 여전히 unavailable인지 swiftc로 확인하고,
  시도한 분리 방법, Linux Foundation의 NFKC 동작, 프로젝트의 분석기(kb analyze)가 기록대로인지 확인한다.

  @attempt-1 @requires:swiftc
  시나리오: 시도 1 — macOS와 똑같이 .byWords를 쓰면 타입 검사에서 실패한다
    조건 파일 "words.swift"의 내용:
      """
      import Foundation
      let text = "리눅스에서 단어를 나눈다" as NSString
      text.enumerateSubstrings(in: NSRange(location: 0, length: text.length), options: .byWords) { word, _, _, _ in print(word ?? "") }
      """
    만일 "swiftc -typecheck words.swift"를 실행하면
    그러면 종료 코드는 0이 아니다
    그리고 표준 오류에 "'byWords' is unavailable"이 포함된다
    조건 파일 "sentences.swift"의 내용:
      """
      import Foundation
      let text = "첫 문장이다. 둘째 문장이다." as NSString
      text.enumerateSubstrings(in: NSRange(location: 0, length: text.length), options: .bySentences) { s, _, _, _ in print(s ?? "") }
      """
    만일 "swiftc -typecheck sentences.swift"를 실행하면
    그러면 종료 코드는 0이 아니다
    그리고 표준 오류에 "'bySentences' is unavailable"이 포함된다

  @attempt-2 @requires:swiftc
  시나리오: 시도 2 — 공백과 문장부호로 자르면 중국어 문장은 토큰 하나가 된다
    조건 파일 "naive.swift"의 내용:
      """
      import Foundation

      func naiveWords(_ text: String) -> [String] {
          let separators = CharacterSet.whitespacesAndNewlines.union(.punctuationCharacters)
          return text.lowercased()
              .components(separatedBy: separators)
              .filter { !$0.isEmpty }
      }

      print(naiveWords("리눅스에서 단어를 나누고 싶다. Swift, Foundation!"))
      print(naiveWords("搜索结果里没有这个词"))
      """
    만일 "swiftc naive.swift -o naive"를 실행하면
    그러면 종료 코드는 0이다
    만일 "./naive"를 실행하면
    그러면 표준 출력에 "[\"리눅스에서\", \"단어를\", \"나누고\", \"싶다\", \"swift\", \"foundation\"]"이 포함된다
    그리고 표준 출력에 "[\"搜索结果里没有这个词\"]"가 포함된다

  @attempt-3 @requires:swiftc
  시나리오: 시도 3 — 문자 종류별 토크나이저는 CJK를 겹치는 2-gram으로 나눈다
    조건 파일 "tokenize.swift"의 내용:
      """
      import Foundation

      func isCJKLetter(_ s: Unicode.Scalar) -> Bool {
          switch s.value {
          case 0x3041...0x309F, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x3005, 0x3007,
               0x3400...0x4DBF, 0x4E00...0x9FFF, 0x20000...0x323AF, 0xAC00...0xD7A3, 0x1100...0x11FF:
              return true
          default:
              return false
          }
      }

      func cjkBigrams(_ run: [Unicode.Scalar]) -> [String] {
          let chars = run.map { String(Character($0)) }
          guard chars.count > 1 else { return chars }
          return zip(chars, chars.dropFirst()).map { $0 + $1 }
      }

      func latinTokens(_ word: String) -> [String] {
          let chars = Array(word)
          var parts: [String] = []
          var start = 0
          for i in chars.indices.dropFirst() {
              let prev = chars[i - 1], ch = chars[i]
              let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
              let boundary = (prev.isLowercase && ch.isUppercase)
                  || (prev.isUppercase && ch.isUppercase && nextIsLower)
                  || (prev.isNumber != ch.isNumber)
              if boundary {
                  parts.append(String(chars[start..<i]))
                  start = i
              }
          }
          parts.append(String(chars[start...]))
          let whole = word.lowercased()
          guard parts.count > 1 else { return [whole] }
          return [whole] + parts.filter { $0.count > 1 }.map { $0.lowercased() }
      }

      func tokenize(_ text: String) -> [String] {
          var tokens: [String] = []
          var run: [Unicode.Scalar] = []
          var runIsCJK = false
          func flush() {
              guard !run.isEmpty else { return }
              tokens += runIsCJK ? cjkBigrams(run) : latinTokens(String(String.UnicodeScalarView(run)))
              run.removeAll()
          }
          let normalized = text.decomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
          for scalar in normalized.unicodeScalars {
              let isCJK = isCJKLetter(scalar)
              guard isCJK || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else {
                  flush()
                  continue
              }
              if isCJK != runIsCJK {
                  flush()
                  runIsCJK = isCJK
              }
              run.append(scalar)
          }
          flush()
          return tokens
      }

      precondition(tokenize("搜索结果列表") == ["搜索", "索结", "结果", "果列", "列表"])
      precondition(tokenize("리눅스 단어 분리") == ["리눅", "눅스", "단어", "분리"])
      precondition(tokenize("ＵＴＦ８ 変換") == ["utf8", "utf", "変換"])
      precondition(tokenize("ﾅﾋﾞｹﾞｰｼｮﾝ") == ["ナビ", "ビゲ", "ゲー", "ーシ", "ショ", "ョン"])
      precondition(tokenize("時々変わる") == ["時々", "々変", "変わ", "わる"])
      precondition(tokenize("scrollEdgeAppearance가 nil")
          == ["scrolledgeappearance", "scroll", "edge", "appearance", "가", "nil"])
      print(tokenize("搜索结果列表").joined(separator: " "))
      """
    만일 "swiftc tokenize.swift -o tokenize"를 실행하면
    그러면 종료 코드는 0이다
    만일 "./tokenize"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "搜索 索结 结果 果列 列表"이 포함된다

  @attempt-4 @requires:swiftc
  시나리오: 시도 4 — #if canImport(Darwin)으로 나누면 Linux는 .byWords 없이 2-gram 쪽만 컴파일한다
    조건 파일 "platform.swift"의 내용:
      """
      import Foundation

      // 시도 3의 토크나이저 대신 쓰는 최소한의 2-gram
      func tokenize(_ text: String) -> [String] {
          let chars = Array(text)
          return zip(chars, chars.dropFirst()).map { String($0) + String($1) }
      }

      func words(_ text: String) -> [String] {
      #if canImport(Darwin)
          var result: [String] = []
          text.enumerateSubstrings(in: text.startIndex..., options: .byWords) { word, _, _, _ in
              if let word { result.append(word.lowercased()) }
          }
          return result
      #else
          return tokenize(text)
      #endif
      }

      print(words("搜索结果里的词").joined(separator: " "))
      """
    만일 "swiftc platform.swift -o platform"를 실행하면
    그러면 종료 코드는 0이다
    만일 "./platform"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "搜索 索结 结果 果里 里的 的词"이 포함된다

  @fix @requires:swiftc
  시나리오: 해결 방법 — NFKC만 쓰면 Linux에서 반각 탁점이 떨어져 남고, NFKD 뒤 NFC로 하면 ビ·ゲ 2-gram이 나온다
    조건 파일 "halfwidth.swift"의 내용:
      """
      import Foundation

      func isCJKLetter(_ s: Unicode.Scalar) -> Bool {
          switch s.value {
          case 0x3041...0x309F, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x3005, 0x3007,
               0x3400...0x4DBF, 0x4E00...0x9FFF, 0x20000...0x323AF, 0xAC00...0xD7A3, 0x1100...0x11FF:
              return true
          default:
              return false
          }
      }

      func cjkBigrams(_ run: [Unicode.Scalar]) -> [String] {
          let chars = run.map { String(Character($0)) }
          guard chars.count > 1 else { return chars }
          return zip(chars, chars.dropFirst()).map { $0 + $1 }
      }

      // 라틴 구간은 이 검사와 관계없으므로 소문자 단어 하나로만 둔다.
      func latinTokens(_ word: String) -> [String] { [word.lowercased()] }

      func nfkc(_ text: String) -> String {
          text.decomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
      }

      func tokenize(_ text: String, normalize: (String) -> String = nfkc) -> [String] {
          var tokens: [String] = []
          var run: [Unicode.Scalar] = []
          var runIsCJK = false
          func flush() {
              guard !run.isEmpty else { return }
              tokens += runIsCJK ? cjkBigrams(run) : latinTokens(String(String.UnicodeScalarView(run)))
              run.removeAll()
          }
          for scalar in normalize(text).unicodeScalars {
              let isCJK = isCJKLetter(scalar)
              guard isCJK || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else {
                  flush()
                  continue
              }
              if isCJK != runIsCJK {
                  flush()
                  runIsCJK = isCJK
              }
              run.append(scalar)
          }
          flush()
          return tokens
      }

      let hex = { (t: String) in
          t.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: "+")
      }
      let input = "ﾅﾋﾞｹﾞｰｼｮﾝ"
      let nfkcOnly = tokenize(input, normalize: { $0.precomposedStringWithCompatibilityMapping })
      let nfkcThenNFC = tokenize(input, normalize: {
          $0.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
      })
      print("NFKC만:", nfkcOnly.map(hex).joined(separator: " "))
      print("NFKD+NFC:", tokenize(input).joined(separator: " "))
      print("NFKC+NFC:", nfkcThenNFC.joined(separator: " "))
      """
    만일 "swiftc halfwidth.swift -o halfwidth"를 실행하면
    그러면 종료 코드는 0이다
    만일 "./halfwidth"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "NFKC만: 30CA+30D2 30D2+3099 3099+30B1 30B1+3099 3099+30FC 30FC+30B7"이 포함된다
    그리고 표준 출력에 "NFKD+NFC: ナビ ビゲ ゲー ーシ ショ ョン"이 포함된다
    그리고 표준 출력에 "NFKC+NFC: ナビ ビゲ ゲー ーシ ショ ョン"이 포함된다

  @fix
  시나리오: 해결 방법 — 프로젝트의 분석기가 중국어 구절과 반각 가타카나를 2-gram으로 나눈다
    만일 "kb analyze 大标题"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "大标"가 포함된다
    그리고 표준 출력에 "标题"가 포함된다
    만일 "kb analyze ﾅﾋﾞｹﾞｰｼｮﾝ"를 실행하면
    그러면 종료 코드는 0이다
    그리고 표준 출력에 "ナビ"가 포함된다
    그리고 표준 출력에 "ビゲ"가 포함된다
