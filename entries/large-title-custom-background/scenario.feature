# language: zh-CN
# 在导航栏模型上检查（规则见 docs/model/navigation-bar.md），不是在真机上。
@world:navigation-bar-model
功能: 自定义背景图上的大标题

  背景:
    假如设备系统为 iOS 17
    而且App 处于深色模式
    而且SwiftUI 页面「时间线」，内容是可滚动的列表
    而且页面使用`.navigationBarTitleDisplayMode(.large)`

  @attempt-0
  # 原实现的阈值没有记录；模型里取 0.5 只是为了让代码能跑，结论不依赖这个值。
  场景: 方案 0 —— 自己采样背景亮度再选黑白字：能读，但颜色是 App 算的
    假如背景图的相对亮度为0.8
    而且页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    而且App 自己计算背景图的平均亮度，记为`luminance`
    而且页面的 background 里挂一个 fixer 视图：它沿响应链找到导航栏，每次更新后在主队列上执行：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithTransparentBackground()
      appearance.largeTitleTextAttributes = [.foregroundColor: luminance < 0.5 ? UIColor.white : UIColor.black]
      bar.scrollEdgeAppearance = appearance
      """
    当App 显示「时间线」
    那么大标题清晰可读
    而且大标题颜色是 App 自己算出来的，不是系统原生行为

  @attempt-1
  场景: 方案 1 —— 隐藏背景再指定 toolbarColorScheme(.light)：大标题仍是白字
    假如背景图的相对亮度为0.8
    而且页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    而且页面使用`.toolbarColorScheme(.light, for: .navigationBar)`
    当App 显示「时间线」
    那么大标题是「white」
    而且大标题看不清
    而且状态栏文字是深色的
    而且背景图透过导航栏完整可见

  @attempt-2
  场景: 方案 2 —— 系统材质背景加浅色方案：能读，但材质盖住了背景图顶部（违反约束 2，放弃）
    假如背景图的相对亮度为0.8
    而且页面使用以下修饰符：
      """swift
      .toolbarBackground(.bar, for: .navigationBar)
      .toolbarBackground(.visible, for: .navigationBar)
      .toolbarColorScheme(.light, for: .navigationBar)
      """
    当App 显示「时间线」
    那么大标题清晰可读
    而且导航栏挡住了背景图顶部

  @attempt-3
  # 模型按“更新回调执行时控制器还没挂进导航层级”来处理（NB-16），这是对原因的推测，原记录只观察到 nil。
  场景: 方案 3 —— background 里的 UIViewControllerRepresentable 拿不到 navigationController
    假如背景图的相对亮度为0.8
    而且页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    而且页面的 background 里放一个 UIViewControllerRepresentable，它的 updateUIViewController 执行：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithTransparentBackground()
      appearance.largeTitleTextAttributes = [.foregroundColor: UIColor.black]
      controller.navigationController?.navigationBar.scrollEdgeAppearance = appearance
      """
    当App 显示「时间线」
    那么UIViewControllerRepresentable 拿到的 navigationController 是 nil
    而且大标题是「white」
    而且大标题看不清

  @attempt-4
  场景: 方案 4 —— 只在真实的大标题 label 后面采样：读到的 frame 是旧的，颜色仍是 App 算的
    假如背景图的相对亮度为0.8
    而且页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    而且页面在更新回调里读取大标题 label 的 frame
    而且App 自己计算背景图的平均亮度，记为`luminance`
    而且页面的 background 里挂一个 fixer 视图：它沿响应链找到导航栏，每次更新后在主队列上执行：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithTransparentBackground()
      appearance.largeTitleTextAttributes = [.foregroundColor: luminance < 0.5 ? UIColor.white : UIColor.black]
      bar.scrollEdgeAppearance = appearance
      """
    当App 显示「时间线」
    那么App 读到的 frame 是过时的
    而且大标题颜色是 App 自己算出来的，不是系统原生行为

  @fix
  场景: 最终方案 —— fixer 视图沿响应链找到导航栏，在本轮渲染之后只改 scrollEdgeAppearance，离开时还原
    假如背景图的相对亮度为0.8
    而且页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    而且页面的 background 里挂一个 fixer 视图：它沿响应链找到导航栏，每次更新后在主队列上执行：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithTransparentBackground()
      let light = UITraitCollection(userInterfaceStyle: .light)
      appearance.largeTitleTextAttributes = [.foregroundColor: UIColor.label.resolvedColor(with: light)]
      bar.scrollEdgeAppearance = appearance
      """
    而且SwiftUI 页面「详情」，内容是可滚动的列表
    当App 显示「时间线」
    那么大标题清晰可读
    而且背景图透过导航栏完整可见
    当用户向下滚动
    而且用户滚回顶部
    那么大标题清晰可读
    当用户打开「详情」
    那么大标题使用系统的 label 颜色
    当用户点返回按钮
    那么大标题清晰可读

  @fix
  场景: 最终方案的已知限制 —— 背景图越暗深色大标题越难读：相对亮度 0.12 还勉强够 3:1，加一层暗化蒙层就看不清
    假如背景图的相对亮度为0.12
    而且页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    而且页面的 background 里挂一个 fixer 视图：它沿响应链找到导航栏，每次更新后在主队列上执行：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithTransparentBackground()
      let light = UITraitCollection(userInterfaceStyle: .light)
      appearance.largeTitleTextAttributes = [.foregroundColor: UIColor.label.resolvedColor(with: light)]
      bar.scrollEdgeAppearance = appearance
      """
    当App 显示「时间线」
    那么大标题清晰可读
    假如背景图上有不透明度为0.5的黑色暗化蒙层
    那么大标题看不清

  @fix
  场景: 最终方案只在有自定义背景图时启用 —— 没有背景图就不挂 fixer，深色模式下大标题保持系统白字
    假如页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    当App 显示「时间线」
    那么大标题使用系统的 label 颜色
    而且大标题清晰可读

  @fix
  场景: 为什么要有启用条件 —— 没有背景图也固定深色标题，深色模式下就是黑字压黑底
    假如页面使用`.toolbarBackground(.hidden, for: .navigationBar)`
    而且页面的 background 里挂一个 fixer 视图：它沿响应链找到导航栏，每次更新后在主队列上执行：
      """swift
      let appearance = UINavigationBarAppearance()
      appearance.configureWithTransparentBackground()
      let light = UITraitCollection(userInterfaceStyle: .light)
      appearance.largeTitleTextAttributes = [.foregroundColor: UIColor.label.resolvedColor(with: light)]
      bar.scrollEdgeAppearance = appearance
      """
    当App 显示「时间线」
    那么大标题看不清
