import Foundation
import LEDJSON

// Until the socket's JSON requests (Request+JSON) move to LEDJSON in their own commit.
extension JSONValue {
    static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue { try parse(Array(data)) }
}
