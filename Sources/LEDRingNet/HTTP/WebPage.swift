/// The live page: the rings drawn as the LEDs show them (a spinner moved in the browser between
/// snapshots); the power and the brightness; per ring a slider, a spin button, a look picker
/// (with looks configured) and a timer; "Reset all".
///
/// One compiled-in string with inline CSS and script and no external assets, so it works offline
/// on a Pi and the server never reads files from disk (no path can reach the file system).
public enum WebPage {
    /// Headers sent with the page: no caching (it is tiny) and a policy that forbids loading
    /// anything from elsewhere.
    public static let headers: [String: String] = [
        "Cache-Control": "no-store",
        "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    ]

    /// The page.
    public static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>ledring</title>
    <style>
      :root { color-scheme: dark; font-family: system-ui, sans-serif; }
      body { margin: 0; background: #000; color: #eee; display: flex; flex-direction: column; align-items: center; }
      h1 { font-size: 1.1rem; font-weight: 600; margin: 1rem 0 0; }
      #status { font-size: .8rem; color: #888; min-height: 1rem; }
      #status.error { color: #f66; }
      svg { width: min(90vw, 420px); height: auto; margin: .5rem 0; }
      .controls { width: min(92vw, 460px); }
      .ring { display: grid; grid-template-columns: 6rem 1fr 5rem; align-items: center; gap: .5rem; margin: .4rem 0; }
      .ring output { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
      input[type=range] { width: 100%; }
      button { margin: 1rem 0 2rem; padding: .5rem 1.2rem; font-size: 1rem; border-radius: .5rem; border: 1px solid #555; background: #222; color: #eee; }
      .more { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem; margin: 0 0 .8rem 6.5rem; font-size: .85rem; }
      .more form { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem; margin: 0; }
      .more button { margin: 0; padding: .2rem .6rem; font-size: .85rem; border-radius: .3rem; }
      .more select, .more input[type=text] { background: #222; color: #eee; border: 1px solid #555; border-radius: .3rem; padding: .15rem .3rem; font-size: .85rem; }
      .more input[type=text] { width: 4.5rem; }
      .more output { font-variant-numeric: tabular-nums; min-width: 3.5rem; }
      .top { width: min(92vw, 460px); display: grid; grid-template-columns: 6rem auto 1fr 5rem; align-items: center; gap: .5rem; margin: .2rem 0 .6rem; }
      .top button { margin: 0; padding: .3rem .6rem; font-size: .9rem; }
      .top output { text-align: right; font-variant-numeric: tabular-nums; }
    </style>
    </head>
    <body>
    <h1>ledring</h1>
    <div id="status">connecting…</div>
    <svg id="rings" viewBox="-100 -100 200 200" role="img" aria-label="the rings as the LEDs show them"></svg>
    <div class="top"><button id="power" type="button" aria-label="power">Turn off</button>
      <label for="brightness">brightness</label><input id="brightness" type="range" min="0" max="100" step="1" aria-label="brightness"><output id="brightness-value"></output></div>
    <div class="controls" id="controls"></div>
    <button id="reset" type="button">Reset all</button>
    <script>
    "use strict";
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    const auth = token ? { "Authorization": "Bearer " + token } : {};
    const svg = document.getElementById("rings");
    const controls = document.getElementById("controls");
    const statusLine = document.getElementById("status");
    const NS = "http://www.w3.org/2000/svg";
    let shape = "";          // ring names and LED counts the drawing was built for
    const touched = {};      // ring -> time a slider was last moved here (the stream must not undo a drag)
    const picked = {};       // ring -> time a look was last chosen here (likewise for the look picker)
    const timers = {};       // ring -> { left, paused, at }: its timer as the last snapshot had it, `at` when it came
    let tick = null;         // the countdown's next repaint; set only while a timer runs
    const spins = {};        // ring -> { spin, light, at }: a spinner the LEDs show, as the last snapshot had it
    let frame = null;        // the next animation frame; requested only while a spinner shows
    let brightnessTouched = 0;

    // 75 -> "1:15", 3725 -> "1:02:05" (whole seconds, rounded up, as `ledring get` shows them).
    function clock(seconds) {
      const s = Math.max(0, Math.ceil(seconds - 1e-9));
      const two = n => String(n).padStart(2, "0");
      return s >= 3600 ? Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60)
                       : Math.floor(s / 60) + ":" + two(s % 60);
    }

    // Repaints each ring's time left, counting down from the last snapshot, and schedules the
    // next repaint for when the first running timer's shown second changes; none while none runs.
    function countdown() {
      if (tick !== null) { clearTimeout(tick); tick = null; }
      let next = Infinity;
      for (const name in timers) {
        const t = timers[name];
        const left = t.paused ? t.left : Math.max(0, t.left - (performance.now() - t.at) / 1000);
        const row = controls.querySelector('.more[data-ring="' + CSS.escape(name) + '"]');
        if (row) row.querySelector("output.left").textContent = clock(left) + (t.paused ? " paused" : "");
        if (!t.paused && left > 0) next = Math.min(next, left - Math.ceil(left - 1e-9) + 1);
      }
      if (next !== Infinity) tick = setTimeout(countdown, Math.max(20, next * 1000 + 5));
    }

    // A drive level is linear in the LED's light: "#rrggbb" -> [r, g, b] light, 0…1.
    function light(hex) { return [1, 3, 5].map(i => parseInt(hex.substr(i, 2), 16) / 255); }
    // Light -> the screen's sRGB colour (IEC 61966-2-1, as `display` is made).
    function screen(rgb) {
      return "#" + rgb.map(v => {
        const c = v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055;
        return Math.floor(Math.min(1, Math.max(0, c)) * 255 + 0.5).toString(16).padStart(2, "0");
      }).join("");
    }

    // Where a spinner's tail is `seconds` after its snapshot, in turns: its samples over one
    // cycle, a straight line between neighbours (positions are mod 1, so 0.99 -> 0.01 is a step of 0.02).
    function tailAt(spin, seconds) {
      const n = spin.tail.length - 1;
      if (!(spin.cycle > 0) || n < 1) return spin.tail[0] || 0;
      let phase = (spin.at + seconds) % spin.cycle;
      if (phase < 0) phase += spin.cycle;
      const x = phase / spin.cycle * n, i = Math.min(n - 1, Math.floor(x));
      let step = spin.tail[i + 1] - spin.tail[i];
      step -= Math.round(step);
      return spin.tail[i] + (x - i) * step;
    }

    // The LEDs of a spinning ring `seconds` after its snapshot: the snapshot's light turned on
    // each circle by as far as the tail has moved, mixed in light between neighbouring LEDs.
    function spun(entry, seconds) {
      let turn = tailAt(entry.spin, seconds) - tailAt(entry.spin, 0);
      turn -= Math.floor(turn);
      const out = [];
      let first = 0;
      for (const n of entry.spin.segments) {
        const shift = turn * n;
        for (let k = 0; k < n; k++) {
          const x = k - shift, i = Math.floor(x), f = x - i;
          const a = entry.light[first + ((i % n) + n) % n], b = entry.light[first + (((i + 1) % n) + n) % n];
          out.push(screen(a.map((v, c) => v + f * (b[c] - v))));
        }
        first += n;
      }
      return out;
    }
    // For tests: what the page paints for `ring` `seconds` after its last snapshot (null: not spinning).
    window.ledringSpun = (ring, seconds) => spins[ring] ? spun(spins[ring], seconds) : null;

    function paint(name, colours) {
      const dots = svg.querySelectorAll('g[data-ring="' + CSS.escape(name) + '"] circle');
      colours.forEach((colour, k) => { if (dots[k]) dots[k].setAttribute("fill", colour); });
    }

    // Moves every spinner once per screen refresh between snapshots; stops when none shows.
    function animate() {
      frame = null;
      const now = performance.now();
      let any = false;
      for (const name in spins) { any = true; paint(name, spun(spins[name], (now - spins[name].at) / 1000)); }
      if (!any) return;
      document.body.setAttribute("data-frames", String(Number(document.body.getAttribute("data-frames") || 0) + 1));
      frame = requestAnimationFrame(animate);
    }

    // Sends the newest of a control's values, one request at a time (a drag makes many).
    function latest(send) {
      let pending = null, busy = false;
      async function next() {
        if (busy || pending === null) return;
        busy = true; const value = pending; pending = null;
        await send(value);
        busy = false; next();
      }
      return value => { pending = value; next(); };
    }

    function say(text, error) { statusLine.textContent = text; statusLine.className = error ? "error" : ""; }

    async function post(path, body) {
      try {
        const response = await fetch(path, { method: "POST", headers: Object.assign({ "Content-Type": "application/json" }, auth),
                                             body: body === undefined ? "" : JSON.stringify(body) });
        const reply = await response.json();
        if (!response.ok) { say(reply.error || ("HTTP " + response.status), true); return; }
        // While the event stream is open it brings every change, always the newest; a reply can
        // arrive after a newer event, so it is drawn only when the stream is down.
        if (!events || events.readyState !== EventSource.OPEN) draw(reply);
      } catch (e) { say("cannot reach ledring: " + e, true); }
    }

    // Concentric like the seeds: the first ring outermost, each LED a dot at its angle from 12 o'clock.
    function build(snapshot) {
      svg.textContent = ""; controls.textContent = "";
      const n = snapshot.rings.length;
      snapshot.rings.forEach((ring, i) => {
        const radius = 90 - i * (70 / Math.max(1, n));
        const count = ring.leds.length;
        const dot = Math.max(1.5, Math.min(7, Math.PI * radius / count * 0.8));
        const group = document.createElementNS(NS, "g");
        group.setAttribute("data-ring", ring.name);
        for (let k = 0; k < count; k++) {
          const angle = 2 * Math.PI * k / count;
          const c = document.createElementNS(NS, "circle");
          c.setAttribute("cx", (radius * Math.sin(angle)).toFixed(2));
          c.setAttribute("cy", (-radius * Math.cos(angle)).toFixed(2));
          c.setAttribute("r", dot.toFixed(2));
          c.setAttribute("data-led", k);
          group.appendChild(c);
        }
        svg.appendChild(group);
        const row = document.createElement("div");
        row.className = "ring";
        row.innerHTML = '<label></label><input type="range" min="0" max="300" step="1"><output>0 %</output>';
        row.querySelector("label").textContent = ring.name;
        const slider = row.querySelector("input");
        slider.setAttribute("data-ring", ring.name);
        slider.setAttribute("aria-label", ring.name);
        const send = latest(value => post("/api/rings/" + encodeURIComponent(ring.name), { value: value / 100, duration: 0.3, curve: "easeOut" }));
        slider.addEventListener("input", () => {
          touched[ring.name] = Date.now();
          row.querySelector("output").textContent = slider.value + " %";
          send(Number(slider.value));
        });
        controls.appendChild(row);
        controls.appendChild(extras(ring.name, snapshot.looks || []));
      });
    }

    // The spin button, the look picker (only with looks configured) and the timer of one ring.
    function extras(name, looks) {
      const api = "/api/rings/" + encodeURIComponent(name);
      const more = document.createElement("div");
      more.className = "more";
      more.setAttribute("data-ring", name);
      const spin = document.createElement("button");
      spin.type = "button";
      spin.className = "spin";
      spin.textContent = "Spin";
      spin.setAttribute("aria-label", "spin the " + name + " ring");
      spin.addEventListener("click", () => post(api + (spin.getAttribute("data-spinning") === "true" ? "/stop" : "/spin")));
      more.appendChild(spin);
      if (looks.length) {
        const label = document.createElement("label");
        label.textContent = "look ";
        const select = document.createElement("select");
        select.className = "look";
        select.setAttribute("aria-label", name + " look");
        for (const look of ["default"].concat(looks)) {
          const option = document.createElement("option");
          option.value = option.textContent = look;
          select.appendChild(option);
        }
        select.addEventListener("change", () => { picked[name] = Date.now(); post(api + "/look", { look: select.value }); });
        label.appendChild(select);
        more.appendChild(label);
      }
      const form = document.createElement("form");
      form.className = "timer";
      form.innerHTML = '<label>timer <input type="text" class="duration" placeholder="25m" inputmode="text" autocomplete="off"></label>'
        + '<label><input type="checkbox" class="up"> count up</label><button type="submit" class="start">Start</button>'
        + '<output class="left" aria-live="off"></output><button type="button" class="pause" hidden>Pause</button>'
        + '<button type="button" class="resume" hidden>Resume</button><button type="button" class="cancel" hidden>Cancel</button>';
      const duration = form.querySelector("input.duration");
      duration.setAttribute("aria-label", name + " timer duration, e.g. 90, 1.5s, 25m or 1h30m");
      form.querySelector("input.up").setAttribute("aria-label", name + " timer counts up");
      form.addEventListener("submit", e => {
        e.preventDefault();
        const text = duration.value.trim();
        if (!text) { say("give the timer a duration, e.g. 25m", true); duration.focus(); return; }
        post(api + "/timer", { duration: text, up: form.querySelector("input.up").checked });
      });
      for (const action of ["pause", "resume", "cancel"]) {
        const button = form.querySelector("button." + action);
        button.setAttribute("aria-label", action + " the " + name + " timer");
        button.addEventListener("click", () => post(api + "/timer", { action }));
      }
      more.appendChild(form);
      // Why the ring shows what it does: the notification over it, while one does.
      const notice = document.createElement("output");
      notice.className = "notice";
      notice.setAttribute("aria-live", "polite");
      more.appendChild(notice);
      return more;
    }

    function draw(snapshot) {
      const now = snapshot.rings.map(r => r.name + ":" + r.leds.length).join(",") + "|" + (snapshot.looks || []).join(",");
      if (now !== shape) { build(snapshot); shape = now; }
      snapshot.rings.forEach(ring => {
        // `display`: the light each LED gives, as a screen shows it (`leds` are drive levels,
        // which painted as CSS colours look darker and shifted in hue).
        paint(ring.name, ring.display || ring.leds);
        const s = ring.spin;
        if (s && s.segments.reduce((a, b) => a + b, 0) === ring.leds.length) {
          spins[ring.name] = { spin: s, light: ring.leds.map(light), at: performance.now() };
        } else delete spins[ring.name];
        const slider = controls.querySelector('input[data-ring="' + CSS.escape(ring.name) + '"]');
        const output = slider.parentElement.querySelector("output");
        output.textContent = (ring.spinning ? "spin" : Math.round(ring.value * 100) + " %") + (ring.on === false ? " off" : "");
        if (!(Date.now() - (touched[ring.name] || 0) < 1500)) {
          // Always a lap or more past the target (at least 300 %), so any value can be reached.
          slider.max = String(Math.min(10000, Math.max(300, 100 * (Math.floor(ring.target + 1e-9) + 2))));
          slider.value = Math.round(ring.target * 100);
        }
        const more = controls.querySelector('.more[data-ring="' + CSS.escape(ring.name) + '"]');
        const spin = more.querySelector("button.spin");
        spin.setAttribute("data-spinning", String(ring.spinning));
        spin.textContent = ring.spinning ? "Stop" : "Spin";
        const select = more.querySelector("select.look");
        if (select && !(Date.now() - (picked[ring.name] || 0) < 1500)) {
          // A colour look (`#20a0ff pulse`, from MQTT or the socket) is not among the config's:
          // it gets an option of its own while it is shown, so the picker never shows blank.
          const look = ring.look || "default";
          select.querySelectorAll("option.colour").forEach(o => { if (o.value !== look) o.remove(); });
          if (!Array.from(select.options).some(o => o.value === look)) {
            const option = document.createElement("option");
            option.className = "colour";
            option.value = option.textContent = look;
            select.appendChild(option);
          }
          select.value = look;
        }
        const n = ring.notice;
        more.querySelector("output.notice").textContent = n
          ? "notice " + (n.look || n.color) + (n.effect !== "none" ? " " + n.effect : "") + (n.key ? " (" + n.key + ")" : "")
            + ", " + Math.ceil(n.left) + " s left"
          : "";
        const timer = ring.timer;
        if (timer) timers[ring.name] = { left: timer.left, paused: timer.paused, at: performance.now() };
        else { delete timers[ring.name]; more.querySelector("output.left").textContent = ""; }
        more.querySelector("button.pause").hidden = !timer || timer.paused;
        more.querySelector("button.resume").hidden = !timer || !timer.paused;
        more.querySelector("button.cancel").hidden = !timer;
      });
      for (const name in timers) if (!snapshot.rings.some(r => r.name === name)) delete timers[name];
      for (const name in spins) if (!snapshot.rings.some(r => r.name === name)) delete spins[name];
      if (Object.keys(spins).length) { if (frame === null) frame = requestAnimationFrame(animate); }
      else if (frame !== null) { cancelAnimationFrame(frame); frame = null; }
      powerButton.setAttribute("data-on", String(snapshot.power));
      powerButton.textContent = snapshot.power ? "Turn off" : "Turn on";
      if (!(Date.now() - brightnessTouched < 1500)) brightness.value = Math.round(snapshot.brightness * 100);
      brightnessValue.textContent = Math.round(snapshot.brightness * 100) + " %";
      countdown();
      document.body.setAttribute("data-snapshots", String(Number(document.body.getAttribute("data-snapshots") || 0) + 1));
    }

    const powerButton = document.getElementById("power");
    powerButton.addEventListener("click", () => post("/api/power", { on: powerButton.getAttribute("data-on") === "false" }));
    const brightness = document.getElementById("brightness");
    const brightnessValue = document.getElementById("brightness-value");
    const sendBrightness = latest(value => post("/api/brightness", { value: value / 100 }));
    brightness.addEventListener("input", () => {
      brightnessTouched = Date.now();
      brightnessValue.textContent = brightness.value + " %";
      sendBrightness(Number(brightness.value));
    });

    document.getElementById("reset").addEventListener("click", () => {
      for (const k in touched) delete touched[k];
      post("/api/reset");
    });

    let events = null;
    function listen() {
      events = new EventSource("/api/events" + (token ? "?access_token=" + encodeURIComponent(token) : ""));
      events.addEventListener("snapshot", e => { say("live"); draw(JSON.parse(e.data)); });
      events.onerror = () => say("reconnecting…", true);
    }
    fetch("/api/state", { headers: auth }).then(r => r.json()).then(s => { if (!s.rings) say(s.error, true); else if (!events || events.readyState !== EventSource.OPEN) draw(s); })
      .catch(e => say("cannot reach ledring: " + e, true));
    listen();
    </script>
    </body>
    </html>
    """#
}
