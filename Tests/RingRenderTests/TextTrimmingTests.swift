import RingModel
import RingRender
import Testing

@Suite struct TextTrimmingTests {
    @Test(arguments: [
        ("  80% \n", "80%"), ("\t\r\nON\u{A0}\u{3000}", "ON"), ("", ""), (" \n\t ", ""), ("a b", "a b"),
        ("\u{2028}x\u{85}", "x"), ("é ", "é"), ("x\u{200B}", "x\u{200B}"),
    ])
    func trimsWhatFoundationTrimmed(text: String, expected: String) {
        #expect(text.trimmingWhitespace() == expected)
        #expect(text[...].trimmingWhitespace() == expected)
    }
}
