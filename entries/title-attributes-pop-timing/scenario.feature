# language: zh-CN
# 在导航栏模型上检查（规则见 docs/model/navigation-bar.md），不是在真机上。
# 模型只提供 iOS 17、18、26，这里选 iOS 17；原始记录是 iOS 10、Swift 4 时期的，没有在 iOS 17 真机上确认过。
@world:navigation-bar-model
功能: viewWillAppear 里设置的标题样式，点返回按钮后不生效

  背景:
    假如设备系统为 iOS 17
    而且UIKit 页面「首页」
    而且UIKit 页面「详情」

  @attempt-1
  场景: 方案 1 —— 在 viewWillAppear 里写 titleTextAttributes：点返回按钮后丢失，侧滑返回正常
    假如页面「首页」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    而且页面「详情」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.black, .font: UIFont.systemFont(ofSize: 13)]`
    当App 显示「首页」
    那么标题是「systemPurple」、17 pt
    当用户打开「详情」
    那么标题是「black」、13 pt
    当用户点返回按钮
    那么标题是「black」、13 pt
    当用户打开「详情」
    而且用户侧滑返回
    那么标题是「systemPurple」、17 pt

  @attempt-2
  场景: 方案 2 —— 第二页在 willMove(toParent:) 里写回首页样式：两个页面时有效
    假如页面「首页」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    而且页面「详情」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.black, .font: UIFont.systemFont(ofSize: 13)]`
    而且页面「详情」在 willMove(toParent: nil) 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    当App 显示「首页」
    而且用户打开「详情」
    而且用户点返回按钮
    那么标题是「systemPurple」、17 pt

  @attempt-2
  场景: 方案 2 —— 栈一深就兜不住：从第三页返回第二页时写进去的是首页样式
    假如UIKit 页面「列表」
    而且页面「首页」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    而且页面「列表」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemOrange, .font: UIFont.systemFont(ofSize: 15)]`
    而且页面「详情」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.black, .font: UIFont.systemFont(ofSize: 13)]`
    而且页面「详情」在 willMove(toParent: nil) 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    当App 显示「首页」
    而且用户打开「列表」
    而且用户打开「详情」
    而且用户点返回按钮
    那么标题是「systemPurple」、17 pt

  @attempt-2
  场景: 方案 2 —— 侧滑返回到一半取消：willMove(toParent: nil) 已经把首页样式写进导航栏，第二页停在首页样式上
    # 第二页的样式只在打开时写一次（不在 viewWillAppear 里），这里用 App 直接写导航栏来表示
    假如页面「首页」在 viewWillAppear 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    而且页面「详情」在 willMove(toParent: nil) 中执行`navigationController?.navigationBar.titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    当App 显示「首页」
    而且用户打开「详情」
    而且App 执行`navigationBar.titleTextAttributes = [.foregroundColor: UIColor.black, .font: UIFont.systemFont(ofSize: 13)]`
    那么标题是「black」、13 pt
    当用户侧滑返回到一半又取消了
    那么标题是「systemPurple」、17 pt

  # push 那一步是本文补充的（原始记录只重写了 popViewController）。
  @fix
  场景: 最终方案 —— 导航控制器在 super.popViewController 之后和转场完成时应用栈顶页面声明的样式
    假如页面「首页」声明的标题样式为`[.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    而且页面「详情」声明的标题样式为`[.foregroundColor: UIColor.black, .font: UIFont.systemFont(ofSize: 13)]`
    而且导航控制器在 super.pushViewController 和 super.popViewController 之后立即应用栈顶页面声明的标题样式，并在转场协调器的完成回调里再应用一次
    而且导航控制器还在 viewDidLoad 里应用一次
    当App 显示「首页」
    那么标题是「systemPurple」、17 pt
    当用户打开「详情」
    那么标题是「black」、13 pt
    当用户点返回按钮
    那么标题是「systemPurple」、17 pt
    当用户打开「详情」
    而且用户侧滑返回
    那么标题是「systemPurple」、17 pt
    当用户打开「详情」
    而且用户侧滑返回到一半又取消了
    那么标题是「black」、13 pt

  @fix
  场景: 最终方案的启动问题 —— 没有 viewDidLoad 那一次，启动时首页样式没有设置上
    假如页面「首页」声明的标题样式为`[.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    而且导航控制器在 super.pushViewController 和 super.popViewController 之后立即应用栈顶页面声明的标题样式，并在转场协调器的完成回调里再应用一次
    当App 显示「首页」
    那么标题是「label」、17 pt
    当用户打开「详情」
    而且用户点返回按钮
    那么标题是「systemPurple」、17 pt

  @fix
  场景: 最终方案的启动问题 —— 也可以在启动时设置全局的 UINavigationBar.appearance().titleTextAttributes
    假如页面「首页」声明的标题样式为`[.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    而且导航控制器在 super.pushViewController 和 super.popViewController 之后立即应用栈顶页面声明的标题样式，并在转场协调器的完成回调里再应用一次
    而且App 执行`UINavigationBar.appearance().titleTextAttributes = [.foregroundColor: UIColor.systemPurple, .font: UIFont.systemFont(ofSize: 17)]`
    当App 显示「首页」
    那么标题是「systemPurple」、17 pt
