import LEDJSON
import LEDRingControl
import Testing
@testable import LEDRingApp

@Suite struct SavedStateJSONTests {
    @Test func theFileHasSortedKeysAndWholeNumbersWithoutAFraction() throws {
        let state = SavedState(rings: ["stand": 1.3, "move": 0.8, "exercise": 0], spinning: ["stand"], brightness: 0.5)
        #expect(state.json.jsonText == #"{"brightness":0.5,"rings":{"exercise":0,"move":0.8,"stand":1.3},"spinning":["stand"]}"#)
        #expect(try SavedState(json: JSONValue.parse(state.json.jsonText)) == state)
        let unlit = SavedState(rings: [:], spinning: [], brightness: nil)
        #expect(unlit.json.jsonText == #"{"rings":{},"spinning":[]}"#)
        #expect(try SavedState(json: JSONValue.parse(#"{"rings":{},"spinning":[],"brightness":null,"later":1}"#)) == unlit)
    }

    @Test(arguments: [
        (#"[]"#, "must be an object {…}, got []"), (#"{"spinning":[]}"#, "rings: missing"),
        (#"{"rings":{"move":"high"},"spinning":[]}"#, "rings.move: must be a number, got \"high\""),
        (#"{"rings":{},"spinning":[1]}"#, "spinning[0]: must be a ring name, got 1"),
        (#"{"rings":{},"spinning":[],"brightness":true}"#, "brightness: must be a number, got true"),
    ])
    func aBadFileSaysWhere(json: String, expected: String) throws {
        let document = try JSONValue.parse(json)
        #expect(throws: JSONProblem.self) { try SavedState(json: document) }
        do {
            _ = try SavedState(json: document)
        } catch {
            #expect(error.description == expected)
        }
    }
}
