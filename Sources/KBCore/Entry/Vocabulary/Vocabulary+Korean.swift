extension Vocabulary {
    /// Korean.
    static let korean = Vocabulary(
        language: "ko",
        sections: [
            .problem: ["문제 정의", "문제 상황", "문제", "배경", "증상", "현상", "개요"],
            .attempts: ["시도한 방법", "시도 기록", "시도 내역", "시도"],
            .fix: ["해결 방법", "최종 구현", "최종 해결", "해결책", "해결"],
            .sideEffects: ["부수적 문제 해결", "부수적 문제", "부작용", "사이드 이펙트"],
            .lessons: ["교훈", "배운 점", "회고", "정리"],
            .references: ["참고 자료", "참고 문서", "참고 링크", "참고"],
        ],
        attemptWords: ["시도", "방법"],
        labels: [
            .idea: ["아이디어", "접근", "방법", "의도"],
            .result: ["결과"],
            .failure: ["문제", "현상"],
            .cause: ["원인"],
            .fixStep: ["해결"],
            .code: ["코드"],
        ],
        outcomes: [
            .failed: ["실패"],
            .partial: ["부분 성공", "부분적", "부분"],
            .worked: ["성공"],
            .rejected: ["기각", "폐기", "채택 안 함"],
        ],
        evidence: [
            .failure: ["적용 안 됨", "적용 안됨", "적용되지 않", "동작하지 않", "작동하지 않", "작동 안", "동작 안", "덮어써", "덮어쓰",
                       "무시됨", "무시되", "효과가 없", "변경되지 않", "크래시", "nil이", "찾지 못", "원인이 아니었"],
            .rejection: ["요구사항에 맞지 않", "요구사항과 맞지 않", "채택하지 않", "받아들여지지 않", "반려"],
            .success: ["변경되", "모두 적용", "적용됨", "적용되었", "해결됨", "해결되었", "정상 동작", "찾아내", "사라짐"],
            .limitation: ["존재하지 않", "지원되지 않", "지원하지 않", "한계"],
        ],
        names: [
            .symptom: "증상", .part(.idea): "아이디어", .part(.code): "코드", .part(.result): "결과",
            .part(.failure): "문제", .part(.cause): "원인", .part(.detail): "세부 내용",
        ]
    )
}
