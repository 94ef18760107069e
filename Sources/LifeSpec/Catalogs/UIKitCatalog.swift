/// UIKit API names as Apple's documentation spells them (data; parsed by `APICatalog`).
///
/// `swift` is the Swift symbol name in Apple's `(_:)` form (no-argument methods end in `()`;
/// notifications are qualified by their owner type), `objc` the Objective-C selector or constant,
/// `owner` the declaring protocol or class and `url` Apple's documentation page for the symbol.
/// Checked by hand against developer.apple.com; keep entries grouped by owner.
enum UIKitCatalog {
    static let yaml = #"""
        callbacks:
          # UIApplicationDelegate: launch, app life cycle, memory, protected data, state restoration, scene sessions
          - swift: "application(_:willFinishLaunchingWithOptions:)"
            objc: "application:willFinishLaunchingWithOptions:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:willfinishlaunchingwithoptions:)"
          - swift: "application(_:didFinishLaunchingWithOptions:)"
            objc: "application:didFinishLaunchingWithOptions:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didfinishlaunchingwithoptions:)"
          - swift: "applicationDidFinishLaunching(_:)"
            objc: "applicationDidFinishLaunching:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationdidfinishlaunching(_:)"
          - swift: "applicationDidBecomeActive(_:)"
            objc: "applicationDidBecomeActive:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationdidbecomeactive(_:)"
          - swift: "applicationWillResignActive(_:)"
            objc: "applicationWillResignActive:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillresignactive(_:)"
          - swift: "applicationDidEnterBackground(_:)"
            objc: "applicationDidEnterBackground:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationdidenterbackground(_:)"
          - swift: "applicationWillEnterForeground(_:)"
            objc: "applicationWillEnterForeground:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillenterforeground(_:)"
          - swift: "applicationWillTerminate(_:)"
            objc: "applicationWillTerminate:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationwillterminate(_:)"
          - swift: "applicationDidReceiveMemoryWarning(_:)"
            objc: "applicationDidReceiveMemoryWarning:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationdidreceivememorywarning(_:)"
          - swift: "applicationSignificantTimeChange(_:)"
            objc: "applicationSignificantTimeChange:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationsignificanttimechange(_:)"
          - swift: "applicationProtectedDataWillBecomeUnavailable(_:)"
            objc: "applicationProtectedDataWillBecomeUnavailable:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationprotecteddatawillbecomeunavailable(_:)"
          - swift: "applicationProtectedDataDidBecomeAvailable(_:)"
            objc: "applicationProtectedDataDidBecomeAvailable:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/applicationprotecteddatadidbecomeavailable(_:)"
          - swift: "application(_:handleEventsForBackgroundURLSession:completionHandler:)"
            objc: "application:handleEventsForBackgroundURLSession:completionHandler:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:handleeventsforbackgroundurlsession:completionhandler:)"
          - swift: "application(_:shouldSaveSecureApplicationState:)"
            objc: "application:shouldSaveSecureApplicationState:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:shouldsavesecureapplicationstate:)"
          - swift: "application(_:shouldRestoreSecureApplicationState:)"
            objc: "application:shouldRestoreSecureApplicationState:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:shouldrestoresecureapplicationstate:)"
          - swift: "application(_:willEncodeRestorableStateWith:)"
            objc: "application:willEncodeRestorableStateWithCoder:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:willencoderestorablestatewith:)"
          - swift: "application(_:didDecodeRestorableStateWith:)"
            objc: "application:didDecodeRestorableStateWithCoder:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:diddecoderestorablestatewith:)"
          - swift: "application(_:viewControllerWithRestorationIdentifierPath:coder:)"
            objc: "application:viewControllerWithRestorationIdentifierPath:coder:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:viewcontrollerwithrestorationidentifierpath:coder:)"
          - swift: "application(_:shouldSaveApplicationState:)"
            objc: "application:shouldSaveApplicationState:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:shouldsaveapplicationstate:)"
          - swift: "application(_:shouldRestoreApplicationState:)"
            objc: "application:shouldRestoreApplicationState:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:shouldrestoreapplicationstate:)"
          - swift: "application(_:configurationForConnecting:options:)"
            objc: "application:configurationForConnectingSceneSession:options:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:configurationforconnecting:options:)"
          - swift: "application(_:didDiscardSceneSessions:)"
            objc: "application:didDiscardSceneSessions:"
            owner: UIApplicationDelegate
            url: "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:diddiscardscenesessions:)"
          # UIViewController: creation, view life cycle, layout, safe area and margins, containment, memory, state restoration
          - swift: "init(nibName:bundle:)"
            objc: "initWithNibName:bundle:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/init(nibname:bundle:)"
          - swift: "init(coder:)"
            objc: "initWithCoder:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/init(coder:)"
          - swift: "loadView()"
            objc: "loadView"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/loadview()"
          - swift: "viewDidLoad()"
            objc: "viewDidLoad"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewdidload()"
          - swift: "viewWillAppear(_:)"
            objc: "viewWillAppear:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewwillappear(_:)"
          - swift: "viewIsAppearing(_:)"
            objc: "viewIsAppearing:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewisappearing(_:)"
          - swift: "viewWillLayoutSubviews()"
            objc: "viewWillLayoutSubviews"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewwilllayoutsubviews()"
          - swift: "viewDidLayoutSubviews()"
            objc: "viewDidLayoutSubviews"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewdidlayoutsubviews()"
          - swift: "viewSafeAreaInsetsDidChange()"
            objc: "viewSafeAreaInsetsDidChange"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewsafeareainsetsdidchange()"
          - swift: "viewLayoutMarginsDidChange()"
            objc: "viewLayoutMarginsDidChange"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewlayoutmarginsdidchange()"
          - swift: "viewDidAppear(_:)"
            objc: "viewDidAppear:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewdidappear(_:)"
          - swift: "viewWillDisappear(_:)"
            objc: "viewWillDisappear:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewwilldisappear(_:)"
          - swift: "viewDidDisappear(_:)"
            objc: "viewDidDisappear:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/viewdiddisappear(_:)"
          - swift: "willMove(toParent:)"
            objc: "willMoveToParentViewController:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/willmove(toparent:)"
          - swift: "didMove(toParent:)"
            objc: "didMoveToParentViewController:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/didmove(toparent:)"
          - swift: "didReceiveMemoryWarning()"
            objc: "didReceiveMemoryWarning"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/didreceivememorywarning()"
          - swift: "encodeRestorableState(with:)"
            objc: "encodeRestorableStateWithCoder:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/encoderestorablestate(with:)"
          - swift: "decodeRestorableState(with:)"
            objc: "decodeRestorableStateWithCoder:"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/decoderestorablestate(with:)"
          - swift: "applicationFinishedRestoringState()"
            objc: "applicationFinishedRestoringState"
            owner: UIViewController
            url: "https://developer.apple.com/documentation/uikit/uiviewcontroller/applicationfinishedrestoringstate()"
          # UIContentContainer (adopted by UIViewController and UIPresentationController): size changes
          - swift: "viewWillTransition(to:with:)"
            objc: "viewWillTransitionToSize:withTransitionCoordinator:"
            owner: UIContentContainer
            url: "https://developer.apple.com/documentation/uikit/uicontentcontainer/viewwilltransition(to:with:)"
          # NSObject (UINibLoadingAdditions): nib loading
          - swift: "awakeFromNib()"
            objc: "awakeFromNib"
            owner: NSObject
            url: "https://developer.apple.com/documentation/objectivec/nsobject-swift.class/awakefromnib()"
          # UISceneDelegate (adopted by UIWindowSceneDelegate): scene life cycle and state restoration
          - swift: "scene(_:willConnectTo:options:)"
            objc: "scene:willConnectToSession:options:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/scene(_:willconnectto:options:)"
          - swift: "sceneDidDisconnect(_:)"
            objc: "sceneDidDisconnect:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/scenediddisconnect(_:)"
          - swift: "sceneWillEnterForeground(_:)"
            objc: "sceneWillEnterForeground:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/scenewillenterforeground(_:)"
          - swift: "sceneDidBecomeActive(_:)"
            objc: "sceneDidBecomeActive:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/scenedidbecomeactive(_:)"
          - swift: "sceneWillResignActive(_:)"
            objc: "sceneWillResignActive:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/scenewillresignactive(_:)"
          - swift: "sceneDidEnterBackground(_:)"
            objc: "sceneDidEnterBackground:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/scenedidenterbackground(_:)"
          - swift: "stateRestorationActivity(for:)"
            objc: "stateRestorationActivityForScene:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/staterestorationactivity(for:)"
          - swift: "scene(_:restoreInteractionStateWith:)"
            objc: "scene:restoreInteractionStateWithUserActivity:"
            owner: UISceneDelegate
            url: "https://developer.apple.com/documentation/uikit/uiscenedelegate/scene(_:restoreinteractionstatewith:)"
          # UIAdaptivePresentationControllerDelegate: a person's attempt to dismiss a sheet
          - swift: "presentationControllerShouldDismiss(_:)"
            objc: "presentationControllerShouldDismiss:"
            owner: UIAdaptivePresentationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uiadaptivepresentationcontrollerdelegate/presentationcontrollershoulddismiss(_:)"
          - swift: "presentationControllerWillDismiss(_:)"
            objc: "presentationControllerWillDismiss:"
            owner: UIAdaptivePresentationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uiadaptivepresentationcontrollerdelegate/presentationcontrollerwilldismiss(_:)"
          - swift: "presentationControllerDidDismiss(_:)"
            objc: "presentationControllerDidDismiss:"
            owner: UIAdaptivePresentationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uiadaptivepresentationcontrollerdelegate/presentationcontrollerdiddismiss(_:)"
          - swift: "presentationControllerDidAttemptToDismiss(_:)"
            objc: "presentationControllerDidAttemptToDismiss:"
            owner: UIAdaptivePresentationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uiadaptivepresentationcontrollerdelegate/presentationcontrollerdidattempttodismiss(_:)"
          # UITabBarControllerDelegate: the person tapping a tab
          - swift: "tabBarController(_:shouldSelect:)"
            objc: "tabBarController:shouldSelectViewController:"
            owner: UITabBarControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uitabbarcontrollerdelegate/tabbarcontroller(_:shouldselect:)"
          - swift: "tabBarController(_:didSelect:)"
            objc: "tabBarController:didSelectViewController:"
            owner: UITabBarControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uitabbarcontrollerdelegate/tabbarcontroller(_:didselect:)"
          # UINavigationControllerDelegate: a view controller shown by a push or a pop, transitions, orientation
          - swift: "navigationController(_:willShow:animated:)"
            objc: "navigationController:willShowViewController:animated:"
            owner: UINavigationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uinavigationcontrollerdelegate/navigationcontroller(_:willshow:animated:)"
          - swift: "navigationController(_:didShow:animated:)"
            objc: "navigationController:didShowViewController:animated:"
            owner: UINavigationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uinavigationcontrollerdelegate/navigationcontroller(_:didshow:animated:)"
          - swift: "navigationController(_:animationControllerFor:from:to:)"
            objc: "navigationController:animationControllerForOperation:fromViewController:toViewController:"
            owner: UINavigationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uinavigationcontrollerdelegate/navigationcontroller(_:animationcontrollerfor:from:to:)"
          - swift: "navigationController(_:interactionControllerFor:)"
            objc: "navigationController:interactionControllerForAnimationController:"
            owner: UINavigationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uinavigationcontrollerdelegate/navigationcontroller(_:interactioncontrollerfor:)"
          - swift: "navigationControllerSupportedInterfaceOrientations(_:)"
            objc: "navigationControllerSupportedInterfaceOrientations:"
            owner: UINavigationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uinavigationcontrollerdelegate/navigationcontrollersupportedinterfaceorientations(_:)"
          - swift: "navigationControllerPreferredInterfaceOrientationForPresentation(_:)"
            objc: "navigationControllerPreferredInterfaceOrientationForPresentation:"
            owner: UINavigationControllerDelegate
            url: "https://developer.apple.com/documentation/uikit/uinavigationcontrollerdelegate/navigationcontrollerpreferredinterfaceorientationforpresentation(_:)"
        closureHosts:
          # APIs an app passes a closure to that UIKit calls back later (`kind: closure`, `passedTo:`)
          - swift: "UIApplication.beginBackgroundTask(expirationHandler:)"
            objc: "beginBackgroundTaskWithExpirationHandler:"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(expirationhandler:)"
          - swift: "UIApplication.beginBackgroundTask(withName:expirationHandler:)"
            objc: "beginBackgroundTaskWithName:expirationHandler:"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)"
          # BGTaskScheduler and BGTask (BackgroundTasks): the launch handler and a task's expiration handler
          - swift: "BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)"
            objc: "registerForTaskWithIdentifier:usingQueue:launchHandler:"
            owner: BGTaskScheduler
            url: "https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)"
          - swift: "BGTask.expirationHandler"
            objc: "expirationHandler"
            owner: BGTask
            url: "https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler"
        notifications:
          # UIApplication notifications (posted whether or not the app uses scenes)
          - swift: "UIApplication.didFinishLaunchingNotification"
            objc: "UIApplicationDidFinishLaunchingNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/didfinishlaunchingnotification"
          - swift: "UIApplication.didBecomeActiveNotification"
            objc: "UIApplicationDidBecomeActiveNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification"
          - swift: "UIApplication.willResignActiveNotification"
            objc: "UIApplicationWillResignActiveNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/willresignactivenotification"
          - swift: "UIApplication.didEnterBackgroundNotification"
            objc: "UIApplicationDidEnterBackgroundNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification"
          - swift: "UIApplication.willEnterForegroundNotification"
            objc: "UIApplicationWillEnterForegroundNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification"
          - swift: "UIApplication.willTerminateNotification"
            objc: "UIApplicationWillTerminateNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/willterminatenotification"
          - swift: "UIApplication.didReceiveMemoryWarningNotification"
            objc: "UIApplicationDidReceiveMemoryWarningNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/didreceivememorywarningnotification"
          - swift: "UIApplication.significantTimeChangeNotification"
            objc: "UIApplicationSignificantTimeChangeNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/significanttimechangenotification"
          - swift: "UIApplication.protectedDataWillBecomeUnavailableNotification"
            objc: "UIApplicationProtectedDataWillBecomeUnavailable"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/protecteddatawillbecomeunavailablenotification"
          - swift: "UIApplication.protectedDataDidBecomeAvailableNotification"
            objc: "UIApplicationProtectedDataDidBecomeAvailable"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/protecteddatadidbecomeavailablenotification"
          - swift: "UIApplication.backgroundRefreshStatusDidChangeNotification"
            objc: "UIApplicationBackgroundRefreshStatusDidChangeNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/backgroundrefreshstatusdidchangenotification"
          - swift: "UIApplication.userDidTakeScreenshotNotification"
            objc: "UIApplicationUserDidTakeScreenshotNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/userdidtakescreenshotnotification"
          - swift: "UIApplication.willChangeStatusBarOrientationNotification"
            objc: "UIApplicationWillChangeStatusBarOrientationNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/willchangestatusbarorientationnotification"
          - swift: "UIApplication.didChangeStatusBarOrientationNotification"
            objc: "UIApplicationDidChangeStatusBarOrientationNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/didchangestatusbarorientationnotification"
          - swift: "UIApplication.willChangeStatusBarFrameNotification"
            objc: "UIApplicationWillChangeStatusBarFrameNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/willchangestatusbarframenotification"
          - swift: "UIApplication.didChangeStatusBarFrameNotification"
            objc: "UIApplicationDidChangeStatusBarFrameNotification"
            owner: UIApplication
            url: "https://developer.apple.com/documentation/uikit/uiapplication/didchangestatusbarframenotification"
          # UIScene notifications (one per scene life-cycle transition)
          - swift: "UIScene.willConnectNotification"
            objc: "UISceneWillConnectNotification"
            owner: UIScene
            url: "https://developer.apple.com/documentation/uikit/uiscene/willconnectnotification"
          - swift: "UIScene.didDisconnectNotification"
            objc: "UISceneDidDisconnectNotification"
            owner: UIScene
            url: "https://developer.apple.com/documentation/uikit/uiscene/diddisconnectnotification"
          - swift: "UIScene.willEnterForegroundNotification"
            objc: "UISceneWillEnterForegroundNotification"
            owner: UIScene
            url: "https://developer.apple.com/documentation/uikit/uiscene/willenterforegroundnotification"
          - swift: "UIScene.didActivateNotification"
            objc: "UISceneDidActivateNotification"
            owner: UIScene
            url: "https://developer.apple.com/documentation/uikit/uiscene/didactivatenotification"
          - swift: "UIScene.willDeactivateNotification"
            objc: "UISceneWillDeactivateNotification"
            owner: UIScene
            url: "https://developer.apple.com/documentation/uikit/uiscene/willdeactivatenotification"
          - swift: "UIScene.didEnterBackgroundNotification"
            objc: "UISceneDidEnterBackgroundNotification"
            owner: UIScene
            url: "https://developer.apple.com/documentation/uikit/uiscene/didenterbackgroundnotification"
        """#
}
