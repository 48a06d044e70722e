/// photomill's version: `--version`, and the `software_version` a worker's READY carries.
public enum PhotomillVersion {
    public static let number = "0.1.0"
    /// As READY carries it: `photomill/0.1.0`.
    public static let software = "photomill/" + number
}
