import Glibc
import LEDHardware
import Testing

@Suite struct GPIOValueTests {
    @Test func lineIDsParseOffsetsAndNames() {
        #expect(GPIOLineID(parsing: "17") == .offset(17))
        #expect(GPIOLineID(parsing: "GPIO17") == .name("GPIO17"))
        #expect(GPIOLineID(parsing: "-1") == .name("-1"))
        #expect("\(GPIOLineID.name("BUTTON"))" == "\"BUTTON\"")
    }

    @Test func masksPackLevelsInLineOrder() {
        #expect(GPIOValueMask.make([true, false, true]) == 0b101)
        #expect(GPIOValueMask.levels(0b110, count: 3) == [false, true, true])
        #expect(GPIOValueMask.level(1 << 63, 63))
        #expect(!GPIOValueMask.level(UInt64.max, 64))
    }

    @Test func resolvedLinesNameTheChip() {
        let named = GPIOResolvedLine(chipLabel: "pinctrl-rp1", offset: 17, name: "GPIO17")
        #expect("\(named)" == "line 17 (\"GPIO17\") on pinctrl-rp1")
        #expect(GPIOResolvedLine(chipLabel: "x", offset: 3, name: "").lineDescription == "line 3")
    }

    @Test func tooManyLinesForOneRequestIsAConfigurationError() {
        let selection = GPIOLineSelection(chipLabels: ["c"], lines: (0..<65).map { .offset(UInt32($0)) })
        let chips = [GPIOChipInfo(path: "/dev/gpiochip0", label: "c", lineCount: 100)]
        let error = #expect(throws: HardwareError.self) {
            try GPIOChipResolver.resolve(selection, chips: chips) { _, _ in nil }
        }
        #expect(error?.kind == .invalidConfiguration)
    }

    @Test func pollReturnsNothingOnTimeoutAndTheReadableDescriptor() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(try GPIOPoll.wait([fds[0]], timeoutNanoseconds: 0) == [])
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(try GPIOPoll.wait([fds[0]], timeoutNanoseconds: -1) == [fds[0]])
    }
}
