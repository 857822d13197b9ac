import LEDJSON
import Testing

@Suite struct JSONReaderTests {
    enum Cap: String, CaseIterable { case round, square }

    @Test func everyProblemIsReportedWithItsPath() throws {
        let document = try JSONValue.parse(#"{"rings": [{"leds": 24}, {"leds": 0, "cap": "pointy", "colour": 1}], "fps": "fast", "on": 1, "name": ""}"#)
        var reader = JSONReader()
        let topOrNil = reader.object(document, at: "", known: ["rings", "fps", "on", "name"])
        let top = try #require(topOrNil)
        let ringsOrNil = reader.array(top["rings"], at: "rings")
        let rings = try #require(ringsOrNil)
        for (i, ring) in rings.enumerated() {
            let path = JSONReader.join("rings", index: i)
            guard let m = reader.object(ring, at: path, known: ["leds", "cap"]) else { continue }
            _ = reader.integer(m["leds"], at: JSONReader.join(path, "leds"), in: 1...1024)
            _ = reader.choice(m["cap"], at: JSONReader.join(path, "cap"), as: Cap.self)
        }
        _ = reader.number(top["fps"], at: "fps", in: 1...240)
        _ = reader.bool(top["on"], at: "on")
        _ = reader.string(top["name"], at: "name")
        #expect(reader.problems.map(\.description) == [
            "rings[1].colour: unknown key; known keys here are leds, cap",
            "rings[1].leds: must be 1…1024, got 0",
            "rings[1].cap: must be one of round, square, got \"pointy\"",
            "fps: must be a number 1…240, got \"fast\"",
            "on: must be true or false, got 1",
            "name: must be a non-empty string, got \"\"",
        ])
        #expect(reader.reported == 6)
    }

    @Test func manyProblemsAreCountedAfterTheFirstFifty() {
        var reader = JSONReader()
        for i in 0..<70 { reader.report("x\(i)", "bad") }
        #expect(reader.problems.count == 51 && reader.reported == 70)
        #expect(reader.problems.last?.message == "… and 20 more problems; fix these first")
    }

    @Test func wholeNumbersAndStringLists() throws {
        var reader = JSONReader()
        #expect(reader.integer(.number(2.5), at: "n", in: 0...10) == nil)
        #expect(reader.integer(.number(7), at: "n", in: 0...10) == 7)
        #expect(reader.strings(try JSONValue.parse(#"["a", 1]"#), at: "hosts", example: "\"x\"") == nil)
        #expect(reader.strings(try JSONValue.parse(#"["a", "b"]"#), at: "hosts", example: "\"x\"") == ["a", "b"])
        #expect(reader.problems.map(\.description) == ["n: must be a whole number 0…10, got 2.5", "hosts[1]: must be a string like \"x\", got 1"])
    }
}
