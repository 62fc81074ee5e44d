# language: ja
# ナビゲーションバーのモデル（規則は docs/model/navigation-bar.md）で確かめる。実機ではない。
@world:navigation-bar-model
機能: SwiftUI で特定の画面だけナビゲーションバーの外観を変える

  背景:
    前提端末は iOS 17
    かつスクロールするリストを持つ SwiftUI 画面「ホーム」
    かつスクロールするリストを持つ SwiftUI 画面「キャンペーン」

  @attempt-1
  シナリオ: 試行 1 —— UINavigationBar.appearance() は全画面のバーを赤くし、表示中のバーは切り替えられない
    前提アプリが次のコードを実行する：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .red
      appearance.shadowColor = .clear
      let proxy = UINavigationBar.appearance()
      proxy.standardAppearance = appearance
      proxy.scrollEdgeAppearance = appearance
      proxy.compactAppearance = appearance
      """
    もしアプリが「ホーム」を表示する
    ならばバーの背景は「red」
    もしユーザーが「キャンペーン」を開く
    ならばバーの背景は「red」
    もしアプリが次のコードを実行する：
      """swift
      let plain = UINavigationBarAppearance()
      plain.configureWithDefaultBackground()
      UINavigationBar.appearance().standardAppearance = plain
      UINavigationBar.appearance().scrollEdgeAppearance = plain
      """
    かつユーザーが戻るボタンをタップする
    ならばバーの背景は「red」

  @fix
  シナリオ: 解決策 —— ラッパーが渡す navigationItem に外観を設定すると、その画面が最前面の間だけ効く
    前提画面「キャンペーン」は自分の navigationItem を環境値として渡すラッパーのビューコントローラに包まれている
    かつ画面が onAppear で次のコードを実行する：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .red
      appearance.shadowColor = .clear
      navigationItem?.title = "キャンペーン"
      navigationItem?.standardAppearance = appearance
      navigationItem?.scrollEdgeAppearance = appearance
      navigationItem?.compactAppearance = appearance
      """
    もしアプリが「ホーム」を表示する
    ならばバーはシステム既定の見た目
    もしユーザーが「キャンペーン」を開く
    ならばバーの背景は「red」
    かつ有効な外観は「scrollEdgeAppearance (navigation item)」
    かつバー下端の区切り線が見えない
    もしユーザーが下にスクロールする
    ならば有効な外観は「standardAppearance (navigation item)」
    もしユーザーが戻るボタンをタップする
    ならばバーはシステム既定の見た目

  @fix
  シナリオ: 解決策の副作用 —— ラッパーを通さずに積むと環境値は nil で、外観は変わらない
    前提画面が onAppear で次のコードを実行する：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .red
      navigationItem?.standardAppearance = appearance
      navigationItem?.scrollEdgeAppearance = appearance
      """
    もしアプリが「ホーム」を表示する
    かつユーザーが「キャンペーン」を開く
    ならばバーはシステム既定の見た目
