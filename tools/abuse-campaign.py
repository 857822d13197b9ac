#!/usr/bin/env python3
"""Issue 28's abuse campaign on loopback, re-run against a built ledring: one line per probe.

    swift build -c release && python3 tools/abuse-campaign.py .build/release/ledring [1 1b 2 3 4 5 6]

Probes (the issue's items): 1 a burst of 3 000 keyed notifies on the socket, 1b one Alertmanager
delivery of 4 500 alerts, 2 rings x looks memory and a SIGHUP into 10 000 looks, 3 slow HTTP
bodies from one host against probes from another (127.0.0.2), 4 a cross-site Origin after 100
headers, 5 a 100 MB MQTT publish (needs `mosquitto`, started on port 19883), 6 a command
source's descriptors and a `yes` flood. Items 7 and 8 are tests (SocketSquattingTests, the
issue-28 tests in DaemonTests, NotifyTests, MQTTDaemonTests). Work dirs under /tmp/camp.
Figures are wall and CPU time on this machine: for the note and the README, never asserted."""
import json, os, socket, subprocess, sys, time, threading, signal, shutil, http.client

B = sys.argv[1]
CLK = os.sysconf('SC_CLK_TCK')

def cpu(pid):
    f = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()
    return (int(f[11]) + int(f[12])) / CLK

def hwm(pid):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmHWM'): return int(line.split()[1]) / 1024
def rss(pid):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmRSS'): return int(line.split()[1]) / 1024

def start(d, args, wait_socket=True):
    p = subprocess.Popen([B, 'run', '--socket', d + '/s', '--state', d + '/state.json'] + args,
                         stdin=subprocess.DEVNULL, stdout=open(d + '/out', 'w'), stderr=open(d + '/err', 'w'))
    for _ in range(3000):
        if os.path.exists(d + '/s') or p.poll() is not None: break
        time.sleep(0.01)
    return p

def fresh(name):
    d = '/tmp/camp/' + name
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    return d

def stop(p):
    p.send_signal(signal.SIGTERM)
    try: p.wait(10)
    except subprocess.TimeoutExpired: p.kill(); p.wait()

def client(d, *args):
    return subprocess.run([B] + list(args) + ['--socket', d + '/s'], capture_output=True, text=True)

def item1():
    d = fresh('i1')
    cfg = {"rings": [{"name": "move", "leds": 24}, {"name": "stand", "leds": 12}],
           "output": {"driver": "apa102-spi", "dumpWire": d + "/wire.bin"}, "maxMilliamps": 100000}
    open(d + '/c.json', 'w').write(json.dumps(cfg))
    p = start(d, ['--config', d + '/c.json'])
    client(d, 'set', 'move=0.6', 'stand=0.3'); client(d, 'brightness', '0.5')
    s = socket.socket(socket.AF_UNIX); s.connect(d + '/s')
    c0 = cpu(p.pid); t0 = time.time()
    key = 'k' * 200
    lines = ''.join(f'notify move color #ff0000 for 1h key {key}{i}\n' for i in range(3000)).encode()
    got = 0; buf = b''
    def reader():
        nonlocal got, buf
        while got < 3000:
            chunk = s.recv(1 << 20)
            if not chunk: break
            buf += chunk; got = buf.count(b'\n')
    th = threading.Thread(target=reader); th.start()
    s.sendall(lines); th.join(120)
    wall = time.time() - t0; c1 = cpu(p.pid)
    time.sleep(5); c2 = cpu(p.pid)
    time.sleep(1.5)
    size = os.path.getsize(d + '/state.json')
    stored = json.load(open(d + '/state.json')).get('notices', [])
    log = open(d + '/err').read()
    stop(p)
    p = start(d, ['--config', d + '/c.json'])
    g = client(d, 'get', '--json').stdout
    rings = {r['name']: r['target'] for r in json.loads(g)['rings']}
    bright = json.loads(g)['brightness']
    stop(p)
    print(f"1 notify flood: 3000 keyed notifies (205-byte keys) answered {got} in {wall:.2f} s, daemon CPU {c1-c0:.2f} s, "
          f"then {c2-c1:.2f} s CPU in the next 5 s; state file {size} B with {len(stored)} notices; dropped logged: "
          f"{'dropped' in log}; after restart move={rings['move']} stand={rings['stand']} brightness={bright}")

def item2():
    d = fresh('i2')
    looks = {f"look{i}": {"gradient": ["#ff0000", "#00ff00"]} for i in range(100)}
    rings = [{"name": f"r{i}", "leds": 16} for i in range(512)]
    cfg = {"rings": rings, "looks": looks, "output": {"driver": "apa102-spi", "dumpWire": d + "/wire.bin"}}
    open(d + '/c.json', 'w').write(json.dumps(cfg))
    r = subprocess.run(['python3', '-c', f'''
import os,resource,subprocess
pid=os.fork()
if pid==0:
    os.execv("{B}", ["{B}","check-config","{d}/c.json"])
_,st,ru=os.wait4(pid,0)
print(ru.ru_maxrss//1024, os.WEXITSTATUS(st))'''], capture_output=True, text=True).stdout.splitlines()[-1].split()
    t0 = time.time()
    p = start(d, ['--config', d + '/c.json'])
    while client(d, 'get').returncode != 0: time.sleep(0.01)
    up = time.time() - t0
    time.sleep(1); m = hwm(p.pid)
    # SIGHUP into a 10k-look config: refused, memory kept
    big = dict(cfg); big["looks"] = {f"look{i}": {"gradient": ["#ff0000", "#00ff00"]} for i in range(10000)}
    open(d + '/c.json', 'w').write(json.dumps(big))
    p.send_signal(signal.SIGHUP); time.sleep(2)
    after = rss(p.pid); log = open(d + '/err').read().splitlines()[-1]
    stop(p)
    # check-config on 1 MiB of looks
    many = {"rings": [{"name": "a", "leds": 8}], "looks": {f"l{i:05d}": {"gradient": "#ff0000"} for i in range(31000)}}
    open(d + '/big.json', 'w').write(json.dumps(many, separators=(',', ':')))
    sz = os.path.getsize(d + '/big.json')
    r2 = subprocess.run(['/usr/bin/time', '-f', '%M %e', B, 'check-config', d + '/big.json'], capture_output=True, text=True)
    print(f"2 rings x looks: 512 rings x 100 looks check-config {r[0]} MB exit {r[1]}; run started in {up:.2f} s, VmHWM {m:.0f} MB; "
          f"SIGHUP into 10 000 looks: RSS {after:.0f} MB, log: {log[:140]}; check-config on {sz} B of 31 000 looks: "
          f"{r2.stderr.split()[-2]} KB, {r2.stderr.split()[-1]} s, exit {r2.returncode}: {r2.stdout.strip()[:100]} {r2.stderr.splitlines()[0][:120] if r2.stderr else ''}")

def http_daemon(name):
    d = fresh(name)
    open(d + '/am-token', 'w').write('amtoken1234567890\n')
    port = 18000 + os.getpid() % 1000 + len(name)
    cfg = {"rings": [{"name": "move", "leds": 24}, {"name": "alarm", "leds": 12}],
           "output": {"driver": "apa102-spi", "dumpWire": d + "/wire.bin"},
           "http": {"address": "0.0.0.0", "port": port,
                    "webhooks": {"alertmanager": {"tokenFile": d + "/am-token", "rings": ["alarm"]}}}}
    open(d + '/c.json', 'w').write(json.dumps(cfg))
    p = start(d, ['--config', d + '/c.json'])
    for _ in range(200):
        try:
            socket.create_connection(('127.0.0.1', port), 0.2).close(); break
        except OSError: time.sleep(0.05)
    return d, p, port

def item1b():
    d, p, port = http_daemon('i1b')
    alerts = [{"status": "firing", "fingerprint": f"{i:016x}"} for i in range(4500)]
    body = json.dumps({"version": "4", "status": "firing", "receiver": "r", "groupKey": "g", "alerts": alerts},
                      separators=(',', ':')).encode()
    c0 = cpu(p.pid); t0 = time.time()
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=300)
    conn.request('POST', '/api/hooks/alertmanager', body, {'Content-Type': 'application/json', 'Authorization': 'Bearer amtoken1234567890'})
    resp = conn.getresponse(); resp.read()
    wall = time.time() - t0; c1 = cpu(p.pid); time.sleep(5); c2 = cpu(p.pid)
    time.sleep(1.5)
    size = os.path.getsize(d + '/state.json') if os.path.exists(d + '/state.json') else 0
    stop(p)
    print(f"1 Alertmanager: one delivery of 4500 alerts ({len(body)} B): {resp.status} in {wall:.2f} s, CPU {c1-c0:.2f} s, "
          f"next 5 s {c2-c1:.2f} s CPU, state {size} B")

def item3():
    d, p, port = http_daemon('i3')
    stopflag = [False]
    def slow():
        while not stopflag[0]:
            try:
                s = socket.create_connection(('127.0.0.1', port), 2)
                s.sendall(b'POST /api/hooks/alertmanager HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
                          b'Authorization: Bearer amtoken1234567890\r\nContent-Length: 16000\r\n\r\n')
                while not stopflag[0]:
                    s.sendall(b' '); time.sleep(2)
            except OSError:
                time.sleep(0.1)
    ths = [threading.Thread(target=slow, daemon=True) for _ in range(40)]
    for t in ths: t.start()
    time.sleep(3)
    ok = 0; codes = {}
    t0 = time.time()
    for i in range(80):
        try:
            s = socket.socket(); s.settimeout(5); s.bind(('127.0.0.2', 0)); s.connect(('127.0.0.1', port))
            s.sendall(b'GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
            data = b''
            while True:
                ch = s.recv(65536)
                if not ch: break
                data += ch
            code = data.split(b' ')[1].decode() if data else 'none'
        except OSError as e:
            code = type(e).__name__
        codes[code] = codes.get(code, 0) + 1
        time.sleep(0.5)
    stopflag[0] = True
    stop(p)
    print(f"3 slow bodies: 40 dribbling connections from 127.0.0.1; 80 probes from 127.0.0.2 over {time.time()-t0:.0f} s: {codes}")

def item4():
    d, p, port = http_daemon('i4')
    def req(extra):
        s = socket.create_connection(('127.0.0.1', port), 5)
        junk = ''.join(f'X-Junk-{i}: x\r\n' for i in range(100))
        s.sendall(f'POST /api/power HTTP/1.1\r\nHost: 127.0.0.1\r\n{junk}{extra}Content-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{{"on":false}}'.encode())
        data = s.recv(65536); s.close()
        return data.split(b' ')[1].decode()
    a = req('Origin: http://evil.example\r\nSec-Fetch-Site: cross-site\r\n')
    b = req('Host: other.example\r\n')
    g = client(d, 'get', '--json').stdout
    stop(p)
    print(f"4 headers: 100 junk headers then a cross-site Origin: {a}; then a second Host: {b}; lights still on: {'power' not in json.loads(g)}")

def item5(port_broker):
    d = fresh('i5')
    cfg = {"rings": [{"name": "build", "leds": 24}], "output": {"driver": "apa102-spi", "dumpWire": d + "/wire.bin"},
           "mqtt": {"host": "127.0.0.1", "port": port_broker, "device": "camp", "discovery": False}}
    open(d + '/c.json', 'w').write(json.dumps(cfg))
    p = start(d, ['--config', d + '/c.json'])
    time.sleep(1.5)
    before = hwm(p.pid)
    open(d + '/big', 'wb').write(b'0' * 100_000_000)
    subprocess.run(['mosquitto_pub', '-p', str(port_broker), '-t', 'ledring/camp/build/set', '-f', d + '/big', '-q', '1'])
    time.sleep(3)
    peak = hwm(p.pid)
    log = [l for l in open(d + '/err').read().splitlines() if 'KiB' in l or 'bytes' in l or 'large' in l][-1:]
    stop(p)
    os.remove(d + '/big')
    print(f"5 MQTT: a 100 MB publish to ledring/camp/build/set: VmHWM {before:.0f} -> {peak:.0f} MB; log: {log}")

def item6():
    d = fresh('i6')
    cfg = {"rings": [{"name": "a", "leds": 8}, {"name": "b", "leds": 8}],
           "sources": [{"ring": "a", "command": ["sh", "-c", f"ls /proc/self/fd | tr '\\n' ' ' > {d}/fds; echo 0.5"], "every": 1},
                       {"ring": "b", "command": ["yes"], "every": 30, "timeout": 20}],
           "output": {"driver": "apa102-spi", "dumpWire": d + "/wire.bin"}}
    open(d + '/c.json', 'w').write(json.dumps(cfg))
    p = start(d, ['--config', d + '/c.json'])
    time.sleep(3)
    c0 = cpu(p.pid); time.sleep(10); c1 = cpu(p.pid)
    fds = open(d + '/fds').read().strip()
    log = [l for l in open(d + '/err').read().splitlines() if 'yes' in l][:2]
    stop(p)
    print(f"6 descriptors: a command source sees fds {fds} (ls's own 3 included); `yes` as a source: daemon CPU {100*(c1-c0)/10:.1f} % over 10 s; log: {log}")

if __name__ == '__main__':
    which = sys.argv[2:] or ['1', '1b', '2', '3', '4', '5', '6']
    for w in which:
        if w == '5':
            continue
        globals()['item' + w]()
    if '5' in which:
        port = 19883
        b = subprocess.Popen(['mosquitto', '-p', str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        try: item5(port)
        finally: b.terminate(); b.wait()
