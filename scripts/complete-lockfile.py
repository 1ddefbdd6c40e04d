#!/usr/bin/env python3
"""Adds lock entries for other platforms' optional binaries (biome, anvil) that this machine's
npm registry does not serve: npm leaves them out of package-lock.json, and `npm ci` then refuses
the lock. The entries carry os/cpu/libc, so npm skips them on every other platform without a
download. Run after `npm install` changes the lock: python3 scripts/complete-lockfile.py"""
import json
import pathlib

path = pathlib.Path(__file__).resolve().parent.parent / 'package-lock.json'
lock = json.loads(path.read_text())
packages = lock['packages']
OSES = ('android', 'darwin', 'linux', 'win32')
for meta in list(packages.values()):
    for dep, version in (meta.get('optionalDependencies') or {}).items():
        key = f'node_modules/{dep}'
        parts = dep.split('/')[-1].split('-')
        found = [p for p in parts if p in OSES]
        if key in packages or not found:
            continue
        rest = parts[parts.index(found[0]) + 1:]
        entry = {'version': version, 'optional': True, 'os': [found[0]], 'cpu': [{'amd64': 'x64'}.get(rest[0], rest[0])]}
        if meta.get('dev'):
            entry['dev'] = True
        if rest[1:2] == ['musl']:
            entry['libc'] = ['musl']
        packages[key] = entry
path.write_text(json.dumps(lock, indent=2) + '\n')
