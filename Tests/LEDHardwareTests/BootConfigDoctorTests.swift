import Foundation
@testable import LEDHardware
import LEDRingTesting
import Testing

/// config.txt conditional filters as raspberrypi/documentation
/// `documentation/asciidoc/computers/config_txt/conditional.adoc` describes them, seen through
/// the doctor's core-clock check.
@Suite struct BootConfigDoctorTests {
    static let compatible = [
        "rpi4b": "raspberrypi,4-model-b\0brcm,bcm2711\0",
        "rpi400": "raspberrypi,400\0brcm,bcm2711\0",
        "rpi-cm4": "raspberrypi,4-compute-module\0brcm,bcm2711\0",
        "rpi3b": "raspberrypi,3-model-b\0brcm,bcm2837\0",
        "rpi-zero-2w": "raspberrypi,model-zero-2-w\0brcm,bcm2837\0",
    ]

    /// The core-clock check on `board` with `config` as /boot/firmware/config.txt.
    func coreClock(_ board: String, _ config: String, extra: [String: String] = [:]) -> DoctorCheck? {
        let fake = healthyRoot(board == "rpi3b" || board == "rpi-zero-2w" ? "rpi3b" : "rpi4b")
        fake.addFile("/r/proc/device-tree/compatible", Self.compatible[board] ?? "")
        fake.addFile("/r/boot/firmware/config.txt", config)
        for (name, text) in extra { fake.addFile("/r/boot/firmware/" + name, text) }
        let report = Doctor.run(root: "/r", system: fake)
        #expect(report.board?.id == board)
        return check(report, "core clock")
    }

    static let cm4Only = "dtparam=spi=on\n[cm4]\ncore_freq=500\ncore_freq_min=500\n[all]\n"

    @Test func cm4LinesDoNotFixThePi4BsCoreClock() {
        let core = coreClock("rpi4b", Self.cm4Only)
        #expect(core?.passed == false, "\(core?.line ?? "")")
        #expect(core?.detail.contains("between 200 and 500 MHz") == true)
        #expect(core?.detail.contains("core_freq_min=500 (/boot/firmware/config.txt line 4 under [cm4]), which does not match "
            + "Raspberry Pi 4 Model B") == true, "\(core?.line ?? "")")
        #expect(core?.fix.contains("core_freq=500` and `core_freq_min=500") == true)
    }

    @Test func cm4LinesFixTheCM4sCoreClock() {
        let core = coreClock("rpi-cm4", Self.cm4Only)
        #expect(core?.passed == true, "\(core?.line ?? "")")
        #expect(core?.detail.contains("fixed at 500 MHz") == true)
        #expect(core?.detail.contains("line 4 under [cm4]") == true, "\(core?.line ?? "")")
    }

    // conditional.adoc: [pi4] matches the 4B, the 400 and the CM4; [pi400] the 400 only
    // ("Pi 400 (also sees [pi4] contents)").
    @Test(arguments: [
        ("rpi4b", "[pi4]\ncore_freq_min=500\n[all]\n", true),
        ("rpi400", "[pi4]\ncore_freq_min=500\n[all]\n", true),
        ("rpi-cm4", "[pi4]\ncore_freq_min=500\n[all]\n", true),
        ("rpi400", "[pi400]\ncore_freq_min=500\n[all]\n", true),
        ("rpi4b", "[pi400]\ncore_freq_min=500\n[all]\n", false),
        ("rpi-cm4", "[pi400]\ncore_freq_min=500\n[all]\n", false),
        ("rpi400", "[cm4]\ncore_freq_min=500\n[all]\n", false),
        ("rpi4b", "[pi3]\ncore_freq_min=500\n[all]\n", false),
    ])
    func modelFiltersMatchAsTheDocsTableSays(board: String, config: String, passes: Bool) {
        #expect(coreClock(board, config)?.passed == passes, "\(board): \(config)")
    }

    @Test func noneLinesNeverApply() {
        let core = coreClock("rpi4b", "[none]\ncore_freq=500\ncore_freq_min=500\n[all]\n")
        #expect(core?.passed == false, "\(core?.line ?? "")")
        #expect(core?.detail.contains("under [none]), which applies nowhere") == true, "\(core?.line ?? "")")
        // Nor on the CM4, whose own filter is not what is in force.
        #expect(coreClock("rpi-cm4", "[none]\ncore_freq_min=500\n")?.passed == false)
    }

    @Test func aFilterAfterNoneWithoutAllIsOnlyMaybe() {
        let core = coreClock("rpi4b", "[none]\n[pi4]\ncore_freq_min=500\n")
        #expect(core?.passed == false, "\(core?.line ?? "")")
        #expect(core?.detail.contains("[none] came before without [all]") == true, "\(core?.line ?? "")")
    }

    @Test func allAfterASectionRestoresEveryLine() {
        let core = coreClock("rpi4b", "[cm4]\ncore_freq=400\n[all]\ncore_freq_min=500\n[none]\ncore_freq_min=200\n[all]\n")
        #expect(core?.passed == true, "\(core?.line ?? "")")
        #expect(core?.detail.contains("core_freq_min=500 (/boot/firmware/config.txt line 4)") == true, "\(core?.line ?? "")")
    }

    // "Filters of the same type replace each other": [pi4] after [cm4] is [pi4] alone.
    @Test func aModelFilterReplacesTheModelFilterBeforeIt() {
        #expect(coreClock("rpi4b", "[cm4]\n[pi4]\ncore_freq_min=500\n[all]\n")?.passed == true)
        #expect(coreClock("rpi4b", "[pi4]\n[cm4]\ncore_freq_min=500\n[all]\n")?.passed == false)
    }

    // "Filters of different types can be combined": [gpio4=1] then [cm4] is both, so still not a 4B.
    @Test func filtersOfDifferentTypesAreANDed() {
        let notThisModel = coreClock("rpi4b", "[gpio4=1]\n[cm4]\ncore_freq_min=500\n[all]\n")
        #expect(notThisModel?.passed == false)
        #expect(notThisModel?.detail.contains("under [cm4][gpio4=1]), which does not match") == true, "\(notThisModel?.line ?? "")")
        let maybe = coreClock("rpi4b", "[gpio4=1]\n[pi4]\ncore_freq_min=500\n[all]\n")
        #expect(maybe?.passed == false)
        #expect(maybe?.detail.contains("[gpio4=1] cannot be evaluated by the doctor") == true, "\(maybe?.line ?? "")")
    }

    @Test(arguments: ["[gpio4=1]", "[EDID=DEL-DELL_U2422H]", "[HDMI:0]", "[0x12345678]", "[tryboot]", "[board-type=0x11]", "[frobnicate]"])
    func anUnevaluableFilterNeverYieldsAPass(filter: String) {
        // Only under the filter: may not apply, so no pass.
        let only = coreClock("rpi4b", "\(filter)\ncore_freq=500\ncore_freq_min=500\n[all]\n")
        #expect(only?.passed == false, "\(only?.line ?? "")")
        #expect(only?.detail.contains("under \(filter)), which may or may not apply") == true, "\(only?.line ?? "")")
        // A pass that a line under the filter may undo: no pass either, and the line is named.
        let undone = coreClock("rpi4b", "core_freq=500\ncore_freq_min=500\n\(filter)\ncore_freq_min=200\n[all]\n")
        #expect(undone?.passed == false, "\(undone?.line ?? "")")
        #expect(undone?.detail.contains("but core_freq_min=200 (/boot/firmware/config.txt line 4 under \(filter))") == true,
                "\(undone?.line ?? "")")
        #expect(undone?.fix.contains("[all]") == true)
        // The same value under the filter changes nothing.
        #expect(coreClock("rpi4b", "core_freq=500\ncore_freq_min=500\n\(filter)\ncore_freq_min=500\n[all]\n")?.passed == true)
    }

    @Test func aBluetoothOverlayThatMayApplyKeepsEnableUARTFromPassing() {
        let core = coreClock("rpi3b", "enable_uart=1\n[gpio4=1]\ndtoverlay=disable-bt\n[all]\n")
        #expect(core?.passed == false, "\(core?.line ?? "")")
        #expect(core?.detail.contains("dtoverlay=disable-bt") == true)
        #expect(coreClock("rpi3b", "enable_uart=1\n[pi4]\ndtoverlay=disable-bt\n[all]\n")?.passed == true)
    }

    // One board file covers the 3B and the 3B+; [pi3+] matches only the 3B+.
    @Test func pi3PlusLinesAreMaybeOnTheThreeBFile() {
        #expect(coreClock("rpi3b", "[pi3]\ncore_freq=250\ncore_freq_min=250\n[all]\n")?.passed == true)
        let plus = coreClock("rpi3b", "[pi3+]\ncore_freq=250\ncore_freq_min=250\n[all]\n")
        #expect(plus?.passed == false, "\(plus?.line ?? "")")
        #expect(plus?.detail.contains("[pi3+] matches some of the boards called Raspberry Pi 3 Model B / B+") == true,
                "\(plus?.line ?? "")")
    }

    // "[pi02] Zero 2 W (also sees [pi0w] and [pi0] contents)".
    @Test func zeroTwoWSeesPi0wAndPi0() {
        for filter in ["pi0", "pi0w", "pi02"] {
            #expect(coreClock("rpi-zero-2w", "[\(filter)]\ncore_freq_min=400\n[all]\n")?.passed == true, "\(filter)")
        }
        #expect(coreClock("rpi-zero-2w", "[pi3]\ncore_freq_min=400\n[all]\n")?.passed == false)
    }

    @Test func includeIsFollowedNextToTheFile() {
        let core = coreClock("rpi4b", "dtparam=spi=on\ninclude extra.txt\n", extra: ["extra.txt": "# clocks\ncore_freq_min=500\n"])
        #expect(core?.passed == true, "\(core?.line ?? "")")
        #expect(core?.detail.contains("core_freq_min=500 (/boot/firmware/extra.txt line 2)") == true, "\(core?.line ?? "")")
        // An include under a filter that does not match brings its lines under that filter.
        let filtered = coreClock("rpi4b", "[cm4]\ninclude extra.txt\n[all]\n", extra: ["extra.txt": "core_freq_min=500\n"])
        #expect(filtered?.passed == false, "\(filtered?.line ?? "")")
        #expect(filtered?.detail.contains("extra.txt line 1 under [cm4]") == true, "\(filtered?.line ?? "")")
    }

    @Test func aMissingOrEndlessIncludeIsNamed() {
        let missing = coreClock("rpi4b", "include gone.txt\n")
        #expect(missing?.passed == false)
        #expect(missing?.detail.contains("`include gone.txt` (/boot/firmware/config.txt line 1) names /boot/firmware/gone.txt, which is missing") == true,
                "\(missing?.line ?? "")")
        let loop = coreClock("rpi4b", "core_freq_min=500\ninclude config.txt\n")
        #expect(loop?.passed == true, "\(loop?.line ?? "")")
        #expect(loop?.detail.contains("more than \(BootConfig.includeDepthLimit) includes deep") == true, "\(loop?.line ?? "")")
    }

    @Test func aFlatFileAppliesEveryLineAndIgnoresSections() {
        let flat = BootConfig(path: "/boot/armbianEnv.txt", text: "[pi4]\noverlays=spi-spidev\r\ninclude x\nparam=1 # note\n",
                              sectioned: false)
        #expect(flat.setting("overlays", on: nil).value == "spi-spidev")
        #expect(flat.setting("param", on: nil).value == "1")
        #expect(flat.notes.isEmpty)
        #expect(flat.lines.allSatisfy { $0.filters.isEmpty })
    }

    @Test func aBoardFileMayOnlyNameTheFirmwaresModelFilters() throws {
        let json = try #require(BoardCatalog.builtInFiles["rpi4b.json"])
        let bad = json.replacingOccurrences(of: "\"configFilters\": [\n    \"pi4\"", with: "\"configFilters\": [\n    \"pi9\"")
        #expect(bad != json)
        let error = #expect(throws: HardwareError.self) { _ = try BoardCatalog.decodeBoard(Array(bad.utf8), fileName: "rpi4b.json") }
        #expect(error?.message.contains("config filter \"pi9\" is not a config.txt model filter") == true, "\(error?.message ?? "")")
        let pi4 = try BoardCatalog.decodeBoard(Array(json.utf8), fileName: "rpi4b.json")
        #expect(pi4.configFilters == ["pi4"])
        #expect(try BoardCatalog.builtIn().board(id: "orangepi-zero")?.configFilters == nil)
    }
}
