#if LEDRING_HTTP
import CMicroHTTPD
import Synchronization
import Glibc

/// libmicrohttpd's daemon with ledring's request handling: one thread per connection (so an event
/// stream may wait for the next snapshot in its own thread), bodies bounded, routing by
/// `HTTPRouter`. The C callbacks find this object through the context pointer.
final class MicroHTTPDDaemon: Sendable {
    // The daemon handle is set once in init and only passed back to libmicrohttpd (which locks
    // internally); a wrapper states that for the compiler.
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    private let handler: Handler
    private let handle: Handle
    private let stopped = Mutex(false)
    /// The port bound.
    let port: Int

    init(settings: HTTPSettings, router: HTTPRouter, hub: EventHub, log: @escaping @Sendable (String) -> Void) throws(HTTPServerError) {
        // The library is opened on first use, not linked (see CMicroHTTPD.h).
        var loadError = [CChar](repeating: 0, count: 256)
        guard ledring_mhd_load(&loadError, loadError.count) == 0 else {
            throw .libraryMissing(reason: String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let table = ConnectionTable(limit: settings.maxConnections, streamLimit: settings.maxEventStreams,
                                    headerTimeout: Double(settings.headerTimeout), idleTimeout: Double(settings.idleTimeout))
        handler = Handler(router: router, hub: hub, table: table, interval: settings.eventInterval, log: log)
        // Unretained: `handler` lives as long as this object, and `stop()` (also run by deinit)
        // joins every libmicrohttpd thread before it can go.
        let context = Unmanaged.passUnretained(handler).toOpaque()
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let isV6 = inet_pton(AF_INET6, settings.address, &v6.sin6_addr) == 1
        if isV6 {
            flags |= MHD_USE_IPv6.rawValue
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(settings.port).bigEndian)
        } else {
            guard inet_pton(AF_INET, settings.address, &v4.sin_addr) == 1 else {
                throw .cannotListen(address: settings.address, port: settings.port, reason: "not an IPv4 or IPv6 address")
            }
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(settings.port).bigEndian)
        }
        func start(_ address: UnsafePointer<sockaddr>) -> OpaquePointer? {
            ledring_mhd_start(flags, address, Handler.access, context, Handler.completed, context, Handler.notify, context,
                              UInt32(settings.maxConnections + HTTPServing.busyReserve), UInt32(settings.idleTimeout), 64 * 1024)
        }
        errno = 0
        let daemon: OpaquePointer? = isV6
            ? withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { start($0) } }
            : withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { start($0) } }
        guard let daemon else {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "libmicrohttpd refused to start"
            throw .cannotListen(address: settings.address, port: settings.port, reason: reason)
        }
        handle = Handle(pointer: daemon)
        port = Int(ledring_mhd_bound_port(daemon))
        table.startSweeping()
    }

    /// Stops the daemon (once); returns when every connection thread has finished.
    func stop() {
        guard stopped.withLock({ was in defer { was = true }; return !was }) else { return }
        MHD_stop_daemon(handle.pointer)
        handler.table.stop()
    }

    deinit { stop() }
}

/// What libmicrohttpd's callbacks call into: bodies bounded (by `HTTPRouter.maxBodyBytes(for:)`), routing by `HTTPRouter`, event
/// streams.
private final class Handler: Sendable {
    let router: HTTPRouter
    let hub: EventHub
    let table: ConnectionTable
    let interval: Double
    let log: @Sendable (String) -> Void

    /// Bodies up to this size are read and dropped before a 413 (so the client sees the reply
    /// instead of a reset connection); beyond it the connection is closed.
    static let drainLimit = HTTPMessageReader.drainLimit

    init(router: HTTPRouter, hub: EventHub, table: ConnectionTable, interval: Double,
         log: @escaping @Sendable (String) -> Void) {
        self.router = router
        self.hub = hub
        self.table = table
        self.interval = interval
        self.log = log
    }

    /// A request's body so far, kept between libmicrohttpd's calls for one request.
    final class Upload {
        var body: [UInt8] = []
        var received = 0
        /// This request's limit (webhook routes take more than the rest).
        var limit = 0
    }

    static let access: MHD_AccessHandlerCallback = { context, connection, url, method, version, data, size, state in
        guard let context, let connection, let state, let size else { return .NO }
        let server = Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue()
        return server.handle(connection, url: url.map { String(cString: $0) } ?? "/",
                             method: method.map { String(cString: $0) } ?? "GET", version: version.map { String(cString: $0) },
                             data: data, size: size, state: state)
    }

    static let completed: MHD_RequestCompletedCallback = { context, connection, state, _ in
        if let context, let connection {
            Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue().table.finished(Handler.key(connection))
        }
        guard let state, let upload = state.pointee else { return }
        Unmanaged<Upload>.fromOpaque(upload).release()
        state.pointee = nil
    }

    static let notify: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let context, let connection else { return }
        let table = Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue().table
        if code == .CONNECTION_NOTIFY_STARTED {
            table.opened(Handler.key(connection), socket: ledring_mhd_connection_fd(connection))
        } else {
            table.closed(Handler.key(connection))
        }
    }

    static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    /// Most request headers read (a browser sends about 20); a request with more gets 431.
    static let maxHeaders = HTTPMessageReader.maxHeaders

    /// Every request header, by lower-case name, repeats kept.
    private func headers(_ connection: OpaquePointer) -> [String: [String]] {
        final class Collected { var headers: [String: [String]] = [:]; var count = 0 }
        let collected = Collected()
        _ = withExtendedLifetime(collected) {
            MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
                guard let context, let key else { return .YES }
                let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
                collected.count += 1
                guard collected.count <= Handler.maxHeaders else { return .NO }
                collected.headers[String(cString: key).lowercased(), default: []].append(value.map { String(cString: $0) } ?? "")
                return .YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.headers
    }

    private func handle(_ connection: OpaquePointer, url: String, method: String, version: String?, data: UnsafePointer<CChar>?,
                        size: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = state.pointee else {
            // First call: only the headers are in. Refuse a declared oversized body at once.
            let upload = Upload()
            upload.limit = router.maxBodyBytes(for: url)
            state.pointee = Unmanaged.passRetained(upload).toOpaque()
            let maxBodyBytes = upload.limit
            guard table.started(Handler.key(connection)) else {
                return send(connection, HTTPServing.busy(limit: table.limit))
            }
            // A request with more headers than are read is refused whole: past the ones read, a
            // second Host or Content-Length or a cross-site Origin would go unseen by the guard.
            let headerCount = MHD_get_connection_values(connection, .HEADER_KIND, nil, nil)
            if headerCount > Handler.maxHeaders {
                return send(connection, .error(431, "the request has \(headerCount) headers; at most \(Handler.maxHeaders) are read, "
                                                    + "so it is refused whole; send fewer"))
            }
            if let length = header(connection, .HEADER_KIND, "Content-Length").flatMap({ Int($0) }),
               length > maxBodyBytes {
                return send(connection, .error(413, "body is \(length) bytes; at most \(maxBodyBytes) are accepted"))
            }
            return .YES
        }
        let upload = Unmanaged<Upload>.fromOpaque(existing).takeUnretainedValue()
        let maxBodyBytes = upload.limit
        if size.pointee > 0 {
            let count = size.pointee
            upload.received += count
            if upload.received <= maxBodyBytes, let data {
                data.withMemoryRebound(to: UInt8.self, capacity: count) {
                    upload.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
            size.pointee = 0
            return upload.received > Handler.drainLimit ? .NO : .YES
        }
        table.bodyReceived(Handler.key(connection))
        if upload.received > maxBodyBytes {
            return send(connection, .error(413, "body is \(upload.received) bytes; at most \(maxBodyBytes) are accepted"))
        }
        let request = HTTPRequest(method: method, path: url, authorization: header(connection, .HEADER_KIND, "Authorization"),
                                  accessToken: header(connection, .GET_ARGUMENT_KIND, "access_token"), body: upload.body,
                                  headers: headers(connection), version: version)
        switch router.route(request) {
        case .response(let response):
            return send(connection, response)
        case .events:
            guard table.startStream(Handler.key(connection)) else {
                return send(connection, HTTPServing.streamsBusy(limit: table.streamLimit))
            }
            // A stream is quiet between changes (keep-alive comments aside): no idle timeout.
            ledring_mhd_set_timeout(connection, 0)
            return sendEvents(connection)
        }
    }

    private func header(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
    }

    private func send(_ connection: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
        var body = response.body
        let made = body.withUnsafeMutableBytes {
            MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        MHD_add_response_header(made, "Content-Type", response.contentType)
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            MHD_add_response_header(made, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    private func sendEvents(_ connection: OpaquePointer) -> MHD_Result {
        let stream = Unmanaged.passRetained(EventStream(hub: hub, interval: interval)).toOpaque()
        let made = MHD_create_response_from_callback(UInt64.max, 4096, { context, _, buffer, capacity in
            guard let context, let buffer else { return -1 }
            let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
            // -1 is MHD_CONTENT_READER_END_OF_STREAM (a macro Swift cannot import).
            return stream.read(into: buffer, capacity: capacity) ?? -1
        }, stream, { context in
            if let context { Unmanaged<EventStream>.fromOpaque(context).release() }
        })
        guard let made else {
            Unmanaged<EventStream>.fromOpaque(stream).release()
            return .NO
        }
        defer { MHD_destroy_response(made) }
        MHD_add_response_header(made, "Content-Type", "text/event-stream")
        MHD_add_response_header(made, "Cache-Control", "no-store")
        return MHD_queue_response(connection, 200, made)
    }
}
#endif
