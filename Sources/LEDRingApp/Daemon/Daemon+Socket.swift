import Glibc
import LEDSystem
import LEDRingControl

extension Daemon {
    /// The reply to one input line, a blank one included (one line in, one reply out, so a
    /// client that counts replies never waits); applies the request.
    func handle(_ event: LineBuffer.Event, at now: Double) -> String {
        switch event {
        case .tooLong:
            return ClientServer.tooLongReply
        case .line(let text):
            let request: Request
            do {
                request = try Request.parse(text)
            } catch {
                return Reply.error(error.message).jsonLine
            }
            return submit(request, from: .socket, at: now).reply.jsonLine
        }
    }

    /// Reads standard input (`--stdin`): the same requests, errors logged instead of answered.
    func readStandardInput(at now: Double) {
        guard var lines = stdinLines else { return }
        var buffer = [UInt8](repeating: 0, count: ClientServer.readChunk)
        let events: [LineBuffer.Event]
        switch system.readAvailable(STDIN_FILENO, into: &buffer) {
        case .data(let n):
            events = lines.append(buffer[0..<n])
            stdinLines = lines
        case .wouldBlock:
            return
        case .endOfFile:
            events = lines.finish()
            stdinLines = nil
        case .failed(let error):
            // Not an end of file: said as the failure it is, and standard input is no longer read.
            Log.info("standard input: reading failed (\(error)); no longer reading it; still serving \(socketPath)")
            stdinLines = nil
            return
        }
        for event in events {
            stdinLineNumber += 1
            // Blank lines on standard input (a script's spacing) are skipped, not complained about.
            if case .line(let text) = event, text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let reply = handle(event, at: now)
            if reply.hasPrefix("{\"ok\":false") {
                for line in stdinComplaints.admit("standard input line \(stdinLineNumber): \(reply)", at: now) { Log.info(line) }
            }
        }
        if stdinLines == nil { Log.info("standard input closed; still serving \(socketPath)") }
    }
}
