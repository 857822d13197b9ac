#!/usr/bin/env python3
"""ledring against a real Home Assistant core, through a real Mosquitto.

Started by tools/ha-check.sh, which makes the venv. One run: a Mosquitto broker on a free
loopback port, the built `ledring run` with two rings (`build`, 12 LEDs, and `stand`, 8) on the
APA102 dump output, and Home Assistant (`hass`) with its MQTT integration on the same broker.
Then, through Home Assistant's REST API as a user would through its UI, it checks that every
entity ledring announces is there and available, and that each one does what it says — on the
LEDs: the frames ledring writes are decoded and their colours checked, not only the replies.

Each check prints `ok` or `FAILED`; the run ends with "N of M checks passed" and exits 0 only if
all passed. Home Assistant's and ledring's logs are printed on failure.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

RINGS = [("build", 12), ("stand", 8)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def eventually(condition, seconds=30, every=0.25):
    deadline = time.time() + seconds
    while True:
        try:
            value = condition()
        except Exception:  # a request that fails is a condition not met yet
            value = None
        if value or time.time() >= deadline:
            return value
        time.sleep(every)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ha-check: ok      {name}", flush=True)
        else:
            self.failed.append(name)
            print(f"ha-check: FAILED  {name}" + (f": {detail}" if detail else ""), flush=True)
        return ok


class HomeAssistant:
    """The REST API of a Home Assistant started here, onboarded with a user of our own."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.token = None

    def request(self, method, path, body=None, form=None, auth=True):
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if auth and self.token:
            headers["Authorization"] = "Bearer " + self.token
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=20) as reply:
            text = reply.read().decode()
            return json.loads(text) if text else None

    def onboard(self):
        """Creates the owner (onboarding's first step) and takes an access token for it."""
        client = self.base + "/"
        made = self.request("POST", "/api/onboarding/users", auth=False, body={
            "client_id": client, "name": "ledring check", "username": "ledring",
            "password": "ledring-check-password", "language": "en"})
        tokens = self.request("POST", "/auth/token", auth=False, form={
            "grant_type": "authorization_code", "code": made["auth_code"], "client_id": client})
        self.token = tokens["access_token"]

    def states(self):
        return {s["entity_id"]: s for s in self.request("GET", "/api/states")}

    def call(self, domain, service, **data):
        return self.request("POST", f"/api/services/{domain}/{service}", body=data)


class Ledring:
    def __init__(self, binary, directory, broker_port):
        self.binary = binary
        self.directory = directory
        self.config = os.path.join(directory, "ledring.json")
        self.socket = os.path.join(directory, "ledring.sock")
        self.dump = os.path.join(directory, "wire.bin")
        self.broker_port = broker_port
        self.log = open(os.path.join(directory, "ledring.log"), "w")
        self.write_config(RINGS)
        self.process = subprocess.Popen(
            [binary, "run", "--config", self.config, "--socket", self.socket,
             "--state", os.path.join(directory, "state.json")],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)

    def write_config(self, rings):
        config = {
            "looks": {"failed": {"gradient": "#ff2020"}, "passed": {"gradient": "#20ff60"}},
            "rings": [{"name": name, "leds": leds} for name, leds in rings],
            "output": {"driver": "apa102-spi", "dumpWire": self.dump},
            "maxMilliamps": 100000,
            "mqtt": {"host": "127.0.0.1", "port": self.broker_port, "device": "desk",
                     "reconnectMin": 1, "reconnectMax": 2},
        }
        with open(self.config + ".new", "w") as f:
            json.dump(config, f)
        os.replace(self.config + ".new", self.config)

    def get(self):
        out = subprocess.run([self.binary, "get", "--json", "--socket", self.socket],
                             capture_output=True, text=True, timeout=20)
        reply = json.loads(out.stdout)
        return {ring["name"]: ring for ring in reply["rings"]}, reply

    def status(self):
        """The device's retained status on the broker ({"state": "ON", "brightness": 100})."""
        out = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.broker_port), "-t", "ledring/desk/status",
                              "-C", "1", "-W", "5"], capture_output=True, text=True, timeout=20)
        return json.loads(out.stdout)

    def last_frame(self, led_count):
        """The last APA102 frame in the dump: a start frame of 4 zero bytes, then 4 bytes an LED
        (0xE0 | brightness, blue, green, red), then ceil(n / 16) end bytes (APA102Encoder)."""
        length = 4 + 4 * led_count + (led_count + 15) // 16
        with open(self.dump, "rb") as f:
            data = f.read()
        frames = len(data) // length
        if frames == 0:
            return None
        frame = data[(frames - 1) * length:frames * length]
        leds = []
        for k in range(led_count):
            b0, blue, green, red = frame[4 + 4 * k:8 + 4 * k]
            if b0 & 0xE0 != 0xE0:
                return None
            leds.append((red, green, blue))
        return leds


def hass_config(directory, http_port, broker_port):
    os.makedirs(os.path.join(directory, ".storage"))
    with open(os.path.join(directory, "configuration.yaml"), "w") as f:
        f.write(f"""homeassistant:
  name: ledring check
  latitude: 0
  longitude: 0
  elevation: 0
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: DE
http:
  server_host: 127.0.0.1
  server_port: {http_port}
api:
onboarding:
logger:
  default: warning
  logs:
    homeassistant.components.mqtt: info
""")
    # The MQTT integration is set up from the UI (a config entry), never from YAML: its entry as
    # Home Assistant stores one (core.config_entries, which it migrates to its own version).
    entry = {
        "entry_id": "0123456789abcdef0123456789abcdef", "version": 1, "minor_version": 1,
        "domain": "mqtt", "title": "127.0.0.1",
        "data": {"broker": "127.0.0.1", "port": broker_port, "discovery": True},
        "options": {"discovery": True},
        "pref_disable_new_entities": False, "pref_disable_polling": False,
        "source": "user", "unique_id": None, "disabled_by": None,
    }
    with open(os.path.join(directory, ".storage", "core.config_entries"), "w") as f:
        json.dump({"version": 1, "minor_version": 1, "key": "core.config_entries",
                   "data": {"entries": [entry]}}, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hass", required=True, help="the venv's hass program")
    parser.add_argument("--ledring", required=True, help="the built ledring")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    checks = Checks()
    work = tempfile.mkdtemp(prefix="ledring-ha-")
    processes = []
    broker_port, http_port = free_port(), free_port()
    try:
        with open(os.path.join(work, "mosquitto.conf"), "w") as f:
            f.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        broker = subprocess.Popen(["mosquitto", "-c", os.path.join(work, "mosquitto.conf")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(broker)
        if not checks.check("mosquitto listens", wait_for_port(broker_port, broker, 10)):
            return 1
        ledring = Ledring(args.ledring, work, broker_port)
        processes.append(ledring.process)
        hass_dir = os.path.join(work, "hass")
        hass_config(hass_dir, http_port, broker_port)
        hass_log = open(os.path.join(work, "hass.out"), "w")
        hass = subprocess.Popen([args.hass, "-c", hass_dir, "--skip-pip", "--log-file",
                                 os.path.join(work, "hass.log")],
                                stdin=subprocess.DEVNULL, stdout=hass_log, stderr=subprocess.STDOUT)
        processes.append(hass)
        ha = HomeAssistant(http_port)
        up = wait_for_port(http_port, hass, 180) and eventually(lambda: ha.request("GET", "/api/onboarding", auth=False), 60)
        if not checks.check("Home Assistant answers on its HTTP port", up):
            return 1
        ha.onboard()
        node = "ledring_desk"
        wanted = {
            "build number": f"number.{node}_build", "stand number": f"number.{node}_stand",
            "build light": f"light.{node}_build_light", "stand light": f"light.{node}_stand_light",
            "build look select": f"select.{node}_build_look", "stand look select": f"select.{node}_stand_look",
            "reset button": f"button.{node}_reset", "device light": f"light.{node}_light",
        }
        # Discovery makes the entities; the retained `online` on the availability topic then makes
        # them available.
        states = eventually(lambda: (lambda s: s if all(s.get(e, {}).get("state") not in (None, "unavailable")
                                                         for e in wanted.values()) else None)(ha.states()), 60) or ha.states()
        for name, entity in wanted.items():
            state = states.get(entity, {}).get("state")
            checks.check(f"{name} is {entity} and available", state not in (None, "unavailable"),
                         f"state {state}; ledring entities there: {sorted(e for e in states if node in e)}")

        def ring(name):
            return ledring.get()[0][name]

        # The number: 50 % on the slider is half a lap.
        ha.call("number", "set_value", entity_id=wanted["build number"], value=50)
        checks.check("number.set_value 50 puts build at 0.5", eventually(lambda: ring("build")["target"] == 0.5))
        checks.check("the number shows 50 in Home Assistant",
                     eventually(lambda: float(ha.states()[wanted["build number"]]["state"]) == 50))

        # A ring's light ON in red on a ring at 0 %: every LED of the ring red (issue 25's rule).
        ha.call("light", "turn_on", entity_id=wanted["stand light"], rgb_color=[255, 0, 0])
        checks.check("the stand light is on and red in Home Assistant", eventually(
            lambda: (lambda s: s["state"] == "on" and s["attributes"].get("rgb_color") == [255, 0, 0])(ha.states()[wanted["stand light"]])))

        def stand_leds():
            frame = ledring.last_frame(20)
            return frame[12:20] if frame else None
        red = eventually(lambda: (lambda leds: leds if leds and all(r > 100 and g < 40 and b < 40 for r, g, b in leds) else None)(stand_leds()))
        checks.check("every stand LED is red on the wire, though the ring is at 0 %", red, f"stand LEDs {stand_leds()}")
        ha.call("light", "turn_off", entity_id=wanted["stand light"])
        checks.check("turned off in Home Assistant, the stand LEDs go dark", eventually(
            lambda: all(max(c) < 10 for c in stand_leds())), f"stand LEDs {stand_leds()}")
        checks.check("the stand light is off in Home Assistant",
                     eventually(lambda: ha.states()[wanted["stand light"]]["state"] == "off"))

        # The select: a look.
        ha.call("select", "select_option", entity_id=wanted["build look select"], option="failed")
        checks.check("select_option failed gives build the look failed", eventually(lambda: ring("build").get("look") == "failed"))
        checks.check("the select shows failed in Home Assistant",
                     eventually(lambda: ha.states()[wanted["build look select"]]["state"] == "failed"))

        # The device light: off is every LED dark and ledring's power off; on with a brightness.
        ha.call("light", "turn_off", entity_id=wanted["device light"])
        checks.check("the device light off turns ledring's power off", eventually(lambda: ledring.status()["state"] == "OFF"))
        checks.check("with the power off every LED is dark", eventually(lambda: all(max(c) == 0 for c in ledring.last_frame(20))))
        ha.call("light", "turn_on", entity_id=wanted["device light"], brightness_pct=50)
        checks.check("the device light on at 50 % gives brightness 0.5 and power on",
                     eventually(lambda: (lambda r: r["state"] == "ON" and r["brightness"] == 50)(ledring.status())))
        checks.check("and ledring's get says brightness 0.5", eventually(lambda: ledring.get()[1]["brightness"] == 0.5))

        # The button: reset, animated over a second.
        ha.call("button", "press", entity_id=wanted["reset button"])
        checks.check("the reset button takes build back to 0", eventually(lambda: ring("build")["target"] == 0))

        # A ring taken out of the config leaves no ghost entity behind.
        ledring.write_config(RINGS[:1])
        ledring.process.send_signal(signal.SIGHUP)
        gone = eventually(lambda: (lambda s: all(e not in s for e in (wanted["stand number"], wanted["stand light"],
                                                                       wanted["stand look select"])))(ha.states()), 60)
        checks.check("after stand leaves the config and SIGHUP, its entities leave Home Assistant", gone,
                     f"still there: {sorted(e for e in ha.states() if '_stand' in e)}")
        checks.check("build's entities stay", all(ha.states().get(wanted[k], {}).get("state") not in (None, "unavailable")
                                                   for k in ("build number", "build light", "build look select")))

        with open(os.path.join(work, "hass.log"), errors="replace") as f:
            log = f.read()
        # Any error of the MQTT integration or of a template (the entities' templates read
        # ledring's state topics), but the color_mode note below.
        refused = [line for line in log.splitlines() if " ERROR " in line
                   and ("homeassistant.components.mqtt" in line or "homeassistant.helpers.template" in line)
                   and "'color_mode' option has been removed" not in line]
        checks.check("Home Assistant's log has no MQTT or template error", not refused, "; ".join(refused[:5]))
        # 2025.3 to 2026.2 say this of the lights' `color_mode` flag, which 2024.3 requires
        # (MQTTDiscovery.swift): an error line in their log, the lights working all the same.
        flag = sum("'color_mode' option has been removed" in line for line in log.splitlines())
        if flag:
            print(f"ha-check: note: Home Assistant logged {flag} times that the lights' color_mode option is removed", flush=True)
        return 0 if not checks.failed else 1
    finally:
        total = checks.passed + len(checks.failed)
        print(f"ha-check: {checks.passed} of {total} checks passed", flush=True)
        if checks.failed:
            for name in ("ledring.log", "hass.log"):
                path = os.path.join(work, name)
                if os.path.exists(path):
                    with open(path, errors="replace") as f:
                        lines = f.read().splitlines()
                    print(f"--- last lines of {name}:\n" + "\n".join(lines[-40:]), flush=True)
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
        if args.keep:
            print(f"ha-check: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
