import KBCore
extension Gherkin {
    /// A step's data table: rows of `|`-separated cells, all of the same width.
    public struct DataTable: Hashable, Sendable {
        public var location: Location
        public var rows: [TableRow]

        public init(location: Location, rows: [TableRow]) {
            self.location = location
            self.rows = rows
        }
    }

    /// One `| a | b |` row of a data table or examples table.
    public struct TableRow: Hashable, Sendable {
        public var id: String
        public var location: Location
        public var cells: [TableCell]

        public init(id: String, location: Location, cells: [TableCell]) {
            self.id = id
            self.location = location
            self.cells = cells
        }
    }

    /// A trimmed, unescaped table cell (`\|`, `\\` and `\n` are decoded).
    public struct TableCell: Hashable, Sendable {
        public var location: Location
        public var value: String

        public init(location: Location, value: String) {
            self.location = location
            self.value = value
        }
    }
}
