/// A sink whose hook rules a running server replaces when it reloads its configuration
/// (`HookSink`): the server hands it the new rules on its service thread and must not wait.
public protocol HookRuleHolder: AnyObject {
    /// From the next event on, `rules` are matched: a rule equal to a running one keeps its
    /// runner (a `pipe` process is not restarted), the others start; rules no longer there stop
    /// taking events and finish in the background. Never blocks.
    func replaceRules(_ rules: [HookRule])
}
