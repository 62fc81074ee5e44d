import Foundation
import KBCore

/// SwiftUI's toolbar preferences for the navigation bar, as the modifiers set them.
public struct NBToolbarPreferences: Sendable, Equatable {
    public enum Visibility: String, Sendable { case automatic, visible, hidden }

    /// `toolbarBackground(_ visibility:for:)`.
    public var visibility: Visibility = .automatic
    /// `toolbarBackground(_ style:for:)`: the system material (`.bar`) or a colour.
    public var style: NBAppearance.Background?
    /// `toolbarColorScheme(_:for:)`.
    public var colorScheme: NBColorScheme?
    /// `navigationBarTitleDisplayMode(_:)`: true for `.large`.
    public var largeTitle = true

    public var isEmpty: Bool { visibility == .automatic && style == nil && colorScheme == nil }
}

/// Where SwiftUI puts a representable.
public enum NBPlacement: String, Sendable {
    /// In the view's own content (inside the scroll view).
    case content
    /// In `.background {}` / `.background()`.
    case background
}

/// A `UIViewRepresentable` or `UIViewControllerRepresentable` in a SwiftUI screen.
public final class NBRepresentable {
    public enum Kind { case view, controller }
    public let kind: Kind
    public let placement: NBPlacement
    public let name: String
    /// The UIKit view (for a view representable: itself; for a controller: its root view).
    public private(set) var view: NBView!
    public private(set) var controller: NBViewController?
    /// `updateUIView` / `updateUIViewController`.
    public var update: ((NBRepresentable) -> Void)?
    /// `dismantleUIView` / `dismantleUIViewController`.
    public var dismantle: ((NBRepresentable) -> Void)?
    var made = false

    public init(_ name: String, kind: Kind, placement: NBPlacement) {
        self.name = name
        self.kind = kind
        self.placement = placement
    }

    func make(context: NBContext) {
        switch kind {
        case .view: view = NBView(name, context: context)
        case .controller:
            let controller = NBViewController(name, context: context)
            self.controller = controller
            view = controller.view
        }
        made = true
    }
}

/// A `UIHostingController` showing a SwiftUI screen: a scroll view with the content, a branch for
/// `.background {}` content beside it, toolbar preferences and representables.
public final class NBHostingController: NBViewController {
    public var preferences = NBToolbarPreferences()
    public let scrollView: NBScrollView
    let backgroundBranch: NBView
    public private(set) var representables: [NBRepresentable] = []
    /// `onAppear` actions.
    public var onAppear: [() -> Void] = []
    /// The value of a custom `navigationItem` environment key, when a wrapper passes one down.
    public var environmentNavigationItem: NBNavigationItem?
    /// Private containers of representable controllers that are not attached yet (NB-16).
    private var detached: [NBViewController] = []
    private var passes = 0

    public override init(_ name: String, context: NBContext) {
        scrollView = NBScrollView("\(name).scrollView", context: context)
        backgroundBranch = NBView("\(name).background", context: context)
        super.init(name, context: context)
        view.addSubview(backgroundBranch)
        view.addSubview(scrollView)
        scrollView.observeOffset { [unowned self] _ in self.scrolled() }
    }

    public override var contentScrollView: NBScrollView? { scrollView }
    public override var prefersLargeTitle: Bool { preferences.largeTitle }

    public func add(_ representable: NBRepresentable) { representables.append(representable) }

    override func viewWillAppear() {
        super.viewWillAppear()
        updatePass(appearing: true)
    }

    override func didLeaveStack() {
        for representable in representables where representable.made { representable.dismantle?(representable) }
    }

    /// The bar SwiftUI writes its preferences into.
    var bar: NBNavigationBar? { navigationController?.navigationBar }

    private func scrolled() {
        guard let navigation = navigationController, navigation.topViewController === self || navigation.topViewController === parent else { return }
        let wasLarge = navigation.navigationBar.showsLargeTitle
        navigation.syncBar()
        if preferences.largeTitle, wasLarge != navigation.navigationBar.showsLargeTitle {
            updatePass(transition: true)
        }
    }

    /// One SwiftUI update pass: representables are made and updated, `onAppear` runs when the
    /// screen appears, the toolbar preferences go into the bar, the bar is laid out; then deferred
    /// main-queue work runs.
    public func updatePass(appearing: Bool = false, transition: Bool = false) {
        passes += 1
        context.inUpdatePass = true
        bar?.layoutDuringPass()
        for representable in representables where !representable.made {
            representable.make(context: context)
            place(representable)
        }
        for representable in representables { representable.update?(representable) }
        if appearing { for action in onAppear { action() } }
        writePreferences(transition: transition)
        context.inUpdatePass = false
        bar?.commitLayout()
        if !detached.isEmpty,
           context.applies("NB-17", "after the pass, the representable controllers in .background are attached to the navigation hierarchy") {
            for controller in detached { addChild(controller) }
            detached = []
        }
        context.mainQueue.drain()
    }

    private func place(_ representable: NBRepresentable) {
        if representable.placement == .background,
           context.applies("NB-22", "\(representable.name), placed with .background(), goes into a branch beside the scroll view, not inside it") {
            backgroundBranch.addSubview(representable.view)
        } else {
            scrollView.addSubview(representable.view)
        }
        guard let controller = representable.controller else { return }
        if representable.placement == .background,
           context.applies("NB-16", "the controller of \(representable.name) in .background {} is not yet attached to the navigation hierarchy while SwiftUI updates it (the model's hypothesis for the observed nil navigationController)") {
            let container = NBViewController("\(representable.name).privateContainer", context: context)
            container.addChild(controller)
            detached.append(controller)
        } else {
            addChild(controller)
        }
    }

    private func writePreferences(transition: Bool) {
        guard let bar else { return }
        let p = preferences
        guard !p.isEmpty || transition else { return }
        let what = transition ? "on the large/inline title transition SwiftUI rewrites the bar's appearances from its toolbar preferences"
                              : "SwiftUI writes its toolbar preferences into the bar during the update pass"
        guard context.applies("NB-9", what) else { return }
        var standard = NBAppearance()
        var edge: NBAppearance? = nil
        func styled(_ style: NBAppearance.Background?) -> NBAppearance {
            NBAppearance(background: style ?? .material, shadowColor: .separator)
        }
        switch p.visibility {
        case .hidden:
            standard = NBAppearance(background: .transparent, shadowColor: nil)
            edge = standard
        case .visible:
            standard = styled(p.style)
            edge = standard
        case .automatic:
            if let style = p.style { standard = styled(style) }
        }
        bar.setAppearance(.standard, standard, by: "SwiftUI")
        bar.setAppearance(.scrollEdge, edge, by: "SwiftUI")
        bar.colorSchemeOverride = p.colorScheme
    }
}

/// A view controller that holds a hosting controller as a child and passes its own
/// `navigationItem` down as an environment value (the one the stack's bar reads, NB-2).
public final class NBWrapperController: NBViewController {
    public let hosting: NBHostingController

    public init(_ name: String, hosting: NBHostingController, context: NBContext) {
        self.hosting = hosting
        super.init(name, context: context)
        hosting.environmentNavigationItem = navigationItem
        addChild(hosting)
        view.addSubview(hosting.view)
    }

    public override var contentScrollView: NBScrollView? { hosting.scrollView }
    public override var prefersLargeTitle: Bool { hosting.prefersLargeTitle }

    override func viewWillAppear() {
        super.viewWillAppear()
        hosting.viewWillAppear()
    }

    override func didLeaveStack() { hosting.didLeaveStack() }
}
