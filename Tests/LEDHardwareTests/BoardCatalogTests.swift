import Foundation
import LEDHardware
import LEDRingTesting
import LEDWire
import RingModel
import Testing

/// The repository's boards/ folder, found from this file so tests need no working directory.
let boardsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("boards").path

func boardFileNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: boardsDirectory)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()
}

@Suite struct BoardCatalogTests {
    @Test func theBoardsFolderHasTheRequiredBoards() throws {
        let ids = Set(boardFileNames().map { String($0.dropLast(5)) })
        #expect(ids.isSuperset(of: ["rpi-zero-2w", "rpi3b", "rpi4b", "rpi400", "rpi-cm4", "rpi5", "rpi1", "rpi2b", "rpi-zero",
                                    "rpi-zero-w", "rpi3a-plus", "rpi-cm3", "rpi-cm5", "rpi500"]))
        #expect(ids.isSuperset(of: ["generic-bcm283x", "generic-bcm2711", "generic-bcm2712"]))
        #expect(ids.filter { !$0.hasPrefix("rpi") && !$0.hasPrefix("generic-") }.count >= 3)
    }

    @Test(arguments: boardFileNames())
    func everyBoardFileLoadsAndValidates(fileName: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: boardsDirectory + "/" + fileName)))
        let board = try BoardCatalog.decodeBoard(bytes, fileName: fileName)
        #expect(board.validationProblems(fileName: fileName).isEmpty)
        #expect(fileName == board.id + ".json")
    }

    @Test func theDirectoryLoadsAsOneCatalog() throws {
        let catalog = try BoardCatalog.load(directory: boardsDirectory)
        #expect(catalog.boards.count == boardFileNames().count)
    }

    @Test func builtInCopyEqualsTheFiles() throws {
        // Fails after a board file changes until `python3 boards/embed-boards.py` is run.
        #expect(Set(BoardCatalog.builtInFiles.keys) == Set(boardFileNames()))
        for name in boardFileNames() {
            let onDisk = try String(contentsOfFile: boardsDirectory + "/" + name, encoding: .utf8)
            #expect(BoardCatalog.builtInFiles[name] == onDisk, "\(name) differs from the compiled-in copy")
        }
        #expect(try BoardCatalog.builtIn().boards == BoardCatalog.load(directory: boardsDirectory).boards)
    }

    @Test func aBrokenFileIsRefusedWithItsName() {
        let error = #expect(throws: HardwareError.self) {
            _ = try BoardCatalog.decodeBoard(Array(#"{"id": "x"}"#.utf8), fileName: "x.json")
        }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.message.contains("x.json") == true)
    }

    @Test func aBrokenFileListsEveryProblemWithItsPath() throws {
        let good = try #require(BoardCatalog.builtInFiles["rpi4b.json"])
        let broken = good.replacingOccurrences(of: "\"chipSelect\": 0,", with: "\"chipSelect\": \"zero\", \"chipselect\": 0,")
            .replacingOccurrences(of: "\"rule\": \"evenDivider\"", with: "\"rule\": \"even\"")
        let error = #expect(throws: HardwareError.self) { _ = try BoardCatalog.decodeBoard(Array(broken.utf8), fileName: "rpi4b.json") }
        let message = error?.message ?? ""
        #expect(message.contains("spi[0].chipselect: unknown key"), "\(message)")
        #expect(message.contains("spi[0].chipSelect: must be a whole number 0…1000000, got \"zero\""), "\(message)")
        #expect(message.contains("spiClock.rule: must be one of evenDivider, integerDivider, got \"even\""), "\(message)")
        let missing = #expect(throws: HardwareError.self) { _ = try BoardCatalog.decodeBoard(Array(#"{"id": "x"}"#.utf8), fileName: "x.json") }
        #expect(missing?.message.contains("displayName: missing") == true)
    }

    @Test func aFileNamedAfterAnotherIdIsRefused() throws {
        let json = try #require(BoardCatalog.builtInFiles["rpi4b.json"])
        let error = #expect(throws: HardwareError.self) {
            _ = try BoardCatalog.decodeBoard(Array(json.utf8), fileName: "rpi5.json")
        }
        #expect(error?.message.contains("must be named rpi4b.json") == true)
    }

    @Test func duplicateCompatibleStringsAreRefused() throws {
        let fake = FakeSystemCalls()
        let json = try #require(BoardCatalog.builtInFiles["rpi4b.json"])
        fake.addFile("/b/rpi4b.json", json)
        fake.addFile("/b/copy.json", json.replacingOccurrences(of: "\"id\": \"rpi4b\"", with: "\"id\": \"copy\""))
        let error = #expect(throws: HardwareError.self) { _ = try BoardCatalog.load(directory: "/b", system: fake) }
        #expect(error?.message.contains("raspberrypi,4-model-b") == true)
    }

    @Test func genericFilesMatchBySoCOnlyAndSayWhatTheyDoNotKnow() throws {
        let catalog = try BoardCatalog.builtIn()
        let generic = catalog.boards.filter(\.isGeneric)
        #expect(Set(generic.map(\.id)) == ["generic-bcm283x", "generic-bcm2711", "generic-bcm2712"])
        for board in generic {
            #expect(board.match.compatible.isEmpty && board.match.modelPrefixes.isEmpty, "\(board.id)")
            #expect(board.spiClock.sourceHz == nil, "\(board.id): a generic file must not predict a clock")
            #expect(board.coreClock == nil, "\(board.id)")
            #expect(board.unverified.contains { $0.contains("header pins") }, "\(board.id)")
        }
        // Board files never carry SoC strings, and no SoC string is in two files.
        #expect(catalog.boards.filter { !$0.isGeneric }.allSatisfy { $0.match.soc.isEmpty })
        let socs = generic.flatMap(\.match.soc)
        #expect(Set(socs).count == socs.count)
        #expect(Set(socs) == ["brcm,bcm2835", "brcm,bcm2836", "brcm,bcm2837", "brcm,bcm2711", "brcm,bcm2712"])
    }

    @Test func aGenericFileWithABoardStringOrABoardFileWithASoCStringIsRefused() throws {
        let generic = try #require(BoardCatalog.builtInFiles["generic-bcm2711.json"])
        let withBoard = generic.replacingOccurrences(of: "\"compatible\": []", with: "\"compatible\": [\"acme,clone\"]")
        #expect(withBoard != generic)
        let error = #expect(throws: HardwareError.self) {
            _ = try BoardCatalog.decodeBoard(Array(withBoard.utf8), fileName: "generic-bcm2711.json")
        }
        #expect(error?.message.contains("matches by match.soc only") == true, "\(error?.message ?? "")")
        let pi4 = try #require(BoardCatalog.builtInFiles["rpi4b.json"])
        let withSoC = pi4.replacingOccurrences(of: "\"modelPrefixes\": [", with: "\"soc\": [\"brcm,bcm2711\"], \"modelPrefixes\": [")
        #expect(withSoC != pi4)
        let refused = #expect(throws: HardwareError.self) { _ = try BoardCatalog.decodeBoard(Array(withSoC.utf8), fileName: "rpi4b.json") }
        #expect(refused?.message.contains("match.soc is only for generic files") == true, "\(refused?.message ?? "")")
    }

    @Test func duplicateSoCStringsAreRefused() throws {
        let fake = FakeSystemCalls()
        let json = try #require(BoardCatalog.builtInFiles["generic-bcm2711.json"])
        fake.addFile("/b/generic-bcm2711.json", json)
        fake.addFile("/b/generic-copy.json", json.replacingOccurrences(of: "\"id\": \"generic-bcm2711\"", with: "\"id\": \"generic-copy\""))
        let error = #expect(throws: HardwareError.self) { _ = try BoardCatalog.load(directory: "/b", system: fake) }
        #expect(error?.message.contains("soc:brcm,bcm2711") == true, "\(error?.message ?? "")")
    }

    @Test func aMissingDirectoryIsNotFound() {
        let error = #expect(throws: HardwareError.self) {
            _ = try BoardCatalog.load(directory: "/no/such/boards", system: FakeSystemCalls())
        }
        #expect(error?.kind == .notFound)
    }
}

@Suite struct SPIClockTests {
    let catalog: BoardCatalog

    init() throws { catalog = try BoardCatalog.builtIn() }

    @Test func piDividerIsEvenAndRoundsTheClockDown() throws {
        let pi3 = try #require(catalog.board(id: "rpi3b"))
        // 250 MHz / 3 MHz = 83.3 → 84 (even) → 2 976 190 Hz, the DESIGN.md example.
        #expect(pi3.spiClock.divider(requestedHz: 3_000_000, sourceHz: 250_000_000) == 84)
        #expect(pi3.actualSPIClockHz(requestedHz: 3_000_000, sourceHz: 250_000_000) == 2_976_190)
        // An exact even divider is kept: 250 / 2.5 = 100.
        #expect(pi3.actualSPIClockHz(requestedHz: 2_500_000, sourceHz: 250_000_000) == 2_500_000)
        // An odd exact divider is rounded up to even: 250 / 5 MHz = 50 → 50; 250 / 10 MHz = 25 → 26.
        #expect(pi3.actualSPIClockHz(requestedHz: 10_000_000, sourceHz: 250_000_000) == 9_615_384)
    }

    @Test(arguments: [
        ("rpi3b", UInt32(2_400_000), UInt32(2_380_952)),  // 400 MHz / 2.4 MHz = 166.7 → 167 → 168
        ("rpi4b", 2_400_000, 2_380_952),  // 500 MHz / 2.4 MHz = 208.3 → 209 → 210
        ("rpi5", 2_400_000, 2_380_952),  // 200 MHz / 83.3 → 84
        ("beaglebone-black", 2_400_000, 2_400_000),  // 48 MHz / 20
        ("beaglebone-black", 3_000_000, 3_000_000),  // 48 MHz / 16
        ("beaglebone-black", 2_500_000, 2_400_000),  // 48 MHz / 19.2 → 20
        // spi-sun6i since ed7815db70d1: 24 MHz / (2·⌈⌈24 / f⌉ / 2⌉), never above the request.
        ("orangepi-zero", 3_600_000, 3_000_000),  // ⌈6.67⌉ = 7 → 8; the old rule gave 24 / 6 = 4 MHz
        ("orangepi-zero", 2_500_000, 2_400_000),  // ⌈9.6⌉ = 10
        ("orangepi-zero", 3_000_000, 3_000_000),  // 8 exactly
    ])
    func actualClockPerBoard(id: String, requested: UInt32, expected: UInt32) throws {
        let board = try #require(catalog.board(id: id))
        #expect(board.actualSPIClockHz(requestedHz: requested) == expected)
        if let actual = board.actualSPIClockHz(requestedHz: requested) {
            #expect(actual <= requested)
        }
    }

    @Test func aWS2812FrameForTheOrangePiZeroDecodesAtTheClockItReallyMakes() throws {
        let board = try #require(catalog.board(id: "orangepi-zero"))
        let fake = FakeSystemCalls()
        fake.addDevice("/dev/spidev1.0")
        let frame: [RGB8] = (0..<24).map { (i: Int) -> RGB8 in
            let r = UInt8(i * 10), b = UInt8(255 - i * 10)
            return RGB8(r: r, g: 255, b: b)
        }
        let driver = try DriverSettings(kind: .ws2812SPI, ledCount: frame.count, board: board).makeDriver(system: fake)
        try driver.show(frame)
        // What spi-sun6i makes of the default 3.6 MHz request from 24 MHz.
        let real = 24e6 / 8
        let sent = fake.written(to: "/dev/spidev1.0")
        let decoded = try SPISymbolDecoder(clockHz: real, colorOrder: .grb,
                                           thresholdNs: SymbolTiming.ws2812.decisionThresholdNs).decode(sent)
        #expect(decoded.pixels.map(\.rgb) == frame)
        let windows = SymbolTiming.ws2812
        for bit in decoded.bits {
            #expect((bit.value ? windows.oneHigh : windows.zeroHigh).contains(bit.highNs), "high \(bit.highNs) ns")
        }
    }

    @Test func theRockPi4BMOSIIsGPIO1B0AndTheFamilyStringIsNotClaimed() throws {
        let rock = try #require(catalog.board(id: "rockpi-4b"))
        #expect(rock.spi.first?.mosi.header == "19")
        #expect(rock.spi.first?.mosi.name == "GPIO1_B0")
        #expect(rock.spi.first?.sclk.name == "GPIO1_B1")
        let fourA = BoardDetector.Identity(compatible: ["radxa,rockpi4a", "radxa,rockpi4", "rockchip,rk3399"],
                                           model: "Radxa ROCK Pi 4A")
        #expect(BoardDetector(catalog: catalog, system: FakeSystemCalls()).detect(fourA) == nil)
    }

    @Test func theBeagleBoneSpidevQuirkNamesTheKernelsItAppliesTo() throws {
        let bone = try #require(catalog.board(id: "beaglebone-black"))
        #expect(bone.spi.first?.device == "/dev/spidev0.0")
        let quirk = try #require(bone.quirks.first { $0.summary.contains("spidev1") })
        #expect(quirk.summary.contains("4.1–4.14"))
        #expect(quirk.summary.contains("4.19"))
    }

    @Test(arguments: ["rpi3b", "rpi4b", "rpi400", "rpi-zero-2w", "beaglebone-black", "rpi-zero", "rpi-zero-w"])
    func factsConfirmedFromTheirSourcesAreNoLongerUnverified(id: String) throws {
        let board = try #require(catalog.board(id: id))
        #expect(board.unverified.isEmpty, "\(board.unverified)")
    }

    @Test func thePiFiveFactsCarryTheirSources() throws {
        let pi5 = try #require(catalog.board(id: "rpi5"))
        #expect(!pi5.unverified.contains { $0.contains("200 MHz") || $0.contains("overlay parameter") || $0.contains("compatible") })
        #expect(pi5.sources.contains { $0.contains("rp1.dtsi") })
        #expect(pi5.sources.contains { $0.contains("ws2812-pio-rp1.c") })
        let orange = try #require(catalog.board(id: "orangepi-zero"))
        #expect(!orange.unverified.contains { $0.contains("1c20800") })
    }

    /// overclocking.adoc: Pi 0/W core_freq 400, core_freq_min 250; Pi 1 and Pi 2 250 and 250.
    @Test(arguments: [
        ("rpi-zero", 400, 250, false), ("rpi-zero-w", 400, 250, true), ("rpi3a-plus", 400, 250, true),
        ("rpi-cm3", 400, 250, false), ("rpi1", 250, 250, false), ("rpi2b", 250, 250, false),
    ])
    func bcm283xCoreClockDefaults(id: String, high: Int, low: Int, uartPins: Bool) throws {
        let board = try #require(catalog.board(id: id))
        let core = try #require(board.coreClock)
        #expect(core.defaultMHz == high && core.defaultMinMHz == low)
        #expect(core.recommendedMHz == 250)
        #expect((core.enableUARTFixesAtMHz != nil) == uartPins)
        #expect(board.spiClock.sourceHz == UInt32(high) * 1_000_000)
        #expect(board.gpioChipLabels == ["pinctrl-bcm2835"])
    }

    @Test func anUnfixedZeroCoreClockTakesWS2812OutOfItsWindow() throws {
        let zero = try #require(catalog.board(id: "rpi-zero-w"))
        // 400 MHz / 3.571 MHz → divider 112 → 3.571 MHz; at the 250 MHz idle clock 2.232 MHz.
        #expect(zero.spiClock.actualRangeHz(requestedHz: 3_571_429) == 2_232_142...3_571_428)
        let pi1 = try #require(catalog.board(id: "rpi1"))
        let range = try #require(pi1.spiClock.actualRangeHz(requestedHz: 3_571_429))
        #expect(range.lowerBound == range.upperBound)
    }

    @Test(arguments: ["rpi-cm5", "rpi500"])
    func theRP1BoardsAreAsThePiFive(id: String) throws {
        let board = try #require(catalog.board(id: id))
        let pi5 = try #require(catalog.board(id: "rpi5"))
        #expect(board.spiClock == pi5.spiClock)
        #expect(board.pio == pi5.pio)
        #expect(board.gpioChipLabels == ["pinctrl-rp1"])
        #expect(board.coreClock == nil)
    }

    @Test func clampsToTheDividerLimits() throws {
        let pi4 = try #require(catalog.board(id: "rpi4b"))
        #expect(pi4.actualSPIClockHz(requestedHz: 400_000_000) == 250_000_000)  // divider 2
        #expect(pi4.actualSPIClockHz(requestedHz: 1) == 7_629)  // 500 MHz / 65536, the slowest
    }

    @Test func anUnknownSourceClockGivesNoPrediction() throws {
        let rock = try #require(catalog.board(id: "rockpi-4b"))
        #expect(rock.actualSPIClockHz(requestedHz: 2_400_000) == nil)
        #expect(rock.actualSPIClockHz(requestedHz: 2_400_000, sourceHz: 48_000_000) == 2_400_000)
    }

    @Test func anUnfixedPi4CoreClockSlowsTheBus() throws {
        let pi4 = try #require(catalog.board(id: "rpi4b"))
        // Divider 168 is chosen for 500 MHz; at the 200 MHz idle core clock the bus runs at 1.19 MHz.
        #expect(pi4.spiClock.actualRangeHz(requestedHz: 3_000_000) == 1_190_476...2_976_190)
        let pi5 = try #require(catalog.board(id: "rpi5"))
        let range = try #require(pi5.spiClock.actualRangeHz(requestedHz: 3_000_000))
        #expect(range.lowerBound == range.upperBound)
    }
}
