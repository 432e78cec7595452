#!/usr/bin/env python3
"""Check the Flatpak manifest without flatpak-builder.

    check-flatpak.py MANIFEST --app-id ID --source-root DIR

Fails (exit 1, one line per problem on stderr) unless the manifest is valid JSON with the
keys flatpak-builder needs, its id is the app id, its sandbox holds only the permissions the
app uses (no file-system access: files go through the portal), its command is an executable
that meson installs, and every -Dname=value in the app module's config-opts is an option in
meson_options.txt.
"""

import argparse
import json
import pathlib
import re
import sys

# What Headroom uses: network for prices and the Hugging Face hub, a display, the GPU for GTK.
ALLOWED_FINISH_ARGS = {
    "--share=network",
    "--share=ipc",
    "--socket=fallback-x11",
    "--socket=wayland",
    "--device=dri",
}
REQUIRED_FINISH_ARGS = ALLOWED_FINISH_ARGS
REQUIRED_KEYS = ("runtime", "runtime-version", "sdk", "command", "finish-args", "modules")
# Meson's own options may appear in config-opts as -Dname=value too.
MESON_BUILTINS = {
    "prefix", "bindir", "datadir", "includedir", "infodir", "libdir", "libexecdir",
    "localedir", "localstatedir", "mandir", "sbindir", "sharedstatedir", "sysconfdir",
    "auto_features", "backend", "buildtype", "debug", "default_library", "errorlogs",
    "install_umask", "layout", "optimization", "prefer_static", "stdsplit", "strip",
    "unity", "unity_size", "warning_level", "werror", "wrap_mode", "force_fallback_for",
    "b_lto", "b_ndebug", "b_pie", "b_sanitize", "b_coverage", "b_asneeded",
    "b_lundef", "b_pch", "b_staticpic", "c_std", "c_args", "c_link_args",
    "pkg_config_path", "cmake_prefix_path",
}

problems = []


def problem(msg):
    problems.append(msg)


def meson_options(root):
    names = set()
    for fname in ("meson_options.txt", "meson.options"):
        path = root / fname
        if path.exists():
            text = path.read_text(encoding="utf-8")
            names.update(re.findall(r"""\boption\s*\(\s*['"]([^'"]+)['"]""", text))
    return names


def installed_executables(root):
    names = set()
    for path in root.rglob("meson.build"):
        if any(part.startswith(("build", ".", "subprojects")) for part in path.relative_to(root).parts[:-1]):
            continue
        text = path.read_text(encoding="utf-8")
        names.update(re.findall(r"""\bexecutable\s*\(\s*['"]([^'"]+)['"]""", text))
    return names


def check_module(module, root):
    if module.get("buildsystem") != "meson":
        problem(f"module {module.get('name')!r}: buildsystem must be 'meson'")
    sources = module.get("sources", [])
    if not any(s.get("type") == "dir" and s.get("path") == ".." for s in sources if isinstance(s, dict)):
        problem(f"module {module.get('name')!r}: needs the source {{'type': 'dir', 'path': '..'}}")
    options = meson_options(root)
    for opt in module.get("config-opts", []):
        if not isinstance(opt, str):
            problem(f"config-opts: {opt!r} is not a string")
            continue
        m = re.match(r"^-D([A-Za-z0-9_.:-]+)=(.*)$", opt)
        if m is None:
            if not opt.startswith("--"):
                problem(f"config-opts: cannot read {opt!r}")
            continue
        name = m.group(1)
        if name in MESON_BUILTINS or ":" in name:
            continue
        if name not in options:
            problem(f"config-opts: -D{name} is not an option in meson_options.txt "
                    f"(known: {', '.join(sorted(options)) or 'none'})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("manifest", type=pathlib.Path)
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--source-root", type=pathlib.Path, required=True)
    args = parser.parse_args()

    try:
        manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"FAIL: {args.manifest}: {e}", file=sys.stderr)
        return 1
    if not isinstance(manifest, dict):
        print(f"FAIL: {args.manifest}: not a JSON object", file=sys.stderr)
        return 1

    app_id = manifest.get("id", manifest.get("app-id"))
    if app_id != args.app_id:
        problem(f"id is {app_id!r}, expected {args.app_id!r}")
    if args.manifest.name != f"{args.app_id}.json":
        problem(f"the manifest should be named {args.app_id}.json")
    for key in REQUIRED_KEYS:
        if key not in manifest:
            problem(f"missing key {key!r}")
    if manifest.get("runtime") != "org.gnome.Platform":
        problem("runtime must be org.gnome.Platform (json-glib, libsoup, libadwaita come with it)")
    if manifest.get("sdk") != "org.gnome.Sdk":
        problem("sdk must be org.gnome.Sdk")
    if not re.fullmatch(r"\d+(\.\d+)?|master", str(manifest.get("runtime-version", ""))):
        problem(f"runtime-version {manifest.get('runtime-version')!r} is not a GNOME version")

    finish_args = manifest.get("finish-args", [])
    for arg in finish_args:
        if arg.startswith("--filesystem"):
            problem(f"finish-args: {arg}: no file-system access; files go through the portal")
        elif arg not in ALLOWED_FINISH_ARGS:
            problem(f"finish-args: {arg} is more than the app uses")
    for arg in sorted(REQUIRED_FINISH_ARGS - set(finish_args)):
        problem(f"finish-args: {arg} is missing")
    if len(set(finish_args)) != len(finish_args):
        problem("finish-args: duplicates")

    command = manifest.get("command")
    executables = installed_executables(args.source_root)
    if command not in executables:
        problem(f"command {command!r} is not an executable in meson.build "
                f"(found: {', '.join(sorted(executables)) or 'none'})")

    modules = manifest.get("modules", [])
    if not modules or not isinstance(modules[-1], dict):
        problem("the last module must be the app, described inline")
    else:
        app = modules[-1]
        if app.get("name") != "headroom":
            problem(f"the last module is {app.get('name')!r}, expected 'headroom'")
        check_module(app, args.source_root)

    for p in problems:
        print(f"FAIL: {args.manifest.name}: {p}", file=sys.stderr)
    if not problems:
        print(f"{args.manifest.name}: OK (id {app_id}, runtime {manifest['runtime']}//"
              f"{manifest['runtime-version']}, command {command}, "
              f"finish-args {' '.join(finish_args)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
