import LEDRingNet
import Testing

@Suite struct SettingsTests {
    @Test func mqttDefaults() throws {
        let s = try MQTTSettings.decode(Array(#"{"device":"kitchen"}"#.utf8))
        #expect(s.host == "localhost" && s.port == 1883 && s.qos == 1 && s.retain && s.discovery)
        #expect(s.resolvedBaseTopic == "ledring/kitchen" && s.resolvedClientId == "ledring-kitchen")
        #expect(s.groupTopic == "ledring/all")
    }

    @Test func mqttTLSDefaultsToPort8883AndNullTurnsTheGroupOff() throws {
        let s = try MQTTSettings.decode(Array(#"{"tls":{"caFile":"/etc/ssl/ca.pem"},"groupTopic":null}"#.utf8))
        #expect(s.port == 8883 && s.tls?.caFile == "/etc/ssl/ca.pem" && s.groupTopic == nil)
    }

    @Test func mqttReportsEveryProblemByKey() {
        let json = #"{"port":0,"qos":3,"device":"my kitchen","baseTopic":"a/#","colour":1,"tls":{"certFile":"c.pem"},"passwordFile":"/p"}"#
        do {
            _ = try MQTTSettings.decode(Array(json.utf8))
            Issue.record("accepted bad settings")
        } catch {
            let paths = error.problems.map(\.path)
            #expect(paths.contains("mqtt.port") && paths.contains("mqtt.qos") && paths.contains("mqtt.device"))
            #expect(paths.contains("mqtt.baseTopic") && paths.contains("mqtt.colour") && paths.contains("mqtt.passwordFile"))
            #expect(paths.contains("mqtt.tls.caFile") && paths.contains("mqtt.tls.keyFile"))
            #expect(error.description.contains("mqtt.port: must be 1…65535, got 0"))
        }
    }

    @Test func httpDefaultsAreLoopback() throws {
        let s = try HTTPSettings.decode(Array("{}".utf8))
        #expect(s.address == "127.0.0.1" && s.port == 8080 && s.token == nil && s.maxBodyBytes == 16384)
    }

    @Test func httpReportsBadAddressAndTokenClash() {
        #expect {
            try HTTPSettings.decode(Array(#"{"address":"localhost:80","token":"a","tokenFile":"/t","port":70000}"#.utf8))
        } throws: { error in
            let text = "\(error)"
            return text.contains("http.address") && text.contains("http.tokenFile") && text.contains("http.port")
        }
    }

    @Test func httpLimitsAndHosts() throws {
        let small = try HTTPSettings.decode(Array(#"{"maxConnections":4}"#.utf8))
        #expect(small.maxEventStreams == 2)
        #expect(try HTTPSettings.decode(Array("{}".utf8)).maxEventStreams == 8)
        #expect(throws: SettingsError.self) { try HTTPSettings.decode(Array(#"{"maxConnections":8,"maxEventStreams":8}"#.utf8)) }
        let named = try HTTPSettings.decode(Array(#"{"hosts":["LEDRing.local","192.168.1.20"],"headerTimeout":5,"idleTimeout":3}"#.utf8))
        #expect(named.hosts == ["ledring.local", "192.168.1.20"] && named.headerTimeout == 5 && named.idleTimeout == 3)
        #expect(throws: SettingsError.self) { try HTTPSettings.decode(Array(#"{"hosts":["evil example"]}"#.utf8)) }
        #expect(throws: SettingsError.self) { try HTTPSettings.decode(Array(#"{"hosts":"ledring.local"}"#.utf8)) }
    }
}
