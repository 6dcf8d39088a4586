"""A small Chrome DevTools Protocol client over a pipe, for Debian's chromium.

Needs nothing but the standard library and the `chromium` binary: the browser
is started with ``--remote-debugging-pipe`` and speaks CDP (JSON messages
ending in a NUL byte) on file descriptors 3 (commands in) and 4 (events out).
The network is cut off (every request goes to a dead proxy), so a page that
needs the network fails here as it would for an offline reader.

    with Browser() as b:
        visit = b.visit("file:///.../page.html")
        visit.errors      # console errors, uncaught exceptions, failed loads
        visit.requests    # every URL the page loaded, with its type
        b.evaluate("document.title")
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-quic", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
    "--disable-extensions", "--mute-audio", "--hide-scrollbars",
]


KEYS = {  # key -> (code, Windows virtual key code), for Input.dispatchKeyEvent
    "Tab": ("Tab", 9), "ArrowLeft": ("ArrowLeft", 37), "ArrowUp": ("ArrowUp", 38),
    "ArrowRight": ("ArrowRight", 39), "ArrowDown": ("ArrowDown", 40),
    "Home": ("Home", 36), "End": ("End", 35),
}


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Visit:
    """What one page load did: requests, and errors the reader would see in the console."""

    def __init__(self, url):
        self.url = url
        self.requests = {}      # requestId -> (url, resource type)
        self.failed = []        # (url, error text)
        self.errors = []        # console errors and uncaught exceptions (text)
        self.loaded = False

    def urls(self, kinds=None):
        return [u for u, k in self.requests.values() if kinds is None or k in kinds]


class Browser:
    def __init__(self, width=1300, height=1000, timeout=60):
        exe = chromium()
        if exe is None:
            raise BrowserError("Chromium not found; install Debian's `chromium` package.")
        self.profile = tempfile.mkdtemp(prefix="cdp-profile-")
        cmd_r, self._cmd_w = os.pipe()      # we write commands, chromium reads fd 3
        self._evt_r, evt_w = os.pipe()      # chromium writes events on fd 4

        def wire():  # in the child: commands on fd 3, events on fd 4
            a, b = os.dup(cmd_r), os.dup(evt_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(cmd_r)
        os.close(evt_w)
        self.timeout = timeout
        self.width, self.height = width, height
        self._buf = b""
        self._id = 0
        self._events = []
        self.visit_state = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget",
                                 targetId=page["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    # -- protocol ---------------------------------------------------------
    def _read(self, deadline):
        while b"\0" not in self._buf:
            if time.time() > deadline:
                raise BrowserError("timed out waiting for Chromium")
            chunk = os.read(self._evt_r, 1 << 20)
            if not chunk:
                raise BrowserError("Chromium closed the pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def _handle(self, msg):
        v = self.visit_state
        if v is None or "method" not in msg:
            return
        m, p = msg["method"], msg.get("params", {})
        if m == "Network.requestWillBeSent":
            v.requests[p["requestId"]] = (p["request"]["url"], p.get("type", "Other"))
        elif m == "Network.loadingFailed":
            url = v.requests.get(p["requestId"], ("?", ""))[0]
            if not p.get("canceled"):
                v.failed.append((url, p.get("errorText", "")))
        elif m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            text = d.get("exception", {}).get("description") or d.get("text", "")
            v.errors.append(f"uncaught: {text.splitlines()[0] if text else d}")
        elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            v.errors.append(f"console.{p['type']}: {args}")
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            e = p["entry"]
            v.errors.append(f"{e.get('source', 'log')}: {e['text']} {e.get('url', '')}".strip())
        elif m == "Page.loadEventFired":
            v.loaded = True

    def call(self, method, session=False, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._handle(reply)

    def pump(self, seconds):
        """Process events for a while (the page keeps running meanwhile)."""
        end = time.time() + seconds
        while time.time() < end:
            self.evaluate("1")
            time.sleep(0.05)

    # -- pages ------------------------------------------------------------
    def evaluate(self, expression, await_promise=False):
        r = self.call("Runtime.evaluate", session=True, expression=expression,
                      returnByValue=True, awaitPromise=await_promise)
        if "exceptionDetails" in r:
            raise BrowserError(f"evaluate {expression[:60]!r}: {r['exceptionDetails'].get('text')}")
        return r["result"].get("value")

    def visit(self, url, settle=0.3, wait_for=None, timeout=30):
        """Load url and wait for its load event, then for wait_for (a JS boolean) if given."""
        self.visit_state = v = Visit(url)
        self.call("Page.navigate", session=True, url=url)
        end = time.time() + timeout
        while not v.loaded and time.time() < end:
            self.evaluate("1")
            time.sleep(0.05)
        if wait_for:
            while time.time() < end and not self.evaluate(f"Boolean({wait_for})"):
                time.sleep(0.1)
        self.pump(settle)
        return v

    def visit_wait(self, condition, timeout=20):
        """Wait until the JS expression condition is true; return whether it became true."""
        end = time.time() + timeout
        while time.time() < end:
            if self.evaluate(f"Boolean({condition})"):
                return True
            time.sleep(0.1)
        return False

    def set_viewport(self, width, height, mobile=False, scale=1):
        """Resize the viewport (CSS pixels); later screenshots use the new size.
        ``mobile`` and ``scale`` emulate a phone (its meta viewport, its
        device pixel ratio), as a reader's phone lays the page out."""
        self.width, self.height = width, height
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width,
                  height=height, deviceScaleFactor=scale, mobile=mobile)
        self.evaluate("window.dispatchEvent(new Event('resize')), 1")

    def press(self, key):
        """Press and release one key (``"ArrowRight"``, ``"Tab"``, ...) in the focused element.

        The events are real input events: the browser's default action runs
        (a range input moves, Tab moves the focus), as for a reader's key press.
        """
        code, vk = KEYS[key]
        common = dict(key=key, code=code, windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk)
        self.call("Input.dispatchKeyEvent", session=True, type="rawKeyDown", **common)
        self.call("Input.dispatchKeyEvent", session=True, type="keyUp", **common)

    def screenshot(self, path, full_page=True):
        """PNG of the page; full_page: the viewport is stretched to the page's height."""
        if full_page:
            h = min(int(self.evaluate("document.documentElement.scrollHeight")), 16000)
            self.call("Emulation.setDeviceMetricsOverride", session=True, width=self.width,
                      height=h, deviceScaleFactor=1, mobile=False)
            self.pump(0.5)
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        if full_page:
            self.call("Emulation.setDeviceMetricsOverride", session=True, width=self.width,
                      height=self.height, deviceScaleFactor=1, mobile=False)
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        for fd in (self._cmd_w, self._evt_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
