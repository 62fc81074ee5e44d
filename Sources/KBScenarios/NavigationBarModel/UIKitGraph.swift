import Foundation
import KBCore

/// A responder: the base of views and view controllers.
public class NBResponder {
    public let name: String
    let context: NBContext

    init(name: String, context: NBContext) {
        self.name = name
        self.context = context
    }

    /// The next responder (NB-15); nil at the end of the chain.
    public var next: NBResponder? { nil }
}

/// A view in a tree. Hooks stand in for overrides (`willMove(toWindow:)`, `didMoveToWindow()`).
public class NBView: NBResponder {
    public private(set) weak var superview: NBView?
    public private(set) var subviews: [NBView] = []
    /// Set when this view is a controller's root view.
    weak var owningController: NBViewController?
    public var willMoveToWindow: ((NBWindow?) -> Void)?
    public var didMoveToWindow: (() -> Void)?

    public init(_ name: String, context: NBContext) { super.init(name: name, context: context) }

    public var window: NBWindow? { superview?.window }

    public override var next: NBResponder? {
        if let owningController {
            if context.applies("NB-15", "the next responder of \(name) is its view controller \(owningController.name)") {
                return owningController
            }
        }
        return superview
    }

    public func addSubview(_ view: NBView) {
        view.removeFromSuperview()
        let newWindow = window
        if newWindow != nil { view.propagateWillMove(newWindow) }
        subviews.append(view)
        view.superview = self
        if newWindow != nil { view.propagateDidMove() }
    }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        let inWindow = window != nil
        if inWindow { propagateWillMove(nil) }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        if inWindow { propagateDidMove() }
    }

    func propagateWillMove(_ window: NBWindow?) {
        willMoveToWindow?(window)
        enteringWindow(window)
        for view in subviews { view.propagateWillMove(window) }
    }

    func propagateDidMove() {
        didMoveToWindow?()
        for view in subviews { view.propagateDidMove() }
    }

    /// For subclasses: the view is about to enter (or leave, nil) a window.
    func enteringWindow(_ window: NBWindow?) {}

    /// Whether `self` is `view` or inside it.
    public func isDescendant(of view: NBView) -> Bool {
        var current: NBView? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }
}

/// The window: the root of the view tree.
public final class NBWindow: NBView {
    public var rootViewController: NBViewController? {
        didSet {
            oldValue?.view.removeFromSuperview()
            if let root = rootViewController {
                root.loadViewIfNeeded()
                root.beginAppearance()
                addSubview(root.view)
            }
        }
    }

    public override var window: NBWindow? { self }
    public override var next: NBResponder? { nil }
}

/// A scroll view: at its top edge, or scrolled; with KVO observers of its content offset.
public final class NBScrollView: NBView {
    public private(set) var isAtTop = true
    var offsetObservers: [(Bool) -> Void] = []

    public func setScrolled(_ scrolled: Bool) {
        guard isAtTop == scrolled else { return }
        isAtTop = !scrolled
        for observer in offsetObservers { observer(!scrolled) }
    }

    /// `observe(\.contentOffset)`.
    public func observeOffset(_ handler: @escaping (Bool) -> Void) { offsetObservers.append(handler) }
}

/// A view controller: a root view, a parent, children, a navigation item and lifecycle hooks.
public class NBViewController: NBResponder {
    public let view: NBView
    public private(set) weak var parent: NBViewController?
    public private(set) var children: [NBViewController] = []
    public let navigationItem: NBNavigationItem
    var isViewLoaded = false
    public var viewDidLoadHook: (() -> Void)?
    public var viewWillAppearHook: (() -> Void)?
    public var willMoveToParentHook: ((NBViewController?) -> Void)?
    /// What a `NavBarTitleChangeable`-style controller declares.
    public var preferredTitleAttributes: NBTextAttributes?

    public init(_ name: String, context: NBContext) {
        view = NBView("\(name).view", context: context)
        navigationItem = NBNavigationItem(context: context)
        super.init(name: name, context: context)
        view.owningController = self
    }

    public override var next: NBResponder? {
        if let superview = view.superview {
            if context.applies("NB-15", "the next responder of \(name) is its view's superview") { return superview }
        }
        return parent
    }

    /// The nearest navigation controller among the parents.
    public var navigationController: NBNavigationController? {
        var current = parent
        while let controller = current {
            if let navigation = controller as? NBNavigationController { return navigation }
            current = controller.parent
        }
        return nil
    }

    public func addChild(_ child: NBViewController) {
        child.removeFromParent()
        children.append(child)
        child.parent = self
    }

    public func removeFromParent() {
        parent?.children.removeAll { $0 === self }
        parent = nil
    }

    func loadViewIfNeeded() {
        guard !isViewLoaded else { return }
        isViewLoaded = true
        viewDidLoad()
    }

    func viewDidLoad() { viewDidLoadHook?() }

    /// `viewWillAppear(_:)`.
    func beginAppearance() { viewWillAppear() }
    func viewWillAppear() { viewWillAppearHook?() }
    /// The controller left the navigation stack for good.
    func didLeaveStack() {}

    /// The scroll view whose position decides the bar's state, if any.
    public var contentScrollView: NBScrollView? { nil }
    /// Whether the controller asks for a large title.
    public var prefersLargeTitle: Bool { false }
}

/// A `UINavigationItem`: a title and four optional appearances.
public final class NBNavigationItem {
    public var title: String?
    public var appearances: [NBAppearanceSlot: NBAppearance] = [:]
    let context: NBContext

    init(context: NBContext) { self.context = context }
}

/// The values of `UINavigationBar.appearance()`.
public final class NBAppearanceProxy {
    public var appearances: [NBAppearanceSlot: NBAppearance] = [:]
    public var titleTextAttributes: NBTextAttributes?
    public var largeTitleTextAttributes: NBTextAttributes?
    public var isEmpty: Bool { appearances.isEmpty && titleTextAttributes == nil && largeTitleTextAttributes == nil }
}

/// A `UINavigationBar`.
public final class NBNavigationBar: NBView {
    public private(set) var appearances: [NBAppearanceSlot: NBAppearance] = [NBAppearanceSlot.standard: NBAppearance()]
    public private(set) var titleTextAttributes = NBTextAttributes()
    /// Properties written on the bar itself (the proxy does not override them).
    var setDirectly: Set<String> = []
    let proxy: NBAppearanceProxy
    /// The colour scheme SwiftUI asked for with `toolbarColorScheme`.
    public var colorSchemeOverride: NBColorScheme?
    /// The items of the stack, bottom to top.
    var items: () -> [NBNavigationItem] = { [] }
    /// Whether the large title is shown (large display mode at the scroll edge).
    public var showsLargeTitle = false
    public var isAtScrollEdge = true
    public var isCompactHeight = false
    /// Whether the bar belongs to a NavigationStack a SwiftUI view owns.
    public var isOwnedBySwiftUIStack = false
    /// Set while the bar's transition layout of a Back-button pop runs.
    var transitionLayoutWrites: [String]? = nil
    /// The large-title label's frame: laid out by SwiftUI's pass (NB-24).
    public private(set) var committedTitleFrame = "zero"
    var pendingTitleFrame: String?
    var layoutGeneration = 0

    init(_ name: String, context: NBContext, proxy: NBAppearanceProxy) {
        self.proxy = proxy
        super.init(name, context: context)
    }

    public var topItem: NBNavigationItem? { items().last }

    public func appearance(_ slot: NBAppearanceSlot) -> NBAppearance? { appearances[slot] }

    public func setAppearance(_ slot: NBAppearanceSlot, _ value: NBAppearance?, by writer: String = "UIKit") {
        appearances[slot] = value
        setDirectly.insert(slot.rawValue)
    }

    public func setTitleTextAttributes(_ value: NBTextAttributes, by writer: String = "UIKit") {
        titleTextAttributes = value
        setDirectly.insert("titleTextAttributes")
        transitionLayoutWrites?.append(writer)
    }

    /// Restores title attributes without marking them as written (the bar's own layout).
    func resetTitleTextAttributes(_ value: NBTextAttributes) { titleTextAttributes = value }

    override func enteringWindow(_ window: NBWindow?) {
        guard window != nil, !proxy.isEmpty else { return }
        if context.applies("NB-6", "the appearance proxy applies to \(name) as it enters the window (properties set on the bar itself keep their values)") {
            for (slot, appearance) in proxy.appearances where !setDirectly.contains(slot.rawValue) { appearances[slot] = appearance }
            if let title = proxy.titleTextAttributes, !setDirectly.contains("titleTextAttributes") { titleTextAttributes = title }
        }
    }

    /// The proxy was changed: bars already in a window keep their look (NB-6).
    func proxyChanged() {
        guard window != nil else { return }
        if !context.applies("NB-6", "\(name) is already in a window, so the changed appearance proxy does not reach it") {
            for (slot, appearance) in proxy.appearances where !setDirectly.contains(slot.rawValue) { appearances[slot] = appearance }
            if let title = proxy.titleTextAttributes, !setDirectly.contains("titleTextAttributes") { titleTextAttributes = title }
        }
    }

    // MARK: Layout of the large title (NB-24)

    func layoutDuringPass() {
        layoutGeneration += 1
        pendingTitleFrame = "layout \(layoutGeneration)"
        if !context.rules.isInForce("NB-24", os: context.os) { commitLayout() }
    }

    func commitLayout() {
        if let pending = pendingTitleFrame { committedTitleFrame = pending }
        pendingTitleFrame = nil
    }

    /// The large-title label's frame as a reader sees it now.
    public func readTitleFrame() -> (value: String, current: String) {
        let current = pendingTitleFrame ?? committedTitleFrame
        if context.inUpdatePass, pendingTitleFrame != nil,
           context.applies("NB-24", "the large-title label's frame read during the pass is the previous layout (\(committedTitleFrame))") {
            return (committedTitleFrame, current)
        }
        return (current, current)
    }

    // MARK: Resolution (what the bar shows)

    /// The appearance the bar shows now, which slot it came from, and from whom.
    public func activeAppearance() -> (appearance: NBAppearance, slot: NBAppearanceSlot, source: String) {
        let atEdge = isAtScrollEdge
        var slot: NBAppearanceSlot = .standard
        if context.applies("NB-1", atEdge ? "at the scroll edge the bar uses \(isCompactHeight ? "compactScrollEdge" : "scrollEdge")Appearance"
                                          : "scrolled, the bar uses \(isCompactHeight ? "compact" : "standard")Appearance") {
            slot = atEdge ? (isCompactHeight ? .compactScrollEdge : .scrollEdge) : (isCompactHeight ? .compact : .standard)
        }
        let item = topItem
        func lookup(_ slot: NBAppearanceSlot) -> (NBAppearance, String)? {
            if let value = item?.appearances[slot] {
                if context.applies("NB-2", "the top item's \(slot.rawValue) overrides the bar's") { return (value, "navigation item") }
            }
            if let value = appearances[slot] { return (value, "navigation bar") }
            return nil
        }
        var chain: [NBAppearanceSlot] = [slot]
        if slot == .compactScrollEdge, context.applies("NB-3", "no compactScrollEdgeAppearance: scrollEdgeAppearance is used") { chain.append(.scrollEdge) }
        if slot == .compact, context.applies("NB-3", "no compactAppearance: standardAppearance is used") { chain.append(.standard) }
        for candidate in chain {
            if let (value, source) = lookup(candidate) { return (value, candidate, source) }
        }
        var standard = lookup(.standard) ?? (NBAppearance(), "navigation bar")
        if chain.contains(.scrollEdge) {
            if isOwnedBySwiftUIStack,
               context.applies("NB-5", "the bar of a SwiftUI-owned NavigationStack keeps the standard background at the scroll edge on iOS \(context.os)") {
                return (standard.0, .standard, standard.1)
            }
            if context.applies("NB-4", "scrollEdgeAppearance is nil: the standard appearance with a transparent background is used at the scroll edge") {
                standard.0.background = .transparent
                standard.0.shadowColor = nil
                return (standard.0, .scrollEdge, standard.1 + ", made transparent")
            }
        }
        return (standard.0, .standard, standard.1)
    }

    /// Whether the bottom hairline shows.
    public func hairlineVisible() -> Bool {
        let active = activeAppearance().appearance
        guard let shadow = active.shadowColor, !shadow.isClear else {
            if context.applies("NB-8", "the active appearance's shadowColor is \(active.shadowColor == nil ? "nil" : "clear"): no hairline") { return false }
            return true
        }
        return true
    }

    /// Whether the bar's background hides what is under it.
    public func coversContent() -> Bool {
        let active = activeAppearance().appearance
        if active.backgroundIsVisible {
            return context.applies("NB-12", "the visible \(active.background) background covers the content under the bar")
        }
        context.note("NB-12", "the transparent bar lets the content under it show through")
        return false
    }

    /// The colour scheme the bar's text uses.
    public func effectiveColorScheme() -> NBColorScheme {
        guard let override = colorSchemeOverride else { return context.colorScheme }
        let active = activeAppearance().appearance
        if !active.backgroundIsVisible,
           context.applies("NB-11", "the bar background is hidden, so toolbarColorScheme(.\(override.rawValue)) does not reach the bar's text") {
            return context.colorScheme
        }
        return override
    }

    /// The large title's colour and where it comes from.
    public func largeTitleColor() -> (color: NBColor, fromAttributes: Bool) {
        let active = activeAppearance().appearance
        let scheme = effectiveColorScheme()
        if let color = active.largeTitleTextAttributes.foregroundColor {
            context.note("NB-13", "the large title takes the foregroundColor of largeTitleTextAttributes (\(color))")
            return (color.resolved(scheme), true)
        }
        context.note("NB-13", "no largeTitleTextAttributes colour: the large title uses label in the \(scheme.rawValue) scheme")
        return (NBColor.label.resolved(scheme), false)
    }
}

/// A `UINavigationController`: a stack, one shared bar, push and pop with transitions.
public final class NBNavigationController: NBViewController {
    public enum PopKind: String { case backButton = "Back button", swipe = "interactive swipe" }

    public private(set) var viewControllers: [NBViewController] = []
    public let navigationBar: NBNavigationBar
    let containerView: NBView
    /// Completions registered with the transition coordinator of the running transition.
    var transitionCompletions: [() -> Void]? = nil
    /// Code of a subclass that runs right after `super.pushViewController` / `super.popViewController`.
    public var afterSuperPush: (() -> Void)?
    public var afterSuperPop: (() -> Void)?
    /// Bar states kept per controller when the bar is not shared (only when NB-18 is off).
    private var savedBarStates: [ObjectIdentifier: ([NBAppearanceSlot: NBAppearance], NBTextAttributes)] = [:]
    private var initialBarState: ([NBAppearanceSlot: NBAppearance], NBTextAttributes)

    public init(_ name: String, root: NBViewController, context: NBContext, proxy: NBAppearanceProxy) {
        navigationBar = NBNavigationBar("\(name).navigationBar", context: context, proxy: proxy)
        containerView = NBView("\(name).container", context: context)
        initialBarState = ([.standard: NBAppearance()], NBTextAttributes())
        super.init(name, context: context)
        view.addSubview(containerView)
        view.addSubview(navigationBar)
        navigationBar.items = { [unowned self] in self.viewControllers.map(\.navigationItem) }
        viewControllers = [root]
        addChild(root)
        root.loadViewIfNeeded()
        containerView.addSubview(root.view)
        syncBar()
    }

    public var topViewController: NBViewController? { viewControllers.last }

    override func beginAppearance() {
        viewWillAppear()
        topViewController?.viewWillAppear()
    }

    /// `transitionCoordinator?.animate(alongsideTransition: nil) { _ in … }`; runs now when no transition runs.
    public func onTransitionCompletion(_ work: @escaping () -> Void) {
        if transitionCompletions != nil { transitionCompletions!.append(work) } else { work() }
    }

    private func barState() -> ([NBAppearanceSlot: NBAppearance], NBTextAttributes) {
        (navigationBar.appearances, navigationBar.titleTextAttributes)
    }

    private func setBarState(_ state: ([NBAppearanceSlot: NBAppearance], NBTextAttributes)) {
        for slot in NBAppearanceSlot.allCases { navigationBar.setAppearance(slot, state.0[slot], by: "the navigation controller") }
        navigationBar.resetTitleTextAttributes(state.1)
    }

    private func sharedBar(_ what: String, outgoing: NBViewController?, incoming: NBViewController, isPush: Bool) {
        if context.applies("NB-18", "the bar is shared by the stack: its appearance and title attributes carry over \(what)") { return }
        if let outgoing { savedBarStates[ObjectIdentifier(outgoing)] = barState() }
        setBarState(isPush ? initialBarState : (savedBarStates[ObjectIdentifier(incoming)] ?? initialBarState))
    }

    public func push(_ controller: NBViewController) {
        let outgoing = topViewController
        addChild(controller)
        controller.loadViewIfNeeded()
        viewControllers.append(controller)
        sharedBar("on push", outgoing: outgoing, incoming: controller, isPush: true)
        syncBar()
        transitionCompletions = []
        controller.viewWillAppear()
        outgoing?.view.removeFromSuperview()
        containerView.addSubview(controller.view)
        afterSuperPush?()
        finishTransition()
    }

    /// Pops the top controller with the Back button or an interactive swipe (`cancel`: the
    /// swipe is abandoned and the controller stays).
    @discardableResult
    public func pop(_ kind: PopKind, cancel: Bool = false) -> NBViewController? {
        guard viewControllers.count > 1, let popped = topViewController else { return nil }
        popped.willMoveToParentHook?(nil)
        viewControllers.removeLast()
        let incoming = viewControllers.last!
        sharedBar("on pop", outgoing: popped, incoming: incoming, isPush: false)
        syncBar()
        transitionCompletions = []
        let snapshot = navigationBar.titleTextAttributes
        if kind == .backButton {
            // The Back-button pop changes the bar's layout; viewWillAppear runs as part of it.
            navigationBar.transitionLayoutWrites = []
            incoming.viewWillAppear()
            let writes = navigationBar.transitionLayoutWrites ?? []
            navigationBar.transitionLayoutWrites = nil
            if !writes.isEmpty,
               context.applies("NB-19", "title attributes written in viewWillAppear during the Back-button pop are lost to the bar's transition layout") {
                navigationBar.resetTitleTextAttributes(snapshot)
            }
        } else {
            incoming.viewWillAppear()
            context.note("NB-19", "during an interactive swipe-back, title attributes written in viewWillAppear hold")
        }
        popped.view.removeFromSuperview()
        containerView.addSubview(incoming.view)
        let beforeSubclass = navigationBar.titleTextAttributes
        afterSuperPop?()
        if cancel {
            viewControllers.append(popped)
            incoming.view.removeFromSuperview()
            popped.viewWillAppear()
            containerView.addSubview(popped.view)
            syncBar()
        } else {
            popped.removeFromParent()
            popped.didLeaveStack()
        }
        finishTransition()
        if navigationBar.titleTextAttributes != beforeSubclass {
            if !context.applies("NB-20", "title attributes written after super.popViewController and in the transition's completion hold") {
                if kind == .backButton { navigationBar.resetTitleTextAttributes(snapshot) }
            }
        }
        return cancel ? nil : popped
    }

    /// Puts the bar in the state the top controller's scroll position asks for.
    public func syncBar() {
        guard let top = topViewController else { return }
        navigationBar.isAtScrollEdge = top.contentScrollView?.isAtTop ?? true
        navigationBar.showsLargeTitle = top.prefersLargeTitle && navigationBar.isAtScrollEdge
    }

    private func finishTransition() {
        let completions = transitionCompletions ?? []
        transitionCompletions = nil
        for work in completions { work() }
    }
}
