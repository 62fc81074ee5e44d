extension Vocabulary {
    /// Japanese.
    static let japanese = Vocabulary(
        language: "ja",
        sections: [
            .problem: ["問題", "背景", "症状", "現象", "概要", "起きたこと"],
            .attempts: ["試したこと", "試行錯誤", "経緯", "試行"],
            .fix: ["解決策", "解決方法", "最終的な解決", "対処法", "対処", "解決"],
            .sideEffects: ["副作用", "注意点"],
            .lessons: ["教訓", "学び", "まとめ"],
            .references: ["参考資料", "参考リンク", "参考文献", "参考"],
        ],
        attemptWords: ["試行", "試み", "方法", "案"],
        labels: [
            .idea: ["考え方", "狙い", "アイデア", "方針"],
            .result: ["結果"],
            .failure: ["問題", "現象"],
            .cause: ["原因"],
            .fixStep: ["解決"],
            .code: ["コード"],
        ],
        outcomes: [
            .failed: ["失敗", "効果なし"],
            .partial: ["部分的", "一部"],
            .worked: ["成功"],
            .rejected: ["却下", "不採用"],
        ],
        evidence: [
            .failure: ["反映されない", "効かない", "効果がない", "変わらない", "動かない", "古いまま", "表示されない", "クラッシュ",
                       "nil になる", "nilになる", "エラーになる", "落ちる", "上書きされ", "無視され", "問題ではなかった", "原因ではなかった"],
            .rejection: ["要件に合わない", "採用しなかった", "見送", "受け入れられなかった"],
            .success: ["反映された", "解決した", "動いた", "直った", "表示された", "効いた", "消えた"],
            .limitation: ["未対応", "サポートされていない", "存在しない", "一部のみ"],
        ],
        names: [
            .symptom: "症状", .part(.idea): "方針", .part(.code): "コード", .part(.result): "結果",
            .part(.failure): "問題", .part(.cause): "原因", .part(.detail): "詳細",
        ]
    )
}
