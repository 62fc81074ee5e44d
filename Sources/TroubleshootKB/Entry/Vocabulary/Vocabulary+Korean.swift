extension Vocabulary {
    /// Korean.
    static let korean = Vocabulary(
        language: "ko",
        sections: [
            .problem: ["문제 정의", "문제 상황", "문제", "배경", "증상", "현상", "개요"],
            .attempts: ["시도한 방법", "시도 기록", "시도 내역", "시도"],
            .fix: ["해결 방법", "최종 구현", "최종 해결", "해결책", "해결"],
            .sideEffects: ["부수적 문제 해결", "부수적 문제", "부작용", "사이드 이펙트"],
            .lessons: ["교훈", "배운 점", "회고"],
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
        ]
    )
}
