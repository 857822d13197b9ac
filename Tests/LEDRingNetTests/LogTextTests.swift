import LEDRingControl
import LEDRingNet
import Testing

@Suite struct LogTextTests {
    @Test func controlCharactersAreEscapedAndLengthCapped() {
        #expect(LogText.escaped("a\nb\r\t\u{1B}[31m\u{2028}") == #"a\nb\r\t\u{1b}[31m\u{2028}"#)
        #expect(LogText.escaped(#"C:\x"#) == #"C:\\x"#)
        #expect(LogText.escaped(#"C:\x"#, escapingBackslash: false) == #"C:\x"#)
        let long = LogText.escaped(String(repeating: "x", count: 10_000), limit: 40)
        #expect(long.hasPrefix(String(repeating: "x", count: 40)) && long.hasSuffix("(9960 more characters)"))
        #expect(LogText.escaped([0x61, 0xFF, 0x0A]) == "a\u{FFFD}\\n")
    }

    @Test func complaintsAreLimitedPerWindow() {
        var limiter = ComplaintLimiter(burst: 3, window: 60)
        var logged: [String] = []
        for i in 0..<10 { logged += limiter.admit("bad \(i)", at: Double(i)) }
        #expect(logged.count == 3 && logged[2].contains("counted, not logged"))
        let later = limiter.admit("bad again", at: 61)
        #expect(later == ["7 more like that were not logged in the last 60 s", "bad again"])
    }
}
