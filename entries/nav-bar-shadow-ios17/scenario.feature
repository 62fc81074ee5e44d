# language: ko
# 네비게이션 바 모델(규칙: docs/model/navigation-bar.md)로 확인한다. 실제 기기가 아니다.
@world:navigation-bar-model
기능: iOS 17/18 SwiftUI 화면의 네비게이션 바 배경색과 하단 경계선

  배경:
    조건 기기는 iOS 17이다
    그리고 앱은 라이트 모드이다
    그리고 스크롤 목록이 있는 SwiftUI 화면 "할 일"

  @attempt-1
  시나리오: 시도 1 — toolbarBackground는 배경색만 바꾸고 경계선은 남는다
    조건 화면에 다음 modifier를 붙인다:
      """swift
      .toolbarBackground(.visible, for: .navigationBar)
      .toolbarBackground(Color(.systemBackground), for: .navigationBar)
      """
    만약 앱이 "할 일"을 띄운다
    그러면 바 배경은 "systemBackground"이다
    그리고 바 아래 경계선이 보인다
    만약 사용자가 아래로 스크롤한다
    그러면 바 배경은 "systemBackground"이다
    그리고 바 아래 경계선이 보인다

  @attempt-2
  시나리오: 시도 2 — appearance 프록시는 처음엔 먹히지만 large→inline 전환에서 풀리고, 떠 있는 네비게이션 바는 바꾸지 못한다
    조건 화면이 onAppear에서 다음 코드를 실행한다:
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      let proxy = UINavigationBar.appearance()
      proxy.standardAppearance = appearance
      proxy.scrollEdgeAppearance = appearance
      """
    만약 앱이 "할 일"을 띄운다
    그러면 바 아래 경계선이 보이지 않는다
    만약 사용자가 아래로 스크롤한다
    그러면 바 아래 경계선이 보인다
    만약 앱이 다음 코드를 실행한다:
      """swift
      let again = UINavigationBarAppearance()
      again.configureWithOpaqueBackground()
      again.shadowColor = .clear
      UINavigationBar.appearance().standardAppearance = again
      """
    그러면 바 아래 경계선이 보인다

  @attempt-3
  시나리오: 시도 3 — NavigationBarConfigurator가 실제 네비게이션 바 인스턴스를 설정하면 large와 inline 모두 유지된다
    조건 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      """
    만약 앱이 "할 일"을 띄운다
    그러면 configurator가 내비게이션 컨트롤러를 찾았다
    만약 사용자가 아래로 스크롤한다
    그러면 바 배경은 "systemBackground"이다
    그리고 바 아래 경계선이 보이지 않는다
    만약 사용자가 맨 위로 스크롤한다
    그리고 사용자가 아래로 스크롤한다
    그러면 바 아래 경계선이 보이지 않는다

  @attempt-4
  시나리오: 시도 4 — iOS 17에는 onScrollGeometryChange가 없어서 KVO 트래커가 필요하다
    조건 화면이 onScrollGeometryChange로 스크롤 위치를 추적한다
    만약 앱이 "할 일"을 띄운다
    그러면 onScrollGeometryChange를 쓸 수 없다

  @attempt-4
  시나리오: 시도 4 — iOS 18에서는 onScrollGeometryChange로 오프셋을 받는다
    조건 기기는 iOS 18이다
    그리고 화면이 onScrollGeometryChange로 스크롤 위치를 추적한다
    만약 앱이 "할 일"을 띄운다
    그리고 사용자가 아래로 스크롤한다
    그러면 스크롤 위치가 화면에 전달된다

  @attempt-4-1
  시나리오: 시도 4-1 — superview 체인만 올라가면 스크롤 뷰를 찾지 못한다
    조건 화면이 background의 트래커 뷰로 스크롤 위치를 추적하고, 트래커는 superview 체인만 거슬러 올라가며 찾는다
    만약 앱이 "할 일"을 띄운다
    그리고 사용자가 아래로 스크롤한다
    그러면 트래커가 스크롤 뷰를 찾지 못한다
    그리고 스크롤 위치가 화면에 전달되지 않는다

  @attempt-4-2
  시나리오: 시도 4-2 — 올라가면서 형제 서브뷰까지 찾으면 iOS 17에서도 오프셋을 받는다
    조건 화면이 background의 트래커 뷰로 스크롤 위치를 추적하고, 트래커는 superview 체인을 올라가며 각 단계의 형제 서브뷰까지 찾는다
    만약 앱이 "할 일"을 띄운다
    그리고 사용자가 아래로 스크롤한다
    그러면 트래커가 스크롤 뷰를 찾는다
    그리고 스크롤 위치가 화면에 전달된다

  @fix
  시나리오: 해결 — 자체 NavigationStack 화면은 alwaysVisible로 iOS 17 스크롤 엣지(맨 위)에서도 같은 불투명 appearance를 쓴다
    조건 화면이 자체 NavigationStack을 가진다
    그리고 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      bar.scrollEdgeAppearance = appearance
      """
    만약 앱이 "할 일"을 띄운다
    그러면 바 배경은 "systemBackground"이다
    그리고 바 아래 경계선이 보이지 않는다
    만약 사용자가 아래로 스크롤한다
    그러면 바 배경은 "systemBackground"이다
    그리고 바 아래 경계선이 보이지 않는다

  @fix
  시나리오: 해결 — 당시 구현처럼 scrollEdgeAppearance를 configureWithDefaultBackground()로만 채우면 맨 위에서 blur 배경과 경계선이 돌아온다
    조건 화면이 자체 NavigationStack을 가진다
    그리고 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      let edge = UINavigationBarAppearance()
      edge.configureWithDefaultBackground()
      bar.scrollEdgeAppearance = edge
      """
    만약 앱이 "할 일"을 띄운다
    그러면 바 배경은 "system material"이다
    그리고 바 아래 경계선이 보인다

  @fix
  시나리오: 해결 — 맨 위를 blur 배경으로 두려면 configureWithDefaultBackground() 뒤에 shadowColor를 다시 지운다
    조건 화면이 자체 NavigationStack을 가진다
    그리고 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      let edge = UINavigationBarAppearance()
      edge.configureWithDefaultBackground()
      edge.shadowColor = .clear
      bar.scrollEdgeAppearance = edge
      """
    만약 앱이 "할 일"을 띄운다
    그러면 바 배경은 "system material"이다
    그리고 바 아래 경계선이 보이지 않는다

  @fix
  시나리오: 해결의 한계 — inline 타이틀 상세 화면을 푸시해도 configurator는 해체되지 않아 공유된 네비게이션 바에 모양이 남는다
    조건 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      """
    그리고 configurator는 dismantleUIViewController에서 다음 코드를 실행한다:
      """swift
      let standard = UINavigationBarAppearance()
      standard.configureWithDefaultBackground()
      bar.standardAppearance = standard
      bar.compactAppearance = standard
      bar.scrollEdgeAppearance = nil
      """
    그리고 스크롤 목록이 있는 SwiftUI 화면 "상세"
    그리고 화면에 `.navigationBarTitleDisplayMode(.inline)`를 붙인다
    만약 앱이 "할 일"을 띄운다
    그리고 사용자가 "상세"를 연다
    그리고 사용자가 아래로 스크롤한다
    그러면 바 배경은 "systemBackground"이다
    그리고 바 아래 경계선이 보이지 않는다

  @fix
  시나리오: 해결 — 화면이 스택에서 빠지면 dismantleUIViewController가 네비게이션 바를 기본값으로 되돌린다
    조건 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      """
    그리고 configurator는 dismantleUIViewController에서 다음 코드를 실행한다:
      """swift
      let standard = UINavigationBarAppearance()
      standard.configureWithDefaultBackground()
      bar.standardAppearance = standard
      bar.compactAppearance = standard
      bar.scrollEdgeAppearance = nil
      """
    그리고 UIKit 화면 "홈"
    만약 앱이 "홈"을 띄운다
    그리고 사용자가 "할 일"을 연다
    그리고 사용자가 아래로 스크롤한다
    그러면 바 아래 경계선이 보이지 않는다
    만약 사용자가 뒤로 버튼을 누른다
    그러면 바는 시스템 기본 모양이다

  @fix
  시나리오: 해결 — alwaysVisible 없이 iOS 17 자체 NavigationStack은 스크롤 엣지(맨 위)에서 네비게이션 바가 투명하다
    조건 화면이 자체 NavigationStack을 가진다
    그리고 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      """
    만약 앱이 "할 일"을 띄운다
    그러면 바 배경은 "transparent"이다

  @fix
  시나리오: 해결 — iOS 18에서는 자체 NavigationStack도 스크롤 엣지(맨 위)에서 표준 배경을 유지한다(이유는 알 수 없음, 실제 앱에서 관찰)
    조건 기기는 iOS 18이다
    그리고 화면이 자체 NavigationStack을 가진다
    그리고 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .systemBackground
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      bar.compactAppearance = appearance
      """
    만약 앱이 "할 일"을 띄운다
    그러면 바 배경은 "systemBackground"이다
    그리고 바 아래 경계선이 보이지 않는다

  @fix
  시나리오: 해결 — iOS 26에서는 configurator가 손대지 않아 시스템 기본 네비게이션 바가 그대로다
    조건 기기는 iOS 26이다
    그리고 화면의 background에 configurator(UIViewControllerRepresentable)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:
      """swift
      guard let bar = controller.navigationController?.navigationBar else { return }
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.shadowColor = .clear
      bar.standardAppearance = appearance
      """
    만약 앱이 "할 일"을 띄운다
    그리고 사용자가 아래로 스크롤한다
    그러면 바는 시스템 기본 모양이다
    그리고 바 아래 경계선이 보인다
