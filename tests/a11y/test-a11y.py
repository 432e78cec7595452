#!/usr/bin/python3
"""test-a11y.py — Headroom driven through the accessibility tree (AT-SPI), as a user would.

Run by tests/a11y/run-a11y.sh under Xvfb with a private session bus that carries the
accessibility bus.  Keys and the mouse wheel are real input events (XTest, through AT-SPI's
registry), the answers are read from the accessibility tree:

  verdict    pick a model (Ctrl+F) and a GPU (Ctrl+G) by typing; the verdict read from the tree
             is headroom-cli's for the same scenario
  quant      pick a quantization by typing (Alt+Q, "q5", Enter); the verdict follows, as the CLI's
  tab        Tab goes round every control and into the results, never stuck on one widget
  wheel      the wheel over the context slider scrolls the sidebar, the context stays
  export     Ctrl+E exports the chart in view through the file chooser; a PNG file appears
  charts     each chart has a description with its figures
  names      every focusable control, list item, list and dialog of every view, of a toast and of
             Preferences has one name: not empty, not a GTK class name ("GtkFlowBoxChild"), no
             mnemonic underscore ("_Details"), not said twice ("Number of GPUs Number of
             GPUs"); every focusable one has a role

TAP output; exit 77 (skip) when the AT-SPI Python bindings are missing.
"""
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

# run-a11y.sh sends TAP to its own fd so that the bus daemons' chatter stays out of it
tap = os.fdopen(int(os.environ["HEADROOM_TAP_FD"]), "w", buffering=1) if "HEADROOM_TAP_FD" in os.environ else sys.stdout

try:
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi, GLib
except (ImportError, ValueError) as e:
    print(f"1..0 # SKIP no AT-SPI bindings ({e})", file=tap)
    sys.exit(77)

HEADROOM, CLI = sys.argv[1], sys.argv[2]
results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))
    detail = " ".join(str(detail).split())  # one TAP line
    print(("ok" if ok else "not ok") + f" {len(results)} {name}" + (f" # {detail}" if detail else ""), file=tap)
    tap.flush()


def pump(seconds):
    end = time.monotonic() + seconds
    ctx = GLib.MainContext.default()
    while time.monotonic() < end:
        while ctx.iteration(False):
            pass
        time.sleep(0.02)


def wait_until(cond, timeout=30.0):
    """Pumps until cond() holds (True) or @timeout seconds pass (False): on a loaded machine
    the app answers late, so the test waits on what it needs, not for a fixed time."""
    end = time.monotonic() + timeout
    while True:
        try:
            if cond():
                return True
        except GLib.Error:
            pass
        if time.monotonic() > end:
            return False
        pump(0.02)


def walk(node, depth=0, maxdepth=80):
    if node is None or depth > maxdepth:
        return
    yield node
    try:
        n = node.get_child_count()
    except GLib.Error:
        return
    for i in range(n):
        try:
            child = node.get_child_at_index(i)
        except GLib.Error:
            continue
        yield from walk(child, depth + 1, maxdepth)


def showing(node):
    try:
        return node.get_state_set().contains(Atspi.StateType.SHOWING)
    except GLib.Error:
        return False


def find(root, pred, timeout=10.0, only_showing=False):
    end = time.monotonic() + timeout
    while True:
        for node in walk(root):
            try:
                if (not only_showing or showing(node)) and pred(node):
                    return node
            except GLib.Error:
                pass
        if time.monotonic() > end:
            return None
        pump(0.2)


MODIFIER_MASKS = {"Control_L": 1 << 2, "Shift_L": 1 << 0, "Alt_L": 1 << 3}


def key(keysym_name, mods=()):
    """A key press as the keyboard sends it (XTest through the registry); modifiers are held
    as locked modifiers around it."""
    mask = sum(MODIFIER_MASKS[m] for m in mods)
    if mask:
        Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.LOCKMODIFIERS)
        pump(0.05)
    Atspi.generate_keyboard_event(Gdk_keyval(keysym_name), None, Atspi.KeySynthType.PRESSRELEASE | Atspi.KeySynthType.SYM)
    pump(0.05)
    if mask:
        Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.UNLOCKMODIFIERS)
    pump(0.15)


def type_text(text, field=None):
    """Typed key by key (lower case, digits, space, '.', '-', '/', '_' are keysyms as they are)
    into @field (default: the field the focus went to); returns once the field shows it all."""
    field = field or focused_field()
    for c in text:
        Atspi.generate_keyboard_event(ord(c), None, Atspi.KeySynthType.PRESSRELEASE | Atspi.KeySynthType.SYM)
        pump(0.03)
    if field is None or not wait_until(lambda: field_text(field).endswith(text), 30):
        print(f"# the field does not show '{text}': {field_text(field) if field else 'no field'}", file=tap)


def focused_field():
    """The text field the focus went to last, while it has it, or None."""
    for node in reversed(focus_log[-3:]):
        try:
            if node.get_state_set().contains(Atspi.StateType.FOCUSED) and node.get_text_iface() is not None:
                return node
        except GLib.Error:
            pass
    return None


def field_text(node):
    try:
        return Atspi.Text.get_text(node, 0, Atspi.Text.get_character_count(node)) or ""
    except GLib.Error:
        return ""


def open_field(keysym_name, mods=()):
    """Presses the key that opens a search or a file name field, and waits until a field has
    the focus (30 s at most): the field, or None."""
    n = len(focus_log)
    key(keysym_name, mods)
    wait_until(lambda: len(focus_log) > n and focused_field() is not None, 30)
    field = focused_field()
    if field is None:
        print(f"# no text field took the focus after {'+'.join(list(mods) + [keysym_name])}", file=tap)
    return field


KEYSYMS = {"Control_L": 0xffe3, "Shift_L": 0xffe1, "Tab": 0xff09, "Return": 0xff0d,
           "Escape": 0xff1b, "a": 0x61, "e": 0x65, "f": 0x66, "g": 0x67, "i": 0x69, "q": 0x71,
           "1": 0x31, "2": 0x32, "3": 0x33, "4": 0x34, "comma": 0x2c}


def Gdk_keyval(name):
    return KEYSYMS[name]


def focused_cb(event):
    if event.detail1 == 1:
        focus_log.append(event.source)


focus_log = []


def app_root(proc):
    for _ in range(300):  # a loaded machine may take a while to start it
        if proc.poll() is not None:
            return None
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            a = desktop.get_child_at_index(i)
            try:
                if a is not None and a.get_process_id() == proc.pid:
                    return a
            except GLib.Error:
                pass
        time.sleep(0.2)
    return None


def cli_verdict(model, gpu, quant="Q4_K_M"):
    out = subprocess.run([CLI, "estimate", "--model", model, "--gpu", gpu, "--quant", quant],
                         capture_output=True, text=True, check=True).stdout
    verdict = [l for l in out.splitlines() if l.startswith("Verdict: ")][0][len("Verdict: "):]
    required = [l for l in out.splitlines() if l.strip().startswith("Required memory")][0].split()[2]
    return verdict, required


def mentions(text, figure):
    """Whether @text has the number @figure ("6.70" is the app's "6.7")."""
    return any(abs(float(n) - float(figure)) < 0.005 for n in re.findall(r"\d+(?:\.\d+)?", text))


def name_of(node):
    try:
        return node.get_name() or ""
    except GLib.Error:
        return ""


def role_of(node):
    try:
        return node.get_role()
    except GLib.Error:
        return None


# The roles of the controls a screen reader user moves to; containers (lists, scroll panes) and
# selectable text are not checked here.
CONTROL_ROLES = {Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON, Atspi.Role.CHECK_BOX,
                 Atspi.Role.RADIO_BUTTON, Atspi.Role.SPIN_BUTTON, Atspi.Role.SLIDER,
                 Atspi.Role.COMBO_BOX, Atspi.Role.PAGE_TAB, Atspi.Role.TABLE_CELL, Atspi.Role.ENTRY}


def name_problem(name):
    """What is wrong with a control's accessible name, or None."""
    if not name.strip():
        return "no name"
    if re.fullmatch(r"(Gtk|Adw|Hr)[A-Z]\w*", name):
        return "a class name"
    if re.search(r"(^|\s)_\w", name):
        return "a mnemonic underscore"
    words = name.split()
    for k in range(1, len(words) // 2 + 1):
        for i in range(len(words) - 2 * k + 1):
            if words[i:i + k] == words[i + k:i + 2 * k]:
                return "said twice"
    return None


# Lists and dialogs are named too: a list says what it lists, a dialog what it is for.
LIST_ROLES = {Atspi.Role.LIST, Atspi.Role.LIST_BOX, Atspi.Role.TREE, Atspi.Role.TABLE}
DIALOG_ROLES = {Atspi.Role.DIALOG, Atspi.Role.FILE_CHOOSER, Atspi.Role.ALERT}
NO_ROLES = {Atspi.Role.INVALID, Atspi.Role.UNKNOWN}


checked_roles = {}


def unnamed_controls(root):
    """Every focusable control, list item and list, and every dialog, under @root with a name
    problem; and every focusable thing without a role."""
    bad = []
    for n in walk(root):
        try:
            role = role_of(n)
            states = n.get_state_set()
            focusable = states.contains(Atspi.StateType.FOCUSABLE)
            if role in NO_ROLES and focusable:
                bad.append(f"'{name_of(n)[:60]}' (no role)")
                continue
            # (GTK 4.8 does not say which are showing: a closed drop-down's list counts too)
            if role in DIALOG_ROLES:
                checked = True
            else:
                checked = focusable and (role in CONTROL_ROLES or role in LIST_ROLES or role == Atspi.Role.LIST_ITEM)
            if not checked:
                continue
            checked_roles[n.get_role_name()] = checked_roles.get(n.get_role_name(), 0) + 1
        except GLib.Error:
            continue
        problem = name_problem(name_of(n))
        if problem:
            bad.append(f"{n.get_role_name()} '{name_of(n)[:60]}' ({problem})")
    return bad


def main():
    env = dict(os.environ)
    env.pop("GTK_A11Y", None)
    env.pop("NO_AT_BRIDGE", None)
    exportdir = tempfile.mkdtemp(prefix="headroom-a11y-")
    env["XDG_CONFIG_HOME"] = exportdir  # a private place for the file chooser
    env["XDG_DATA_HOME"] = exportdir    # …and no models or GPUs of the person running it
    # Xvfb may lose a race for its display number with another one starting at the same time
    # (xvfb-run -a): the app then cannot open the display and exits at once.  That is the test
    # machine, not the app: start it again (twice at most); an app that dies otherwise fails.
    for attempt in range(3):
        proc = subprocess.Popen([HEADROOM], env=env, stderr=subprocess.PIPE, text=True)
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:
            break
        err = proc.stderr.read()
        sys.stderr.write(err)
        if "cannot open display" not in err:
            break
        print(f"# the app could not open the display (attempt {attempt + 1}), again", file=tap)
        time.sleep(2)
    threading.Thread(target=lambda: [sys.stderr.write(l) for l in proc.stderr], daemon=True).start()
    try:
        run(proc, exportdir)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print(f"1..{len(results)}", file=tap)
    return 0 if all(ok for _, ok, _ in results) else 1


def run(proc, exportdir):
    app = app_root(proc)
    check("the application is on the accessibility bus", app is not None)
    if app is None:
        return
    frame = find(app, lambda n: role_of(n) == Atspi.Role.FRAME, 20)
    check("its window is there", frame is not None)
    listener = Atspi.EventListener.new(focused_cb)
    listener.register("object:state-changed:focused")
    # keys go to the window once a widget in it has the focus
    if find(frame, lambda n: n.get_state_set().contains(Atspi.StateType.FOCUSED), 30) is None:
        print("# nothing in the window has the focus yet", file=tap)

    # -- a toast (here: prices not updated, offline) is built when shown: its buttons too --
    toast = find(frame, lambda n: name_of(n) == "AdwToastWidget" or role_of(n) == Atspi.Role.NOTIFICATION, 40)
    if toast is None:
        print("ok %d a toast's buttons have one name each # SKIP no toast shown" % (len(results) + 1), file=tap)
        results.append(("toast", True, "skipped"))
    else:
        buttons = [n for n in walk(toast) if role_of(n) == Atspi.Role.PUSH_BUTTON]
        bad = [f"'{name_of(n)}' ({name_problem(name_of(n))})" for n in buttons if name_problem(name_of(n))]
        check("a toast's buttons have one name each", buttons and not bad and
              any(name_of(n) == "Close Notification" for n in buttons),
              "; ".join(name_of(n) for n in buttons) + (" — " + "; ".join(bad) if bad else ""))

    # -- pick a model and a GPU by typing, read the verdict --
    open_field("f", ["Control_L"])
    type_text("llama 3.1 8b instruct")
    key("Return")
    open_field("g", ["Control_L"])
    type_text("rtx 4090 24gb")
    key("Return")
    verdict, required = cli_verdict("llama-3.1-8b", "rtx-4090-24gb")
    title = find(frame, lambda n: "Llama 3.1 8B Instruct on RTX 4090 24GB" in name_of(n), 15)
    check("typing picks the model and the GPU", title is not None,
          "title: " + (name_of(title) if title else "not found"))
    banner = find(frame, lambda n: name_of(n).startswith(verdict + ".") and required in name_of(n), 15)
    check("the verdict read from the tree is headroom-cli's", banner is not None,
          f"expected '{verdict}. … {required} …'")

    # -- pick a quantization by typing: Alt+Q opens the list, "q5", Enter picks Q5_K_M --
    open_field("q", ["Alt_L"])
    type_text("q5")
    key("Return")
    verdict, required = cli_verdict("llama-3.1-8b", "rtx-4090-24gb", "Q5_K_M")
    subtitle = find(frame, lambda n: name_of(n).startswith("Q5_K_M · "), 15)
    check("typing picks the quantization", subtitle is not None,
          "subtitle: " + (name_of(subtitle) if subtitle else "not found"))
    banner = find(frame, lambda n: name_of(n).startswith(verdict + ".") and mentions(name_of(n), required), 15)
    check("… and the verdict is headroom-cli's for Q5_K_M", banner is not None,
          f"expected '{verdict}. … {required} …'")

    # -- Tab through every control --
    sidebar_controls = ["Quantization", "Number of GPUs", "Context window in tokens", "Context window, logarithmic",
                        "Concurrent sequences", "Percent of layers in system RAM"]  # a dense model: no MoE row
    key("Escape")
    pump(0.5)
    focus_log.clear()
    seen, names, stuck = [], [], 0
    for _ in range(160):
        n = len(focus_log)
        key("Tab")
        # a slow build (ASan) may report the focus late, or two moves at once: wait up to 5 s
        # and keep every widget the focus went through, not only the last
        for _ in range(250):
            if len(focus_log) > n:
                break
            pump(0.02)
        if len(focus_log) == n:
            stuck += 1  # Tab moved nothing
            continue
        now = focus_log[-1]
        seen.append(now)
        names.extend(name_of(w) for w in focus_log[n:])
        if len(seen) > 20 and seen.count(now) > 1 and now == seen[0]:
            break
    reached = [c for c in sidebar_controls if any(n.startswith(c) for n in names)]
    check("Tab reaches every scenario control", len(reached) == len(sidebar_controls),
          f"missing {sorted(set(sidebar_controls) - set(reached))}")
    results_stops = [n for n in names if "Required memory" in n or n.startswith("Q")
                     or "Export" in n]
    check("Tab goes on into the results", len(results_stops) > 0, f"{len(set(names))} stops")
    check("Tab never stays on one widget", stuck == 0, f"{stuck} repeats")
    check("Tab comes back round", len(seen) > 20 and seen[-1] == seen[0], f"{len(seen)} presses")

    # -- the wheel over the context slider scrolls the page, not the value --
    spin = find(frame, lambda n: name_of(n).startswith("Context window in tokens") and role_of(n) == Atspi.Role.SPIN_BUTTON, 5)
    scale = find(frame, lambda n: name_of(n).startswith("Context window, logarithmic"), 5)
    if spin is not None and scale is not None:
        before = spin.get_value_iface().get_current_value() if spin.get_value_iface() else None
        y_before = scale.get_extents(Atspi.CoordType.WINDOW).y
        ext = scale.get_extents(Atspi.CoordType.SCREEN)
        x, y = ext.x + ext.width // 2, ext.y + ext.height // 2
        Atspi.generate_mouse_event(x, y, "abs")
        pump(0.2)
        for _ in range(3):
            Atspi.generate_mouse_event(x, y, "b5c")
            pump(0.2)
        # the page scrolls as the wheel events arrive: wait for it to move, not a fixed time
        wait_until(lambda: scale.get_extents(Atspi.CoordType.WINDOW).y < y_before, 30)
        after = spin.get_value_iface().get_current_value() if spin.get_value_iface() else None
        y_after = scale.get_extents(Atspi.CoordType.WINDOW).y
        check("the wheel over the context slider leaves the context", before is not None and before == after,
              f"{before} -> {after}")
        check("… and scrolls the page instead (the slider moved up)", y_after < y_before, f"y {y_before} -> {y_after}")
    else:
        check("the wheel over the context slider leaves the context", False, "slider not found")

    # -- every chart describes its figures --
    charts = [n for n in walk(frame) if role_of(n) == Atspi.Role.IMAGE
              and "GiB" in (n.get_description() or "")]
    check("the charts describe their figures", len(charts) >= 2,
          "; ".join((c.get_description() or "")[:60] for c in charts))

    # -- another, different GPU (#31): its picker, count and remove button are named, and the
    #    Placement card names each device --
    add = find(frame, lambda n: name_of(n).replace("_", "").startswith("Add Another GPU")
               and role_of(n) == Atspi.Role.PUSH_BUTTON, 5)
    if add is not None:
        add.get_action_iface().do_action(0)
        pump(1.0)
    check("Add Another GPU adds a named remove button",
          add is not None and find(frame, lambda n: name_of(n) == "Remove Other GPU 1", 15) is not None,
          "no Add Another GPU button" if add is None else "")
    check("the Placement card names each device",
          find(frame, lambda n: name_of(n).startswith("GPU 2 · "), 15) is not None)

    # -- every control has one name: each view (Alt+1…4 builds it), then Preferences --
    for view in ("2", "3", "4", "1"):
        key(view, ["Alt_L"])
        pump(1.0)
    bad = unnamed_controls(frame)
    check("every control of the four views has one name", not bad, "; ".join(sorted(set(bad))[:12]))
    print("# checked: " + ", ".join(f"{k} {v}" for k, v in sorted(checked_roles.items())), file=tap)
    key("comma", ["Control_L"])
    prefs = find(app, lambda n: role_of(n) == Atspi.Role.FRAME and name_of(n) == "Preferences", 15)
    if prefs is None:
        prefs = find(app, lambda n: name_of(n) == "Preferences" and role_of(n) != Atspi.Role.LABEL, 5)
    bad = unnamed_controls(prefs) if prefs is not None else ["Preferences did not open"]
    check("every control of Preferences has one name", not bad, "; ".join(sorted(set(bad))[:12]))
    # close Preferences (Escape twice: the first may only leave its search) before the export
    for _ in range(2):
        if find(app, lambda n: role_of(n) == Atspi.Role.FRAME and name_of(n) == "Preferences", 0.5) is None:
            break
        key("Escape")
        pump(0.5)

    # -- Import Measurements (Ctrl+I): every control named --
    key("Escape")
    pump(0.5)
    key("i", ["Control_L"])
    runs = find(app, lambda n: role_of(n) == Atspi.Role.FRAME and name_of(n) == "Import Measurements", 15)
    if runs is None:
        runs = find(app, lambda n: name_of(n) == "Import Measurements" and role_of(n) != Atspi.Role.LABEL, 5)
    bad = unnamed_controls(runs) if runs is not None else ["Import Measurements did not open"]
    check("every control of Import Measurements has one name", not bad, "; ".join(sorted(set(bad))[:12]))
    if runs is not None:
        key("Escape")
        pump(0.5)

    # -- export a chart: Ctrl+E, a file name, Return --
    target = os.path.join(exportdir, "chart-from-a11y.png")
    key("Escape")
    key("e", ["Control_L"])
    dialog = find(app, lambda n: name_of(n) == "Export Chart", 15)
    check("Ctrl+E opens the export dialog", dialog is not None)
    # the application's windows and dialogs: its children, and any dialog inside them
    windows = [app.get_child_at_index(i) for i in range(app.get_child_count())]
    windows += [n for w in windows for n in walk(w, maxdepth=6) if role_of(n) in DIALOG_ROLES]
    bad = [f"{n.get_role_name()} '{name_of(n)}' ({name_problem(name_of(n))})" for n in windows
           if name_problem(name_of(n))]
    check("every window and dialog has one name", windows and not bad,
          "; ".join(bad) or ", ".join(f"{n.get_role_name()} {name_of(n)}" for n in windows))
    if dialog is not None:
        # the file name field has the focus once the chooser is up
        name = find(dialog, lambda n: n.get_state_set().contains(Atspi.StateType.FOCUSED)
                    and n.get_text_iface() is not None, 30)
        key("a", ["Control_L"])
        type_text(target, name)
        key("Return")
        ok = wait_until(lambda: os.path.exists(target), 30)
        with open(target, "rb") if ok else open(os.devnull, "rb") as f:
            magic = f.read(8)
        check("the chart is exported as a PNG", ok and magic == b"\x89PNG\r\n\x1a\n", target)


if __name__ == "__main__":
    sys.exit(main())
