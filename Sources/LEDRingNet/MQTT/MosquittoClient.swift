#if LEDRING_MQTT
import CMosquitto
import Glibc
import LEDSystem
import Synchronization

/// Opens libmosquitto and runs its once-per-process set-up before the first client is made (the
/// library is not linked: see CMosquitto.h). Nil when it loaded, else why not.
private func loadMosquitto() -> String? {
    var error = [CChar](repeating: 0, count: 256)
    guard ledring_mosquitto_load(&error, error.count) != 0 else { return nil }
    return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// One libmosquitto client and the thread that runs its network loop, connecting and
/// reconnecting with exponential backoff until stopped. Its own loop (rather than
/// `mosquitto_loop_start`) because libmosquitto's thread gives up for good on some errors, such as
/// a host name that does not resolve yet at boot.
final class MosquittoClient: Sendable {
    // The handle is made once in init and destroyed once after the thread ends; libmosquitto
    // locks internally for publish/subscribe from other threads, which a wrapper states here.
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    private struct Loop: Sendable {
        var stopRequested = false
        var delay: Double
        var goodbye: MQTTMessage?
    }

    private let handle: Handle
    private let settings: MQTTSettings
    /// Unowned: the bridge owns this client and stops it (ending the thread) before it goes.
    private unowned let bridge: MQTTBridge
    private let loop: Mutex<Loop>
    /// Set (under `finishing`) when the loop thread has ended.
    private let finishing = ConditionLock()
    private nonisolated(unsafe) var finished = false
    private let destroyed = Mutex(false)

    /// Makes the client with will, credentials and TLS; connecting starts with `start()`.
    /// `bridge` must outlive this client (MQTTBridge stops it before it goes).
    init(settings: MQTTSettings, password: String?, bridge: MQTTBridge) throws(MQTTError) {
        if let reason = loadMosquitto() { throw .libraryMissing(reason: reason) }
        self.settings = settings
        self.bridge = bridge
        loop = Mutex(Loop(delay: Double(settings.reconnectMin)))
        let context = Unmanaged.passUnretained(bridge).toOpaque()
        guard let mosq = mosquitto_new(settings.resolvedClientId, true, context) else {
            throw .setup(what: "client id \(settings.resolvedClientId)", reason: "libmosquitto could not make a client (\(String(cString: strerror(errno))))")
        }
        handle = Handle(pointer: mosq)
        func check(_ rc: Int32, _ what: String, _ fix: String) throws(MQTTError) {
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                mosquitto_destroy(mosq)
                throw .setup(what: what, reason: "\(String(cString: mosquitto_strerror(rc))); \(fix)")
            }
        }
        if let user = settings.username {
            try check(mosquitto_username_pw_set(mosq, user, password), "username", "check mqtt.username")
        }
        if let tls = settings.tls {
            try check(mosquitto_tls_set(mosq, tls.caFile, nil, tls.certFile, tls.keyFile, nil), "TLS files",
                      "check that mqtt.tls.caFile (\(tls.caFile)) and any certFile/keyFile exist and are readable PEM files")
        }
        let availability = MQTTTopics(settings: settings).availability
        let offline = Array("offline".utf8)
        try check(mosquitto_will_set(mosq, availability, Int32(offline.count), offline, Int32(settings.qos), true),
                  "last will on \(availability)", "check mqtt.baseTopic")
        mosquitto_connect_callback_set(mosq) { mosq, context, rc in
            guard let mosq, let context else { return }
            let bridge = Unmanaged<MQTTBridge>.fromOpaque(context).takeUnretainedValue()
            guard rc == 0 else {
                bridge.log("the broker refused the connection: \(String(cString: mosquitto_connack_string(rc))); check mqtt.username, mqtt.passwordFile and the broker's ACLs")
                return
            }
            let qos = Int32(bridge.settings.qos)
            bridge.connected(subscribe: { topics in
                // One SUBSCRIBE for all topics, so one SUBACK says every subscription is in place.
                var strings: [UnsafeMutablePointer<CChar>?] = topics.map { strdup($0) }
                defer { strings.forEach { free($0) } }
                let rc = strings.withUnsafeMutableBufferPointer {
                    mosquitto_subscribe_multiple(mosq, nil, Int32(topics.count), $0.baseAddress, qos, 0, nil)
                }
                if rc != MOSQ_ERR_SUCCESS.rawValue {
                    bridge.log("cannot subscribe: \(String(cString: mosquitto_strerror(rc)))")
                }
            }, publish: { message in
                MosquittoClient.publish(mosq, message, qos: qos)
            })
        }
        mosquitto_subscribe_callback_set(mosq) { _, context, _, _, _ in
            guard let context else { return }
            Unmanaged<MQTTBridge>.fromOpaque(context).takeUnretainedValue().subscribed()
        }
        mosquitto_disconnect_callback_set(mosq) { _, context, rc in
            guard let context else { return }
            let bridge = Unmanaged<MQTTBridge>.fromOpaque(context).takeUnretainedValue()
            bridge.disconnected(reason: String(cString: mosquitto_strerror(rc)))
        }
        // The return codes say only "A TLS error occurred"; why (a certificate that does not
        // verify, a key that does not load) reaches only the log callback.
        mosquitto_log_callback_set(mosq) { _, context, level, text in
            guard let context, let text, level & Int32(MOSQ_LOG_ERR) != 0 else { return }
            Unmanaged<MQTTBridge>.fromOpaque(context).takeUnretainedValue().libraryError(String(cString: text))
        }
        mosquitto_message_callback_set(mosq) { _, context, message in
            guard let context, let message, let topic = message.pointee.topic else { return }
            let bridge = Unmanaged<MQTTBridge>.fromOpaque(context).takeUnretainedValue()
            let count = Int(message.pointee.payloadlen)
            guard count <= MQTTBridge.maxMessageBytes else {
                bridge.receivedOversized(topic: String(cString: topic), bytes: count)
                return
            }
            var payload: [UInt8] = []
            if count > 0, let bytes = message.pointee.payload {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: count))
            }
            bridge.received(topic: String(cString: topic), payload: payload, retained: message.pointee.retain)
        }
    }

    /// Starts the connection thread.
    func start() {
        DetachedThread.start(name: "ledring-mqtt") { [self] in run() }
    }

    /// Publishes `message` with the configured QoS; false when not connected (the bridge
    /// republishes everything on the next connect anyway).
    func publish(_ message: MQTTMessage) -> Bool {
        MosquittoClient.publish(handle.pointer, message, qos: Int32(settings.qos))
    }

    private static func publish(_ mosq: OpaquePointer, _ message: MQTTMessage, qos: Int32) -> Bool {
        let bytes = Array(message.payload.utf8)
        return mosquitto_publish(mosq, nil, message.topic, Int32(bytes.count), bytes, qos, message.retain) == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Shuts the socket down under libmosquitto's feet (it does not close the descriptor, so the
    /// loop thread sees the failure and reconnects as after any other loss).
    func dropConnection() {
        let fd = mosquitto_socket(handle.pointer)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Asks the thread to publish `goodbye` (if connected), disconnect and end; waits up to five
    /// seconds, then frees the client.
    func stop(goodbye: MQTTMessage?) {
        loop.withLock {
            $0.stopRequested = true
            $0.goodbye = goodbye
        }
        let deadline = MonotonicClock.seconds() + 5
        finishing.lock()
        while !finished && finishing.wait(until: deadline) {}
        let ended = finished
        finishing.unlock()
        // A thread that has not ended still uses the handle; leaking it beats a use after free.
        if ended { destroy() }
    }

    private func destroy() {
        guard destroyed.withLock({ was in defer { was = true }; return !was }) else { return }
        mosquitto_destroy(handle.pointer)
    }

    private var stopRequested: Bool { loop.withLock { $0.stopRequested } }

    /// Connects, runs the network loop, and on any failure waits the backoff delay (doubling up
    /// to `reconnectMax`, back to `reconnectMin` once the broker accepts us) and tries again.
    private func run() {
        let mosq = handle.pointer
        var needConnect = true
        var firstAttempt = true
        var connects = bridge.connectionCount
        while !stopRequested {
            if needConnect {
                // What libmosquitto said about earlier attempts is not about this one.
                _ = bridge.takeLibraryErrors()
                let rc = firstAttempt
                    ? mosquitto_connect_async(mosq, settings.host, Int32(settings.port), Int32(settings.keepalive))
                    : mosquitto_reconnect_async(mosq)
                guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                    backOff(after: "cannot connect to \(settings.host):\(settings.port): \(reason(rc))")
                    continue
                }
                firstAttempt = false
                needConnect = false
            }
            let rc = mosquitto_loop(mosq, 200, 1)
            if bridge.connectionCount != connects {
                // The broker accepted us: the next failure starts the backoff afresh.
                connects = bridge.connectionCount
                loop.withLock { $0.delay = Double(settings.reconnectMin) }
            }
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                let why = reason(rc)
                bridge.disconnected(reason: why)
                needConnect = true
                backOff(after: "connection to \(settings.host):\(settings.port) failed: \(why)")
            }
        }
        if let goodbye = loop.withLock({ $0.goodbye }), !needConnect {
            _ = publish(goodbye)
            mosquitto_disconnect(mosq)
            // Bounded: flush the goodbye and the DISCONNECT, at most two seconds.
            for _ in 0..<20 where mosquitto_loop(mosq, 100, 1) == MOSQ_ERR_SUCCESS.rawValue {}
        }
        finishing.lock()
        finished = true
        finishing.broadcast()
        finishing.unlock()
    }

    /// Why a call failed: libmosquitto's (or the system's) message, then what libmosquitto logged
    /// (OpenSSL's reason for a TLS failure), then for TLS errors which settings to check.
    private func reason(_ rc: Int32) -> String {
        var text = rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
        let details = bridge.takeLibraryErrors()
        if !details.isEmpty { text += " (" + details.joined(separator: "; ") + ")" }
        if rc == MOSQ_ERR_TLS.rawValue, let tls = settings.tls {
            text += details.contains { $0.contains("verify failed") }
                ? "; check that mqtt.tls.caFile (\(tls.caFile)) is the CA that signed the broker's certificate and that the certificate names \(settings.host)"
                : "; check mqtt.tls.caFile, certFile and keyFile"
        }
        return text
    }

    /// Logs, sleeps the current delay in short steps (so `stop` is prompt), doubles the delay.
    private func backOff(after failure: String) {
        let delay = loop.withLock { l -> Double in
            defer { l.delay = min(l.delay * 2, Double(settings.reconnectMax)) }
            return l.delay
        }
        bridge.logRetry("\(failure); retrying in \(Int(delay)) s")
        let steps = Int(delay / 0.05)
        for _ in 0..<max(1, steps) where !stopRequested { usleep(50_000) }
    }
}
#endif
