/// The version of TroubleshootKB and its `kb` command.
public enum TroubleshootKBVersion {
    public static let string = "0.1.0"
}
