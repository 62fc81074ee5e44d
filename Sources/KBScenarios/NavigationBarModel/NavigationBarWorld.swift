import Foundation
import KBCore

/// The world of the navigation-bar model (`@world:navigation-bar-model`): scenarios build a
/// small UIKit/SwiftUI app — screens, modifiers, UIKit code, fixer views and configurators — run
/// it on a model of iOS 17, 18 or 26, navigate, and look at what the bar shows. Nothing runs on a
/// device: every decision comes from a rule of `NavigationBarRules` and is recorded in the trace.
public final class NavigationBarWorld: World {
    public static let worldName = "navigation-bar-model"

    let context: NBContext
    let proxy = NBAppearanceProxy()
    let window: NBWindow
    var navigation: NBNavigationController?
    /// Stack members by name (a wrapper for wrapped screens).
    var screens: [String: NBViewController] = [:]
    var hostings: [String: NBHostingController] = [:]
    var ownsStack: Set<String> = []
    var current: String?
    var image: NBImage?
    /// Values code blocks of the app may use (`luminance`).
    var appVariables: [String: NBCodeRunner.Value] = [:]
    var customNavigation = false
    var customNavigationViewDidLoad = false
    // Observations.
    var representableFoundNavigation: [Bool] = []
    var trackerFoundScrollView: Bool?
    var scrollReports = 0
    var geometryChangeAvailable: Bool?
    var frameReads: [(value: String, current: String)] = []

    public init(settings: WorldSettings) throws {
        context = NBContext(rules: NavigationBarRules(disabling: settings.disabledModelRules))
        window = NBWindow("window", context: context)
    }

    public var exercisedRules: [String] { context.trace.ruleIDs }
    public var ruleTrace: [String] { context.trace.lines }

    // MARK: Building the app

    func hosting(_ name: String? = nil) throws -> NBHostingController {
        guard let name = name ?? current else { throw StepFailure("no SwiftUI screen has been described yet") }
        guard let hosting = hostings[name] else { throw StepFailure("\(name) is not a SwiftUI screen of this scenario") }
        return hosting
    }

    func screen(_ name: String) throws -> NBViewController {
        guard let screen = screens[name] else {
            throw StepFailure("no screen named \(name) (screens: \(screens.keys.sorted().joined(separator: ", ")))")
        }
        return screen
    }

    func addSwiftUIScreen(_ name: String) {
        let hosting = NBHostingController(name, context: context)
        hostings[name] = hosting
        screens[name] = hosting
        current = name
    }

    func runner(_ variables: [String: NBCodeRunner.Value]) -> NBCodeRunner {
        NBCodeRunner(context: context, proxy: proxy, variables: appVariables.merging(variables) { $1 }) { [unowned self] in
            self.navigation?.navigationBar.proxyChanged()
        }
    }

    /// Runs app code; code the model does not understand makes the step undefined.
    func run(_ code: String, _ runner: NBCodeRunner) throws {
        do { try runner.run(code) } catch let error as NBUnsupportedCode { throw StepUndefined(error.description) }
    }

    /// Names UIKit code inside a controller can use.
    func controllerVariables(_ controller: NBViewController) -> [String: NBCodeRunner.Value] {
        var variables: [String: NBCodeRunner.Value] = ["self": .controller(controller), "navigationItem": .item(controller.navigationItem)]
        if let navigation = controller.navigationController {
            variables["navigationController"] = .controller(navigation)
            variables["navigationBar"] = .bar(navigation.navigationBar)
        } else {
            variables["navigationController"] = NBCodeRunner.Value.none
            variables["navigationBar"] = NBCodeRunner.Value.none
        }
        if let navigation = controller as? NBNavigationController { variables["navigationBar"] = .bar(navigation.navigationBar) }
        return variables
    }

    func launch(_ name: String) throws {
        let root = try screen(name)
        let navigation = NBNavigationController("navigationController", root: root, context: context, proxy: proxy)
        navigation.navigationBar.isOwnedBySwiftUIStack = ownsStack.contains(name)
        if customNavigation {
            let apply: () -> Void = { [unowned navigation] in
                guard let top = navigation.topViewController, let attributes = top.preferredTitleAttributes else { return }
                navigation.navigationBar.setTitleTextAttributes(attributes, by: "the navigation controller")
            }
            let around: () -> Void = { [unowned navigation] in
                apply()
                navigation.onTransitionCompletion(apply)
            }
            navigation.afterSuperPush = around
            navigation.afterSuperPop = around
            if customNavigationViewDidLoad { navigation.viewDidLoadHook = apply }
        }
        self.navigation = navigation
        window.rootViewController = navigation
        context.mainQueue.drain()
    }

    func requireNavigation() throws -> NBNavigationController {
        guard let navigation else { throw StepFailure("the app has not shown a screen yet") }
        return navigation
    }

    var bar: NBNavigationBar {
        get throws { try requireNavigation().navigationBar }
    }

    // MARK: Components of the app

    /// A zero-size view in `.background {}` that finds the bar through the responder chain and,
    /// on the main queue after each update, runs `code` with `bar` bound; it remembers what it
    /// overwrote on a bar and puts it back when it leaves the window or finds another bar.
    func installFixer(_ code: String) throws {
        let hosting = try hosting()
        let fixer = NBRepresentable("fixer view", kind: .view, placement: .background)
        weak var configuredBar: NBNavigationBar?
        var saved: [NBAppearanceSlot: NBAppearance?] = [:]
        var failure: Error?
        let restore: () -> Void = {
            guard let bar = configuredBar else { return }
            for (slot, value) in saved { bar.setAppearance(slot, value, by: "fixer view (restore)") }
            configuredBar = nil
            saved = [:]
        }
        let apply: () -> Void = { [unowned self, unowned fixer] in
            guard fixer.view.window != nil, let bar = self.enclosingBar(from: fixer.view) else { return }
            if bar !== configuredBar {
                restore()
                configuredBar = bar
            }
            let runner = self.runner(["bar": .bar(bar)])
            runner.writer = "fixer view"
            runner.willWriteBar = { bar, slot in if saved[slot] == nil { saved[slot] = .some(bar.appearance(slot)) } }
            do { try runner.run(code) } catch { failure = error }
        }
        let schedule: () -> Void = { [unowned self] in self.context.mainQueue.async(self.context, apply) }
        fixer.update = { _ in schedule() }
        hosting.add(fixer)
        if let error = failure as? NBUnsupportedCode { throw StepUndefined(error.description) }
        // Hooks on the view once it exists.
        let previousUpdate = fixer.update
        fixer.update = { representable in
            if representable.view.didMoveToWindow == nil {
                representable.view.didMoveToWindow = { if representable.view.window != nil { schedule() } }
                representable.view.willMoveToWindow = { newWindow in if newWindow == nil { restore() } }
            }
            previousUpdate?(representable)
        }
        try validate(code, bindings: ["bar"])
    }

    /// Walks the responder chain from `view` to the first controller with a navigation controller.
    func enclosingBar(from view: NBView) -> NBNavigationBar? {
        var responder = view.next
        var steps = 0
        while let current = responder, steps < 64 {
            if let controller = current as? NBViewController, let navigation = controller.navigationController {
                return navigation.navigationBar
            }
            responder = current.next
            steps += 1
        }
        return nil
    }

    /// Checks that the model understands every statement of `code` by running it on a
    /// throwaway app (so mistakes show when the step runs, not deep inside a later pass).
    func validate(_ code: String, bindings: [String]) throws {
        let probe = NBContext(rules: context.rules, os: context.os)
        let root = NBViewController("probe", context: probe)
        let navigation = NBNavigationController("probe navigation", root: root, context: probe, proxy: NBAppearanceProxy())
        var variables: [String: NBCodeRunner.Value] = appVariables
        for name in bindings + ["bar", "navigationBar"] { variables[name] = .bar(navigation.navigationBar) }
        variables["controller"] = .controller(root)
        variables["self"] = .controller(root)
        variables["navigationController"] = .controller(navigation)
        variables["navigationItem"] = .item(root.navigationItem)
        if variables["luminance"] == nil { variables["luminance"] = .number(0.5) }
        let runner = NBCodeRunner(context: probe, proxy: NBAppearanceProxy(), variables: variables) {}
        do { try runner.run(code) } catch let error as NBUnsupportedCode { throw StepUndefined(error.description) }
    }

    /// A `UIViewControllerRepresentable` in `.background {}` whose update runs `code` with
    /// `controller` bound, now (`deferred: false`) or on the main queue; on iOS 26 and later a
    /// configurator skips itself (NB-23). `dismantle` runs when the screen leaves the stack.
    func installControllerRepresentable(_ code: String, deferred: Bool, skipsFrom26: Bool, name: String) throws {
        try validate(code, bindings: ["bar"])
        let hosting = try hosting()
        let representable = NBRepresentable(name, kind: .controller, placement: .background)
        representable.update = { [unowned self] representable in
            if skipsFrom26, self.context.os >= 26,
               self.context.applies("NB-23", "iOS \(self.context.os): the configurator leaves the system bar design alone") {
                return
            }
            let body: () -> Void = { [unowned self] in
                guard let controller = representable.controller else { return }
                self.representableFoundNavigation.append(controller.navigationController != nil)
                let runner = self.runner(["controller": .controller(controller)])
                runner.writer = name
                try? runner.run(code)
                if case .bar(let bar)? = runner.variables["bar"] { self.configuredBars[ObjectIdentifier(representable)] = bar }
            }
            if deferred { self.context.mainQueue.async(self.context, body) } else { body() }
        }
        hosting.add(representable)
        lastControllerRepresentable = representable
    }

    var configuredBars: [ObjectIdentifier: NBNavigationBar] = [:]
    var lastControllerRepresentable: NBRepresentable?

    func setDismantle(_ code: String) throws {
        try validate(code, bindings: ["bar"])
        guard let representable = lastControllerRepresentable else { throw StepFailure("no configurator has been described yet") }
        representable.dismantle = { [unowned self] representable in
            guard let bar = self.configuredBars[ObjectIdentifier(representable)] else { return }
            let runner = self.runner(["bar": .bar(bar)])
            runner.writer = "dismantle"
            try? runner.run(code)
        }
    }

    enum TrackerSearch { case superviews, superviewsAndSiblings }

    func installTracker(_ search: TrackerSearch?) throws {
        let hosting = try hosting()
        guard let search else {
            if context.applies("NB-21", "onScrollGeometryChange is available on iOS \(context.os)") {
                geometryChangeAvailable = true
                hosting.scrollView.observeOffset { [unowned self] _ in self.scrollReports += 1 }
            } else {
                geometryChangeAvailable = false
                context.trace.record("NB-21", "onScrollGeometryChange does not exist on iOS \(context.os)")
            }
            return
        }
        let tracker = NBRepresentable("offset tracker view", kind: .view, placement: .background)
        tracker.update = { [unowned self] representable in
            guard representable.view.didMoveToWindow == nil else { return }
            representable.view.didMoveToWindow = { [unowned self] in
                guard representable.view.window != nil else { return }
                self.context.mainQueue.async(self.context) { [unowned self] in
                    let found = search == .superviews ? Self.enclosingScrollView(of: representable.view) : Self.nearbyScrollView(of: representable.view)
                    self.trackerFoundScrollView = found != nil
                    found?.observeOffset { [unowned self] _ in self.scrollReports += 1 }
                }
            }
        }
        hosting.add(tracker)
    }

    static func enclosingScrollView(of view: NBView) -> NBScrollView? {
        var current = view.superview
        while let candidate = current {
            if let scrollView = candidate as? NBScrollView { return scrollView }
            current = candidate.superview
        }
        return nil
    }

    static func nearbyScrollView(of view: NBView) -> NBScrollView? {
        var child = view
        while let parent = child.superview {
            for sibling in parent.subviews where sibling !== child {
                if let found = firstScrollView(in: sibling) { return found }
            }
            child = parent
        }
        return nil
    }

    static func firstScrollView(in view: NBView) -> NBScrollView? {
        if let scrollView = view as? NBScrollView { return scrollView }
        for subview in view.subviews { if let found = firstScrollView(in: subview) { return found } }
        return nil
    }

    func installFrameReader() throws {
        let hosting = try hosting()
        let reader = NBRepresentable("title frame reader", kind: .view, placement: .background)
        reader.update = { [unowned self, unowned hosting] _ in
            guard let bar = hosting.navigationController?.navigationBar else { return }
            self.frameReads.append(bar.readTitleFrame())
        }
        hosting.add(reader)
    }

    // MARK: Observations

    func largeTitleContrast() throws -> (ratio: Double, color: NBColor, behind: String) {
        let bar = try bar
        guard bar.showsLargeTitle else { throw StepFailure("the bar shows no large title now (it is \(bar.isAtScrollEdge ? "at the scroll edge with an inline title" : "scrolled"))") }
        let (color, _) = bar.largeTitleColor()
        let scheme = bar.effectiveColorScheme()
        let titleLuminance = color.luminance(scheme)
        let active = bar.activeAppearance().appearance
        let behindLuminance: Double
        let behind: String
        if bar.coversContent() {
            switch active.background {
            case .color(let background):
                behindLuminance = background.luminance(context.colorScheme)
                behind = "the bar's \(background) background"
            default:
                behindLuminance = NBColor.barMaterial.luminance(scheme)
                behind = "the bar's system material (\(scheme.rawValue))"
            }
        } else if let image {
            behindLuminance = image.visibleLuminance
            behind = String(format: "the image (relative luminance %.3f%@)", image.visibleLuminance, image.dimOpacity > 0 ? String(format: " after a %.0f%% dim overlay", image.dimOpacity * 100) : "")
        } else {
            behindLuminance = NBColor.systemBackground.luminance(context.colorScheme)
            behind = "the screen's systemBackground"
        }
        let ratio = wcagContrast(titleLuminance, behindLuminance)
        context.note("NB-14", String(format: "%@ large title against %@: contrast %.2f:1 (readable from 3:1)", color.name, behind, ratio))
        return (ratio, color, behind)
    }

    func expectReadable(_ readable: Bool) throws {
        let (ratio, color, behind) = try largeTitleContrast()
        let isReadable = context.rules.isInForce("NB-14", os: context.os) ? ratio >= 3 : true
        if isReadable != readable {
            throw StepFailure(String(format: "the %@ large title against %@ has a contrast of %.2f:1, so it is %@ (large text needs 3:1)",
                                     color.name, behind, ratio, isReadable ? "readable" : "not readable"))
        }
    }

    /// What a bar that nobody customised shows in the same state.
    func defaultLook(like bar: NBNavigationBar) -> NBAppearance {
        let probe = NBContext(rules: context.rules, os: context.os)
        let fresh = NBNavigationBar("probe", context: probe, proxy: NBAppearanceProxy())
        fresh.isAtScrollEdge = bar.isAtScrollEdge
        fresh.showsLargeTitle = bar.showsLargeTitle
        fresh.isCompactHeight = bar.isCompactHeight
        fresh.isOwnedBySwiftUIStack = bar.isOwnedBySwiftUIStack
        return fresh.activeAppearance().appearance
    }

    static func colorName(_ text: String) -> NBColor? { NBCodeRunner.color(text) ?? NBColor.named[text] }

    // MARK: Steps

    public static let schemeParameter = ParameterType(name: "scheme", regexp: "light|dark|浅色|深色|라이트|다크|ライト|ダーク") { groups in
        let text = groups.first.flatMap { $0 } ?? ""
        return ["light", "浅色", "라이트", "ライト"].contains(text) ? "light" : "dark"
    }

    /// `{code}`: code between backticks.
    public static let codeParameter = ParameterType(name: "code", regexp: "`([^`]+)`") { groups in
        groups.first.flatMap { $0 } ?? ""
    }

    public static let library: StepLibrary<NavigationBarWorld> = {
        typealias W = NavigationBarWorld
        var d: [StepDefinition<W>] = []
        func step(_ phrases: [String], file: String = #fileID, line: Int = #line, _ handler: @escaping StepDefinition<W>.Handler) {
            d.append(StepDefinition(phrases: phrases, file: file, line: line, handler))
        }
        // Both colon forms for steps that take a doc string.
        func colon(_ phrases: [String]) -> [String] {
            phrases.flatMap { phrase -> [String] in
                if phrase.hasSuffix("：") { return [phrase, String(phrase.dropLast()) + ":"] }
                return [phrase]
            }
        }

        // Setting the scene.
        step(["the device runs iOS {int}", "设备系统为 iOS {int}", "기기는 iOS {int}이다", "端末は iOS {int}"]) { world, a in
            let version = try a.int(0)
            guard NavigationBarRules.allVersions.contains(version) else {
                throw StepUndefined("the navigation-bar model knows iOS \(NavigationBarRules.allVersions.map(String.init).joined(separator: ", ")), not iOS \(version)")
            }
            world.context.os = version
        }
        step(["the app is in {scheme} mode", "App 处于{scheme}模式", "앱은 {scheme} 모드이다", "アプリは{scheme}モード"]) { world, a in
            world.context.colorScheme = try a.string(0) == "light" ? .light : .dark
        }
        step(["the background image has relative luminance {float}", "背景图的相对亮度为{float}", "배경 이미지의 상대 휘도는 {float}이다", "背景画像の相対輝度は{float}"]) { world, a in
            world.image = NBImage(luminance: try a.double(0), dimOpacity: world.image?.dimOpacity ?? 0)
        }
        step(["the image has a black dim overlay with opacity {float}", "背景图上有不透明度为{float}的黑色暗化蒙层",
              "이미지에 불투명도 {float}의 검은 딤 오버레이가 있다", "画像に不透明度{float}の黒い減光オーバーレイがある"]) { world, a in
            guard world.image != nil else { throw StepFailure("describe the image's luminance first") }
            world.image!.dimOpacity = try a.double(0)
        }
        step(["a SwiftUI screen {string} with a scrolling list", "SwiftUI 页面{string}，内容是可滚动的列表",
              "스크롤 목록이 있는 SwiftUI 화면 {string}", "スクロールするリストを持つ SwiftUI 画面{string}"]) { world, a in
            world.addSwiftUIScreen(try a.string(0))
        }
        step(["a UIKit screen {string}", "UIKit 页面{string}", "UIKit 화면 {string}", "UIKit 画面{string}"]) { world, a in
            let name = try a.string(0)
            world.screens[name] = NBViewController(name, context: world.context)
            world.current = name
        }
        step(["screen {string} is wrapped in a view controller that passes its navigationItem down as an environment value",
              "页面{string}包在一个把自己的 navigationItem 作为环境值传下去的包装控制器里",
              "화면 {string}은/는 자기 navigationItem을 환경값으로 내려 주는 래퍼 뷰 컨트롤러에 담긴다",
              "画面{string}は自分の navigationItem を環境値として渡すラッパーのビューコントローラに包まれている"]) { world, a in
            let name = try a.string(0)
            let hosting = try world.hosting(name)
            world.screens[name] = NBWrapperController("\(name) wrapper", hosting: hosting, context: world.context)
        }
        step(["the screen owns its NavigationStack", "该页面自带 NavigationStack", "화면이 자체 NavigationStack을 가진다", "画面は自前の NavigationStack を持つ"]) { world, _ in
            guard let name = world.current else { throw StepFailure("no screen has been described yet") }
            world.ownsStack.insert(name)
        }
        step(["the screen uses {code}", "页面使用{code}", "화면에 {code}을/를 붙인다", "画面に{code}を付ける"]) { world, a in
            let hosting = try world.hosting()
            do { try NBModifiers.apply(try a.string(0), to: &hosting.preferences) } catch let e as NBUnsupportedCode { throw StepUndefined(e.description) }
        }
        step(colon(["the screen uses these modifiers:", "页面使用以下修饰符：", "화면에 다음 modifier를 붙인다:", "画面に次のモディファイアを付ける："])) { world, a in
            let hosting = try world.hosting()
            do { try NBModifiers.apply(try a.requireDocString(), to: &hosting.preferences) } catch let e as NBUnsupportedCode { throw StepUndefined(e.description) }
        }

        // UIKit code.
        step(["the app runs {code}", "App 执行{code}", "앱이 {code}을/를 실행한다", "アプリが{code}を実行する"]) { world, a in
            try world.run(try a.string(0), world.runner(world.navigation.map { world.controllerVariables($0) } ?? [:]))
        }
        step(colon(["the app runs:", "App 执行：", "앱이 다음 코드를 실행한다:", "アプリが次のコードを実行する："])) { world, a in
            try world.run(try a.requireDocString(), world.runner(world.navigation.map { world.controllerVariables($0) } ?? [:]))
        }
        step(colon(["the screen runs in onAppear:", "页面在 onAppear 中执行：", "화면이 onAppear에서 다음 코드를 실행한다:", "画面が onAppear で次のコードを実行する："])) { world, a in
            let hosting = try world.hosting()
            let code = try a.requireDocString()
            try world.validate(code, bindings: [])
            hosting.onAppear.append { [unowned world, unowned hosting] in
                let item: NBCodeRunner.Value = hosting.environmentNavigationItem.map { .item($0) } ?? .none
                try? world.runner(["navigationItem": item]).run(code)
            }
        }
        step(["screen {string} runs {code} in viewWillAppear", "页面{string}在 viewWillAppear 中执行{code}",
              "화면 {string}이/가 viewWillAppear에서 {code}을/를 실행한다", "画面{string}が viewWillAppear で{code}を実行する"]) { world, a in
            let controller = try world.screen(try a.string(0))
            let code = try a.string(1)
            try world.validate(code, bindings: ["navigationBar"])
            controller.viewWillAppearHook = { [unowned world, unowned controller] in
                let runner = world.runner(world.controllerVariables(controller))
                runner.writer = "\(controller.name).viewWillAppear"
                try? runner.run(code)
            }
        }
        step(["screen {string} runs {code} in willMove\\(toParent: nil\\)", "页面{string}在 willMove\\(toParent: nil\\) 中执行{code}",
              "화면 {string}이/가 willMove\\(toParent: nil\\)에서 {code}을/를 실행한다", "画面{string}が willMove\\(toParent: nil\\) で{code}を実行する"]) { world, a in
            let controller = try world.screen(try a.string(0))
            let code = try a.string(1)
            try world.validate(code, bindings: ["navigationBar"])
            controller.willMoveToParentHook = { [unowned world, unowned controller] parent in
                guard parent == nil else { return }
                try? world.runner(world.controllerVariables(controller)).run(code)
            }
        }
        step(["screen {string} declares the preferred title attributes {code}", "页面{string}声明的标题样式为{code}",
              "화면 {string}이/가 선호하는 타이틀 속성은 {code}이다", "画面{string}が望むタイトル属性は{code}"]) { world, a in
            let controller = try world.screen(try a.string(0))
            let runner = world.runner([:])
            guard case .attributes(let attributes) = try {
                do { return try runner.evaluate(try a.string(1), statement: try a.string(1)) } catch let e as NBUnsupportedCode { throw StepUndefined(e.description) }
            }() else { throw StepUndefined("`\(try a.string(1))` is not a dictionary of text attributes") }
            controller.preferredTitleAttributes = attributes
        }
        step(["the navigation controller applies the top screen's preferred title attributes right after super.pushViewController and super.popViewController and again in the transition coordinator's completion",
              "导航控制器在 super.pushViewController 和 super.popViewController 之后立即应用栈顶页面声明的标题样式，并在转场协调器的完成回调里再应用一次",
              "내비게이션 컨트롤러가 super.pushViewController와 super.popViewController 직후와 전환 코디네이터의 완료 시점에 맨 위 화면이 선언한 타이틀 속성을 적용한다",
              "ナビゲーションコントローラが super.pushViewController と super.popViewController の直後と遷移コーディネータの完了時に最前面の画面が宣言したタイトル属性を適用する"]) { world, _ in
            world.customNavigation = true
        }
        step(["the navigation controller also applies them in viewDidLoad", "导航控制器还在 viewDidLoad 里应用一次",
              "내비게이션 컨트롤러가 viewDidLoad에서도 적용한다", "ナビゲーションコントローラが viewDidLoad でも適用する"]) { world, _ in
            world.customNavigationViewDidLoad = true
        }

        // Components.
        step(colon(["the screen has a UIViewControllerRepresentable in its background whose updateUIViewController runs:",
                    "页面的 background 里放一个 UIViewControllerRepresentable，它的 updateUIViewController 执行：",
                    "화면의 background에 UIViewControllerRepresentable을 두고 updateUIViewController에서 다음 코드를 실행한다:",
                    "画面の background に UIViewControllerRepresentable を置き、updateUIViewController で次のコードを実行する："])) { world, a in
            try world.installControllerRepresentable(try a.requireDocString(), deferred: false, skipsFrom26: false, name: "UIViewControllerRepresentable")
        }
        step(colon(["the screen has a configurator in its background, a UIViewControllerRepresentable that does nothing from iOS 26 and otherwise runs on the main queue from updateUIViewController:",
                    "页面的 background 里放一个 configurator（UIViewControllerRepresentable），iOS 26 起什么都不做，否则从 updateUIViewController 在主队列上执行：",
                    "화면의 background에 configurator\\(UIViewControllerRepresentable\\)를 두고, iOS 26부터는 아무것도 하지 않으며 그 전에는 updateUIViewController에서 메인 큐로 다음 코드를 실행한다:",
                    "画面の background に configurator（UIViewControllerRepresentable）を置き、iOS 26 以降は何もせず、それ以外は updateUIViewController からメインキューで次のコードを実行する："])) { world, a in
            try world.installControllerRepresentable(try a.requireDocString(), deferred: true, skipsFrom26: true, name: "configurator")
        }
        step(colon(["the configurator runs in dismantleUIViewController:", "configurator 在 dismantleUIViewController 中执行：",
                    "configurator는 dismantleUIViewController에서 다음 코드를 실행한다:", "configurator は dismantleUIViewController で次のコードを実行する："])) { world, a in
            try world.setDismantle(try a.requireDocString())
        }
        step(colon(["the screen has a fixer view in its background that finds the bar through the responder chain and, on the main queue after each update, runs:",
                    "页面的 background 里挂一个 fixer 视图：它沿响应链找到导航栏，每次更新后在主队列上执行：",
                    "화면의 background에 fixer 뷰를 두고, 응답자 체인으로 바를 찾아 업데이트마다 메인 큐에서 다음 코드를 실행한다:",
                    "画面の background に fixer ビューを置き、レスポンダチェーンでバーを見つけて、更新のたびにメインキューで次のコードを実行する："])) { world, a in
            try world.installFixer(try a.requireDocString())
        }
        step(["the app measures the image's average luminance itself as {code}", "App 自己计算背景图的平均亮度，记为{code}",
              "앱이 배경 이미지의 평균 휘도를 직접 계산해 {code}에 둔다", "アプリが背景画像の平均輝度を自分で計算して{code}に入れる"]) { world, a in
            guard let image = world.image else { throw StepFailure("the scenario has no background image") }
            world.appVariables[try a.string(0)] = .number(image.visibleLuminance)
        }
        step(["the screen reads the large title label's frame during its update", "页面在更新回调里读取大标题 label 的 frame",
              "화면이 업데이트 중에 large 타이틀 레이블의 frame을 읽는다", "画面が更新中に大タイトルのラベルの frame を読む"]) { world, _ in
            try world.installFrameReader()
        }
        step(["the screen tracks its scroll offset with onScrollGeometryChange", "页面用 onScrollGeometryChange 跟踪滚动位置",
              "화면이 onScrollGeometryChange로 스크롤 위치를 추적한다", "画面が onScrollGeometryChange でスクロール位置を追跡する"]) { world, _ in
            try world.installTracker(nil)
        }
        step(["the screen tracks its scroll offset with a tracker view in its background that searches up its superview chain",
              "页面用 background 里的跟踪视图跟踪滚动位置，跟踪视图只沿 superview 链向上找",
              "화면이 background의 트래커 뷰로 스크롤 위치를 추적하고, 트래커는 superview 체인만 거슬러 올라가며 찾는다",
              "画面が background のトラッカービューでスクロール位置を追跡し、トラッカーは superview の連鎖だけをさかのぼって探す"]) { world, _ in
            try world.installTracker(.superviews)
        }
        step(["the screen tracks its scroll offset with a tracker view in its background that searches up its superview chain and the sibling subviews at each level",
              "页面用 background 里的跟踪视图跟踪滚动位置，跟踪视图沿 superview 链向上找，并搜索每一层的兄弟子视图",
              "화면이 background의 트래커 뷰로 스크롤 위치를 추적하고, 트래커는 superview 체인을 올라가며 각 단계의 형제 서브뷰까지 찾는다",
              "画面が background のトラッカービューでスクロール位置を追跡し、トラッカーは superview の連鎖をさかのぼりながら各段の兄弟サブビューも探す"]) { world, _ in
            try world.installTracker(.superviewsAndSiblings)
        }

        // Navigation.
        step(["the app shows {string}", "App 显示{string}", "앱이 {string}을/를 띄운다", "アプリが{string}を表示する"]) { world, a in
            try world.launch(try a.string(0))
        }
        step(["the user opens {string}", "用户打开{string}", "사용자가 {string}을/를 연다", "ユーザーが{string}を開く"]) { world, a in
            let navigation = try world.requireNavigation()
            navigation.push(try world.screen(try a.string(0)))
            world.context.mainQueue.drain()
        }
        step(["the user taps Back", "用户点返回按钮", "사용자가 뒤로 버튼을 누른다", "ユーザーが戻るボタンをタップする"]) { world, _ in
            guard try world.requireNavigation().pop(.backButton) != nil else { throw StepFailure("there is nothing to go back to") }
            world.context.mainQueue.drain()
        }
        step(["the user swipes back", "用户侧滑返回", "사용자가 스와이프로 뒤로 간다", "ユーザーがスワイプで戻る"]) { world, _ in
            guard try world.requireNavigation().pop(.swipe) != nil else { throw StepFailure("there is nothing to go back to") }
            world.context.mainQueue.drain()
        }
        step(["the user starts swiping back and cancels", "用户侧滑返回到一半又取消了", "사용자가 스와이프로 뒤로 가다가 취소한다", "ユーザーがスワイプで戻りかけてやめる"]) { world, _ in
            try world.requireNavigation().pop(.swipe, cancel: true)
            world.context.mainQueue.drain()
        }
        step(["the user scrolls down", "用户向下滚动", "사용자가 아래로 스크롤한다", "ユーザーが下にスクロールする"]) { world, _ in
            guard let scrollView = try world.requireNavigation().topViewController?.contentScrollView else { throw StepFailure("the screen on top does not scroll") }
            scrollView.setScrolled(true)
            world.context.mainQueue.drain()
        }
        step(["the user scrolls back to the top", "用户滚回顶部", "사용자가 맨 위로 스크롤한다", "ユーザーが一番上までスクロールする"]) { world, _ in
            guard let scrollView = try world.requireNavigation().topViewController?.contentScrollView else { throw StepFailure("the screen on top does not scroll") }
            scrollView.setScrolled(false)
            world.context.mainQueue.drain()
        }

        // What the bar shows.
        step(["the large title is readable", "大标题清晰可读", "large 타이틀이 읽힌다", "大タイトルが読める"]) { world, _ in try world.expectReadable(true) }
        step(["the large title is not readable", "大标题看不清", "large 타이틀이 읽히지 않는다", "大タイトルが読めない"]) { world, _ in try world.expectReadable(false) }
        step(["the large title is {string}", "大标题是{string}", "large 타이틀 색은 {string}이다", "大タイトルの色は{string}"]) { world, a in
            let (color, _) = try world.bar.largeTitleColor()
            let expected = try a.string(0)
            guard color.name == expected || color.name.hasPrefix(expected + " (") else { throw StepFailure("the large title is \(color.name), not \(expected)") }
        }
        step(["the large title colour is chosen by the app, not by the system", "大标题颜色是 App 自己算出来的，不是系统原生行为",
              "large 타이틀 색은 시스템이 아니라 앱이 정한 것이다", "大タイトルの色はシステムではなくアプリが決めたものだ"]) { world, _ in
            let (color, fromAttributes) = try world.bar.largeTitleColor()
            guard fromAttributes else { throw StepFailure("the large title is the system's \(color.name), not a colour the app chose") }
        }
        step(["the large title uses the system label colour", "大标题使用系统的 label 颜色", "large 타이틀은 시스템 label 색을 쓴다", "大タイトルはシステムの label 色を使う"]) { world, _ in
            let (color, fromAttributes) = try world.bar.largeTitleColor()
            guard !fromAttributes else { throw StepFailure("the large title is \(color.name) from largeTitleTextAttributes, not the system label colour") }
        }
        step(["the bar covers the image", "导航栏挡住了背景图顶部", "바가 이미지를 가린다", "バーが画像を覆っている"]) { world, _ in
            let bar = try world.bar
            guard bar.coversContent() else { throw StepFailure("the bar is \(bar.activeAppearance().appearance.background): the image shows through") }
        }
        step(["the image shows through the bar", "背景图透过导航栏完整可见", "이미지가 바 뒤로 비쳐 보인다", "画像がバー越しに見える"]) { world, _ in
            let bar = try world.bar
            guard !bar.coversContent() else { throw StepFailure("the bar's \(bar.activeAppearance().appearance.background) background covers the image") }
        }
        step(["the hairline under the bar is visible", "导航栏下方的分隔线可见", "바 아래 경계선이 보인다", "バー下端の区切り線が見える"]) { world, _ in
            let bar = try world.bar
            guard bar.hairlineVisible() else { throw StepFailure("no hairline: the active appearance is \(bar.activeAppearance().appearance)") }
        }
        step(["the hairline under the bar is hidden", "导航栏下方没有分隔线", "바 아래 경계선이 보이지 않는다", "バー下端の区切り線が見えない"]) { world, _ in
            let bar = try world.bar
            guard !bar.hairlineVisible() else { throw StepFailure("the hairline shows: the active appearance is \(bar.activeAppearance().appearance)") }
        }
        step(["the bar background is {string}", "导航栏背景是{string}", "바 배경은 {string}이다", "バーの背景は{string}"]) { world, a in
            let background = try world.bar.activeAppearance().appearance.background
            guard background.description == (try a.string(0)) else { throw StepFailure("the bar background is \(background)") }
        }
        step(["the active appearance is {string}", "生效的外观是{string}", "적용된 외관은 {string}이다", "有効な外観は{string}"]) { world, a in
            let active = try world.bar.activeAppearance()
            let description = "\(active.slot.rawValue) (\(active.source))"
            guard description.hasPrefix(try a.string(0)) else { throw StepFailure("the active appearance is \(description): \(active.appearance)") }
        }
        step(["the status bar text is dark", "状态栏文字是深色的", "상태 표시줄 글자가 어둡다", "ステータスバーの文字は暗い"]) { world, _ in
            let bar = try world.bar
            let scheme = bar.colorSchemeOverride ?? world.context.colorScheme
            guard scheme == .light else { throw StepFailure("the status bar follows the \(scheme.rawValue) scheme: its text is light") }
        }
        step(["the title is {string} at {int} pt", "标题是{string}、{int} pt", "타이틀은 {string}, {int} pt이다", "タイトルは{string}、{int} pt"]) { world, a in
            let attributes = try world.bar.titleTextAttributes
            let color = attributes.foregroundColor?.name ?? "label"
            let size = attributes.fontSize ?? 17
            guard color == (try a.string(0)), Int(size) == (try a.int(1)) else {
                throw StepFailure("the title is \(color) at \(Int(size)) pt (titleTextAttributes \(attributes))")
            }
        }
        step(["the bar has the system default look", "导航栏是系统默认外观", "바는 시스템 기본 모양이다", "バーはシステム既定の見た目"]) { world, _ in
            let bar = try world.bar
            let active = bar.activeAppearance().appearance
            let expected = world.defaultLook(like: bar)
            guard active == expected else { throw StepFailure("the bar still shows \(active); a bar nobody changed shows \(expected)") }
        }
        step(["the UIViewControllerRepresentable's navigationController was nil", "UIViewControllerRepresentable 拿到的 navigationController 是 nil",
              "UIViewControllerRepresentable의 navigationController는 nil이었다", "UIViewControllerRepresentable の navigationController は nil だった"]) { world, _ in
            guard !world.representableFoundNavigation.isEmpty else { throw StepFailure("the representable was never updated") }
            guard !world.representableFoundNavigation.contains(true) else { throw StepFailure("the representable found its navigation controller") }
        }
        step(["the configurator found the navigation controller", "configurator 找到了导航控制器", "configurator가 내비게이션 컨트롤러를 찾았다", "configurator がナビゲーションコントローラを見つけた"]) { world, _ in
            guard world.representableFoundNavigation.contains(true) else { throw StepFailure("navigationController was nil every time the configurator ran") }
        }
        step(["onScrollGeometryChange is not available", "onScrollGeometryChange 不可用", "onScrollGeometryChange를 쓸 수 없다", "onScrollGeometryChange は使えない"]) { world, _ in
            guard world.geometryChangeAvailable == false else { throw StepFailure("onScrollGeometryChange is available on iOS \(world.context.os)") }
        }
        step(["the tracker finds the scroll view", "跟踪视图找到了滚动视图", "트래커가 스크롤 뷰를 찾는다", "トラッカーがスクロールビューを見つける"]) { world, _ in
            guard world.trackerFoundScrollView == true else { throw StepFailure("the tracker did not find a scroll view") }
        }
        step(["the tracker does not find the scroll view", "跟踪视图找不到滚动视图", "트래커가 스크롤 뷰를 찾지 못한다", "トラッカーがスクロールビューを見つけられない"]) { world, _ in
            guard world.trackerFoundScrollView == false else {
                throw StepFailure(world.trackerFoundScrollView == true ? "the tracker found the scroll view" : "the tracker never searched")
            }
        }
        step(["scroll offsets reach the screen", "滚动位置传到了页面", "스크롤 위치가 화면에 전달된다", "スクロール位置が画面に届く"]) { world, _ in
            guard world.scrollReports > 0 else { throw StepFailure("no scroll offset reached the screen") }
        }
        step(["no scroll offset reaches the screen", "滚动位置没有传到页面", "스크롤 위치가 화면에 전달되지 않는다", "スクロール位置が画面に届かない"]) { world, _ in
            guard world.scrollReports == 0 else { throw StepFailure("\(world.scrollReports) scroll offsets reached the screen") }
        }
        step(["the frame the app read is out of date", "App 读到的 frame 是过时的", "앱이 읽은 frame은 이미 지난 값이다", "アプリが読んだ frame は古い"]) { world, _ in
            guard !world.frameReads.isEmpty else { throw StepFailure("the app never read the frame") }
            guard world.frameReads.contains(where: { $0.value != $0.current }) else {
                throw StepFailure("every frame the app read was current (\(world.frameReads.map(\.value).joined(separator: ", ")))")
            }
        }
        return try! StepLibrary(parameterTypes: [schemeParameter, codeParameter], definitions: d)
    }()
}
