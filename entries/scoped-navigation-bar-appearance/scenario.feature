# language: ja
# ナビゲーションバーのモデル（規則は docs/model/navigation-bar.md）で確かめる。実機ではない。
@world:navigation-bar-model
機能: UIKit のナビゲーションコントローラに載せた SwiftUI 画面で、特定の画面だけナビゲーションバーの見た目を変える

  背景:
    前提端末は iOS 17
    かつスクロールするリストを持つ SwiftUI 画面「ホーム」
    かつスクロールするリストを持つ SwiftUI 画面「キャンペーン」

  @attempt-1
  シナリオ: 試行 1 —— UINavigationBar.appearance() に設定すると、赤くしたくない画面のバーまで赤くなる
    前提アプリが次のコードを実行する：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .red
      let proxy = UINavigationBar.appearance()
      proxy.standardAppearance = appearance
      proxy.scrollEdgeAppearance = appearance
      proxy.compactAppearance = appearance
      """
    もしアプリが「ホーム」を表示する
    ならばバーの背景は「red」
    もしユーザーが「キャンペーン」を開く
    ならばバーの背景は「red」

  @attempt-1
  シナリオ: 試行 1 の補足（試してはいない）—— 表示中にプロキシを戻しても、表示中のバーは赤いまま
    前提アプリが次のコードを実行する：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .red
      let proxy = UINavigationBar.appearance()
      proxy.standardAppearance = appearance
      proxy.scrollEdgeAppearance = appearance
      proxy.compactAppearance = appearance
      """
    もしアプリが「ホーム」を表示する
    かつユーザーが「キャンペーン」を開く
    かつアプリが次のコードを実行する：
      """swift
      let plain = UINavigationBarAppearance()
      plain.configureWithDefaultBackground()
      UINavigationBar.appearance().standardAppearance = plain
      UINavigationBar.appearance().scrollEdgeAppearance = plain
      """
    かつユーザーが戻るボタンをタップする
    ならばバーの背景は「red」

  @fix
  シナリオ: 解決策（元のコード）—— ラッパーが渡す navigationItem に設定すると、その画面が最前面の間だけ赤くなる。下線は残る
    前提画面「キャンペーン」は自分の navigationItem を環境値として渡すラッパーのビューコントローラに包まれている
    かつ画面が onAppear で次のコードを実行する：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithOpaqueBackground()
      appearance.backgroundColor = .red
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
    かつバー下端の区切り線が見える
    もしユーザーが下にスクロールする
    ならば有効な外観は「standardAppearance (navigation item)」
    もしユーザーが戻るボタンをタップする
    ならばバーはシステム既定の見た目

  @fix
  シナリオ: 解決策（shadowColor = .clear を追加）—— 下線も消え、戻ると既定の見た目に戻る
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
    かつユーザーが「キャンペーン」を開く
    ならばバーの背景は「red」
    かつバー下端の区切り線が見えない
    もしユーザーが下にスクロールする
    ならばバー下端の区切り線が見えない
    もしユーザーが戻るボタンをタップする
    ならばバーはシステム既定の見た目

  @fix
  シナリオ: 解決策の副作用 —— ラッパーを通さずに積むと環境値は nil で、appearance は設定されない
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
